/**
 * The MCP servers of a runtime or an ACP session: started in parallel, their tools registered in
 * a registry as they arrive (and removed when a server fails or its list changes), every fault
 * reported once, every server stopped on close.
 */
import * as path from "node:path";
import type { McpServerConfig } from "../config/mod.ts";
import type { AnyTool } from "../tools/mod.ts";
import { McpConnection, type McpServerSpec, type McpServerState } from "./connection.ts";
import { mcpTool, mcpToolId, schemaCompiler } from "./tools.ts";

/** What the manager registers tools in: the registry (or an ACP session's fork of it). */
export interface ToolSink {
  get(name: string): AnyTool | undefined;
  register(tool: AnyTool): void;
  unregister(name: string): boolean;
}

export interface McpManagerOptions {
  tools: ToolSink;
  /** How long a server may take to start and list its tools. */
  startupMs: number;
  /** Where warnings are reported (stderr in the CLI, the log in ACP). */
  warn(message: string): void;
  /**
   * Where a server's fault is reported; `warn` when absent. A caller that shows `status()`
   * itself (`zeph mcp list`) passes a no-op, so each fault is printed once.
   */
  fault?(message: string): void;
}

/** A server as `zeph mcp list` shows it. */
export interface McpServerStatus {
  id: string;
  origin: string;
  transport: "stdio" | "http";
  state: McpServerState;
  fault: string | null;
  /** Registry id → the server's tool name. */
  tools: { id: string; name: string }[];
}

export class McpManager {
  #options: McpManagerOptions;
  #connections: McpConnection[] = [];
  #registered = new Map<McpConnection, string[]>();
  #started: Promise<void> = Promise.resolve();
  #compile: ReturnType<typeof schemaCompiler> | null = null;

  constructor(options: McpManagerOptions) {
    this.#options = options;
  }

