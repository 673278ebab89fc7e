/**
 * Warnings about tool names in the tool selection tables (kept apart from tool_selection.ts:
 * it loads with the config loader, which must not load the schema to report them).
 */
import { suggestKey } from "./suggest.ts";
import type { DependenciesConfig, SchemaFilterConfig } from "./tool_selection.ts";

/**
 * Tool names in `[tools.schema_filter]` always_on and `[tools.dependencies]` rules that name no
 * registered tool: a typo in `requires` would hide a tool for good, one elsewhere would do
 * nothing. Warnings (with a did-you-mean), not errors: tools can come from outside the config.
 * The names are passed in: config must not import the tools.
 */
export function toolSelectionWarnings(
  tools: {
    schema_filter: Pick<SchemaFilterConfig, "enabled" | "always_on">;
    dependencies: Pick<DependenciesConfig, "enabled" | "rules">;
  },
  toolNames: readonly string[],
): string[] {
  const known = new Set(toolNames);
  const warnings: string[] = [];
  const check = (name: string, where: string, effect: string) => {
    if (known.has(name)) return;
    const guess = suggestKey(name, toolNames);
    warnings.push(
      `${where} names "${name}", which is no tool: ${effect}${
        guess ? ` (did you mean "${guess}"?)` : ""
      }.`,
    );
  };
  if (tools.schema_filter.enabled) {
    for (const name of tools.schema_filter.always_on) {
      check(name, "[tools.schema_filter] always_on", "it is ignored");
    }
  }
  if (!tools.dependencies.enabled) return warnings;
  for (const [tool, rule] of Object.entries(tools.dependencies.rules)) {
    const at = `[tools.dependencies.rules.${tool}]`;
    check(tool, at, "the rule applies to nothing");
    for (const r of rule.requires) {
      check(r, `${at} requires`, `${tool} stays hidden for the whole session`);
    }
    for (const p of rule.prefers) check(p, `${at} prefers`, "it never boosts");
  }
  return warnings;
}
