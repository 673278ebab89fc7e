/**
 * `zeph tools [--json]`: the tools the model can use, each with its parameter table (`--json`:
 * the JSON Schemas the model sees).
 */
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";
import { formatTool } from "./tool_help.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("tools")
    .description(
      "list the tools the model can use and their parameters (details: zeph tool <id> --help)",
    )
    .option("--json", "print a JSON array of {name, description, inputSchema}")
    .action(async (_opts, command) => {
      const globals = globalsOf(command);
      const runtime = await deps.buildRuntime(globals);
      try {
        const defs = runtime.registry.definitions();
        if (globals.json) {
          console.log(JSON.stringify(defs, null, 2));
          return;
        }
        if (defs.length === 0) {
          console.log("No tools are available (all are denied by [tools.permissions]).");
          return;
        }
        console.log(defs.map((d) => formatTool(d)).join("\n\n"));
        console.log("\nRun one: zeph tool <id> '<json>'; details: zeph tool <id> --help");
      } finally {
        await runtime.close();
      }
    });
}
