/**
 * `zeph tool <id> '<json>'`: one call through the dispatch boundary (validation, permission,
 * executor, hooks), exactly as the agent would make it. The input may also be `-` (read from
 * stdin) or `@file`, for inputs too big for the command line. Exit 0 ok, 1 tool error or a
 * command that exited non-zero (bash), 2 bad usage. `zeph tool <id> --help` describes one tool.
 * An `ask` decision is allowed by `--yes`, asked on the terminal when stdin and stderr are one
 * (and `--json` is off), and refused with `confirmation_required` otherwise.
 */
import type { AskAnswer, AskReply, AskRequest } from "../tools/mod.ts";
import { CliError } from "./errors.ts";
import { withInterrupt } from "./interrupt.ts";
import type { CommandDeps, GlobalOptions, Runtime, RuntimeOptions } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";

/** The tool command's own options besides -h/--help; the one-shot reader reads them too. */
export const TOOL_OPTIONS: readonly { flags: string; description: string }[] = [
  { flags: "--json", description: 'print {"tool","ok","output","category","error","exit_code"}' },
];

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("tool")
    .description("run one tool call and print its result")
    .argument("[id]", "tool id, e.g. read (list: zeph tools)")
    .argument(
      "[input]",
      "JSON object with the tool's parameters; - reads stdin, @file a file " +
        "(left out: {}; stdin is read only for -)",
    )
    .option(TOOL_OPTIONS[0].flags, TOOL_OPTIONS[0].description)
    .helpOption(false)
    .option("-h, --help", "show this help, or with <id> that tool's parameters")
    .addHelpText(
      "after",
      '\nExamples:\n  zeph tool read \'{"path": "README.md", "limit": 20}\'\n' +
        "  zeph tool write - < params.json\n  zeph tool bash @cmd.json --json\n  zeph tool edit --help",
    )
    .action(async (id, inputText, opts, command) => {
      const globals = globalsOf(command);
      if (opts.help) {
        if (id === undefined) command.outputHelp();
        else await printToolHelp(id, deps, globals);
        return;
      }
      if (id === undefined) {
        throw new CliError(
          "Name the tool to run: zeph tool <id> '<json>' (zeph tools lists them, " +
            "zeph tool <id> --help shows one's parameters).",
        );
      }
      await runToolCommand(deps, globals, id, inputText);
    });
}

/** `zeph tool <id> [input]`, parsed: commander's action and the one-shot reader run this. */
export async function runToolCommand(
  deps: CommandDeps,
  globals: GlobalOptions,
  id: string,
  inputText: string | undefined,
): Promise<void> {
  await runToolCall(deps, globals, { inputText: inputText ?? "{}", resolve: () => id, tool: id });
}

/**
 * Reads and parses the input (inline JSON, `-` for stdin, `@file`), builds the runtime,
 * dispatches one call of the tool `resolve` names (it may throw a CliError) and prints the
 * result; shared by `zeph tool` and `zeph mcp call`. A command that ran but exited non-zero is a
 * successful call and a failed run: exit 1, its code in `exit_code`.
 */
export async function runToolCall(
  deps: CommandDeps,
  globals: GlobalOptions,
  options: {
    inputText: string;
    resolve(runtime: Runtime): string;
    /** The tool, when known before the runtime: what it runs in starts meanwhile. */
    tool?: string;
    /** How the runtime is built (`zeph mcp call` reports its server's fault itself). */
    runtime?: RuntimeOptions;
  },
): Promise<void> {
  const input = parseToolInput(await inputTextOf(options.inputText));
  const early = options.tool !== undefined && deps.prestartTool
    ? deps.prestartTool(globals, options.tool, input).catch(() => null)
    : null;
  let runtime: Runtime;
  try {
    // A call of a known tool registers only that tool: the others' modules never load.
    const only = options.tool === undefined ? {} : { tools: [options.tool] };
    runtime = await deps.buildRuntime(globals, { ...options.runtime, ...only });
  } catch (error) {
    (await early)?.release();
    throw error;
  }
  try {
    const id = options.resolve(runtime);
    const result = await withInterrupt(async (signal) => {
      const interactive = !globals.yes && !globals.json && Deno.stdin.isTerminal() &&
        Deno.stderr.isTerminal();
      const ask = interactive ? await askOnTerminal(signal, runtime) : undefined;
      return await runtime.registry.dispatch(
        { id: `cli-${crypto.randomUUID()}`, name: id, input },
        runtime.scope({ signal, ...(ask ? { ask } : {}) }),
      );
    });
    if (globals.json) {
      console.log(JSON.stringify({
        tool: id,
        ok: result.ok,
        output: result.text,
        category: result.category ?? null,
        error: result.error ?? null,
        exit_code: result.output?.exitCode ?? null,
      }));
    } else if (result.ok) {
      console.log(result.text);
    } else {
      console.error(result.text);
    }
    deps.status.exitCode = result.ok && !result.output?.failed ? 0 : 1;
  } finally {
    await runtime.close();
    (await early)?.release();
  }
}

