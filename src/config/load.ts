/**
 * Finds, parses and validates config.toml. Location: `--config PATH`, else `ZEPH_CONFIG`, else
 * `$XDG_CONFIG_HOME/zeph/config.toml` (`~/.config/zeph/config.toml`), else built-in defaults.
 * `ZEPH_*` variables override file values. Unknown keys are warnings (typo guard), every other
 * problem is a ConfigError naming the file, line/column or key path, and the variable.
 */
import * as path from "node:path";
import { readBoundedTextFile, UnreadableFileError } from "./bounded_file.ts";
import { ConfigError, type ConfigIssue } from "./errors.ts";
import { permissionRules } from "./consts.ts";
import { defaultsSnapshot } from "./defaults.ts";
import type { Config } from "./schema.ts";
import { suggestKey } from "./suggest.ts";
import { applyPolicyFile } from "./policy_file.ts";
import { describeTomlValue } from "./describe_value.ts";

/** Keys an earlier version read, with what replaced them. */
const RENAMED_KEYS: Record<string, string> = {
  "agent.repetition_window": 'replaced by "agent.repeat_threshold": identical calls in a row ' +
    "that run before zeph asks whether to go on",
};

export type Env = Record<string, string | undefined>;

/** config.toml above this size is refused (as filter files are). */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/**
 * Tables nested deeper than this are refused. The schema's deepest key is five levels down; a
 * dotted key of thousands of parts would otherwise overflow the stack in the recursive steps
 * after parsing (deep copy, validation).
 */
export const MAX_TABLE_DEPTH = 32;

/** How one `ZEPH_*` variable maps onto a config key. */
export interface EnvOverride {
  name: string;
  /** Key path; `{provider}` is replaced by the selected `llm.provider`. */
  key: string;
  type: "integer" | "boolean" | "string";
  description: string;
}

/** The documented overrides (README's table is generated from the same list by hand: keep in sync). */
export const ENV_OVERRIDES: readonly EnvOverride[] = [
  {
    name: "ZEPH_AGENT_MAX_TOOL_ITERATIONS",
    key: "agent.max_tool_iterations",
    type: "integer",
    description: "Max tool loop iterations per turn",
  },
  {
    name: "ZEPH_LLM_PROVIDER",
    key: "llm.provider",
    type: "string",
    description: "Provider: ollama, claude, openai or script",
  },
  {
    name: "ZEPH_LLM_MODEL",
    key: "llm.{provider}.model",
    type: "string",
    description: "Model of the selected provider",
  },
  {
    name: "ZEPH_LLM_TIMEOUT",
    key: "llm.timeout",
    type: "integer",
    description: "Per-request provider timeout in seconds",
  },
  {
    name: "ZEPH_TOOLS_SHELL_TIMEOUT",
    key: "tools.shell.timeout",
    type: "integer",
    description: "Shell command timeout in seconds",
  },
  {
    name: "ZEPH_TOOLS_PERMISSIONS_AUTONOMY",
    key: "tools.permissions.autonomy",
    type: "string",
    description: "Autonomy: readonly, supervised or full",
  },
  {
    name: "ZEPH_TOOLS_FILTERS_ENABLED",
    key: "tools.filters.enabled",
    type: "boolean",
    description: "Turn output filters on or off",
  },
  {
    name: "ZEPH_TOOLS_FILTERS_KEEP_UNFILTERED",
    key: "tools.filters.keep_unfiltered",
    type: "string",
    description: "Store unfiltered output: always, failures or never",
  },
  {
    name: "ZEPH_TOOLS_AUDIT_ENABLED",
    key: "tools.audit.enabled",
    type: "boolean",
    description: "Turn the audit log on or off",
  },
  {
    name: "ZEPH_TOOLS_AUDIT_PATH",
    key: "tools.audit.path",
    type: "string",
    description: "Audit log file (JSONL)",
  },
  {
    name: "ZEPH_MEMORY_SQLITE_PATH",
    key: "memory.sqlite_path",
    type: "string",
    description: "SQLite database file",
  },
];

export type ConfigSource = "flag" | "env" | "xdg" | "defaults";

export interface LoadedConfig {
  config: Config;
  /** The file that was read; null when only defaults (and env) apply. */
  path: string | null;
  source: ConfigSource;
  /** Unknown keys and ignored variables, one sentence each. */
  warnings: string[];
  /** The `ZEPH_*` overrides that were applied. */
  envApplied: string[];
}

