/**
 * `zeph tool <id> '<json>'`: one call through the dispatch boundary (validation, permission,
 * executor, hooks), exactly as the agent would make it. Exit 0 ok, 1 tool error, 2 bad usage.
 * An `ask` decision is allowed by `--yes`, asked on the terminal when stdin and stderr are one
 * (and `--json` is off), and refused with `confirmation_required` otherwise.
 */
import type { AskAnswer, AskReply, AskRequest } from "../tools/mod.ts";
import { terminalAsk } from "./ask.ts";
import { CliError } from "./errors.ts";
import { withInterrupt } from "./interrupt.ts";
import type { CommandDeps, GlobalOptions, Runtime } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("tool")
    .description("run one tool call and print its result")
    .argument("<id>", "tool id, e.g. read")
    .argument("[input]", "JSON object with the tool's parameters", "{}")
    .option("--json", 'print {"tool","ok","output","category","error"}')
    .action(async (id, inputText, _opts, command) => {
      await runToolCall(deps, globalsOf(command), { inputText, resolve: () => id });
    });
}

/**
 * Parses `inputText`, builds the runtime, dispatches one call of the tool `resolve` names (it
 * may throw a CliError) and prints the result; shared by `zeph tool` and `zeph mcp call`.
 */
export async function runToolCall(
  deps: CommandDeps,
  globals: GlobalOptions,
  options: { inputText: string; resolve(runtime: Runtime): string },
): Promise<void> {
  const input = parseToolInput(options.inputText);
  const runtime = await deps.buildRuntime(globals);
  try {
    const id = options.resolve(runtime);
    const result = await withInterrupt((signal) => {
      const interactive = !globals.yes && !globals.json && Deno.stdin.isTerminal() &&
        Deno.stderr.isTerminal();
      const ask = interactive ? askOnTerminal(signal) : undefined;
      return runtime.registry.dispatch(
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
      }));
    } else if (result.ok) {
      console.log(result.text);
    } else {
      console.error(result.text);
    }
    deps.status.exitCode = result.ok ? 0 : 1;
  } finally {
    await runtime.close();
  }
}

function parseToolInput(inputText: string): unknown {
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
  return input;
}

/** The terminal question of src/cli/ask.ts, on stderr so stdout keeps only the result. */
function askOnTerminal(
  signal: AbortSignal,
): (request: AskRequest) => Promise<AskAnswer | AskReply> {
  const encoder = new TextEncoder();
  const write = (text: string) => void Deno.stderr.writeSync(encoder.encode(text));
  return terminalAsk({
    write,
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
