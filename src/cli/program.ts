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

/** Reads the global options from any (sub)command, normalised and with `cwd` absolute. */
export function globalsOf(
  command: { optsWithGlobals(): Record<string, unknown> },
): GlobalOptions {
  const o = command.optsWithGlobals();
  return {
    cwd: path.resolve(typeof o.cwd === "string" ? o.cwd : Deno.cwd()),
    config: typeof o.config === "string" ? o.config : undefined,
    yes: o.yes === true,
    json: o.json === true,
    ...(typeof o.mcpConfig === "string" ? { mcpConfig: path.resolve(o.mcpConfig) } : {}),
  };
}
