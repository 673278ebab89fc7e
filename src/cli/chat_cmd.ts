/**
 * The default command, the agent itself: `zeph` opens an interactive session (line editing,
 * history in the data dir, /clear, /mode, /undo, /unblock, /help, /exit); `zeph -p "…"` runs one
 * prompt and exits (exit 1 on a provider error, 130 when cancelled); `--resume <id>` continues a stored
 * conversation. Ctrl-C cancels the running turn; at the prompt, a second Ctrl-C exits.
 */
import * as path from "node:path";
import type { AgentEvent, StopReason } from "../agent/mod.ts";
// Not config/mod.ts: that loads the zod schema, which `--help` never needs.
import { PROVIDER_NAMES } from "../config/providers.ts";
import type { Config } from "../config/mod.ts";
import type { Message, Provider, ProviderChoice } from "../provider/mod.ts";
import type { Store } from "../store/mod.ts";
import type { AskAnswer, AskReply, AskRequest } from "../tools/mod.ts";
import type { PlanEntry } from "../store/mod.ts";
import { allowAll, terminalAsk } from "./ask.ts";
import { askPreview } from "./ask_preview.ts";
import { CliError } from "./errors.ts";
import { findResumed, resumeHeader, resumeWorkspace } from "./resume.ts";
import type { CliDeps, CommandDeps, Runtime } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";
import { exitCodeOf } from "./exit_codes.ts";
import { JsonTurnWriter, OUTPUT_FORMATS, type OutputFormat } from "./json_output.ts";
import { colorEnabled, Renderer, stdWriter, type Writer } from "./render.ts";
import {
  BRACKETED_PASTE_OFF,
  BRACKETED_PASTE_ON,
  filteredInput,
  KeyFilter,
  restoreNewlines,
} from "./tty_input.ts";

export interface ChatOptions extends ProviderChoice {
  prompt?: string;
  resume?: string;
  /** text (default), json (one result object per turn), stream-json (`--json`: events + result) */
  outputFormat?: string;
  mode?: string;
}

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .option("-p, --prompt <text>", "run one prompt, print the answer and exit")
    .option("--resume <id>", "continue a stored conversation by id or id prefix (zeph sessions)")
    .option("-c, --continue", "continue the latest conversation of this workspace")
    .option(
      "--provider <name>",
      `model provider: ${PROVIDER_NAMES.join(", ")} (overrides [llm] provider)`,
    )
    .option("--model <name>", "model of the selected provider (overrides [llm.<provider>] model)")
    .option("--script <file>", "JSONL script of model turns (implies --provider script)")
    .option("--legacy", "scripted provider without native tool use (the legacy text path)")
    .option(
      "--output-format <format>",
      "text, json (one result object per turn) or stream-json (events + result; same as --json)",
    )
    .option("--mode <name>", "mode to start in: code, ask, architect or a [modes.<name>]")
    .action(async (opts, command) => {
      let globals = globalsOf(command);
      let runtime = await deps.buildRuntime(globals);
      try {
        const resumed = findResumed(runtime.store, {
          id: opts.resume,
          latest: opts.continue,
          cwd: globals.cwd,
        });
        if (resumed) {
          // A conversation continues in its own workspace unless --cwd says otherwise.
          const cwdGiven = typeof command.optsWithGlobals().cwd === "string";
          const where = resumeWorkspace(resumed, { cwd: globals.cwd, cwdGiven });
          if (where.cwd !== globals.cwd) {
            await runtime.close();
            globals = { ...globals, cwd: where.cwd };
            runtime = await deps.buildRuntime(globals);
          }
          if (!globals.json) {
            const messages = runtime.store?.loadMessages(resumed.id) ?? [];
            const note = where.note ? `${where.note}\n` : "";
            stdWriter(Deno.stderr).write(note + resumeHeader(resumed, messages));
          }
        }
        deps.status.exitCode = await runChat(runtime, { ...opts, resume: resumed?.id }, deps);
      } finally {
        await runtime.close();
      }
    });
}

