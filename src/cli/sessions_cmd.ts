/** `zeph sessions [--json]`: stored conversations, newest first; `zeph sessions delete <id>`. */
import type { Store } from "../store/mod.ts";
import { CliError } from "./errors.ts";
import type { CommandDeps, Runtime } from "./deps.ts";
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
        for (const c of list) {
          const when = new Date(c.updatedAt).toISOString().replace("T", " ").slice(0, 16);
          const title = c.title || "(untitled)";
          console.log(`${c.id}  ${when}  ${String(c.messageCount).padStart(4)} msgs  ${title}`);
        }
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
  const runtime: Runtime = await deps.buildRuntime(globals);
  try {
    const store = runtime.store;
    if (!store) {
      throw new CliError("No conversation store is configured ([memory] sqlite_path).", 1);
    }
    fn(store);
  } finally {
    await runtime.close();
  }
}
