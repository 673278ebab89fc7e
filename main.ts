/**
 * The composition root: argv → config → one `Deps` value → the CLI (`runCli`) or the ACP
 * front-end (`runAcp`). `--version` answers before anything heavy is imported, so start-up stays
 * fast. Everything else is built lazily, only for the commands that need it.
 *
 * Extension points (one line each): tools → src/tools/catalog.ts `builtinTools()`; executors,
 * output hooks (filter 10, overflow 20), final hooks (audit) and what tools reach the world
 * through (store, runner, …) → the marked lists in `buildRuntime` below; permission analysers → `loadPolicyBuilder`; providers →
 * src/config/providers.ts and src/provider/mod.ts; subcommands → src/cli/mod.ts.
 */
import { VERSION } from "./src/version.ts";
import type { AcpArgs, AcpDeps, SessionBackendDeps } from "./src/acp/mod.ts";
import type { CliDeps, GlobalOptions, Runtime, RuntimeOptions } from "./src/cli/mod.ts";
import type { Config, LoadedConfig } from "./src/config/mod.ts";
import type { McpManager, ToolSink as McpToolSink } from "./src/mcp/mod.ts";
import type { PermissionPolicy } from "./src/permission/mod.ts";
import type { Provider, ProviderChoice } from "./src/provider/mod.ts";
import type { Sandbox } from "./src/sandbox/mod.ts";
import type { SqliteStore } from "./src/store/mod.ts";
import type {
  AnyTool,
  CallScope,
  FinalHook,
  OutputHook,
  ToolDeps,
  ToolExecutor,
} from "./src/tools/mod.ts";

/** What the front-ends receive: one value of lazy builders, so each builds only what it uses. */
export interface Deps extends CliDeps, AcpDeps {}

/** The real dependencies. */
export const deps: Deps = {
  loadConfig: loadConfigFor,
  async buildRuntime(globals, options) {
    const loaded = await loadConfigFor(globals);
    for (const w of loaded.warnings) console.error(`zeph: warning: ${w}`);
    const store = await openStore(loaded.config);
    try {
      const runtime = await buildRuntime(globals, loaded, store, options);
      return {
        ...runtime,
        async close() {
          await runtime.close();
          store?.close();
        },
      };
    } catch (error) {
      store?.close();
      throw error;
    }
  },
  async openWorkspace(globals) {
    const loaded = await loadConfigFor(globals);
    for (const w of loaded.warnings) console.error(`zeph: warning: ${w}`);
    const store = await openStore(loaded.config);
    try {
      return {
        loaded,
        store,
        sandbox: await newSandbox(globals.cwd, loaded.config),
        sandboxFor: (cwd) => newSandbox(cwd, loaded.config),
        close: () => store?.close(),
      };
    } catch (error) {
      store?.close();
      throw error;
    }
  },
  buildProvider,
  async prestartTool(globals, tool, input) {
    const { prestartFileWorker } = await import("./src/tools/executors/mod.ts");
    return await prestartFileWorker(globals.cwd, tool, { params: input });
  },
  openAgent: openAcpAgent,
};

/** Loads the config for the global options (`--config`, `ZEPH_CONFIG`, XDG, defaults). */
export async function loadConfigFor(
  globals: Pick<GlobalOptions, "config">,
): Promise<LoadedConfig> {
  const { loadConfig } = await import("./src/config/lite.ts");
  return await loadConfig({ path: globals.config, env: Deno.env.toObject() });
}

/**
 * The conversation/overflow store; retention cleanup runs as it opens. A store that cannot be
 * opened is reported (with `consequence`) and zeph goes on without it: outputs over the
 * threshold are then cut to head + tail, and conversations are not saved.
 */
async function openStore(config: Config, consequence = ""): Promise<SqliteStore | null> {
  const { dataDirShortfall, openConfiguredStore } = await import("./src/store/mod.ts");
  // No HOME: one warning for the store and the audit log (buildRuntime leaves the latter out).
  const shortfall = dataDirShortfall(config);
  if (shortfall) console.error(`zeph: warning: ${shortfall.warning}`);
  if (shortfall?.store) return null;
  try {
    return openConfiguredStore(config);
  } catch (error) {
    const { message, warning } = error as { message: string; warning?: string };
    console.error(`zeph: warning: ${warning ?? message + consequence}`);
    return null;
  }
}

/**
 * The audit log of `[tools.audit]`. One that cannot be placed (no data directory: a container
 * without HOME) is reported and calls go unaudited, as with the store.
 */
