/**
 * The ACP front-end: `zeph acp` (also `zeph --acp`) serves the Agent Client Protocol on stdio
 * for editors. It parses its few options, speaks the protocol and maps ACP sessions onto agent
 * sessions; main.ts composes what those sessions run on (config, store, sandboxes, registry,
 * provider). Start-up stays lazy: `initialize` is answered before anything else loads, and the
 * agent is composed when the first session is opened. stdout carries protocol messages only.
 */
import { VERSION } from "../version.ts";
import type { ProviderChoice } from "../provider/mod.ts";
import type { SessionBackendDeps } from "./session_backend.ts";

export type { AgentBackend, AgentSessionHandle, PromptIo } from "./backend.ts";
export type { PromptRuntime, SessionBackendDeps } from "./session_backend.ts";

/** What `zeph acp` was asked for on its command line. */
export interface AcpArgs {
  /** The process cwd or `-C/--cwd`; sessions bring their own cwd. */
  cwd: string;
  /** `--config`. */
  config?: string;
  /** `--provider`, `--model`, `--script`, `--legacy`. */
  choice: ProviderChoice;
}

/** What main.ts hands the ACP front-end. */
export interface AcpDeps {
  /**
   * Composes the agent the sessions run on, when the first session request arrives; a failure
   * (bad config) answers that request, and the next one tries again.
   */
  openAgent(args: AcpArgs): Promise<SessionBackendDeps>;
}

/** A command line ACP mode cannot run with (exit 2). */
export class AcpUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AcpUsageError";
  }
}

/** The few options ACP mode takes; anything else is an AcpUsageError. */
export function parseAcpArgs(args: string[], cwd: string): AcpArgs {
  const parsed: AcpArgs = { cwd, choice: {} };
  const rest = args[0] === "acp" ? args.slice(1) : args;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const value = () => {
      const v = rest[++i];
      if (v === undefined) throw new AcpUsageError(`Option ${a} needs a value.`);
      return v;
    };
    if (a === "--acp") continue;
    else if (a === "--config") parsed.config = value();
    else if (a === "-C" || a === "--cwd") parsed.cwd = value();
    else if (a === "--provider") parsed.choice.provider = value();
    else if (a === "--model") parsed.choice.model = value();
    else if (a === "--script") parsed.choice.script = value();
    else if (a === "--legacy") parsed.choice.legacy = true;
    else {
      throw new AcpUsageError(
        `Unknown option ${JSON.stringify(a)} for zeph acp. ` +
          "It takes --config, -C/--cwd, --provider, --model, --script and --legacy.",
      );
    }
  }
  return parsed;
}

/** The note `zeph acp` prints on stderr when stdin is a terminal; its lines fit 80 columns. */
export const ACP_TERMINAL_NOTICE = [
  "zeph acp speaks the Agent Client Protocol (JSON-RPC) on stdin/stdout, for an",
  "editor or client to start: Zed's agent_servers, or",
  '  acpx --agent "zeph acp" exec "…"',
  "For a chat here, run zeph. Ctrl-D or Ctrl-C ends it.",
].join("\n");

/** Serves ACP on stdio until stdin closes; returns the exit code (2 for a bad command line). */
export async function runAcp(args: string[], deps: AcpDeps): Promise<number> {
  let parsed: AcpArgs;
  try {
    parsed = parseAcpArgs(args, Deno.cwd());
  } catch (error) {
    if (error instanceof AcpUsageError) {
      console.error(`zeph: ${error.message}`);
      return 2;
    }
    throw error;
  }
  // Started by hand: say what this is, since an ACP agent otherwise waits silently for JSON-RPC.
  if (Deno.stdin.isTerminal()) console.error(ACP_TERMINAL_NOTICE);
  const { serveAcp } = await import("./agent.ts");
  return await serveAcp({
    version: VERSION,
    input: Deno.stdin.readable,
    output: writeAll,
    backend: async () => {
      const [{ createSessionBackend }, agent] = await Promise.all([
        import("./session_backend.ts"),
        deps.openAgent(parsed),
      ]);
      return createSessionBackend(agent);
    },
  });
}

async function writeAll(bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) at += await Deno.stdout.write(bytes.subarray(at));
}
