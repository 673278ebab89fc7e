/**
 * The composition root: argv → config → real dependencies → CLI or ACP front-end.
 * `--version` answers before anything heavy is imported, so start-up stays fast. Everything
 * else is built lazily, only for the commands that need it.
 *
 * Extension points (one line each): tools → src/tools/catalog.ts `builtinTools()`; executors,
 * permission analysers, output hooks (filter 10, overflow 20), final hooks (audit) and services
 * (store, runner) → the marked lists in `buildRuntime` below; subcommands → src/cli/mod.ts.
 */
import { VERSION } from "./src/version.ts";
import type { GlobalOptions, Runtime } from "./src/cli/mod.ts";
import type { LoadedConfig } from "./src/config/load.ts";
import type { DispatchSession, FinalHook, OutputHook } from "./src/tools/registry.ts";
import type { ToolExecutor } from "./src/tools/executors/mod.ts";
import type { ToolServices } from "./src/tools/tool.ts";

/** Loads the config for the global options (`--config`, `ZEPH_CONFIG`, XDG, defaults). */
export async function loadConfigFor(globals: GlobalOptions): Promise<LoadedConfig> {
  const { loadConfig } = await import("./src/config/load.ts");
  return await loadConfig({ path: globals.config, env: Deno.env.toObject() });
}

/** Builds config → Sandbox → PermissionPolicy → executors → ToolRegistry (+ hooks, services). */
export async function buildRuntime(
  globals: GlobalOptions,
  loaded?: LoadedConfig,
  /** Services the caller already opened and keeps owning (ACP opens the store early). */
  preset: { store?: import("./src/store/mod.ts").SqliteStore | null } = {},
): Promise<Runtime> {
  loaded ??= await loadConfigFor(globals);
  for (const w of loaded.warnings) console.error(`zeph: warning: ${w}`);
  const config = loaded.config;
  const [
    { Sandbox },
    { PermissionPolicy },
    { ToolRegistry },
    { CompositeExecutor, LocalExecutor },
    {
      builtinTools,
    },
  ] = await Promise.all([
    import("./src/sandbox/path.ts"),
    import("./src/permission/policy.ts"),
    import("./src/tools/registry.ts"),
    import("./src/tools/executors/mod.ts"),
    import("./src/tools/catalog.ts"),
  ]);

  const sandbox = await Sandbox.create(globals.cwd, {
    allowedPaths: config.tools.file.allowed_paths,
    denyRead: config.tools.file.deny_read,
    allowRead: config.tools.file.allow_read,
  });
  const policy = PermissionPolicy.fromConfig(config);
  // Permission analysers (policy.setAnalyzer(tool, fn)): bash's command analysis goes here.
  const { installShellAnalyzer } = await import("./src/permission/shell.ts");
  installShellAnalyzer(policy, config);

  const cleanups: (() => Promise<void> | void)[] = [];
  const services: ToolServices = {};
  // Services (store, overflow reader, process runner, …): set services.<name> here and push
  // their cleanup onto `cleanups`.
  const [{ defaultProcessRunner, killAllProcessGroups }, { auditHook }, storeMod] = await Promise
    .all([
      import("./src/exec/mod.ts"),
      import("./src/store/audit.ts"),
      import("./src/store/mod.ts"),
    ]);
  services.processRunner = defaultProcessRunner();
  // The conversation/overflow store; retention cleanup runs as it opens. A store that cannot be
  // opened is reported and the session goes on without it (outputs over the threshold are then
  // cut to head + tail, and conversations are not saved).
  let store: import("./src/store/mod.ts").SqliteStore | null = null;
  if (preset.store !== undefined) {
    store = preset.store;
    if (store) services.store = store;
  } else {
    try {
      store = storeMod.openConfiguredStore(config);
      services.store = store;
      cleanups.push(() => store?.close());
    } catch (error) {
      console.error(`zeph: warning: ${(error as Error).message}`);
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

  const { WorkerFileExecutor } = await import("./src/tools/executors/mod.ts");
  const executors: ToolExecutor[] = [
    // The ten file tools run in a Worker whose Deno permissions are the sandbox roots only.
    new WorkerFileExecutor(),
    new LocalExecutor(),
  ];
  const executor = new CompositeExecutor(executors);
  cleanups.push(() => executor.close());

  const registry = new ToolRegistry({ tools: builtinTools(), executor, policy, config });
  const { permissionToolWarnings } = await import("./src/config/load.ts");
  for (const w of permissionToolWarnings(config, registry.all().map((t) => t.name))) {
    console.error(`zeph: warning: ${w}`);
  }
  // Output filters: built-in rules + filters.toml next to the config (or [tools.filters]
  // filters_path). services.filterEngine exposes the F/P/B counters (engine.session).
  const { loadFilterEngine, filterHook, filtersConfigDir } = await import("./src/filter/mod.ts");
  const filters = await loadFilterEngine(config, {
    configDir: await filtersConfigDir(loaded.path),
  });
  for (const w of filters.warnings) console.error(`zeph: warning: ${w}`);
  services.filterEngine = filters.engine;
  const outputHooks: OutputHook[] = [
    // Output filter (order 10), overflow store (order 20).
    filterHook(filters.engine),
    storeMod.overflowHook(store, config),
  ];
  const finalHooks: FinalHook[] = [
    auditHook(config),
  ];
  for (const hook of outputHooks) registry.addOutputHook(hook);
  for (const hook of finalHooks) registry.addFinalHook(hook);

  let closed = false;
  return {
    globals,
    loaded,
    sandbox,
    policy,
    registry,
    executor,
    services,
    session(overrides: Partial<DispatchSession> = {}): DispatchSession {
      return {
        cwd: sandbox.workspace,
        sandbox,
        services,
        // Non-interactive: `--yes` allows `ask` decisions; without it they are refused.
        ask: globals.yes ? () => Promise.resolve("allow_once") : undefined,
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
  if (args[0] === "acp" || args.includes("--acp")) {
    // Editors spawn the agent often: answer `initialize` before building anything else.
    const { runAcp } = await import("./src/cli/acp_cmd.ts");
    Deno.exit(await runAcp(args, { loadConfig: loadConfigFor, buildRuntime }));
  }
  const { runCli } = await import("./src/cli/mod.ts");
  Deno.exit(await runCli(args, { loadConfig: loadConfigFor, buildRuntime }));
}