function openAuditLog(
  store: typeof import("./src/store/mod.ts"),
  config: Config,
): ReturnType<typeof store.openAuditLog> {
  try {
    const log = store.openAuditLog(config);
    const unwritable = log?.checkWritable();
    if (unwritable) console.error(`zeph: warning: ${unwritable}`);
    return unwritable ? null : log;
  } catch (error) {
    console.error(
      `zeph: warning: ${(error as Error).message.split(". ")[0]}, so tool calls are not ` +
        "audited; set [tools.audit] path (or ZEPH_TOOLS_AUDIT_PATH) to a writable file, or " +
        "ZEPH_TOOLS_AUDIT_ENABLED=false.",
    );
    return null;
  }
}

/**
 * The network proxy of sandboxed commands when `[tools.shell.sandbox] allowed_domains` is set
 * (and `allow_network` is not): hosts a `*.` pattern allows are refused when they resolve to a
 * private or local address (the fetch tool's rules); each decision goes to the audit log.
 */
async function networkProxyFor(
  config: Config,
  exec: typeof import("./src/exec/mod.ts"),
  store: typeof import("./src/store/mod.ts"),
  auditLog: ReturnType<typeof store.openAuditLog>,
): Promise<InstanceType<typeof exec.NetworkProxy> | null> {
  const sandbox = config.tools.shell.sandbox;
  if (sandbox.allow_network || sandbox.allowed_domains.length === 0) return null;
  const { blockedAddressReason } = await import("./src/web/mod.ts");
  return new exec.NetworkProxy({
    allowedDomains: sandbox.allowed_domains,
    addressRefusal: blockedAddressReason,
    onDecision: (decision) =>
      void auditLog?.appendOrWarnOnce(
        store.networkAuditRecord(decision, { at: new Date() }),
        (message) => console.error(message),
      ),
  });
}

/** The model provider `config` and the command line's choice select (see CliDeps). */
async function buildProvider(config: Config, choice: ProviderChoice): Promise<Provider> {
  const provider = await import("./src/provider/mod.ts");
  return await provider.buildProvider(config, choice);
}

/** The sandbox of a workspace: path validation, read deny/allow. */
async function newSandbox(cwd: string, config: Config): Promise<Sandbox> {
  const { Sandbox } = await import("./src/sandbox/mod.ts");
  return await Sandbox.create(cwd, {
    allowedPaths: config.tools.file.allowed_paths,
    denyRead: config.tools.file.deny_read,
    allowRead: config.tools.file.allow_read,
  });
}

/** Builds permission policies: the config's rules, with the tools' analysers installed. */
async function loadPolicyBuilder(): Promise<
  (
    config: Config,
    options?: { yes?: boolean; sandboxed?: boolean | (() => boolean) },
  ) => PermissionPolicy
> {
  const [{ PermissionPolicy }, { installShellAnalyzer }] = await Promise.all([
    import("./src/permission/mod.ts"),
    import("./src/permission/shell.ts"),
  ]);
  return (config, { yes = false, sandboxed = false } = {}) => {
    // `--yes` runs this invocation at autonomy "full"; inside the OS sandbox, commands no rule
    // decides run unasked (supervised), outside it they follow the legacy lists.
    const policy = PermissionPolicy.fromConfig(config, {
      ...(yes ? { autonomy: "full" } : {}),
      unaskedInSandbox: sandboxed,
    });
    // Permission analysers (policy.setAnalyzer(tool, fn)): bash's command analysis goes here.
    installShellAnalyzer(policy, config);
    return policy;
  };
}

/**
 * The agent behind ACP sessions. Sessions are stored conversations, so the config and the store
 * open with the first session; the registry, hooks and provider with the first prompt.
 */
async function openAcpAgent(args: AcpArgs): Promise<SessionBackendDeps> {
  const globals: GlobalOptions = { cwd: args.cwd, config: args.config, yes: false, json: false };
  // The store and the sandbox load while the config does: session/new waits for all three.
  const [loaded] = await Promise.all([
    loadConfigFor(globals),
    import("./src/store/mod.ts"),
    import("./src/sandbox/mod.ts"),
  ]);
  for (const w of loaded.warnings) console.error(`zeph: warning: ${w}`);
  const config = loaded.config;
  // A bad --script fails session/new, where the editor shows it, not the first prompt. The
  // scripted provider is local and cheap to build; the real ones stay lazy.
  const scripted = args.choice.script !== undefined ||
    (args.choice.provider ?? config.llm.provider) === "script";
  if (scripted) await providerOrHint(config, args.choice);
  const store = await openStore(config, " Sessions are not saved.");
  let runtime: Runtime | null = null;
  return {
    config,
    store,
    newSandbox: (cwd) => newSandbox(cwd, config),
    runtime: async () => {
      // The provider first: it is what fails on a bad setup (missing key or script), and a
      // failed start is retried by the next prompt, so a runtime built before it would leak
      // (worker, listeners) once per failed prompt.
      const provider = await providerOrHint(config, args.choice);
      const [newPolicy, { redactSecrets }] = await Promise.all([
        loadPolicyBuilder(),
        import("./src/store/mod.ts"),
      ]);
      runtime = await buildRuntime(globals, loaded, store);
      return {
        registry: runtime.registry,
        local: runtime.executor,
        provider,
        newPolicy: () =>
          newPolicy(config, { sandboxed: () => runtime?.sandboxActive?.() ?? false }),
        redact: redactSecrets,
      };
    },
    close: async () => {
      await runtime?.close();
      store?.close();
    },
  };
}