/** Runs the chat (one prompt or interactive); returns the exit code. */
export async function runChat(
  runtime: Runtime,
  opts: ChatOptions,
  deps: Pick<CliDeps, "buildProvider">,
): Promise<number> {
  const format = outputFormatOf(opts.outputFormat, runtime.globals.json);
  const config = structuredClone(runtime.loaded.config);
  const provider = await providerFor(deps, config, opts);
  const store = runtime.store;
  const { conversationId, messages, plan } = resumeFrom(store, opts.resume);
  const out = stdWriter(Deno.stdout);
  const err = stdWriter(Deno.stderr);
  const renderer = format === "text" ? new Renderer({ out, err }) : null;
  const json = format === "text" ? null : new JsonTurnWriter(out, format);
  const interactive = opts.prompt === undefined;
  const prompt = interactive ? "" : await withPipedInput(opts.prompt!);
  // -p on a terminal reads only answers to questions: keys typed during its turn are dropped.
  const lines = interactive || Deno.stdin.isTerminal()
    ? await openLines(err, { busy: !interactive })
    : null;

  let ask: ((r: AskRequest) => Promise<AskAnswer | AskReply>) | undefined;
  if (runtime.globals.yes) ask = allowAll;
  else if (Deno.stdin.isTerminal() && lines) {
    ask = terminalAsk({
      before: () => renderer?.pause(),
      after: () => renderer?.resume(),
      preview: (request) =>
        askPreview(request, {
          sandbox: runtime.sandbox,
          cwd: runtime.sandbox.workspace,
          color: colorEnabled(err, (k) => Deno.env.get(k)),
        }),
      readLine: (prompt) => lines.read(prompt, { history: false }),
      write: (t) => err.write(t),
    });
  }

  const [{ AgentSession }, { chatModes, modeCommand }] = await Promise.all([
    import("../agent/mod.ts"),
    import("./modes.ts"),
  ]);
  const modes = chatModes(config, {
    flag: opts.mode,
    resumed: conversationId ? store?.conversationMode(conversationId) : null,
    source: runtime.loaded.path ?? "built-in defaults",
  });
  // The conversation keeps its mode, so --resume goes on in it.
  const saveMode = () => {
    if (store && session.conversationId) {
      store.setConversationMode(session.conversationId, modes.current.slug);
    }
  };
  modes.onChange((mode, by) => {
    if (by === "model") err.write(`(mode: ${mode.slug}, ${mode.name}; switched by the model)\n`);
    saveMode();
  });
  const session = new AgentSession({
    provider,
    registry: runtime.registry,
    cwd: runtime.sandbox.workspace,
    sandbox: runtime.sandbox,
    policy: runtime.policy,
    store,
    conversationId,
    messages,
    plan,
    ask,
    modes,
  });
  // A resumed conversation shows where its plan stands before the first new prompt.
  if (plan.length) {
    if (renderer) renderer.showPlan(plan);
    else json?.event({ type: "plan", entries: plan });
  }

  let providerFailure: AgentEvent | null = null;
  const sink = (event: AgentEvent) => {
    if (event.type === "notice" && event.code === "provider_error") providerFailure = event;
    if (renderer) renderer.render(event);
    else json?.event(event);
  };

  let running: AbortController | null = null;
  let lastInterrupt = 0;
  const interrupt = () => {
    if (running) {
      running.abort();
      lines?.cancelPending(); // a question on screen is answered "cancelled"
      return;
    }
    const now = Date.now();
    if (!interactive) Deno.exit(130);
    if (now - lastInterrupt < 2000) {
      // Ends the input: the session loop finishes as on /exit (resume hint, cleanup).
      err.write("\n");
      lines?.close();
      return;
    }
    lastInterrupt = now;
    err.write("\n(press Ctrl-C again to exit, or type /exit)\n");
    lines?.reprompt();
  };
  lines?.onInterrupt(interrupt);
  Deno.addSignalListener("SIGINT", interrupt);

  let setupHelpShown = false;
  const turn = async (text: string): Promise<StopReason> => {
    running = new AbortController();
    providerFailure = null;
    json?.begin();
    renderer?.thinking();
    try {
      const stop = await session.prompt(text, { sink, signal: running.signal });
      json?.end(stop, session.conversationId);
      saveMode();
      const failure = providerFailure as AgentEvent | null;
      // The notice already names the URL and the provider's own advice; a new user on the
      // default provider (Ollama) also gets the other ways to set one up.
      if (
        failure?.type === "notice" && failure.category === "network_error" && !json &&
        provider.name === "ollama" && !setupHelpShown
      ) {
        setupHelpShown = true; // once a session, not after every failed turn
        err.write(unreachableHelp(config.llm.ollama.model) + "\n");
      }
      return stop;
    } finally {
      running = null;
      renderer?.stopSpinner();
    }
  };

  try {
    if (!interactive) {
      const stop = await turn(prompt);
      if (!json && session.conversationId && store) {
        err.write(
          `(conversation ${session.conversationId}: zeph --resume ${session.conversationId})\n`,
        );
      }
      return exitCodeOf(stop);
    }
    if (!json) {
      // The model is left out when it only repeats the provider (the scripted one); how to type
      // is said only to someone typing, not to prompts piped in.
      const model = provider.model && provider.model !== provider.name ? ` ${provider.model}` : "";
      err.write(
        `zeph · ${provider.name}${model} · ${runtime.sandbox.workspace} · ` +
          `mode ${modes.current.slug}\n` +
          (Deno.stdin.isTerminal()
            ? "Type a request (\\ + Enter for a new line), /help for commands, /exit to quit.\n"
            : ""),
      );
    }
    let exitCode = 0;
    while (true) {
      const line = await lines!.read("› ");
      if (line === null) break;
      const text = line.trim();
      if (!text) continue;
      if (text.startsWith("/")) {
        const cmd = text.split(/\s+/)[0];
        if (cmd === "/exit" || cmd === "/quit") break;
        if (cmd === "/clear") {
          session.clear();
          err.write("(new conversation; tool quota, session rules and result cache reset)\n");
        } else if (cmd === "/unblock") {
          err.write(`${session.unblock(text.split(/\s+/)[1] ?? "")}\n`);
        } else if (cmd === "/mode") err.write(modeCommand(modes, text.split(/\s+/)[1]));
        else if (cmd === "/help") err.write(HELP);
        else if (cmd === "/undo") {
          const { undoInChat } = await import("./undo_cmd.ts");
          const arg = text.split(/\s+/)[1];
          err.write(
            `${await undoInChat(store, runtime.sandbox, session.conversationId, arg)}\n`,
          );
        } else err.write(`Unknown command ${cmd}. Type /help for the list.\n`);
        continue;
      }
      const code = exitCodeOf(await turn(text));
      // Piped input is a script: a failed or cut-short turn is its exit code.
      if (code !== 0 && !Deno.stdin.isTerminal()) exitCode = code;
    }
    if (session.conversationId && store) {
      err.write(
        `(conversation ${session.conversationId}: zeph --resume ${session.conversationId})\n`,
      );
    }
    return exitCode;
  } finally {
    Deno.removeSignalListener("SIGINT", interrupt);
    lines?.close();
  }
}

