/**
 * The subcommand modules and which of them a command line needs. A one-shot `zeph tool read …`
 * registers only `tool`, so it does not load the chat, its renderer or the agent; `--help`, the
 * default action (no subcommand) and anything unclear load them all.
 */
import { type CommandModule, GLOBAL_SPELLINGS } from "./program.ts";

/** Subcommands, in `--help` order. To add one: create `<name>_cmd.ts`, add ONE line here. */
export const COMMANDS: readonly { name: string | null; load(): Promise<CommandModule> }[] = [
  // The default action (interactive agent, -p, --resume) and the root options it adds.
  { name: null, load: () => import("./chat_cmd.ts") },
  { name: "sessions", load: () => import("./sessions_cmd.ts") },
  { name: "overflow", load: () => import("./overflow_cmd.ts") },
  { name: "tools", load: () => import("./tools_cmd.ts") },
  { name: "tool", load: () => import("./tool_cmd.ts") },
  { name: "mcp", load: () => import("./mcp_cmd.ts") },
  { name: "config", load: () => import("./config_cmd.ts") },
  { name: "permissions", load: () => import("./permissions_cmd.ts") },
  { name: "filter", load: () => import("./filter_cmd.ts") },
  { name: "undo", load: () => import("./undo_cmd.ts") },
];

/** Global options that take a value, in both spellings. */
const VALUE_OPTIONS = new Set(GLOBAL_SPELLINGS.filter((o) => o.takesValue).flatMap((o) => o.names));
/** Global options without a value. */
const FLAGS = new Set(GLOBAL_SPELLINGS.filter((o) => !o.takesValue).flatMap((o) => o.names));

/**
 * The commands `args` needs registered: the one subcommand it names after global options only,
 * or all of them (help, the default action, a root option of the chat, a mistyped name). `--`
 * stops the scan: it may hand the rest to the subcommand (`zeph filter -- cmd --help`).
 */
export function commandsFor(args: readonly string[]): typeof COMMANDS {
  let i = 0;
  while (i < args.length) {
    const arg = args[i];
    const name = arg.startsWith("--") ? arg.split("=")[0] : arg;
    if (FLAGS.has(arg)) i += 1;
    else if (VALUE_OPTIONS.has(name)) i += name === arg ? 2 : 1;
    else break;
  }
  const named = COMMANDS.find((c) => c.name !== null && c.name === args[i]);
  if (!named) return COMMANDS;
  const rest = args.slice(i + 1);
  const end = rest.indexOf("--");
  const own = end === -1 ? rest : rest.slice(0, end);
  if (own.some((a) => a === "-h" || a === "--help" || a === "help")) return COMMANDS;
  return [named];
}
