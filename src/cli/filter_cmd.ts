/**
 * `zeph filter`: see what the output filters make of a command's output, to check and tune
 * rules. `zeph filter --command "cargo test" < saved.txt` filters saved output;
 * `zeph filter -- cargo test` runs the command through the bash tool (the same dispatch path the
 * agent uses, so permissions apply) and shows the result, exiting with the command's exit code.
 * `--explain` shows, for either, which rule and stage removed which lines.
 * The filtered text goes to stdout, the stats line to stderr.
 */
import { CliError } from "./errors.ts";
import { writeStdout } from "./stdout.ts";
import { withInterrupt } from "./interrupt.ts";
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";
import type { FilterStats } from "../filter/mod.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("filter")
    .description("show what the output filters keep of a command's output")
    .argument(
      "[command...]",
      "run this command through the bash tool (after --): its words as given (leading NAME=value words set the environment, as in a shell), or one shell line",
    )
    .option("--command <cmd>", "filter saved output from stdin as if <cmd> produced it")
    .option("--exit-code <n>", "exit code of the saved run (non-zero marks it failed)", "0")
    .option(
      "--explain",
      "show which rule and stage removed which lines (of saved output, or of the command run)",
    )
    .option("--rules", "list the rules loaded (built-in and yours), with their matchers and files")
    .option(
      "--strategies [type]",
      "list the strategies a rule can use, or describe one type's options",
    )
    .addHelpText(
      "after",
      '\nYour rules: filters.toml next to config.toml (~/.config/zeph/filters.toml), or\n[tools.filters] filters_path; `zeph config check` validates them (README: "Writing\na filter rule").\n\nExamples:\n  zeph filter --command "cargo test" < cargo-test.txt\n  zeph filter --explain --command "go test -json ./..." < out.jsonl\n  zeph filter -- cargo clippy --workspace\n  zeph filter --explain -- make -k\n  zeph filter --strategies strip_noise',
    )
    .action(async (words, opts, command) => {
      const globals = globalsOf(command);
      if (opts.strategies !== undefined) {
        await printStrategies(opts.strategies === true ? null : opts.strategies, deps);
        return;
      }
      if (opts.rules) {
        await printRules(globals, deps);
        return;
      }
      if (opts.command !== undefined && words.length > 0) {
        throw new CliError(
          "Use either --command (filter saved output from stdin) or -- <command> (run it), not both.",
        );
      }
      if (opts.command !== undefined) {
        const exitCode = Number(opts.exitCode);
        if (!Number.isInteger(exitCode)) {
          throw new CliError(`--exit-code must be an integer, not "${opts.exitCode}".`);
        }
        await filterSaved(opts.command, exitCode, globals, deps, opts.explain === true);
        return;
      }
      if (words.length === 0) {
        throw new CliError(
          'Nothing to filter. Run a command (zeph filter -- cargo test) or pass saved output (zeph filter --command "cargo test" < out.txt).',
        );
      }
      await filterRun(commandLine(words), globals, deps, opts.explain === true);
    });
}

/**
 * The bash line for `zeph filter -- <words>`: several words are an argv, each quoted where the
 * shell would read it otherwise (`printf '%s|' "a b"` prints "a b|"); one word is a shell line
 * as written (`zeph filter -- "cargo test 2>&1 | tail"`). Leading `NAME=value` words stay
 * unquoted, so they set the command's environment as they do in a shell line and for `env`
 * (`zeph filter -- RUST_BACKTRACE=1 cargo test`); a value that needs quoting is quoted after the
 * `=`, which keeps it an assignment.
 */
export function commandLine(words: readonly string[]): string {
  if (words.length === 1) return words[0];
  let leading = true;
  return words.map((w) => {
    const assignment = leading ? /^([A-Za-z_]\w*)=(.*)$/s.exec(w) : null;
    leading = assignment !== null;
    return assignment ? `${assignment[1]}=${shellWord(assignment[2])}` : shellWord(w);
  }).join(" ");
}