export interface LoadOptions {
  /** `--config PATH`: must exist. Relative paths resolve against the process cwd. */
  path?: string;
  /** @default Deno.env.toObject() */
  env?: Env;
}

/** Where the config comes from, before reading it. */
export function locateConfig(
  options: LoadOptions = {},
): { path: string | null; source: ConfigSource; required: boolean } {
  const env = options.env ?? Deno.env.toObject();
  if (options.path) return { path: path.resolve(options.path), source: "flag", required: true };
  if (env.ZEPH_CONFIG) {
    return { path: path.resolve(env.ZEPH_CONFIG), source: "env", required: true };
  }
  const home = env.HOME || env.USERPROFILE;
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
    ? env.XDG_CONFIG_HOME
    : home
    ? path.join(home, ".config")
    : null;
  if (!xdg) return { path: null, source: "defaults", required: false };
  return { path: path.join(xdg, "zeph", "config.toml"), source: "xdg", required: false };
}

export async function loadConfig(options: LoadOptions = {}): Promise<LoadedConfig> {
  const env = options.env ?? Deno.env.toObject();
  const located = locateConfig({ ...options, env });
  let text: string | null = null;
  if (located.path) {
    try {
      text = await readBoundedTextFile(located.path, {
        maxBytes: MAX_CONFIG_FILE_BYTES,
        what: "the config file",
      });
    } catch (error) {
      if (!(error instanceof UnreadableFileError)) throw error;
      const missing = error.kind === "not-found";
      if (!missing || located.required) {
        const via = located.source === "flag" ? "--config" : "ZEPH_CONFIG";
        throw new ConfigError([{
          source: located.path,
          message: missing
            ? `the config file does not exist (given by ${via}). Create it (see config.example.toml) or fix the path.`
            : error.message.replace(/^Cannot read the config file "[^]*?": /, "cannot read it: "),
        }]);
      }
    }
  }
  const resolved = await parseConfig(text ?? "", { source: located.path ?? "(defaults)", env });
  await applyPolicyFile(resolved.config, text === null ? null : located.path);
  return {
    ...resolved,
    path: text === null ? null : located.path,
    source: text === null ? "defaults" : located.source,
  };
}

/** Parses TOML text, applies env overrides and validates. The core of loadConfig, without I/O. */
export async function parseConfig(
  text: string,
  options: { source: string; env?: Env },
): Promise<Omit<LoadedConfig, "path" | "source">> {
  const { parse, TomlError } = await import("smol-toml");
  let raw: Record<string, unknown>;
  try {
    raw = parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.replace(/^Invalid TOML document:\s*/, "").split("\n")[0];
      const key = keyOnLine(text, error.line);
      const outOfRange = /cannot be represented losslessly/.test(reason);
      throw new ConfigError([{
        source: options.source,
        line: error.line,
        column: error.column,
        ...(key ? { key } : {}),
        message: outOfRange
          ? "integer out of range: TOML integers hold -2^63 to 2^63-1, and this key's limits are far smaller (see config.example.toml)"
          : `TOML syntax error: ${reason}`,
      }]);
    }
    throw error;
  }
  const deep = deepestPath(raw, MAX_TABLE_DEPTH);
  if (deep) {
    throw new ConfigError([{
      source: options.source,
      key: displayKey(formatKeyPath(deep)),
      message:
        `tables nested more than ${MAX_TABLE_DEPTH} deep; zeph's keys are at most five levels deep. Shorten the key.`,
    }]);
  }
  const env = options.env ?? {};
  if (Object.keys(raw).length === 0 && !ENV_OVERRIDES.some((o) => (env[o.name] ?? "") !== "")) {
    // Nothing to validate: the schema's defaults, without building the schema.
    return { config: defaultsSnapshot(), warnings: misspeltVariables(env), envApplied: [] };
  }
  const schema = await loadSchema();
  const warnings: string[] = [];
  const envApplied: string[] = [];
  const envKeys = applyEnv(schema, raw, env, warnings, envApplied);
  const config = validate(schema, raw, options.source, envKeys, warnings);
  return { config, warnings, envApplied };
}

/** The zod schema and its key walker. */
interface Schema {
  Config: typeof import("./schema.ts").Config;
  knownKeys: typeof import("./keys.ts").knownKeys;
  schemaAt: typeof import("./keys.ts").schemaAt;
}

/**
 * Loads the schema when a file or a `ZEPH_*` variable sets keys: building it is a good part of a
 * one-shot call's start, and a run with nothing to validate gets the same defaults from
 * defaults.ts (tests/config/defaults_test.ts keeps that equal to the schema's).
 */
