/** `zeph tools [--json]`: the registered tools with descriptions and JSON Schemas. */
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("tools")
    .description("list the tools the model can use, with their JSON Schemas")
    .option("--json", "print a JSON array of {name, description, inputSchema, origin}")
    .action(async (_opts, command) => {
      const globals = globalsOf(command);
      const runtime = await deps.buildRuntime(globals);
      try {
        // Each tool's origin: zeph's own, or the MCP server it comes from.
        const defs = runtime.registry.definitions().map((d) => {
          const mcp = runtime.registry.get(d.name)?.mcp;
          return { ...d, origin: mcp ? `mcp:${mcp.serverId}` : "builtin" };
        });
        if (globals.json) {
          console.log(JSON.stringify(defs, null, 2));
          return;
        }
        if (defs.length === 0) {
          console.log("No tools are available (all are denied by [tools.permissions]).");
          return;
        }
        for (const d of defs) {
          const from = d.origin === "builtin" ? "" : `  (${d.origin.replace(":", " server ")})`;
          console.log(`${d.name}${from}\n  ${d.description.split("\n")[0]}`);
          console.log(`  schema: ${JSON.stringify(d.inputSchema)}\n`);
        }
      } finally {
        await runtime.close();
      }
    });
}
