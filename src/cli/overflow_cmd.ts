/**
 * `zeph overflow show <id>`: the full output of a tool call the CLI cut short
 * ("full output: overflow:<id>"). The database is the user's own file, readable by its owner
 * only, so every conversation in it is theirs; the entry's conversation is looked up, not asked.
 */
import { CliError } from "./errors.ts";
import type { Store } from "../store/mod.ts";
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
    .argument("<id>", "the id the CLI printed (overflow:<id>, <id> or a unique prefix of it)")
    .option("--offset <n>", "first line to print (0-based)", "0")
    .option("--limit <n>", "how many lines to print (default: all)")
    .action(async (rawId, opts, command) => {
      const globals = globalsOf(command);
      const offset = count("--offset", opts.offset);
      const limit = opts.limit === undefined ? undefined : count("--limit", opts.limit);
      const id = rawId.trim().replace(/^overflow:/, "");
      // The store only: no tools, no file worker, no MCP servers.
      const data = await deps.openWorkspace(globals);
      try {
        const store = data.store;
        if (!store) {
          throw new CliError(
            "Cannot show overflow: no conversation store is open ([memory] sqlite_path).",
            1,
          );
        }
        const entry = findEntry(store, id);
        const slice = entry
          ? store.overflowSlice(entry.id, entry.conversationId, { offset, limit, unit: "lines" })
          : null;
        if (!slice) {
          const days = data.loaded.config.tools.overflow.retention_days;
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
        data.close();
      }
    });
}

/** How many entries an ambiguous prefix lists. */
const SHOWN_MATCHES = 10;

/**
 * The entry `id` names: the entry with that id, else the one entry whose id starts with it;
 * null when none does. A prefix that several ids share is an error listing them.
 */
function findEntry(store: Store, id: string): { id: string; conversationId: string } | null {
  if (!id) {
    throw new CliError("zeph overflow show needs an id: the one the CLI printed as overflow:<id>.");
  }
  const exact = store.overflowConversation(id);
  if (exact) return { id, conversationId: exact };
  const matches = store.overflowIdsStartingWith(id, SHOWN_MATCHES + 1);
  if (matches.length === 0) return null;
  if (matches.length === 1) {
    const conversationId = store.overflowConversation(matches[0]);
    return conversationId ? { id: matches[0], conversationId } : null;
  }
  const shown = matches.slice(0, SHOWN_MATCHES).map((match) => {
    const conversationId = store.overflowConversation(match);
    const info = conversationId ? store.overflowInfo(match, conversationId) : null;
    return info
      ? `  ${match}  ${info.lines} line${info.lines === 1 ? "" : "s"}  ${
        new Date(info.createdAt).toISOString()
      }`
      : `  ${match}`;
  });
  const more = matches.length > SHOWN_MATCHES ? ["  … and more"] : [];
  throw new CliError(
    [`The prefix "${id}" matches several overflow entries; give more of the id:`, ...shown, ...more]
      .join("\n"),
  );
}

function count(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new CliError(`${flag} must be a whole number of lines (0 or more), not "${value}".`);
  }
  return n;
}