/** The provider of an ACP session; a setup error's message carries its hint. */
async function providerOrHint(config: Config, choice: ProviderChoice): Promise<Provider> {
  return await buildProvider(structuredClone(config), choice).catch(async (error) => {
    const { ProviderError } = await import("./src/provider/mod.ts");
    if (!(error instanceof ProviderError) || !error.hint) throw error;
    throw new Error(`${error.message}\n${error.hint}`);
  });
}

/**
 * The MCP servers of `[[mcp.servers]]` and `--mcp-config FILE`, started (not awaited) with their
 * tools going into `registry`; null when there are none, so the SDK is not even loaded.
 */
async function startMcpServers(
  globals: GlobalOptions,
  config: Config,
  registry: McpToolSink,
  options: { workspace: string; faultsShown: boolean },
): Promise<McpManager | null> {
  const servers = config.mcp.servers.filter((s) => s.enabled);
  const fromFile = globals.mcpConfig
    ? await (await import("./src/config/mod.ts")).loadMcpJson(globals.mcpConfig)
    : [];
  if (servers.length === 0 && fromFile.length === 0) return null;
  const { McpManager, specsFromConfig } = await import("./src/mcp/mod.ts");
  const warn = (message: string) => console.error(`zeph: warning: ${message}`);
  const env = Deno.env.toObject();
  const manager = new McpManager({
    tools: registry,
    startupMs: config.mcp.startup_timeout * 1000,
    warn,
    fault: options.faultsShown ? () => {} : undefined,
  });
  const taken = new Set(servers.map((s) => s.id));
  const extra = fromFile.filter((s) => {
    if (!taken.has(s.id)) return true;
    warn(`MCP server "${s.id}" of ${globals.mcpConfig} is ignored: [[mcp.servers]] has that id`);
    return false;
  });
  void manager.start([
    ...specsFromConfig(servers, { env, workspace: options.workspace, origin: "config", warn }),
    ...specsFromConfig(extra, {
      env,
      workspace: options.workspace,
      origin: globals.mcpConfig!,
      warn,
    }),
  ]);
  return manager;
}

/** The built-in tools a runtime registers: all, or only those `only` names when all are built-in. */
async function builtinToolsFor(only?: readonly string[]): Promise<AnyTool[]> {
  if (only) {
    const { loadBuiltinTool } = await import("./src/tools/mod.ts");
    const tools = await Promise.all(only.map(loadBuiltinTool));
    if (tools.every((t) => t !== null)) return tools;
  }
  // The catalog loads every tool, so it stays out of tools/mod.ts.
  return (await import("./src/tools/catalog.ts")).builtinTools();
}

/**
 * Builds Sandbox → PermissionPolicy → executors → ToolRegistry (+ hooks, tool deps) for the
 * loaded config. The store is the caller's: it is opened first (ACP opens it with the first
 * session) and closed by the caller after the runtime.
 */
