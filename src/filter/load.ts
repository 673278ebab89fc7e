/**
 * Loading rules: the built-in files in `filters/*.toml` (read relative to this module, so
 * `deno compile --include filters/` serves the same code path), then the user's `filters.toml`
 * (next to config.toml, or `[tools.filters] filters_path`), which adds rules, replaces built-ins
 * by name and disables them with `enabled = false`. Every problem is a warning; nothing here
 * stops zeph from starting.
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { readBoundedTextFile, suggestKey, UnreadableFileError } from "../config/lite.ts";
import type { Config } from "../config/mod.ts";
import { FilterEngine } from "./engine.ts";
import { type CompiledRule, compileRule, RuleError, ruleName } from "./rule.ts";
import type { RegexEngine } from "./regex.ts";
import { compileExtraPatterns } from "./security.ts";

/** User filter files above this size are rejected (spec: 1 MiB). */
export const MAX_FILTERS_FILE_BYTES = 1024 * 1024;

/** Where the built-in rule files live (embedded by `deno compile --include filters/`). */
export const BUILTIN_FILTERS_DIR = new URL("../../filters/", import.meta.url);

export interface LoadOptions {
  /** The directory of config.toml: the default home of filters.toml (null: none). */
  configDir: string | null;
  /** Overrides the built-in directory (tests). */
  builtinDir?: URL | string;
}

/** Builds the engine from config; `warnings` are for the user (file, rule, field, reason). */
export async function loadFilterEngine(
  config: Config,
  options: LoadOptions,
): Promise<{ engine: FilterEngine; warnings: string[] }> {
  const settings = config.tools.filters;
  const warnings: string[] = [];
  const rules = await loadBuiltinRules(options.builtinDir ?? BUILTIN_FILTERS_DIR, warnings);
  const user = userFilePath(settings.filters_path, options.configDir);
  const userText = user ? await readUserFile(user.path, user.explicit, warnings) : null;
  if (user && userText !== null) mergeUserRules(rules, userText, user.path, warnings);
  const extra = compileExtraPatterns(settings.security.extra_patterns);
  warnings.push(...extra.warnings);
  const engine = new FilterEngine(rules, {
    enabled: settings.enabled,
    security: settings.security.enabled,
    generic: settings.generic,
    extraPatterns: extra.patterns,
  });
  return { engine, warnings };
}

/**
 * Whether a load warning says that something the user configured does not apply: a rule skipped,
 * a rules file that did not load (or was not found where `filters_path` says), an extra security
 * pattern skipped. The commands a skipped rule was for run unfiltered or under the built-in it
 * meant to replace, so `zeph config check` fails on these; the other warnings (a key ignored, a
 * rule defined twice) change nothing the user relies on.
 */
export function dropsConfigured(warning: string): boolean {
  return / skipped: |Its rules were skipped\.|No rules loaded\.|^Cannot read filters file |Using the built-in rules only\./
    .test(warning);
}

/** The built-in rules, file by file in name order, rules in file order. */
export async function loadBuiltinRules(
  dir: URL | string,
  warnings: string[] = [],
): Promise<CompiledRule[]> {
  const path = dir instanceof URL ? dir : new URL(`file://${dir.endsWith("/") ? dir : dir + "/"}`);
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (entry.isFile && entry.name.endsWith(".toml")) names.push(entry.name);
  }
  names.sort();
  const rules: CompiledRule[] = [];
  for (const name of names) {
    const text = await Deno.readTextFile(new URL(name, path));
    const source = `built-in filters/${name}`;
    for (const rule of parseRuleFile(text, source, warnings, { engine: "v8" })) {
      if (rule.enabled) rules.push(rule.compiled!);
    }
  }
  return rules;
}

interface ParsedRule {
  name: string;
  /** `source:line` of the rule's `[[rules]]` header (just `source` for an inline array). */
  at: string;
  enabled: boolean;
  compiled?: CompiledRule;
}

/**
 * Parses one TOML text into rules; broken entries become warnings, the rest load. Patterns run
 * on `engine`: V8 for the built-in files (a pattern it cannot run in linear time is a broken
 * entry), re2js for the user's.
 * @default options.engine "re2"
 */
