/**
 * `zeph tools [--json] [--mode <name>]`: the tools the model is sent in a mode (default:
 * `[agent] default_mode`), with descriptions and JSON Schemas.
 */
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("tools")
    .description("list the tools the model can use, with their JSON Schemas")
    .option("--json", "print a JSON array of {name, description, inputSchema}")
    .option("--mode <name>", "the tools of this mode (default: [agent] default_mode)")
    .action(async (opts, command) => {
      const globals = globalsOf(command);
      const runtime = await deps.buildRuntime(globals);
      try {
        const { chatModes } = await import("./modes.ts");
        const modes = chatModes(runtime.loaded.config, {
          // The chat's own --mode sits on the root command and may take the value first.
          flag: opts.mode ?? (command.optsWithGlobals() as { mode?: string }).mode,
          source: runtime.loaded.path ?? "built-in defaults",
        });
        const defs = runtime.registry.definitions(runtime.policy, modes);
        if (globals.json) {
          console.log(JSON.stringify(defs, null, 2));
          return;
        }
        if (defs.length === 0) {
          console.log(
            modes.toolsEnabled
              ? "No tools are available (all are denied by [tools.permissions])."
              : "No tools are available ([tools] enabled = false).",
          );
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
