/**
 * What main.ts hands the CLI: the parsed global options and lazy builders for the config and
 * the composed runtime (sandbox, policy, registry, executors, hooks, services). Commands take
 * only what they need, so `zeph config check` never builds a registry.
 */
import type { LoadedConfig } from "../config/mod.ts";
import type { PermissionPolicy } from "../permission/policy.ts";
import type { Sandbox } from "../sandbox/path.ts";
import type { CompositeExecutor } from "../tools/executors/mod.ts";
import type { DispatchSession, ToolRegistry } from "../tools/registry.ts";
import type { ToolServices } from "../tools/tool.ts";

/** The global options every subcommand sees. */
export interface GlobalOptions {
  /** Workspace root (absolute). @default the process cwd */
  cwd: string;
  /** Explicit config file (`--config`); an error when missing. */
  config?: string;
  /** Allow `ask` decisions without prompting. @default false */
  yes: boolean;
  /** Machine-readable output. @default false */
  json: boolean;
}

/** The composed program for one workspace; built once per command invocation. */
export interface Runtime {
  globals: GlobalOptions;
  loaded: LoadedConfig;
  sandbox: Sandbox;
  policy: PermissionPolicy;
  registry: ToolRegistry;
  executor: CompositeExecutor;
  /** Services handed to tools through ToolContext (store, overflow reader, runner, …). */
  services: ToolServices;
  /** A dispatch session for a CLI caller: workspace, sandbox, services, ask by `--yes`. */
  session(overrides?: Partial<DispatchSession>): DispatchSession;
  /** Releases workers, store handles and processes; safe to call twice. */
  close(): Promise<void>;
}

export interface CliDeps {
  loadConfig(globals: GlobalOptions): Promise<LoadedConfig>;
  buildRuntime(globals: GlobalOptions): Promise<Runtime>;
  /** Set by commands; `runCli` returns it. 0 ok, 1 tool/run failure, 2 usage/config error. */
  status: { exitCode: number };
}