export function parseRuleFile(
  text: string,
  source: string,
  warnings: string[],
  options: { engine?: RegexEngine } = {},
): ParsedRule[] {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const where = error instanceof TomlError
      ? ` at line ${error.line}, column ${error.column}`
      : "";
    const first = (error as Error).message.split("\n")[0];
    warnings.push(
      `Cannot load ${source}: invalid TOML${where}: ${first}.${
        tomlHint(first)
      } Its rules were skipped.`,
    );
    return [];
  }
  for (const key of Object.keys(doc)) {
    if (key !== "rules") {
      warnings.push(`${source}: unknown top-level key "${key}" ignored${topLevelHint(key)}.`);
    }
  }
  const entries = doc.rules ?? [];
  if (!Array.isArray(entries)) {
    warnings.push(`${source}: "rules" must be an array of tables ([[rules]]). No rules loaded.`);
    return [];
  }
  const out: ParsedRule[] = [];
  const lines = ruleHeaderLines(text);
  entries.forEach((raw, index) => {
    const name = ruleName(raw, index);
    const at = lines.length === entries.length ? `${source}:${lines[index]}` : source;
    const entry = raw as Record<string, unknown>;
    if (entry && typeof entry === "object" && entry.enabled === false) {
      out.push({ name, at, enabled: false });
      return;
    }
    try {
      out.push({
        name,
        at,
        enabled: true,
        compiled: { ...compileRule(raw, source, { index, engine: options.engine }), at },
      });
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      const line = lines.length === entries.length
        ? fieldLine(text.split("\n"), lines[index], lines[index + 1], error.field, raw)
        : undefined;
      warnings.push(
        `${
          line ? `${source}:${line}` : at
        }: rule "${error.rule}" skipped: ${error.field}: ${error.reason}${
          /[.?]$/.test(error.reason) ? "" : "."
        }`,
      );
    }
  });
  return out;
}

/**
 * The 1-based line where a rule's `field` (`strategy.patterns[1]`) is written, between the
 * rule's header line and the next rule's: the line of its last key (`patterns = [`, or a
 * `[rules.strategy]` header), then, for a list entry, the first line from there holding that
 * entry's text (a list written one entry a line). Undefined when the key is not written (a
 * missing key is reported at the header).
 */
