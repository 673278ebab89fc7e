/**
 * Configuration: the one zod schema (schema.ts, the source of the `Config` type), the loader
 * (file location, TOML parsing, `ZEPH_*` overrides, errors naming file/line/key) and rendering
 * for `zeph config check`. It reads files and the environment only when asked; it must not
 * import tools, providers or front-ends.
 */
export * from "./bounded_file.ts";
export * from "./errors.ts";
export * from "./keys.ts";
export * from "./load.ts";
export * from "./mcp.ts";
export * from "./modes.ts";
export * from "./providers.ts";
export * from "./render.ts";
export * from "./schema.ts";
export { hostPatternError } from "./sandbox_network.ts";
export * from "./tool_guards.ts";
export * from "./policy_file.ts";
export * from "./tool_selection.ts";
export * from "./tool_selection_warnings.ts";
