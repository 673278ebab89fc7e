/**
 * `zeph sessions [--json]`: stored conversations, newest first, as a table (id, last update,
 * messages, workspace, title); `zeph sessions delete <id>`.
 */
import type { ConversationSummary, Store } from "../store/mod.ts";
import { fitLine, flatten } from "./line_width.ts";
import { CliError } from "./errors.ts";
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  const sessions = program
    .command("sessions")
    .description("list stored conversations (continue one with zeph --resume <id>)")
    .option("--json", "print a JSON array of conversations")
    .option("-n, --limit <n>", "how many to show", "20")
    .action(async (opts, command) => {
      const globals = globalsOf(command);
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) {
        throw new CliError(`--limit must be a positive integer, not "${opts.limit}".`);
      }
      await withStore(deps, globals, (store) => {
        const list = store.listConversations({ limit });
        if (globals.json) {
          console.log(JSON.stringify(list, null, 2));
          return;
        }
        if (list.length === 0) {
          console.log('No conversations yet. Start one with: zeph, or zeph -p "…"');
          return;
        }
        const columns = Deno.stdout.isTerminal() ? Deno.consoleSize().columns : 0;
        console.log(sessionTable(list, { home: Deno.env.get("HOME"), columns }));
      });
    });
  sessions
    .command("delete")
    .description("delete a conversation, its messages and its overflow entries")
    .argument("<id>", "conversation id")
    .action(async (id, _opts, command) => {
      const globals = globalsOf(command);
      await withStore(deps, globals, (store) => {
        if (!store.deleteConversation(id)) {
          throw new CliError(`No conversation "${id}". List them with: zeph sessions`, 1);
        }
        console.log(`Deleted conversation ${id}.`);
      });
    });
}

async function withStore(
  deps: CommandDeps,
  globals: ReturnType<typeof globalsOf>,
  fn: (store: Store) => void,
): Promise<void> {
  // The store only: no tools, no file worker, no MCP servers.
  const data = await deps.openWorkspace(globals);
  try {
    const store = data.store;
    if (!store) {
      throw new CliError("No conversation store is configured ([memory] sqlite_path).", 1);
    }
    fn(store);
  } finally {
    data.close();
  }
}

/**
 * The conversations as a table with a header. Titles are the user's first prompt: escapes and
 * control characters are dropped so a title cannot restyle the terminal. On a terminal
 * (`columns` > 0) each row is cut to its width.
 */
export function sessionTable(
  list: ConversationSummary[],
  options: { home?: string; columns?: number } = {},
): string {
  const rows = list.map((c) => ({
    id: c.id,
    when: new Date(c.updatedAt).toISOString().replace("T", " ").slice(0, 16),
    msgs: String(c.messageCount),
    cwd: shortPath(c.cwd, options.home) || "-",
    title: flatten(c.title).trim() || "(untitled)",
  }));
  const header = {
    id: "ID",
    when: "UPDATED (UTC)",
    msgs: "MSGS",
    cwd: "WORKSPACE",
    title: "TITLE",
  };
  const all = [header, ...rows];
  const w = (k: keyof typeof header) => Math.max(...all.map((r) => r[k].length));
  const lines = all.map((r) =>
    `${r.id.padEnd(w("id"))}  ${r.when.padEnd(w("when"))}  ${r.msgs.padStart(w("msgs"))}  ` +
    `${r.cwd.padEnd(w("cwd"))}  ${r.title}`
  );
  const columns = options.columns ?? 0;
  return lines.map((l) => (columns > 0 ? fitLine(l, columns - 1) : l)).join("\n");
}

/** A workspace path for the table: ~ for the home directory, long ones cut at the front. */
function shortPath(cwd: string, home: string | undefined): string {
  const p = home && (cwd === home || cwd.startsWith(home + "/"))
    ? "~" + cwd.slice(home.length)
    : cwd;
  return p.length > 32 ? "…" + p.slice(p.length - 31) : p;
}
