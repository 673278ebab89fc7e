/**
 * Test support for MCP: config entries for the fixture server (tests/mcp/_server.ts) and for
 * `@modelcontextprotocol/server-everything` (stdio, or Streamable HTTP on 127.0.0.1), a real
 * registry (built-in tools, local executor, the config's policy) with a manager feeding it.
 */
import * as path from "node:path";
import { type Config, defaultConfig, type McpServerConfig } from "../../src/config/mod.ts";
import { McpManager, specsFromConfig } from "../../src/mcp/mod.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { builtinTools } from "../../src/tools/catalog.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { type CallScope, ToolRegistry } from "../../src/tools/registry.ts";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");
export const FIXTURE = path.join(ROOT, "tests", "mcp", "_server.ts");
export const EVERYTHING = path.join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);

/** A `[[mcp.servers]]` entry with the schema's defaults. */
export function serverEntry(
  entry: Partial<McpServerConfig> & { id: string },
): McpServerConfig {
  return {
    args: [],
    env: {},
    headers: {},
    timeout: 60,
    enabled: true,
    allow_tools: [],
    deny_tools: [],
    trust: "none",
    ...entry,
  };
}

/** The fixture server, started in `mode` by this Deno. */
export function fixtureEntry(
  id: string,
  mode = "ok",
  extra: Partial<McpServerConfig> = {},
): McpServerConfig {
  return serverEntry({
    id,
    command: Deno.execPath(),
    args: ["run", "-A", "--no-prompt", FIXTURE, mode],
    ...extra,
  });
}

/** server-everything over stdio, run by this Deno (its Node entry point runs unchanged). */
export function everythingEntry(id: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return serverEntry({
    id,
    command: Deno.execPath(),
    args: ["run", "-A", "--no-prompt", EVERYTHING, "stdio"],
    ...extra,
  });
}

/** server-everything over Streamable HTTP on a free 127.0.0.1 port; `stop` ends it. */
export async function startEverythingHttp(
  port = freePort(),
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", EVERYTHING, "streamableHttp"],
    env: { PORT: String(port) },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = Date.now() + 30_000;
  while (!seen.includes("listening")) {
    if (Date.now() > deadline) throw new Error(`server-everything did not start: ${seen}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`server-everything exited: ${seen}`);
    seen += value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    async stop() {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
      await child.status;
    },
  };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

export interface McpHarness {
  registry: ToolRegistry;
  manager: McpManager;
  warnings: string[];
  scope(overrides?: Partial<CallScope>): CallScope;
  close(): Promise<void>;
}

/** A registry of the built-in tools plus the servers' tools, started and listed. */
export async function startHarness(
  servers: McpServerConfig[],
  options: { config?: Config; startupMs?: number; env?: Record<string, string> } = {},
): Promise<McpHarness> {
  const config = options.config ?? defaultConfig();
  const dir = await Deno.makeTempDir();
  const sandbox = await Sandbox.create(dir);
  const registry = new ToolRegistry({
    tools: builtinTools(),
    executor: new LocalExecutor(),
    policy: PermissionPolicy.fromConfig(config),
    config,
  });
  const warnings: string[] = [];
  const manager = new McpManager({
    tools: registry,
    startupMs: options.startupMs ?? 30_000,
    warn: (m) => warnings.push(m),
  });
  await manager.start(
    specsFromConfig(servers, {
      env: options.env ?? Deno.env.toObject(),
      workspace: sandbox.workspace,
      origin: "config",
      warn: (m) => warnings.push(m),
    }),
  );
  return {
    registry,
    manager,
    warnings,
    scope: (overrides = {}) => ({
      cwd: sandbox.workspace,
      sandbox,
      ask: () => Promise.resolve("allow_once"),
      ...overrides,
    }),
    async close() {
      await manager.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Waits until `check` holds (polling), or throws after `ms`. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
