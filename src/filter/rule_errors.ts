/**
 * What is wrong with a `[[rules]]` entry, said for the person who wrote it: the key as written in
 * the file (`strategy.patterns[0]`), what was expected and what was found, and the fix — a "did
 * you mean" for a mistyped key or strategy type, the strategy a misplaced option belongs to, the
 * TOML spelling of a list. zod's own messages ("Invalid input: expected array, received
 * undefined") name neither the typo that caused them nor the fix.
 */
import type { z } from "zod";
import { describeTomlValue, suggestKey } from "../config/lite.ts";
import { STRATEGY_TYPES, strategyKeys } from "./strategies/mod.ts";

/** Keys a rule's writer reaches for to describe it. */
const NOTE_KEYS = ["description", "desc", "comment", "comments", "note", "notes", "doc", "about"];

/** The keys of a rule's `match` table. */
const MATCH_KEYS = ["exact", "prefix", "regex"] as const;

/** The first problem of a rule entry as the field it is in and what to do about it. */
export function describeRuleIssues(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  ruleKeys: readonly string[],
): { field: string; reason: string } {
  // A mistyped key is the cause of the "missing" issue zod lists before it: say the typo. A
  // quoted `enabled = "false"` comes next: a rule switched off needs no match or strategy, so
  // their "missing" would send the writer the wrong way.
  const issue = issues.find((i) => i.code === "unrecognized_keys") ??
    issues.find((i) => i.path.length === 1 && i.path[0] === "enabled") ?? issues[0];
  const path = issue.path as (string | number)[];
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0];
    return { field: keyPath([...path, key]), reason: unknownKey(key, path, raw, ruleKeys) };
  }
  const field = path.length ? keyPath(path) : "rule";
  const found = valueAt(raw, path);
  if (
    keyPath(path) === "strategy.type" || (issue.code === "invalid_union" && field === "strategy")
  ) {
    return { field: "strategy.type", reason: unknownStrategy(valueAt(raw, ["strategy", "type"])) };
  }
  if (issue.code === "custom" && field === "match") {
    const set = MATCH_KEYS.filter((k) => valueAt(raw, ["match", k]) !== undefined);
    return {
      field,
      reason: set.length
        ? `set exactly one of exact, prefix or regex; found ${
          set.join(" and ")
        }: split them into two rules or keep one`
        : 'set exactly one of exact, prefix or regex: match = { prefix = "mytool" }',
    };
  }
  if (issue.code === "invalid_type") return { field, reason: wrongType(issue, path, found) };
  const key = String(path.at(-1) ?? "value");
  if (issue.code === "too_small") {
    const min = Number(issue.minimum);
    if (issue.origin === "string") return { field, reason: "must not be empty" };
    if (issue.origin === "array") {
      return {
        field,
        reason: `needs at least ${min} entr${
          min === 1 ? "y" : "ies"
        }, found none (an empty list does nothing); add one to ${key}`,
      };
    }
    return { field, reason: outOfBounds("at least", min, found, key) };
  }
  if (issue.code === "too_big") {
    const max = Number(issue.maximum);
    if (issue.origin === "string") {
      return { field, reason: `must be at most ${max} characters, found ${String(found).length}` };
    }
    if (issue.origin === "array") return { field, reason: `takes at most ${max} entries` };
    return { field, reason: outOfBounds("at most", max, found, key) };
  }
  return { field, reason: issue.message };
}

/** A count or limit out of its bounds, with the fix: `max_results = 0` keeps no result line at all. */
function outOfBounds(side: string, bound: number, found: unknown, key: string): string {
  const got = typeof found === "number" ? ` (got ${found})` : "";
  return `must be ${side} ${bound}${got}; set a whole number of ${side} ${bound}, or remove ${key} for its default`;
}

/** `strategy.patterns[0]` as the key is spelled in TOML. */
function keyPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const k of path) out += typeof k === "number" ? `[${k}]` : out ? `.${k}` : k;
  return out;
}

function valueAt(raw: unknown, path: readonly (string | number)[]): unknown {
  let at = raw;
  for (const k of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string | number, unknown>)[k];
  }
  return at;
}

const EXPECTED: Record<string, string> = {
  array: "a list",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean (true or false)",
  object: "a table",
};

