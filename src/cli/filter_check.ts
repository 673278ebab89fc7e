/**
 * The filter rules as `zeph config check` reports them: the warnings of loading them (a skipped
 * rule names its file, line, key and fix) and one line saying what loaded from where.
 */
import type { Config } from "../config/mod.ts";

export async function filterRulesCheck(
  config: Config,
  configPath: string | null,
): Promise<{ warnings: string[]; summary: string }> {
  const { loadFilterEngine, filtersConfigDir, userFilePath } = await import("../filter/mod.ts");
  const configDir = await filtersConfigDir(configPath);
  const { engine, warnings } = await loadFilterEngine(config, { configDir });
  if (!config.tools.filters.enabled) {
    return { warnings, summary: "Filter rules: off ([tools.filters] enabled = false)" };
  }
  const mine = engine.rules.filter((r) => !r.source.startsWith("built-in"));
  const files = [...new Set(mine.map((r) => r.source))];
  const skipped = warnings.filter((w) => / skipped: /.test(w)).length;
  const setting = config.tools.filters.filters_path;
  // Where zeph looked, so a file written elsewhere (or not loaded at all) is seen to be so.
  const file = userFilePath(setting, configDir)?.path;
  const unloadable = file !== undefined &&
    warnings.some((w) => w.startsWith(`Cannot load ${file}`) || w.startsWith(`${file}: `));
  const exists = file !== undefined && await Deno.stat(file).then(() => true, () => false);
  const where = unloadable
    ? `${file} did not load: see the warning`
    : exists
    ? `${file} has no rules`
    : file
    ? `no file ${file}`
    : "no config directory for a filters.toml";
  // A rule of yours named like a built-in takes its place: said, since a name picked by chance
  // (`gcc` for a cppcheck rule) switches the built-in off for its own commands.
  const replaced = mine.filter((r) => r.replaces).map((r) => `"${r.name}"`);
  const yours = files.length
    ? `, ${mine.length} from ${files.join(", ")}${
      replaced.length
        ? ` (replacing the built-in${replaced.length === 1 ? "" : "s"} ${replaced.join(", ")})`
        : ""
    }`
    : `, none of yours (${where})`;
  return {
    warnings,
    summary: `Filter rules: ${engine.rules.length - mine.length} built-in${yours}${
      skipped ? `; ${skipped} skipped (see the warnings)` : ""
    }`,
  };
}