function shellWord(w: string): string {
  return /^[\w\/.,:=@%+^-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`;
}

async function printStrategies(type: string | null, deps: CommandDeps): Promise<void> {
  const { describeStrategy, listStrategies, STRATEGY_TYPES } = await import("../filter/mod.ts");
  if (type === null) {
    console.log(listStrategies().join("\n"));
    deps.status.exitCode = 0;
    return;
  }
  const lines = describeStrategy(type);
  if (!lines) {
    const { suggestKey } = await import("../config/lite.ts");
    const guess = suggestKey(type, STRATEGY_TYPES);
    throw new CliError(
      `No strategy "${type}"${guess ? ` (did you mean "${guess}"?)` : ""}; there are ${
        STRATEGY_TYPES.join(", ")
      }.`,
    );
  }
  console.log(lines.join("\n"));
  deps.status.exitCode = 0;
}

/** `zeph filter --rules`: name, strategy, matcher and file of each rule, in the order they run. */
async function printRules(globals: ReturnType<typeof globalsOf>, deps: CommandDeps): Promise<void> {
  const { engine, filter } = await loadEngine(globals, deps);
  console.log(filter.describeRules(engine.rules).join("\n"));
  deps.status.exitCode = 0;
}

/** The filter engine the configuration makes (built-in rules and the user's), its warnings printed. */
async function loadEngine(globals: ReturnType<typeof globalsOf>, deps: CommandDeps) {
  const loaded = await deps.loadConfig(globals);
  const filter = await import("../filter/mod.ts");
  const { engine, warnings } = await filter.loadFilterEngine(loaded.config, {
    configDir: await filter.filtersConfigDir(loaded.path),
  });
  for (const w of warnings) console.error(`zeph: warning: ${w}`);
  return { engine, filter };
}

async function filterSaved(
  commandText: string,
  exitCode: number,
  globals: ReturnType<typeof globalsOf>,
  deps: CommandDeps,
  explain: boolean,
): Promise<void> {
  if (Deno.stdin.isTerminal()) {
    throw new CliError(
      `No saved output on stdin. Pipe it in: zeph filter --command "${commandText}" < output.txt`,
    );
  }
  const { engine, filter } = await loadEngine(globals, deps);
  const raw = await new Response(Deno.stdin.readable).text();
  if (explain) {
    console.log(
      filter.explainFilter(engine, commandText, raw, { failed: exitCode !== 0 }).join("\n"),
    );
    deps.status.exitCode = 0;
    return;
  }
  const outcome = engine.filter(commandText, raw, { failed: exitCode !== 0 });
  if (globals.json) report(true, outcome.text, outcome.stats);
  else {
    // Saved output comes back framed as it went in: a final newline only where the input had one,
    // so the filtered file can stand in for the original byte for byte where nothing was removed.
    await writeStdout(framed(outcome.text, raw));
    console.error(statsLine(outcome.stats));
  }
  deps.status.exitCode = 0;
}

/** `text` ending in a newline exactly when `raw` does (nothing added to empty text). */
export function framed(text: string, raw: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  if (body === "") return text === "" || !raw.endsWith("\n") ? "" : "\n";
  return raw.endsWith("\n") ? `${body}\n` : body;
}

async function filterRun(
  commandText: string,
  globals: ReturnType<typeof globalsOf>,
  deps: CommandDeps,
  explain: boolean,
): Promise<void> {
  const runtime = await deps.buildRuntime(globals);
  try {
    const result = await withInterrupt((signal) =>
      runtime.registry.dispatch(
        { id: `cli-filter-${crypto.randomUUID()}`, name: "bash", input: { command: commandText } },
        runtime.scope({ signal }),
      )
    );
    if (!result.ok) {
      console.error(result.text);
      deps.status.exitCode = 1;
      return;
    }
    if (explain) {
      // The tool's output before the filter hook (its exit/timeout notices included, as the
      // hook receives it), explained by an engine loaded from the same configuration.
      const { engine, filter } = await loadEngine(globals, deps);
      const raw = result.output?.text ?? result.text;
      console.log(
        filter.explainFilter(engine, commandText, raw, { failed: result.output?.failed ?? false })
          .join("\n"),
      );
    } else report(globals.json, result.text, result.filterStats);
    // The command's own exit code passes through, so `zeph filter -- make` fails as make does.
    const code = result.output?.exitCode;
    deps.status.exitCode = typeof code === "number" && code > 0 && code < 256
      ? code
      : result.output?.failed
      ? 1
      : 0;
  } finally {
    await runtime.close();
  }
}

function report(json: boolean, text: string, stats: FilterStats | undefined): void {
  if (json) {
    console.log(JSON.stringify({ text, stats: stats ?? null }));
    return;
  }
  console.log(text);
  console.error(statsLine(stats));
}

/** The inline stats line, or what happened when nothing was removed. */
export function statsLine(stats: FilterStats | undefined): string {
  if (!stats) return "[shell] not filtered (output filters disabled)";
  const rules = stats.rules.length ? stats.rules.join(", ") : "no rule matched";
  const head = stats.inline || `[shell] ${stats.rawLines} lines, nothing removed`;
  const failed = stats.failure
    ? `; a stage failed (${stats.failure}), so the output is shown as it came: please report it`
    : "";
  return `${head} (${rules}; confidence ${stats.confidence}${failed})`;
}
