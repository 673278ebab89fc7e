/**
 * `zeph config check`: the resolved config (secrets masked) or the errors; exit 0/2. Warnings
 * (unknown keys, rules for no tool, shadowed rules, deny globs other flag spellings sidestep) go to
 * stderr. A filter rule of filters.toml refused at load (or a rules file that did not load) is an
 * error: the config still prints, with what the filter rules check found (a `filter_rules` object
 * in the JSON), and the exit is 2, so a check in CI fails on it.
 */
import type { CommandDeps } from "./deps.ts";
import { EXIT } from "./exit_codes.ts";
import { type CliProgram, globalsOf } from "./program.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  const config = program.command("config").description("inspect the configuration");
  config
    .command("check")
    .description("validate the config and print it resolved (defaults, file, ZEPH_* variables)")
    .option("--json", "print JSON instead of TOML")
    .action(async (_opts, command) => {
      const globals = globalsOf(command);
      const loaded = await deps.loadConfig(globals);
      const [
        { permissionRules, permissionToolWarnings, renderConfig, toolSelectionWarnings },
        { permissionRuleWarnings },
        { modeConfigIssues },
        { policyRuleWarnings, BUILTIN_TOOL_IDS },
      ] = await Promise.all([
        import("../config/mod.ts"),
        import("../permission/mod.ts"),
        import("./modes.ts"),
        import("../tools/mod.ts"),
      ]);
      const modeIssues = modeConfigIssues(loaded.config, loaded.path ?? "built-in defaults");
      if (modeIssues) throw modeIssues;
      // The names are all a check needs: no tool module loads.
      const tools = [...BUILTIN_TOOL_IDS];
      for (
        const w of [
          ...loaded.warnings,
          ...permissionToolWarnings(loaded.config, tools),
          ...toolSelectionWarnings(loaded.config.tools, tools),
          ...permissionRuleWarnings(permissionRules(loaded.config.tools.permissions) ?? {}),
          ...policyRuleWarnings(loaded.config, tools),
        ]
      ) {
        console.error(`zeph: warning: ${w}`);
      }
      // The rules file is part of the configuration a user writes: its mistakes are shown here too.
      const { filterRulesCheck } = await import("./filter_check.ts");
      const filters = await filterRulesCheck(loaded.config, loaded.path);
      for (const w of filters.warnings) console.error(`zeph: warning: ${w}`);
      for (const e of filters.errors) console.error(`zeph: error: ${e}`);
      const from = loaded.path ?? "built-in defaults";
      const env = loaded.envApplied.length ? ` + ${loaded.envApplied.join(", ")}` : "";
      if (globals.json) {
        const resolved = JSON.parse(await renderConfig(loaded.config, "json"));
        const { summary, errors, warnings } = filters;
        console.log(
          JSON.stringify({ ...resolved, filter_rules: { summary, errors, warnings } }, null, 2),
        );
      } else {
        const { fileSandboxStatus } = await import("./file_sandbox_status.ts");
        const status = fileSandboxStatus(loaded.config.tools.file.sandbox.mode);
        console.log(
          `# Resolved from ${from}${env}\n# ${status}\n# ${filters.summary}\n` +
            await renderConfig(loaded.config, "toml"),
        );
      }
      if (filters.errors.length) {
        const n = filters.errors.length;
        console.error(
          `zeph: error: ${n} filter rule error${n === 1 ? "" : "s"} above: a skipped rule's ` +
            `commands are filtered by the built-in rules only. Fix ${
              n === 1 ? "it" : "them"
            }, or switch the rule off with enabled = false.`,
        );
        deps.status.exitCode = EXIT.usage;
      }
    });
}
