/**
 * `zeph acp` (also `zeph --acp`): serves the Agent Client Protocol on stdio for editors. main.ts
 * routes here before commander loads, so `initialize` is answered without building the
 * runtime; the runtime, provider and store are built when the first session is opened.
 */
import { VERSION } from "../version.ts";
import type { CliProgram } from "./mod.ts";
import type { GlobalOptions, Runtime } from "./deps.ts";
import type { LoadedConfig } from "../config/load.ts";
import type { ChatOptions } from "./chat_cmd.ts";

/** For `zeph --help`: the real entry is `runAcp`, called from main.ts before commander. */
export function register(program: CliProgram): void {
  program
    .command("acp")
    .description(
      "serve the Agent Client Protocol on stdio (for Zed and other ACP editors); also --acp",
    )
    .allowUnknownOption(true)
    .action(() => {
      throw new Error("zeph acp is dispatched by main.ts before the CLI parser");
    });
}

/** True for argv that asks for the ACP agent. */
export function isAcpInvocation(args: string[]): boolean {
  return args[0] === "acp" || args.includes("--acp");
}

export interface AcpArgs {
  globals: GlobalOptions;
  chat: ChatOptions;
}

/** The few options ACP mode takes; anything else is a usage error (exit 2). */
export function parseAcpArgs(args: string[], cwd: string): AcpArgs {
  const globals: GlobalOptions = { cwd, yes: false, json: false };
  const chat: ChatOptions = {};
  const rest = args[0] === "acp" ? args.slice(1) : args;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`Option ${a} needs a value.`);
      return v;
    };
    if (a === "--acp") continue;
    else if (a === "--config") globals.config = value();
    else if (a === "-C" || a === "--cwd") globals.cwd = value();
    else if (a === "--provider") chat.provider = value();
    else if (a === "--model") chat.model = value();
    else if (a === "--script") chat.script = value();
    else if (a === "--legacy") chat.legacy = true;
    else {
      throw new UsageError(
        `Unknown option ${JSON.stringify(a)} for zeph acp. ` +
          "It takes --config, -C/--cwd, --provider, --model, --script and --legacy.",
      );
    }
  }
  return { globals, chat };
}

class UsageError extends Error {}

async function writeAll(bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await Deno.stdout.write(bytes.subarray(at));
}

/** Serves ACP until stdin closes; returns the exit code. */
/** What main.ts hands ACP mode: the config loader and the runtime builder. */
export interface AcpDeps {
  loadConfig(globals: GlobalOptions): Promise<LoadedConfig>;
  buildRuntime(
    globals: GlobalOptions,
    loaded?: LoadedConfig,
    preset?: { store?: import("../store/mod.ts").SqliteStore | null },
  ): Promise<Runtime>;
}

export async function runAcp(args: string[], deps: AcpDeps): Promise<number> {
  // stdout is the wire: every log line goes to stderr.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  let parsed: AcpArgs;
  try {
    parsed = parseAcpArgs(args, Deno.cwd());
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`zeph: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const { serveAcp } = await import("../acp/agent.ts");
  return await serveAcp({
    version: VERSION,
    input: Deno.stdin.readable,
    output: writeAll,
    redact: (text) => redactor(text),
    backend: async () => {
      const [{ createSessionBackend }, { Sandbox }, storeMod] = await Promise.all([
        import("../acp/session_backend.ts"),
        import("../sandbox/path.ts"),
        import("../store/mod.ts"),
      ]);
      const loaded = await deps.loadConfig(parsed.globals);
      for (const w of loaded.warnings) console.error(`zeph: warning: ${w}`);
      const config = loaded.config;
      // Sessions are stored conversations: the store opens with the first session, the rest
      // (registry, hooks, provider) with the first prompt.
      let store: import("../store/mod.ts").SqliteStore | null = null;
      try {
        store = storeMod.openConfiguredStore(config);
      } catch (error) {
        console.error(`zeph: warning: ${(error as Error).message}; sessions are not saved`);
      }
      const file = config.tools.file;
      let runtime: Runtime | null = null;
      return createSessionBackend({
        config,
        store,
        newSandbox: (cwd) =>
          Sandbox.create(cwd, {
            allowedPaths: file.allowed_paths,
            denyRead: file.deny_read,
            allowRead: file.allow_read,
          }),
        runtime: async () => {
          const [{ buildProvider }, { PermissionPolicy }, { installShellAnalyzer }, audit] =
            await Promise.all([
              import("./chat_cmd.ts"),
              import("../permission/policy.ts"),
              import("../permission/shell.ts"),
              import("../store/audit.ts"),
            ]);
          redactor = audit.redactSecrets;
          // The provider first: it is what fails on a bad setup (missing key or script), and
          // a failed start is retried by the next prompt, so a runtime built before it would
          // leak (worker, listeners) once per failed prompt.
          const provider = await buildProvider(structuredClone(config), parsed.chat);
          runtime = await deps.buildRuntime(parsed.globals, loaded, { store });
          return {
            registry: runtime.registry,
            local: runtime.executor,
            provider,
            newPolicy: () => {
              const policy = PermissionPolicy.fromConfig(config);
              installShellAnalyzer(policy, config);
              return policy;
            },
          };
        },
        close: async () => {
          await runtime?.close();
          store?.close();
        },
      });
    },
  });
}

let redactor: (text: string) => string = (text) => text;
