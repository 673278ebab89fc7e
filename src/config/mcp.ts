/**
 * `[mcp]`: the Model Context Protocol servers zeph connects to, and the reader of Claude Code's
 * `.mcp.json` format for `--mcp-config FILE`. A project's `.mcp.json` is read only when the user
 * names it: peers shipped CVEs for project MCP config that was picked up silently.
 */
import { z } from "zod";
import { readBoundedTextFile } from "./bounded_file.ts";
import { ConfigError } from "./errors.ts";

/** A server id becomes the prefix of its tools' ids (`{id}_{tool}`), so it is kept short. */
export const MCP_SERVER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

const ServerId = z.string().regex(MCP_SERVER_ID, {
  message: "expected 1-32 letters, digits, '_' or '-' (starting with a letter or digit)",
});

/** Who decides an MCP tool's call when no permission rule matches it. */
export const McpTrust = z.enum(["none", "readonly", "all"]);
export type McpTrust = z.infer<typeof McpTrust>;

export const McpServerConfig = z.object({
  id: ServerId.describe("Server id; its tools are named {id}_{tool}"),
  /** stdio: the program and its arguments; `${VAR}` in args/env is read from zeph's environment. */
  command: z.string().min(1).optional(),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
  /** Streamable HTTP (falling back to SSE); `${VAR}` in headers is read from the environment. */
  url: z.url({ protocol: /^https?$/ }).optional(),
  headers: z.record(z.string(), z.string()).default({}),
  /** Seconds one tool call may take. */
  timeout: z.number().int().min(1).max(86_400).default(60),
  enabled: z.boolean().default(true),
  /** Tool names (the server's, not the prefixed ids) offered to the model; empty = all. */
  allow_tools: z.array(z.string()).default([]),
  /** Tool names never offered; wins over allow_tools. */
  deny_tools: z.array(z.string()).default([]),
  trust: McpTrust.default("none"),
}).strict().superRefine((server, ctx) => {
  if ((server.command === undefined) === (server.url === undefined)) {
    ctx.addIssue({
      code: "custom",
      message: `server "${server.id}" needs exactly one of "command" (stdio) or "url" (HTTP)`,
    });
  }
});
export type McpServerConfig = z.infer<typeof McpServerConfig>;

export const McpConfig = z.object({
  /** Seconds a server may take to start and list its tools before it is reported failed. */
  startup_timeout: z.number().int().min(1).max(600).default(30),
  servers: z.array(McpServerConfig).default([]).superRefine((servers, ctx) => {
    const seen = new Set<string>();
    for (const [i, s] of servers.entries()) {
      if (seen.has(s.id)) {
        ctx.addIssue({
          code: "custom",
          path: [i, "id"],
          message: `server id "${s.id}" is used twice; give each server its own id`,
        });
      }
      seen.add(s.id);
    }
  }),
}).strict();
export type McpConfig = z.infer<typeof McpConfig>;

/** Largest `.mcp.json` read. */
export const MAX_MCP_JSON_BYTES = 1024 * 1024;

const McpJsonServer = z.object({
  type: z.enum(["stdio", "http", "sse"]).optional(),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
}).loose();

const McpJson = z.object({ mcpServers: z.record(z.string(), McpJsonServer) }).loose();

/**
 * The servers of a Claude Code `.mcp.json` (`{"mcpServers": {"name": {command, args, env} |
 * {type: "http", url, headers}}}`), as `[[mcp.servers]]` entries with the defaults.
 */
export async function loadMcpJson(path: string): Promise<McpServerConfig[]> {
  const text = await readBoundedTextFile(path, {
    maxBytes: MAX_MCP_JSON_BYTES,
    what: "MCP config file",
  }).catch((error) => {
    throw new ConfigError([{ source: path, message: (error as Error).message }]);
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([{
      source: path,
      message: `invalid JSON (${(error as Error).message}). Fix the file; it uses Claude ` +
        `Code's .mcp.json format {"mcpServers": {...}}.`,
    }]);
  }
  const parsed = McpJson.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError([{
      source: path,
      message: `${describeIssues(parsed.error)}. Expected Claude Code's .mcp.json format ` +
        `{"mcpServers": {"name": {"command": ...}}}.`,
    }]);
  }
  return Object.entries(parsed.data.mcpServers).map(([name, entry]) => {
    const server = McpServerConfig.safeParse({
      id: name,
      ...(entry.type === "http" || entry.type === "sse" || entry.url !== undefined
        ? { url: entry.url, headers: entry.headers ?? {} }
        : { command: entry.command, args: entry.args ?? [], env: entry.env ?? {} }),
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
    });
    if (!server.success) {
      throw new ConfigError([{
        source: path,
        key: `mcpServers.${name}`,
        message: `${describeIssues(server.error)}. Fix that entry.`,
      }]);
    }
    return server.data;
  });
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => {
    const at = i.path.length ? `${i.path.join(".")}: ` : "";
    return `${at}${i.message}`;
  }).join("; ");
}
