/**
 * The filter rules as `zeph config check` reports them: the warnings of loading them (a skipped
 * rule names its file, line, key and fix) and one line saying what loaded from where.
 */
import type { Config } from "../config/mod.ts";

export async function filterRulesCheck(
  config: Config,
  configPath: string | null,
): Promise<{ warnings: string[]; summary: string }> {
  const { loadFilterEngine, filtersConfigDir } = await import("../filter/mod.ts");
  const { engine, warnings } = await loadFilterEngine(config, {
    configDir: await filtersConfigDir(configPath),
  });
  if (!config.tools.filters.enabled) {
    return { warnings, summary: "Filter rules: off ([tools.filters] enabled = false)" };
  }
  const mine = engine.rules.filter((r) => !r.source.startsWith("built-in"));
  const files = [...new Set(mine.map((r) => r.source))];
  const skipped = warnings.filter((w) => / skipped: /.test(w)).length;
  const setting = config.tools.filters.filters_path;
  const yours = files.length
    ? `, ${mine.length} from ${files.join(", ")}`
    : `, none of yours (${
      setting ? `filters_path "${setting}"` : "filters.toml beside the config file"
    })`;
  return {
    warnings,
    summary: `Filter rules: ${engine.rules.length - mine.length} built-in${yours}${
      skipped ? `; ${skipped} skipped (see the warnings)` : ""
    }`,
  };
}
