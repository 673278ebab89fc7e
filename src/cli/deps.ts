/**
 * What main.ts hands the CLI: lazy builders for the config, the composed runtime (sandbox,
 * policy, registry, executors, hooks, store) and the model provider. Commands take only what
 * they need, so `zeph config check` never builds a registry.
 */
import type { Config, LoadedConfig } from "../config/mod.ts";
import type { McpServerStatus } from "../mcp/mod.ts";
import type { PermissionPolicy } from "../permission/mod.ts";
import type { Provider, ProviderChoice } from "../provider/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import type { Store } from "../store/mod.ts";
import type { CallScope, CompositeExecutor, ToolRegistry } from "../tools/mod.ts";

/** The global options every subcommand sees. */
export interface GlobalOptions {
  /** Workspace root (absolute). @default the process cwd */
  cwd: string;
  /** Explicit config file (`--config`); an error when missing. */
  config?: string;
  /** Allow `ask` decisions without prompting. @default false */
  yes: boolean;
  /** A Claude Code `.mcp.json` whose servers are started too (`--mcp-config`). */
  mcpConfig?: string;
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
  /** The conversation and overflow store; null when it could not be opened. */
  store: Store | null;
  /**
   * Whether shell commands run inside the OS sandbox ([tools.shell.sandbox]); for a permission
   * policy that lets commands run unasked only there. Absent in runtimes built without one.
   */
  sandboxActive?(): boolean;
  /** The MCP servers (config and `--mcp-config`); absent when there are none. */
  mcp?: { status(): McpServerStatus[] } | null;
  /** The call scope of a CLI caller: workspace, sandbox, ask by `--yes`. */
  scope(overrides?: Partial<CallScope>): CallScope;
  /** Releases workers, store handles and processes; safe to call twice. */
  close(): Promise<void>;
}

/**
 * A workspace's config, store and sandbox, without the tools (no file worker, no MCP servers):
 * what a command that reads or restores stored data needs (`zeph undo`, `zeph overflow show`).
 */
export interface WorkspaceData {
  loaded: LoadedConfig;
  /** The conversation and overflow store; null when it could not be opened. */
  store: Store | null;
  /** The sandbox of `globals.cwd`. */
  sandbox: Sandbox;
  /** The sandbox of another workspace, under the same config. */
  sandboxFor(cwd: string): Promise<Sandbox>;
  /** Closes the store; safe to call twice. */
  close(): void;
}

/** How a command wants its runtime built. */
export interface RuntimeOptions {
  /**
   * The command reports the MCP servers' faults itself (`zeph mcp list`), so they are not also
   * printed as warnings. @default false
   */
  mcpFaultsShown?: boolean;
  /**
   * Only these built-in tools are registered (a one-shot call's), so the other tools' modules
   * are not loaded; ids that are not all built-in register every tool. @default every tool
   */
  tools?: readonly string[];
}

export interface CliDeps {
  loadConfig(globals: GlobalOptions): Promise<LoadedConfig>;
  buildRuntime(globals: GlobalOptions, options?: RuntimeOptions): Promise<Runtime>;
  /** Opens the config, store and sandbox only; see `WorkspaceData`. */
  openWorkspace(globals: GlobalOptions): Promise<WorkspaceData>;
  /**
   * The provider `config` and the command line's choice select. The choice is written into
   * `config`, so pass a copy. Throws ProviderChoiceError (usage) or ProviderError (setup).
   */
  buildProvider(config: Config, choice: ProviderChoice): Promise<Provider>;
  /**
   * Starts what a one-shot call of `tool` will run in (the fenced file worker) while the
   * runtime is being built; `release()` stops it if the runtime did not take it over. `input`
   * is the call's, unchecked (grep's path says whether its threads start too). Absent:
   * nothing starts early.
   */
  prestartTool?(
    globals: GlobalOptions,
    tool: string,
    input?: Record<string, unknown>,
  ): Promise<{ release(): void } | null>;
}

/** What a command receives: the deps, and the exit status it sets for `runCli` to return. */
export interface CommandDeps extends CliDeps {
  /** 0 ok, 1 tool/run failure, 2 usage/config error. */
  status: { exitCode: number };
}