/** Expected/found, plus the TOML that would be right. */
function wrongType(
  issue: z.core.$ZodIssue & { code: "invalid_type" },
  path: readonly (string | number)[],
  found: unknown,
): string {
  const key = String(path.at(-1) ?? "");
  if (found === undefined) {
    if (keyPath(path) === "match") {
      return 'missing; say which commands the rule is for: match = { prefix = "mytool" } (or exact, or regex)';
    }
    if (keyPath(path) === "strategy") {
      return "missing; say what the rule does: strategy = { type = \"strip_noise\", patterns = ['^DEBUG '] }";
    }
    if (key === "name") {
      return "missing; every rule needs a name (unique; a built-in's name replaces it)";
    }
    return `missing; this strategy needs it (${EXPECTED[issue.expected] ?? issue.expected})`;
  }
  if (issue.expected === "int" && typeof found === "number") {
    return `must be a whole number, found ${found}; set one, or remove ${key} for its default`;
  }
  const expected = EXPECTED[issue.expected] ?? issue.expected;
  let fix = "";
  if (issue.expected === "array" && typeof found === "string") {
    fix = `; write a list, even of one: ${key} = ['${found}']`;
  } else if (issue.expected === "boolean" && typeof found === "string") {
    fix = "; write true or false without quotes";
  } else if (
    (issue.expected === "number" || issue.expected === "int") && typeof found === "string"
  ) {
    fix = "; write the number without quotes";
  } else if (
    issue.expected === "object" && keyPath(path) === "match" && typeof found === "string"
  ) {
    fix = `; write match = { prefix = ${JSON.stringify(found)} } (or exact, or regex)`;
  } else if (
    issue.expected === "object" && keyPath(path) === "strategy" && typeof found === "string"
  ) {
    // The strategy's name alone: it goes in the table's `type`, beside the options it needs.
    const type = (STRATEGY_TYPES as readonly string[]).includes(found)
      ? found
      : suggestKey(found, STRATEGY_TYPES);
    fix = type
      ? `; write strategy = { type = "${type}", … } with its options (\`zeph filter --strategies ${type}\` lists them)`
      : `; write strategy = { type = "strip_noise", patterns = ['^DEBUG '] } (\`zeph filter --strategies\` lists the types)`;
  } else if (issue.expected === "string" && path.some((k) => typeof k === "number")) {
    fix = "; each entry is a regex in quotes";
  }
  return `expected ${expected}, found ${describeTomlValue(found)}${fix}`;
}

/** A key the table at `path` does not take: the likely meant key, or the keys it takes. */
function unknownKey(
  key: string,
  path: readonly (string | number)[],
  raw: unknown,
  ruleKeys: readonly string[],
): string {
  const where = keyPath(path);
  const type = valueAt(raw, ["strategy", "type"]);
  const known: readonly string[] = where === ""
    ? ruleKeys
    : where === "match"
    ? MATCH_KEYS
    : where === "strategy" && typeof type === "string"
    ? (strategyKeys(type) ?? []).filter((k) => k !== "type")
    : [];
  const owners = where === "strategy"
    ? STRATEGY_TYPES.filter((t) => t !== type && strategyKeys(t)?.includes(key))
    : [];
  // A key another strategy takes is that strategy's option, not a typo of a near one here.
  const guess = owners.length ? null : suggestKey(key, known);
  if (guess) return `unknown key "${key}"; did you mean "${guess}"?`;
  if (where === "strategy" && typeof type === "string") {
    const takes = `${type} takes ${known.join(", ")}`;
    if (owners.length) {
      return `unknown key "${key}": it is an option of ${
        owners.slice(0, 3).join(", ")
      }, not of ${type} (${takes}; \`zeph filter --strategies ${type}\` describes each)`;
    }
    return `unknown key "${key}"; ${takes} (\`zeph filter --strategies ${type}\` describes each)`;
  }
  // A note on what the rule is for has no key: TOML has comments.
  const note = where === "" && NOTE_KEYS.includes(key.toLowerCase())
    ? "; a note on the rule goes in a # comment above it"
    : "";
  return known.length
    ? `unknown key "${key}"; ${where ? `${where} takes` : "a rule takes"} ${
      known.join(", ")
    }${note}`
    : `unknown key "${key}"`;
}

function unknownStrategy(type: unknown): string {
  const list = STRATEGY_TYPES.join(", ");
  if (type === undefined) return `missing; set type to one of ${list}`;
  const guess = typeof type === "string" ? suggestKey(type, STRATEGY_TYPES) : null;
  return `unknown strategy type ${JSON.stringify(type)}${
    guess ? ` (did you mean "${guess}"?)` : ""
  }; use one of ${list}`;
}