/** The chat's /help; each line fits an 80-column terminal. */
export const HELP = [
  "/clear            new conversation (resets quota, session rules, result cache)",
  "/undo [n]         undo the last n file changes of this conversation (default 1)",
  "/unblock <tool>   allow a tool the anomaly detector blocked ([tools.anomaly])",
  "/mode [name]      list the modes, or switch to one (the tools the model gets)",
  "/help             this list",
  "/exit             quit (also Ctrl-D, or Ctrl-C twice)",
  "Ctrl-C during a turn cancels the running tool and the turn.",
  "A line ending in \\ continues on the next line; a multi-line paste is one prompt.",
  "Keys typed while a turn runs are discarded (zeph says how many).",
  "",
].join("\n");

/** `--output-format`, else `--json` (stream-json), else text. */
function outputFormatOf(value: string | undefined, json: boolean): OutputFormat {
  if (value === undefined) return json ? "stream-json" : "text";
  if (!(OUTPUT_FORMATS as readonly string[]).includes(value)) {
    throw new CliError(
      `Unknown output format "${value}". Use one of: ${OUTPUT_FORMATS.join(", ")}.`,
    );
  }
  return value as OutputFormat;
}

/** Input piped into `zeph -p` (`cat f | zeph -p "explain"`): appended to the prompt. */
async function withPipedInput(prompt: string): Promise<string> {
  if (Deno.stdin.isTerminal()) return prompt;
  const piped = await new Response(Deno.stdin.readable).text();
  if (piped.length > MAX_PIPED_INPUT) {
    throw new CliError(
      `Cannot use the piped input: it is ${piped.length} characters, over the limit of ` +
        `${MAX_PIPED_INPUT}. Pipe a smaller part, or name the file in the prompt so the agent reads it.`,
    );
  }
  return piped.trim() ? `${prompt}\n\n${piped.replace(/\n+$/, "")}` : prompt;
}

