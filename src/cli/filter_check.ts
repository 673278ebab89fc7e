/**
 * The filter rules as `zeph config check` reports them: the errors of loading them (a skipped
 * rule names its file, line, key and fix; a rules file that did not load), the other warnings,
 * and one line saying what loaded from where.
 */
import type { Config } from "../config/mod.ts";

export async function filterRulesCheck(
  config: Config,
  configPath: string | null,
): Promise<{ errors: string[]; warnings: string[]; summary: string }> {
  const { dropsConfigured, loadFilterEngine, filtersConfigDir, userFilePath } = await import(
    "../filter/mod.ts"
  );
  const configDir = await filtersConfigDir(configPath);
  const loaded = await loadFilterEngine(config, { configDir });
  const engine = loaded.engine;
  const errors = loaded.warnings.filter(dropsConfigured);
  const warnings = loaded.warnings.filter((w) => !dropsConfigured(w));
  if (!config.tools.filters.enabled) {
    return { errors, warnings, summary: "Filter rules: off ([tools.filters] enabled = false)" };
  }
  const mine = engine.rules.filter((r) => !r.source.startsWith("built-in"));
  const files = [...new Set(mine.map((r) => r.source))];
  const skipped = errors.filter((w) => /: rule ".*" skipped: /.test(w)).length;
  const setting = config.tools.filters.filters_path;
  // Where zeph looked, so a file written elsewhere (or not loaded at all) is seen to be so.
  const file = userFilePath(setting, configDir)?.path;
  const unloadable = file !== undefined &&
    errors.some((w) => w.startsWith(`Cannot load ${file}`) || w.startsWith(`${file}: `));
  const exists = file !== undefined && await Deno.stat(file).then(() => true, () => false);
  const where = unloadable
    ? `${file} did not load: see the error`
    : skipped
    ? `${file}: ${skipped} skipped, see the errors`
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
    errors,
    warnings,
    summary: `Filter rules: ${engine.rules.length - mine.length} built-in${yours}${
      skipped && files.length ? `; ${skipped} skipped (see the errors)` : ""
    }`,
  };
}
