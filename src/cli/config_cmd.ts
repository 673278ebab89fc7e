/** `zeph config check`: the resolved config (secrets masked) or the errors; exit 0/2. */
import type { CliDeps, CliProgram } from "./mod.ts";
import { globalsOf } from "./mod.ts";

export function register(program: CliProgram, deps: CliDeps): void {
  const config = program.command("config").description("inspect the configuration");
  config
    .command("check")
    .description("validate the config and print it resolved (defaults, file, ZEPH_* variables)")
    .option("--json", "print JSON instead of TOML")
    .action(async (_opts, command) => {
      const globals = globalsOf(command);
      const loaded = await deps.loadConfig(globals);
      const [{ permissionToolWarnings }, { builtinTools }] = await Promise.all([
        import("../config/load.ts"),
        import("../tools/catalog.ts"),
      ]);
      const tools = builtinTools().map((t) => t.name);
      for (const w of [...loaded.warnings, ...permissionToolWarnings(loaded.config, tools)]) {
        console.error(`zeph: warning: ${w}`);
      }
      const { renderConfig } = await import("../config/render.ts");
      const from = loaded.path ?? "built-in defaults";
      const env = loaded.envApplied.length ? ` + ${loaded.envApplied.join(", ")}` : "";
      if (globals.json) console.log(await renderConfig(loaded.config, "json"));
      else {console.log(
          `# Resolved from ${from}${env}\n${await renderConfig(loaded.config, "toml")}`,
        );}
    });
}