/** Piped input larger than this is refused: it would fill most model contexts on its own. */
const MAX_PIPED_INPUT = 1_000_000;

/** The provider for this chat; a bad choice is a usage error, a missing key a run failure. */
async function providerFor(
  deps: Pick<CliDeps, "buildProvider">,
  config: Config,
  choice: ProviderChoice,
): Promise<Provider> {
  try {
    return await deps.buildProvider(config, choice);
  } catch (error) {
    // Loaded already: buildProvider comes from provider/mod.ts.
    const { ProviderChoiceError, ProviderError } = await import("../provider/mod.ts");
    if (error instanceof ProviderChoiceError) throw new CliError(error.message);
    if (error instanceof ProviderError) {
      const hint = error.hint ? `\n${error.hint}` : "";
      throw new CliError(`${error.message}${hint}`, 1);
    }
    throw error;
  }
}

function resumeFrom(
  store: Store | null,
  id: string | undefined,
): { conversationId: string | null; messages: Message[]; plan: PlanEntry[] } {
  if (!id) return { conversationId: null, messages: [], plan: [] };
  if (!store) {
    throw new CliError(
      "Cannot resume: no conversation store is configured ([memory] sqlite_path).",
    );
  }
  if (!store.getConversation(id)) {
    throw new CliError(`No conversation "${id}". List them with: zeph sessions`);
  }
  return { conversationId: id, messages: store.loadMessages(id), plan: store.loadPlan(id) };
}

/**
 * The ways to set up a provider, after Ollama (the default) could not be reached. The notice
 * before it names the URL and says to start Ollama or set base_url; this adds only what it
 * does not say.
 */
export function unreachableHelp(model: string): string {
  return [
    `zeph: to set up a model: install Ollama (https://ollama.com) and run "ollama pull ${model}";`,
    '  or a hosted one: [llm] provider = "claude" with ANTHROPIC_API_KEY, or "openai" with',
    "  OPENAI_API_KEY (any OpenAI-compatible server via [llm.openai] base_url); or --provider.",
    '  Offline demo: zeph -p "…" --provider script --script examples/demo.jsonl',
  ].join("\n");
}

/** Lines from stdin: node:readline on a TTY (editing, history), a plain queue from a pipe. */
interface Lines {
  /** One line; `history: false` keeps it out of the history (answers to asks). */
  read(prompt: string, options?: { history?: boolean }): Promise<string | null>;
  onInterrupt(fn: () => void): void;
  /** Answers every pending read with null (a cancelled ask), without closing the input. */
  cancelPending(): void;
  reprompt(): void;
  close(): void;
}