export async function buildRuntime(
  globals: GlobalOptions,
  loaded: LoadedConfig,
  store: SqliteStore | null,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const config = loaded.config;
  // The fenced file worker starts first: its thread loads its modules while this one loads the
  // rest, so the first file call (often the only one, for `zeph tool`) does not wait for both.
  const [sandbox, { WorkerFileExecutor }] = await Promise.all([
    newSandbox(globals.cwd, config),
    import("./src/tools/executors/mod.ts"),
  ]);
  const fileMode = config.tools.file.sandbox.mode;
  const fileExecutor = new WorkerFileExecutor({ confine: fileMode });
  const confinement = fileExecutor.workerFor(sandbox.snapshot().roots).confinement;
  void confinement.then((state) => {
    if (!state.active && fileMode === "landlock") {
      console.error(
        `zeph: warning: [tools.file.sandbox] mode = "landlock" but ${state.reason}: file tools ` +
          `will be refused (use Linux 5.13+ with Landlock enabled, or set mode = "auto")`,
      );
    } else if (Deno.env.get("ZEPH_LOG") === "debug") {
      const what = state.active ? `on (ABI ${state.abi})` : `off: ${state.reason}`;
      console.error(`zeph: debug: file tools: Landlock ${what}`);
    }
  });
  const [
    { ToolRegistry, CompositeExecutor, LocalExecutor, undoHook, BUILTIN_TOOL_IDS },
    tools,
    newPolicy,
  ] = await Promise.all([
    import("./src/tools/mod.ts"),
    builtinToolsFor(options.tools),
    loadPolicyBuilder(),
  ]);

  const cleanups: (() => Promise<void> | void)[] = [];
  // What tools reach the world through (overflow reader, process runner, …): set toolDeps.<name>
  // here and push their cleanup onto `cleanups`; a member left out is the real one.
  const toolDeps: Partial<ToolDeps> = {};
  const [exec, storeMod] = await Promise.all([
    import("./src/exec/mod.ts"),
    import("./src/store/mod.ts"),
  ]);
  const { killAllProcessGroups } = exec;
  // Shell commands run inside bubblewrap ([tools.shell.sandbox]); the plan is made per command
  // so protected paths created during the session are covered.
  const env = Deno.env.toObject();
  const zephPaths = [
    ...(loaded.path ? [loaded.path] : []),
    ...[() => storeMod.resolveStorePath(config), () => storeMod.resolveAuditPath(config)]
      .flatMap((resolve) => {
        try {
          const p = resolve();
          return [p, `${p}-wal`, `${p}-shm`];
        } catch {
          return []; // no data directory: nothing of ours there to hide
        }
      }),
  ];
  // The user's protected paths are read-only inside the sandbox too, wherever they are found.
  const { compileProtected, protectedMatch } = await import("./src/permission/mod.ts");
  const protectedGlobs = compileProtected(config.tools.permissions.protected_paths);
  const settings = exec.sandboxSettingsOf(config, {
    zephPaths,
    isProtected: (relative) => protectedMatch(relative, protectedGlobs) !== null,
  });
  // No data directory: the one start-up warning already said so; otherwise an audit log that
  // cannot be opened (a read-only HOME, say) is one warning, not a crash.
  const auditLog = storeMod.dataDirShortfall(config)?.audit ? null : openAuditLog(storeMod, config);
  const network = await networkProxyFor(config, exec, storeMod, auditLog);
  if (network) {
    cleanups.push(() => network.close());
    globalThis.addEventListener("unload", () => network.close());
  }
  if (network && config.tools.shell.sandbox.mode === "off") {
    console.error(
      'zeph: warning: [tools.shell.sandbox] allowed_domains has no effect with mode = "off": ' +
        'shell commands reach every host (set mode = "auto" or "bwrap")',
    );
  }
  const shellSandbox = new exec.ShellSandbox(
    config.tools.shell.sandbox.mode,
    () => exec.planSandbox(sandbox.workspace, settings, { env }),
    {
      onBroken: (reason) =>
        console.error(
          Deno.build.os === "linux"
            ? `zeph: warning: the OS sandbox is off: ${reason}. Shell commands run unconfined ` +
              `(fix bubblewrap, or set [tools.shell.sandbox] mode = "off" to say so)`
            : `zeph: note: shell commands run without an OS sandbox: ${reason} ` +
              `(set [tools.shell.sandbox] mode = "off" to say so)`,
        ),
      ...(network ? { network } : {}),
    },
  );
  toolDeps.runner = new exec.SandboxedRunner(exec.defaultProcessRunner(), shellSandbox);
  // The sandbox is probed when a decision or a command first needs it, not while starting.
  const policy = newPolicy(config, { yes: globals.yes, sandboxed: () => shellSandbox.active() });
  if (shellSandbox.mode === "bwrap") {
    const probe = exec.probeBwrap(shellSandbox.bwrapPath);
    if (!probe.available) {
      console.error(
        `zeph: warning: [tools.shell.sandbox] mode = "bwrap" but ${probe.reason}: shell ` +
          `commands will be refused (install the "bubblewrap" package)`,
      );
    }
  }
  // Commands run in detached process groups, which outlive zeph unless killed: end them with the
  // runtime, and on Deno.exit() (the `unload` event) for paths that never reach close().
  cleanups.push(() => void killAllProcessGroups());
  globalThis.addEventListener("unload", () => killAllProcessGroups());
  if (Deno.build.os !== "windows") {
    // SIGTERM/SIGHUP would end zeph without `unload`, leaving running commands orphaned.
    for (const signal of ["SIGTERM", "SIGHUP"] as const) {
      Deno.addSignalListener(signal, () => {
        killAllProcessGroups();
        Deno.exit(signal === "SIGTERM" ? 143 : 129);
      });
    }
  }

  const executors: ToolExecutor[] = [
    // The ten file tools run in a Worker whose Deno permissions are the sandbox roots only.
    fileExecutor,
    new LocalExecutor(),
  ];
  const executor = new CompositeExecutor(executors);
  cleanups.push(() => executor.close());

  toolDeps.overflow = store;
  const registry = new ToolRegistry({
    tools,
    executor,
    policy,
    config,
    deps: toolDeps,
  });
  // MCP servers start now, in parallel with the rest of the runtime; their tools are awaited
  // at the end. Without servers the SDK is never loaded.
  const mcp = await startMcpServers(globals, config, registry, {
    workspace: sandbox.workspace,
    faultsShown: options.mcpFaultsShown ?? false,
  });
  if (mcp) cleanups.push(() => mcp.close());
  const { permissionToolWarnings, toolSelectionWarnings } = await import("./src/config/lite.ts");
  const { policyRuleWarnings } = await import("./src/tools/mod.ts");
  // Every built-in tool's name, registered or not: a rule naming one is not a typo.
  const names = [...new Set([...BUILTIN_TOOL_IDS, ...registry.all().map((t) => t.name)])];
  for (
    const w of [
      ...permissionToolWarnings(config, names),
      ...toolSelectionWarnings(config.tools, names),
      ...policyRuleWarnings(config, names),
    ]
  ) {
    console.error(`zeph: warning: ${w}`);
  }
  // Output filters: built-in rules + filters.toml next to the config (or [tools.filters]
  // filters_path). The rules compile with the first result that has a command to filter.
  const hooks = await import("./src/tools/hooks.ts");
  const loadFilters = async () => {
    const { loadFilterEngine, filtersConfigDir } = await import("./src/filter/mod.ts");
    const filters = await loadFilterEngine(config, {
      configDir: await filtersConfigDir(loaded.path),
    });
    for (const w of filters.warnings) console.error(`zeph: warning: ${w}`);
    return filters.engine;
  };
  const outputHooks: OutputHook[] = [
    // Output filter (order 10), overflow store (order 20).
    hooks.lazyFilterHook(loadFilters),
    hooks.overflowHook(store, config),
  ];
  const finalHooks: FinalHook[] = [
    hooks.auditHook(auditLog),
  ];
  for (const hook of outputHooks) registry.addOutputHook(hook);
  for (const hook of finalHooks) registry.addFinalHook(hook);
  // Undo: every file tool's change is recorded per conversation, whichever executor runs it.
  registry.addExecuteHook(undoHook(store?.undo ?? null, config.tools.undo));

  await mcp?.ready();
  let closed = false;
  return {
    globals,
    mcp,
    loaded,
    sandbox,
    policy,
    registry,
    executor,
    store,
    sandboxActive: () => shellSandbox.active(),
    scope(overrides: Partial<CallScope> = {}): CallScope {
      return {
        cwd: sandbox.workspace,
        sandbox,
        // Non-interactive: `--yes` allows `ask` decisions, except those only a person may answer
        // (protected paths); without it they are refused.
        ask: globals.yes
          ? (request) => Promise.resolve(request.decision.humanOnly ? "reject_once" : "allow_once")
          : undefined,
        ...overrides,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}

if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    console.log(`zeph ${VERSION}`);
    Deno.exit(0);
  }
  if (args[0] === "__sandbox-bridge") {
    // A compiled zeph is its own network bridge inside the sandbox (src/exec/_network.ts).
    const { runSandboxBridge } = await import("./src/exec/mod.ts");
    await runSandboxBridge(args.slice(1));
    Deno.exit(0);
  }
  const help = args.includes("--help") || args.includes("-h");
  if ((args[0] === "acp" || args.includes("--acp")) && !help) {
    // stdout is the protocol's wire: every log line goes to stderr.
    console.log = console.error;
    console.info = console.error;
    console.debug = console.error;
    // Editors spawn the agent often: answer `initialize` before building anything else.
    const { runAcp } = await import("./src/acp/mod.ts");
    Deno.exit(await runAcp(args, deps));
  }
  const { runCli } = await import("./src/cli/mod.ts");
  Deno.exit(await runCli(args, deps));
}