export function fieldLine(
  text: readonly string[],
  header: number,
  next: number | undefined,
  field: string,
  raw: unknown,
): number | undefined {
  const path = [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map(([, key, i]) => key ?? Number(i));
  const keyAt = path.findLastIndex((k) => typeof k === "string");
  if (keyAt < 0) return undefined;
  const key = path[keyAt] as string;
  const end = Math.min(next ? next - 1 : text.length, text.length);
  const quoted = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const written = new RegExp(
    `(^|[{,\\s])("${quoted}"|'${quoted}'|${quoted})\\s*=|^\\s*\\[\\s*rules\\.${quoted}\\s*\\]`,
  );
  let at = -1;
  for (let i = header - 1; i < end; i++) {
    if (written.test(text[i])) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  if (keyAt === path.length - 1) return at + 1;
  let value: unknown = raw;
  for (const k of path) value = (value as Record<string | number, unknown> | null)?.[k];
  if (typeof value !== "string" || value === "") return at + 1;
  for (let i = at; i < end; i++) if (text[i].includes(value)) return i + 1;
  return at + 1;
}

/**
 * The fix for the TOML mistake rule files invite: a regex in a basic string (`"^ok\d"`), where
 * TOML reads `\d` as an escape.
 */
function tomlHint(message: string): string {
  return /escape/i.test(message)
    ? " Write regexes as literal strings in single quotes ('^ok \\d+'), where a backslash is just a backslash."
    : "";
}

/** `[[rule]]` for `[[rules]]`, or a rule's key written above any `[[rules]]` header. */
function topLevelHint(key: string): string {
  if (suggestKey(key, ["rules"])) return ' (did you mean "rules", as in [[rules]]?)';
  if (["name", "match", "strategy", "enabled", "generic"].includes(key)) {
    return "; a rule's keys go under a [[rules]] header";
  }
  return "; a filters file holds only [[rules]] tables";
}

/**
 * The 1-based line of each `[[rules]]` header, in order. Headers inside multi-line strings are
 * skipped by tracking `"""`/`'''` openers; when the count differs from the parsed rules (an
 * inline `rules = [...]` array) the caller names the file without a line.
 */
export function ruleHeaderLines(text: string): number[] {
  const out: number[] = [];
  let inString: string | null = null;
  text.split("\n").forEach((line, i) => {
    if (inString === null && /^\s*\[\[\s*rules\s*\]\]\s*(#.*)?\r?$/.test(line)) out.push(i + 1);
    for (const m of line.matchAll(/"""|'''/g)) {
      if (inString === null) inString = m[0];
      else if (inString === m[0]) inString = null;
    }
  });
  return out;
}

/**
 * The user's filters file for a `filters_path` setting and the config's directory (the setting
 * as written: a directory there holds `filters.toml`), and whether it was set.
 */
export function userFilePath(
  setting: string,
  configDir: string | null,
): { path: string; explicit: boolean } | null {
  if (!setting) {
    return configDir ? { path: joinPath(configDir, "filters.toml"), explicit: false } : null;
  }
  const absolute = setting.startsWith("/") ? setting : joinPath(configDir ?? Deno.cwd(), setting);
  return { path: absolute, explicit: true };
}

/**
 * The directory whose filters.toml applies: the loaded config file's, else where the config
 * would be ($ZEPH_CONFIG, $XDG_CONFIG_HOME/zeph, ~/.config/zeph), else null.
 */
export async function filtersConfigDir(configPath: string | null): Promise<string | null> {
  let file = configPath;
  if (!file) {
    const { locateConfig } = await import("../config/lite.ts");
    file = locateConfig({ env: Deno.env.toObject() }).path;
  }
  if (!file) return null;
  const cut = file.lastIndexOf("/");
  return cut > 0 ? file.slice(0, cut) : "/";
}

async function readUserFile(
  path: string,
  explicit: boolean,
  warnings: string[],
): Promise<string | null> {
  let file = path;
  try {
    if ((await Deno.stat(file)).isDirectory) {
      file = joinPath(path, "filters.toml");
      await Deno.stat(file);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      if (explicit) {
        warnings.push(
          `Cannot read filters file "${file}": not found. Using the built-in rules; fix [tools.filters] filters_path.`,
        );
      }
      return null;
    }
    warnings.push(`Cannot read filters file "${file}": ${(error as Error).message}.`);
    return null;
  }
  try {
    return await readBoundedTextFile(file, {
      maxBytes: MAX_FILTERS_FILE_BYTES,
      what: "filters file",
    });
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    warnings.push(`${error.message} Using the built-in rules only.`);
    return null;
  }
}

/** User rules replace built-ins of the same name in place, disable them, or are appended. */
export function mergeUserRules(
  rules: CompiledRule[],
  text: string,
  source: string,
  warnings: string[],
): void {
  const seen = new Set<string>();
  const disabledBefore = new Set<string>();
  for (const rule of parseRuleFile(text, source, warnings)) {
    if (seen.has(rule.name)) {
      warnings.push(`${rule.at}: rule "${rule.name}" is defined twice; the later one wins.`);
    }
    seen.add(rule.name);
    const at = rules.findIndex((r) => r.name === rule.name);
    if (!rule.enabled) {
      if (at >= 0) rules.splice(at, 1);
      else if (!disabledBefore.has(rule.name)) {
        // A mistyped name would leave the rule meant running, silently.
        const guess = suggestKey(rule.name, rules.map((r) => r.name));
        warnings.push(
          `${rule.at}: rule "${rule.name}" has enabled = false but no rule has that name, so nothing was switched off${
            guess ? ` (did you mean "${guess}"?)` : ""
          }; \`zeph filter --rules\` lists the names.`,
        );
      }
      disabledBefore.add(rule.name);
      continue;
    }
    if (at >= 0) {
      const old = rules[at];
      const replaces = old.source.startsWith("built-in") ? old.at ?? old.source : old.replaces;
      rules[at] = { ...rule.compiled!, ...(replaces ? { replaces } : {}) };
    } else rules.push(rule.compiled!);
  }
}

function joinPath(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}