async function loadSchema(): Promise<Schema> {
  const [{ Config }, { knownKeys, schemaAt }] = await Promise.all([
    import("./schema.ts"),
    import("./keys.ts"),
  ]);
  return { Config, knownKeys, schemaAt };
}

/**
 * The key defined on a 1-based line of TOML text, with its table header (`[tools.shell]` then
 * `timeout = …` gives `tools.shell.timeout`); null when the line defines no key.
 */
export function keyOnLine(text: string, line: number): string | null {
  const lines = text.split("\n", line);
  if (lines.length < line) return null;
  let table = "";
  for (const l of lines.slice(0, line - 1)) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?\r?$/.exec(l);
    if (header) table = normalizeKey(header[1]);
  }
  const assignment = /^\s*([^=#\[]+?)\s*=/.exec(lines[line - 1]);
  if (!assignment) return null;
  const key = normalizeKey(assignment[1]);
  return displayKey(table ? `${table}.${key}` : key);
}

function normalizeKey(key: string): string {
  return key.split(".").map((part) => part.trim()).join(".");
}

/** Keys quoted in messages are cut to a readable length (a key can be a megabyte long). */
function displayKey(key: string): string {
  return key.length > 80 ? `${key.slice(0, 77)}…` : key;
}

/** The key path of the first value nested deeper than `limit` tables/arrays, or null. Iterative. */
function deepestPath(root: unknown, limit: number): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (path.length > limit) return path;
    if (Array.isArray(value)) value.forEach((v, i) => stack.push({ value: v, path: [...path, i] }));
    else if (isTable(value)) {
      for (const [k, v] of Object.entries(value)) stack.push({ value: v, path: [...path, k] });
    }
  }
  return null;
}

/** Writes `ZEPH_*` values into the raw table; returns key path → variable for error messages. */
function applyEnv(
  { Config, schemaAt }: Schema,
  raw: Record<string, unknown>,
  env: Env,
  warnings: string[],
  applied: string[],
): Map<string, string> {
  const keys = new Map<string, string>();
  const issues: ConfigIssue[] = [];
  for (const o of ENV_OVERRIDES) {
    const value = env[o.name];
    if (value === undefined || value === "") continue;
    let key = o.key;
    if (key.includes("{provider}")) {
      const provider = env.ZEPH_LLM_PROVIDER || getAt(raw, ["llm", "provider"]) ||
        Config.parse({}).llm.provider;
      key = key.replace("{provider}", String(provider));
      if (!schemaAt(key.split("."))) {
        warnings.push(`${o.name} is ignored: provider "${provider}" has no "${key}" setting.`);
        continue;
      }
    }
    const parsed = parseEnvValue(value, o.type);
    if (parsed === undefined) {
      issues.push({
        source: o.name,
        key,
        message: `expected ${o.type === "integer" ? "an integer" : "true or false"}, found ${
          JSON.stringify(value)
        }`,
      });
      continue;
    }
    if (setAt(raw, key.split("."), parsed)) {
      keys.set(key, o.name);
      applied.push(o.name);
    }
  }
  if (issues.length) throw new ConfigError(issues);
  warnings.push(...misspeltVariables(env));
  return keys;
}

/** The variables zeph reads besides the overrides. */
const OTHER_VARIABLES = ["ZEPH_CONFIG", "ZEPH_LOG"];

/**
 * `ZEPH_*` variables one typo away from one zeph reads: a misspelt override would otherwise be
 * ignored without a word. Others (a tool's own `ZEPH_…`) are not zeph's business.
 */
function misspeltVariables(env: Env): string[] {
  const names = [...ENV_OVERRIDES.map((o) => o.name), ...OTHER_VARIABLES];
  const warnings: string[] = [];
  for (const name of Object.keys(env)) {
    if (!name.startsWith("ZEPH_") || names.includes(name)) continue;
    const near = suggestKey(name, names);
    if (near) {
      warnings.push(`${name} is not a zeph variable and is ignored (did you mean ${near}?).`);
    }
  }
  return warnings;
}

