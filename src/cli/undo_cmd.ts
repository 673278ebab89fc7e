/**
 * `zeph undo [n] [--list] [--conversation ID]`: reverses the last `n` file changes zeph's tools
 * made in a conversation (default: the latest one in this workspace with changes left), newest
 * first, refusing where a file changed since. The chat's `/undo [n]` runs the same code.
 */
import type { Sandbox } from "../sandbox/mod.ts";
import type { Store } from "../store/mod.ts";
import { CliError } from "./errors.ts";
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";
import { enclosingDirs, isDirectory } from "./resume.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("undo")
    .description("undo the last file changes zeph made (newest first; never over later edits)")
    .argument("[n]", "how many changes to undo", "1")
    .option("--list", "list the changes that can be undone, newest first, and change nothing")
    .option("--conversation <id>", "the conversation (default: the latest one in this workspace)")
    .action(async (n, opts, command) => {
      const globals = globalsOf(command);
      const tools = await import("../tools/mod.ts");
      let count: number;
      try {
        count = tools.parseUndoCount(n);
      } catch (error) {
        throw new CliError((error as Error).message);
      }
      // Undo reads the store and puts files back through the sandbox's checks: no tools, no file
      // worker, no MCP servers.
      const data = await deps.openWorkspace(globals);
      try {
        const store = data.store;
        if (!store) {
          throw new CliError("No conversation store is configured ([memory] sqlite_path).", 1);
        }
        const id = opts.conversation ?? latestConversation(store, data.sandbox, globals.cwd);
        if (!id) {
          console.log("No changes to undo in this workspace.");
          return;
        }
        if (!store.getConversation(id)) {
          throw new CliError(`No conversation "${id}". List them with: zeph sessions`, 1);
        }
        if (opts.list) {
          const entries = store.undo.list(id);
          if (globals.json) console.log(JSON.stringify(entries.map(publicEntry), null, 2));
          else {
            console.log(`Conversation ${id}:`);
            console.log(tools.formatUndoList(entries));
          }
          return;
        }
        // The changes are restored in the conversation's own workspace, so that `undo` works from
        // a subdirectory and `--conversation` from anywhere: the sandbox is that workspace's.
        const home = store.getConversation(id)!.cwd;
        let sandbox = data.sandbox;
        if (home && home !== sandbox.workspace && isDirectory(home)) {
          sandbox = await data.sandboxFor(home);
          console.error(`zeph: undoing in the conversation's workspace ${home}`);
        }
        const report = await tools.undoChanges({
          log: store.undo,
          conversationId: id,
          sandbox,
          count,
        });
        if (globals.json) {
          console.log(JSON.stringify(
            {
              conversationId: id,
              restored: report.restored.map(publicEntry),
              refused: report.refused
                ? { ...publicEntry(report.refused.entry), reason: report.refused.reason }
                : null,
              remaining: report.remaining,
            },
            null,
            2,
          ));
        } else console.log(tools.formatUndoReport(report));
        if (report.refused) deps.status.exitCode = 1;
      } finally {
        data.close();
      }
    });
}

/** The chat's `/undo [n]`: what to print. Usage errors are printed, not thrown. */
export async function undoInChat(
  store: Store | null,
  sandbox: Sandbox,
  conversationId: string | null,
  arg: string | undefined,
): Promise<string> {
  if (!store) return "Cannot undo: no conversation store is configured ([memory] sqlite_path).";
  if (!conversationId) return "Nothing to undo: this conversation has made no changes yet.";
  const { formatUndoReport, parseUndoCount, undoChanges } = await import("../tools/mod.ts");
  let count: number;
  try {
    count = parseUndoCount(arg);
  } catch (error) {
    return (error as Error).message;
  }
  return formatUndoReport(await undoChanges({ log: store.undo, conversationId, sandbox, count }));
}

/**
 * The conversation with the newest change left in this workspace (as given or canonical) or, from
 * a subdirectory, in the nearest enclosing one.
 */
function latestConversation(store: Store, sandbox: Sandbox, cwd: string): string | null {
  const dirs = new Set([...enclosingDirs(sandbox.workspace), ...enclosingDirs(cwd)]);
  for (const dir of dirs) {
    const id = store.undo.latestConversation(dir);
    if (id) return id;
  }
  return null;
}

function publicEntry(e: import("../store/mod.ts").UndoEntry) {
  return {
    id: e.id,
    tool: e.tool,
    summary: e.summary,
    createdAt: new Date(e.createdAt).toISOString(),
    note: e.note,
  };
}
