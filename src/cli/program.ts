/**
 * What a subcommand file builds on: the commander program type it registers on, the module
 * shape cli/mod.ts loads, and the global options read back from any (sub)command.
 */
import * as path from "node:path";
import type { CommandDeps, GlobalOptions } from "./deps.ts";

/** The program type command files register on. */
export type CliProgram = import("@commander-js/extra-typings").Command<
  [],
  { cwd?: string; config?: string; yes?: boolean; json?: boolean; mcpConfig?: string }
>;

/** A subcommand module: `src/cli/<name>_cmd.ts`. */
export interface CommandModule {
  register(program: CliProgram, deps: CommandDeps): void;
}

/**
 * The root program's options, in `--help` order: cli/mod.ts registers them on commander, and
 * commands.ts and the one-shot reader (one_shot.ts) read their flags from this list.
 */
export const GLOBAL_OPTIONS: readonly { flags: string; description: string }[] = [
  { flags: "-C, --cwd <dir>", description: "workspace directory (default: the current directory)" },
  {
    flags: "--config <path>",
    description: "config file (default: $ZEPH_CONFIG, then ~/.config/zeph/config.toml)",
  },
  { flags: "-y, --yes", description: "allow actions that would ask for confirmation" },
  {
    flags: "--json",
    description: "machine-readable output (the chat: --output-format stream-json)",
  },
  {
    flags: "--mcp-config <file>",
    description: "also start the MCP servers of this .mcp.json (never read unasked)",
  },
];

/** One global option's spellings (`-C`, `--cwd`), its key (`cwd`) and whether it takes a value. */
export interface OptionSpelling {
  names: string[];
  key: string;
  takesValue: boolean;
}

/** Options as spellings, read as commander reads them: `-C, --cwd <dir>` → -C/--cwd, cwd, a value. */
export function spellingsOf(
  options: readonly { flags: string }[],
): OptionSpelling[] {
  return options.map(({ flags }) => {
    const names = flags.split(/[ ,]+/).filter((w) => w.startsWith("-"));
    const long = names.find((n) => n.startsWith("--"))!.slice(2);
    return {
      names,
      key: long.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()),
      takesValue: /<[^>]+>/.test(flags),
    };
  });
}

/** GLOBAL_OPTIONS as spellings. */
export const GLOBAL_SPELLINGS: readonly OptionSpelling[] = spellingsOf(GLOBAL_OPTIONS);

/** Reads the global options from any (sub)command, normalised and with `cwd` absolute. */
export function globalsOf(
  command: { optsWithGlobals(): Record<string, unknown> },
): GlobalOptions {
  return globalsFrom(command.optsWithGlobals());
}

/** The global options of commander's option record (or the one-shot reader's), normalised. */
export function globalsFrom(o: Record<string, unknown>): GlobalOptions {
  return {
    cwd: path.resolve(typeof o.cwd === "string" ? o.cwd : Deno.cwd()),
    config: typeof o.config === "string" ? o.config : undefined,
    yes: o.yes === true,
    json: o.json === true,
    ...(typeof o.mcpConfig === "string" ? { mcpConfig: path.resolve(o.mcpConfig) } : {}),
  };
}
