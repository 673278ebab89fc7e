/** `zeph tools [--json]`: the registered tools with descriptions and JSON Schemas. */
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("tools")
    .description("list the tools the model can use, with their JSON Schemas")
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
        for (const d of defs) {
          console.log(`${d.name}\n  ${d.description.split("\n")[0]}`);
          console.log(`  schema: ${JSON.stringify(d.inputSchema)}\n`);
        }
      } finally {
        await runtime.close();
      }
    });
}