/** The input argument's text: inline JSON, `-` (stdin) or `@file`. */
async function inputTextOf(arg: string): Promise<string> {
  if (arg === "-") {
    if (Deno.stdin.isTerminal()) {
      throw new CliError(
        "The tool input is - (stdin), but stdin is a terminal. Pipe the JSON in: zeph tool write - < params.json",
      );
    }
    return await new Response(Deno.stdin.readable).text();
  }
  if (arg.startsWith("@")) {
    try {
      return await Deno.readTextFile(arg.slice(1));
    } catch (error) {
      throw new CliError(
        `Cannot read the tool input file "${arg.slice(1)}": ${(error as Error).message}. ` +
          "Pass @ followed by the path of a file that holds one JSON object.",
      );
    }
  }
  return arg;
}

function parseToolInput(inputText: string): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(inputText);
  } catch (error) {
    throw new CliError(
      `Cannot parse the tool input as JSON: ${(error as Error).message}. ` +
        `Pass one JSON object, e.g. zeph tool read '{"path": "README.md"}'.`,
    );
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new CliError(
      `The tool input must be a JSON object, not ${
        Array.isArray(input) ? "an array" : String(input === null ? "null" : typeof input)
      }. ` +
        `Example: zeph tool read '{"path": "README.md"}'.`,
    );
  }
  return input as Record<string, unknown>;
}

/** `zeph tool <id> --help`: the tool's description and parameter table. */
async function printToolHelp(
  id: string,
  deps: CommandDeps,
  globals: GlobalOptions,
): Promise<void> {
  const [runtime, { formatTool }] = await Promise.all([
    deps.buildRuntime(globals),
    import("./tool_help.ts"),
  ]);
  try {
    const defs = runtime.registry.definitions();
    const def = defs.find((d) => d.name === id);
    if (!def) {
      const names = defs.map((d) => d.name);
      throw new CliError(`Unknown tool "${id}". Available tools: ${names.join(", ")}`);
    }
    console.log(formatTool(def, { full: true }));
    console.log(`\nUsage: zeph tool ${id} '<json>' | - | @file  [--json] [-y]`);
  } finally {
    await runtime.close();
  }
}

/**
 * The terminal question of src/cli/ask.ts, on stderr so stdout keeps only the result. Its
 * modules load only for a call that may ask: scripts and `--json` calls never do.
 */
async function askOnTerminal(
  signal: AbortSignal,
  runtime: Runtime,
): Promise<(request: AskRequest) => Promise<AskAnswer | AskReply>> {
  const [{ terminalAsk }, { askPreview }] = await Promise.all([
    import("./ask.ts"),
    import("./ask_preview.ts"),
  ]);
  const encoder = new TextEncoder();
  const write = (text: string) => void Deno.stderr.writeSync(encoder.encode(text));
  return terminalAsk({
    write,
    preview: (request) =>
      askPreview(request, {
        sandbox: runtime.sandbox,
        cwd: runtime.sandbox.workspace,
        color: !Deno.env.get("NO_COLOR"),
      }),
    readLine: (prompt) => {
      write(prompt);
      return readLine(signal);
    },
  });
}

/** One line from stdin; null at end of input or when Ctrl-C aborts the call. */
async function readLine(signal: AbortSignal): Promise<string | null> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(1024);
  let line = "";
  const aborted = new Promise<null>((resolve) => {
    if (signal.aborted) resolve(null);
    signal.addEventListener("abort", () => resolve(null), { once: true });
  });
  while (true) {
    const n = await Promise.race([Deno.stdin.read(buffer), aborted]);
    if (n === null) return line === "" || signal.aborted ? null : line;
    line += decoder.decode(buffer.subarray(0, n), { stream: true });
    const end = line.indexOf("\n");
    if (end >= 0) return line.slice(0, end).replace(/\r$/, "");
  }
}