export function historyPath(env: (k: string) => string | undefined = (k) => Deno.env.get(k)) {
  const base = env("XDG_DATA_HOME") || path.join(env("HOME") ?? ".", ".local", "share");
  return path.join(base, "zeph", "history");
}

const HISTORY_SIZE = 1000;

async function openLines(err: Writer, options: { busy: boolean }): Promise<Lines> {
  const readline = await import("node:readline");
  const process = (await import("node:process")).default;
  const terminal = Deno.stdin.isTerminal();
  const file = historyPath();
  let history: string[] = [];
  if (terminal) {
    try {
      history = (await Deno.readTextFile(file)).split("\n").filter(Boolean).slice(-HISTORY_SIZE)
        .reverse();
    } catch {
      // No history yet.
    }
  }
  // On a TTY, keys pass a filter: bracketed paste, and keys typed during a turn discarded.
  const keys = terminal ? new KeyFilter() : null;
  if (keys) keys.busy = options.busy;
  if (keys) {
    err.write(BRACKETED_PASTE_ON);
    globalThis.addEventListener("unload", () => err.write(BRACKETED_PASTE_OFF));
  }
  const rl = readline.createInterface({
    input: keys ? await filteredInput(process.stdin, keys) : process.stdin,
    output: terminal ? process.stderr : undefined,
    terminal,
    history,
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
  });
  const queue: string[] = [];
  const waiters: { resolve: (line: string | null) => void; history: boolean }[] = [];
  let closed = false;
  let continued = "";
  rl.on("line", (typed: string) => {
    // A line ending in "\" continues on the next one (a newline in the prompt).
    if (terminal && waiters[0]?.history !== false && typed.endsWith("\\")) {
      continued += restoreNewlines(typed.slice(0, -1)) + "\n";
      rl.setPrompt("… ");
      rl.prompt();
      return;
    }
    const line = continued + restoreNewlines(typed);
    continued = "";
    const w = waiters.shift();
    if (keys && waiters.length === 0) keys.busy = true;
    if (terminal && line.trim()) {
      if (w?.history === false) (rl as unknown as { history?: string[] }).history?.shift();
      else saveHistory(file, line);
    }
    if (w) w.resolve(line);
    else queue.push(line);
  });
  rl.on("close", () => {
    closed = true;
    for (const w of waiters.splice(0)) w.resolve(null);
  });
  return {
    read(prompt, options = {}) {
      if (queue.length) return Promise.resolve(queue.shift()!);
      if (closed) return Promise.resolve(null);
      if (keys) {
        keys.busy = false;
        const dropped = keys.takeDiscarded();
        if (dropped) err.write(`(${dropped} keys typed during the turn were discarded)\n`);
      }
      if (terminal) {
        const nl = prompt.lastIndexOf("\n");
        if (nl >= 0) err.write(prompt.slice(0, nl + 1));
        rl.setPrompt(prompt.slice(nl + 1));
        rl.prompt();
      }
      return new Promise((resolve) => waiters.push({ resolve, history: options.history ?? true }));
    },
    onInterrupt(fn) {
      rl.on("SIGINT", fn);
    },
    cancelPending() {
      for (const w of waiters.splice(0)) w.resolve(null);
      if (keys) keys.busy = true;
    },
    reprompt() {
      if (terminal) rl.prompt();
    },
    close() {
      if (!closed) rl.close();
      if (keys) err.write(BRACKETED_PASTE_OFF);
    },
  };
}

/**
 * Appends one prompt to the history file. Prompts may hold secrets, so the file is the owner's
 * only, like the database and the audit log; one created by an older zeph is tightened too.
 */
export function saveHistory(file: string, line: string): void {
  try {
    Deno.mkdirSync(path.dirname(file), { recursive: true });
    Deno.writeTextFileSync(file, line.replace(/\n/g, " ") + "\n", { append: true, mode: 0o600 });
    if (Deno.build.os !== "windows") Deno.chmodSync(file, 0o600);
  } catch {
    // History is a convenience: a read-only data dir must not break the session.
  }
}