  /** Starts the servers in parallel; the promise settles when every one is ready or failed. */
  start(specs: McpServerSpec[]): Promise<void> {
    if (specs.length === 0) return this.#started;
    this.#compile ??= schemaCompiler();
    const starting = specs.map((spec) => {
      const connection = new McpConnection(spec, {
        onTools: (tools) => void this.#sync(connection, tools),
        onFault: (message) =>
          (this.#options.fault ?? this.#options.warn)(
            `MCP server "${spec.id}" (${spec.origin}) ${message}; its tools are not available.`,
          ),
      });
      this.#connections.push(connection);
      return connection.start(this.#options.startupMs).then(() => this.#pending.get(connection));
    });
    this.#started = Promise.all([this.#started, ...starting]).then(() => {});
    return this.#started;
  }

  /**
   * Moves every tool to `tools` (an ACP session's registry, made when its first prompt comes,
   * after its servers were started): ids are chosen again against what `tools` holds.
   */
  async attach(tools: ToolSink): Promise<void> {
    await Promise.all([...this.#pending.values()]);
    for (const ids of this.#registered.values()) {
      for (const id of ids) this.#options.tools.unregister(id);
    }
    this.#registered.clear();
    this.#options = { ...this.#options, tools };
    await Promise.all(
      this.#connections.filter((c) => c.state === "ready").map((c) => this.#sync(c, c.tools)),
    );
  }

  /** Resolves when every server started so far is ready or failed (with its tools registered). */
  ready(): Promise<void> {
    return this.#started;
  }

  #pending = new Map<McpConnection, Promise<void>>();

  #sync(connection: McpConnection, tools: McpConnection["tools"]): Promise<void> {
    const run = (this.#pending.get(connection) ?? Promise.resolve()).then(async () => {
      const sink = this.#options.tools;
      for (const id of this.#registered.get(connection) ?? []) sink.unregister(id);
      const compile = await this.#compile!;
      const ids: string[] = [];
      for (const info of tools) {
        const id = mcpToolId(connection.spec.id, info.name, (candidate) => !!sink.get(candidate));
        let validate;
        try {
          validate = compile(info.inputSchema ?? { type: "object" });
        } catch (error) {
          this.#options.warn(
            `MCP server "${connection.spec.id}" offers tool "${info.name}" with an input schema ` +
              `that cannot be compiled (${(error as Error).message}); the tool is left out`,
          );
          continue;
        }
        sink.register(mcpTool({
          serverId: connection.spec.id,
          id,
          info,
          trust: connection.spec.trust,
          caller: connection,
          validate,
        }));
        ids.push(id);
      }
      this.#registered.set(connection, ids);
    });
    this.#pending.set(connection, run);
    return run;
  }

  status(): McpServerStatus[] {
    return this.#connections.map((c) => {
      const ids = this.#registered.get(c) ?? [];
      return {
        id: c.spec.id,
        origin: c.spec.origin,
        transport: c.spec.transport.kind,
        state: c.state,
        fault: c.fault,
        tools: ids.map((id) => ({ id, name: this.#options.tools.get(id)?.mcp?.tool ?? id })),
      };
    });
  }

  /** Stops every server (stdio ones with their process group) and removes their tools. */
  async close(): Promise<void> {
    await Promise.all(this.#connections.map((c) => c.close()));
    await Promise.all([...this.#pending.values()]);
    for (const ids of this.#registered.values()) {
      for (const id of ids) this.#options.tools.unregister(id);
    }
    this.#registered.clear();
  }
}

/** A sink of its own: tools wait there until {@link McpManager.attach} moves them. */
export function toolMap(): ToolSink {
  const tools = new Map<string, AnyTool>();
  return {
    get: (name) => tools.get(name),
    register: (tool) => void tools.set(tool.name, tool),
    unregister: (name) => tools.delete(name),
  };
}

/** The environment every stdio server starts from, before its configured `env`. */
export const BASE_ENV_NAMES = ["PATH", "HOME", "LANG"] as const;

/** A value with its `${VAR}` references replaced; an unset variable is an error naming it. */
export function expandReferences(
  value: string,
  env: Record<string, string | undefined>,
  where: string,
): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined) {
      throw new Error(
        `${where} references \${${name}}, which is not set: set it in zeph's environment or ` +
          `write the value into the config`,
      );
    }
    return found;
  });
}

/**
 * `[[mcp.servers]]` entries (enabled ones) as specs: `${VAR}`s expanded from `env`, stdio
 * servers given PATH/HOME/LANG and their configured `env` only (never the provider API keys or
 * anything else of zeph's environment), a relative `cwd` resolved against the workspace. An
 * entry that cannot be resolved is reported and left out.
 */
export function specsFromConfig(
  servers: readonly McpServerConfig[],
  options: {
    env: Record<string, string | undefined>;
    workspace: string;
    origin: string;
    warn(message: string): void;
  },
): McpServerSpec[] {
  const { env } = options;
  const specs: McpServerSpec[] = [];
  for (const s of servers) {
    if (!s.enabled) continue;
    const at = (key: string) => `MCP server "${s.id}" ${key}`;
    try {
      const expandAll = (record: Record<string, string>, key: string) =>
        Object.fromEntries(
          Object.entries(record).map(([k, v]) => [k, expandReferences(v, env, at(`${key}.${k}`))]),
        );
      const transport: McpServerSpec["transport"] = s.command !== undefined
        ? {
          kind: "stdio",
          command: expandReferences(s.command, env, at("command")),
          args: s.args.map((a, i) => expandReferences(a, env, at(`args[${i}]`))),
          env: { ...baseEnv(env), ...expandAll(s.env, "env") },
          cwd: s.cwd !== undefined
            ? path.resolve(options.workspace, expandReferences(s.cwd, env, at("cwd")))
            : options.workspace,
        }
        : {
          kind: "http",
          url: expandReferences(s.url!, env, at("url")),
          headers: expandAll(s.headers, "headers"),
        };
      specs.push({
        id: s.id,
        transport,
        timeoutMs: s.timeout * 1000,
        allowTools: s.allow_tools,
        denyTools: s.deny_tools,
        trust: s.trust,
        origin: options.origin,
      });
    } catch (error) {
      options.warn(`${(error as Error).message}; the server is not started`);
    }
  }
  return specs;
}

function baseEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of BASE_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** An ACP `mcpServers` entry (stdio without `type`; http/sse with it). */
export type AcpMcpServer =
  | {
    type?: undefined;
    name: string;
    command: string;
    args: string[];
    env: { name: string; value: string }[];
  }
  | { type: "http" | "sse"; name: string; url: string; headers: { name: string; value: string }[] };

/**
 * The editor's servers of `session/new` / `session/load` as specs: ids made from their names
 * (unique within the session), calls asked for (trust "none"), the default timeout, and stdio
 * servers given PATH/HOME/LANG plus the env the editor passes.
 */
export function specsFromAcp(
  servers: readonly AcpMcpServer[],
  options: { env: Record<string, string | undefined>; workspace: string; timeoutMs: number },
): McpServerSpec[] {
  const used = new Set<string>();
  return servers.map((s) => {
    let id = s.name.replace(/[^A-Za-z0-9_-]/g, "_").replace(/^[_-]+/, "").slice(0, 32) || "mcp";
    for (let n = 2; used.has(id); n++) id = `${id.slice(0, 29)}_${n}`;
    used.add(id);
    const pairs = (list: { name: string; value: string }[]) =>
      Object.fromEntries(list.map((p) => [p.name, p.value]));
    return {
      id,
      transport: s.type !== undefined
        ? { kind: "http", url: s.url, headers: pairs(s.headers ?? []), sse: s.type === "sse" }
        : {
          kind: "stdio",
          command: s.command,
          args: s.args ?? [],
          env: { ...baseEnv(options.env), ...pairs(s.env ?? []) },
          cwd: options.workspace,
        },
      timeoutMs: options.timeoutMs,
      allowTools: [],
      denyTools: [],
      trust: "none",
      origin: "editor",
    } satisfies McpServerSpec;
  });
}
