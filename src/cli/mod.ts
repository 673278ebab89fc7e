/**
 * The command-line front-end: argument parsing (commander), subcommands, rendering.
 * It talks to the agent and the registry only through what main.ts composes.
 */
export async function runCli(args: string[]): Promise<number> {
  const { Command } = await import("@commander-js/extra-typings");
  const program = new Command("zeph").description("A typed, sandboxed AI coding agent");
  await program.parseAsync(args, { from: "user" });
  return 0;
}