function parseEnvValue(value: string, type: EnvOverride["type"]): unknown {
  const v = value.trim();
  if (type === "string") return value;
  if (type === "integer") return /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
  const lower = v.toLowerCase();
  if (["true", "1", "yes", "on"].includes(lower)) return true;
  if (["false", "0", "no", "off"].includes(lower)) return false;
  return undefined;
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function getAt(raw: unknown, keys: readonly (string | number)[]): unknown {
  let current = raw;
  for (const k of keys) {
    if ((isTable(current) || Array.isArray(current)) && Object.hasOwn(current, k)) {
      current = (current as Record<string | number, unknown>)[k];
    } else return undefined;
  }
  return current;
}

/** Sets a value, creating tables; leaves a non-table in the way alone (validation reports it). */
function setAt(raw: Record<string, unknown>, keys: string[], value: unknown): boolean {
  let current = raw;
  for (const k of keys.slice(0, -1)) {
    if (!Object.hasOwn(current, k)) current[k] = {};
    if (!isTable(current[k])) return false;
    current = current[k] as Record<string, unknown>;
  }
  current[keys.at(-1)!] = value;
  return true;
}

export function formatKeyPath(keys: readonly PropertyKey[]): string {
  let out = "";
  for (const k of keys) {
    if (typeof k === "number") out += `[${k}]`;
    else out += out ? `.${String(k)}` : String(k);
  }
  return out;
}

const ARTICLE: Record<string, string> = {
  number: "a number",
  string: "a string",
  boolean: "a boolean (true or false)",
  array: "an array",
  object: "a table",
  record: "a table",
  int: "an integer",
};

/** Validates with the strict schema; unknown keys become warnings and are stripped. */
function validate(
  { Config, knownKeys }: Schema,
  raw: Record<string, unknown>,
  source: string,
  envKeys: Map<string, string>,
  warnings: string[],
): Config {
  const data = structuredClone(raw);
  for (let round = 0; round < 10; round++) {
    const result = Config.safeParse(data);
    if (result.success) return result.data;
    const unknown = result.error.issues.filter((i) => i.code === "unrecognized_keys");
    if (unknown.length === 0) {
      throw new ConfigError(result.error.issues.map((issue) => {
        const key = formatKeyPath(issue.path);
        const found = getAt(data, issue.path as (string | number)[]);
        let message: string;
        if (issue.code === "invalid_type") {
          const expected = Object.hasOwn(ARTICLE, issue.expected)
            ? ARTICLE[issue.expected]
            : issue.expected;
          message = `expected ${expected}, found ${describeTomlValue(found)}`;
        } else if (issue.code === "invalid_value") {
          message = `expected one of ${
            issue.values.map((v) => JSON.stringify(v)).join(", ")
          }, found ${describeTomlValue(found)}`;
        } else if (issue.code === "invalid_key") {
          // A user-named table ([modes.<slug>]) with a name its key schema refuses.
          message = `${issue.issues[0]?.message ?? issue.message}, found the name ${
            JSON.stringify(String(issue.path.at(-1)))
          }`;
        } else {
          message = `${issue.message.replace(/^Too (small|big): /, "")}, found ${
            describeTomlValue(found)
          }`;
        }
        return { source: envKeys.get(key) ?? source, key, message };
      }));
    }
    for (const issue of unknown) {
      if (issue.code !== "unrecognized_keys") continue;
      const table = getAt(data, issue.path as (string | number)[]) as Record<string, unknown>;
      const known = knownKeys(issue.path as (string | number)[]);
      for (const k of issue.keys) {
        const key = displayKey(formatKeyPath([...issue.path, k]));
        const guess = suggestKey(k, known);
        const renamed = RENAMED_KEYS[key];
        warnings.push(
          `${source}: unknown key "${key}" ignored${
            renamed
              ? ` (${renamed})`
              : guess
              ? ` (did you mean "${formatKeyPath([...issue.path, guess])}"?)`
              : ""
          }`,
        );
        delete table[k];
      }
    }
  }
  throw new Error("Config validation did not settle after stripping unknown keys");
}

/**
 * `[tools.permissions.<tool>]` sections naming no registered tool: a typo there would silently
 * leave the intended tool unguarded, so each one is a warning (with a did-you-mean). The tool
 * names are passed in: config must not import the tools.
 */
export function permissionToolWarnings(config: Config, toolNames: readonly string[]): string[] {
  const known = new Set(toolNames);
  // An MCP server's tools are known once it runs: rules for `{id}_…` of a configured server pass.
  const servers = config.mcp.servers.map((s) => `${s.id}_`);
  return Object.keys(permissionRules(config.tools.permissions) ?? {})
    .filter((t) => !known.has(t) && !servers.some((prefix) => t.startsWith(prefix)))
    .map((t) => {
      const guess = suggestKey(t, toolNames);
      return `[tools.permissions.${t}] names no tool, its rules apply to nothing${
        guess ? ` (did you mean "${guess}"?)` : ""
      }. Tools: ${toolNames.join(", ")}.`;
    });
}
