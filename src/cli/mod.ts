/**
 * The command-line front-end: commander program, global options, one file per subcommand
 * (`<name>_cmd.ts` exporting `register(program, deps)`, listed in commands.ts), exit codes (exit_codes.ts: 0 ok,
 * 1 failed run, 2 usage/config error, 3 cut short by a limit, 130 cancelled). It receives everything it runs from main.ts; it must not build
 * registries, stores or providers itself.
 */
import { VERSION } from "../version.ts";
// Not config/mod.ts: that loads the zod schema, which `--help` and `--version` never need.
import { ConfigError } from "../config/errors.ts";
import type { CliDeps, CommandDeps } from "./deps.ts";
import { CliError } from "./errors.ts";
import { EXIT, EXIT_CODES_HELP } from "./exit_codes.ts";
import { commandsFor } from "./commands.ts";
import { type CliProgram, GLOBAL_OPTIONS, globalsFrom, globalsOf } from "./program.ts";
import { oneShotToolCall } from "./one_shot.ts";
import { runToolCommand } from "./tool_cmd.ts";

export type {
  CliDeps,
  CommandDeps,
  GlobalOptions,
  Runtime,
  RuntimeOptions,
  WorkspaceData,
} from "./deps.ts";
export { CliError } from "./errors.ts";
export { type CliProgram, type CommandModule, globalsOf } from "./program.ts";

/**
 * Runs one command line; returns the exit code. A plain `zeph tool <id> [input]` runs without
 * loading commander (one_shot.ts) unless `oneShot` is false, which tests use to compare both.
 */
export async function runCli(
  args: string[],
  deps: CliDeps,
  options: { oneShot?: boolean } = {},
): Promise<number> {
  const full: CommandDeps = { ...deps, status: { exitCode: 0 } };
  const call = options.oneShot === false ? null : oneShotToolCall(args);
  if (call) {
    return await settle(full, async () => {
      const globals = globalsFrom(call.options);
      await assertWorkspace(globals.cwd);
      await runToolCommand(full, globals, call.id, call.input);
    });
  }
  const { Command, CommanderError } = await import("@commander-js/extra-typings");
  // CliProgram states the types of the options registered from GLOBAL_OPTIONS below.
  const program = new Command("zeph")
    .description("A typed, sandboxed AI coding agent")
    .version(`zeph ${VERSION}`, "-V, --version", "print the version") as unknown as CliProgram;
  for (const o of GLOBAL_OPTIONS) program.option(o.flags, o.description);
  program
    .helpCommand("help [command]", "show help for a command")
    .addHelpText("after", ROOT_HELP_AFTER)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(clarifyError(text)) })
    .showHelpAfterError("(run `zeph --help` for usage)");
  program.hook("preAction", async (_program, action) => {
    await assertWorkspace(globalsOf(action).cwd);
  });
  // Only the subcommand the line names, when that is clear: a one-shot call loads no more.
  for (const command of commandsFor(args)) (await command.load()).register(program, full);
  // Listed for --help only: main.ts picks the ACP front-end before the CLI loads.
  program.command("acp").description(
    "serve the Agent Client Protocol on stdio (for Zed and other ACP editors); also --acp",
  ).allowUnknownOption(true).addHelpText("after", ACP_HELP_AFTER);
  // Subcommands only inherit settings made before they are added: apply ours to every level.
  const configure = (command: typeof program.commands[number]) => {
    command.exitOverride().showHelpAfterError("(add --help for usage)")
      .configureHelp({ showGlobalOptions: true });
    command.commands.forEach(configure);
  };
  program.commands.forEach(configure);

  return await settle(full, async () => {
    try {
      await program.parseAsync(args, { from: "user" });
    } catch (error) {
      if (!(error instanceof CommanderError)) throw error;
      // --help and --version end parsing through the override too; they are successes.
      const done = error.code === "commander.helpDisplayed" || error.code === "commander.version" ||
        error.code === "commander.help";
      return done ? 0 : 2;
    }
  });
}

/** Runs a parsed command line: its exit code, or the one its error stands for. */
async function settle(full: CommandDeps, run: () => Promise<number | void>): Promise<number> {
  try {
    return (await run()) ?? full.status.exitCode;
  } catch (error) {
    // The reader of stdout went away (`zeph … | head`): stop quietly, as a Unix filter does.
    if (error instanceof Deno.errors.BrokenPipe) return EXIT.brokenPipe;
    if (error instanceof CliError) {
      console.error(`zeph: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof ConfigError) {
      console.error(`zeph: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

const ROOT_HELP_AFTER = `
Examples:
  zeph                                   interactive session in this directory
  zeph -p "explain src/main.ts"          one prompt, answer on stdout
  git diff | zeph -p "review this"       piped input is added to the prompt
  zeph -p "…" --output-format json       one JSON result object (stream-json: every event)
  zeph tool read '{"path": "README.md"}' one tool call
  zeph acp  (or zeph --acp)              Agent Client Protocol on stdio, for editors

From a checkout, run it as: npm start -s -- <arguments>  (-s keeps npm's banner off stdout)

${EXIT_CODES_HELP}`;

const ACP_HELP_AFTER = `
zeph acp speaks the Agent Client Protocol (JSON-RPC) on stdin/stdout; an editor starts it.
Options: --cwd <dir>, --config <path>, --provider <name>, --model <name>, --script <file>.
Zed (settings.json): "agent_servers": { "zeph": { "command": "zeph", "args": ["acp"] } }
Try it from a terminal: acpx --approve-all --agent "zeph acp" exec "list the files"`;

async function assertWorkspace(cwd: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(cwd);
  } catch {
    throw new CliError(
      `Cannot use workspace "${cwd}": the directory does not exist. Pass an existing directory to -C/--cwd.`,
    );
  }
  if (!info.isDirectory) {
    throw new CliError(
      `Cannot use workspace "${cwd}": it is not a directory. Pass a directory to -C/--cwd.`,
    );
  }
}

/**
 * The root program has a default action (the chat), so commander reports a mistyped
 * subcommand as excess arguments; say what the user most likely meant instead.
 */
function clarifyError(text: string): string {
  const excess =
    /^error: too many arguments\. Expected 0 arguments but got \d+: ([^,\s]+?)[,.][^\n]*$/m
      .exec(text);
  if (!excess) return text;
  return text.replace(excess[0], `error: unknown command '${excess[1]}'`);
}
