/**
 * `zeph overflow show <id>`: the full output of a tool call the CLI cut short
 * ("full output: overflow:<id>"). The database is the user's own file, readable by its owner
 * only, so every conversation in it is theirs; the entry's conversation is looked up, not asked.
 */
import { CliError } from "./errors.ts";
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";
import { writeStdout } from "./stdout.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  const overflow = program
    .command("overflow")
    .description("large tool outputs kept in the store (the CLI prints overflow:<id>)");
  overflow
    .command("show")
    .description("print a stored tool output in full, or some of its lines")
    .argument("<id>", "the id the CLI printed (overflow:<id> or <id>)")
    .option("--offset <n>", "first line to print (0-based)", "0")
    .option("--limit <n>", "how many lines to print (default: all)")
    .action(async (rawId, opts, command) => {
      const globals = globalsOf(command);
      const offset = count("--offset", opts.offset);
      const limit = opts.limit === undefined ? undefined : count("--limit", opts.limit);
      const id = rawId.trim().replace(/^overflow:/, "");
      const runtime = await deps.buildRuntime(globals);
      try {
        const store = runtime.store;
        if (!store) {
          throw new CliError(
            "Cannot show overflow: no conversation store is open ([memory] sqlite_path).",
            1,
          );
        }
        const conversationId = store.overflowConversation(id);
        const slice = conversationId
          ? store.overflowSlice(id, conversationId, { offset, limit, unit: "lines" })
          : null;
        if (!slice) {
          const days = runtime.loaded.config.tools.overflow.retention_days;
          throw new CliError(
            `No overflow entry "${id}" in ${store.path}. Entries are kept ${days} days ` +
              "([tools.overflow] retention_days) and go with their conversation.",
            1,
          );
        }
        if (globals.json) {
          const { text, offset: from, end, total, info } = slice;
          console.log(JSON.stringify({ ...info, offset: from, end, totalLines: total, text }));
          return;
        }
        // Whole lines: a stored output often lacks its last newline.
        const text = slice.text === "" || slice.text.endsWith("\n")
          ? slice.text
          : `${slice.text}\n`;
        await writeStdout(text);
        if (slice.end < slice.total) {
          console.error(
            `(lines ${slice.offset + 1}–${slice.end} of ${slice.total}; ` +
              `more with --offset ${slice.end})`,
          );
        }
      } finally {
        await runtime.close();
      }
    });
}

function count(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new CliError(`${flag} must be a whole number of lines (0 or more), not "${value}".`);
  }
  return n;
}
