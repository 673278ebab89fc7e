/**
 * zeph as a Model Context Protocol client: servers from `[[mcp.servers]]`, `--mcp-config FILE`
 * and the editor's `session/new`, each tool registered behind the registry's one dispatch
 * boundary (validation, permission, filter/overflow, audit) with an explicit MCP flag. This
 * folder owns connections and the mapping of tools, results and errors; it must not import the
 * agent or the front-ends, and it is loaded only when a server is configured (the SDK is heavy).
 */
export * from "./connection.ts";
export * from "./errors.ts";
export * from "./manager.ts";
export * from "./tools.ts";
