/**
 * Rules in two phases: `RuleConfig` (zod, parsed from TOML) → `CompiledRule` (patterns compiled,
 * ready to run). All validation happens here, once; matching never fails.
 */
import { z } from "zod";
import { type RegexEngine, requiredLiterals } from "./regex.ts";
import { describeRuleIssues } from "./rule_errors.ts";
import {
  anyMatcher,
  compileStrategy,
  patternField,
  patternList,
  StrategyConfig,
} from "./strategies/mod.ts";
import { type CompiledStrategy, RuleFieldError } from "./types.ts";
import { checkOptionNeeds } from "./option_needs.ts";
import { templateMarker } from "./verbatim.ts";
import { compileFrames, FramesConfig, withFrames } from "./repeated_frames.ts";

export const MatchConfig = z.object({
  exact: z.string().min(1).optional().describe("The command equals this string"),
  prefix: z.string().min(1).optional().describe("The command starts with this string"),
  regex: z.string().min(1).optional().describe("The command matches this RE2 regex"),
}).strict().refine(
  (m) => [m.exact, m.prefix, m.regex].filter((v) => v !== undefined).length === 1,
  { message: "exactly one of exact, prefix or regex must be set" },
);
export type MatchConfig = z.infer<typeof MatchConfig>;

export const RuleConfig = z.object({
  name: z.string().min(1).describe("Unique name; a user rule with a built-in's name replaces it"),
  match: MatchConfig,
  strategy: StrategyConfig,
  frames: FramesConfig.optional().describe(
    "Fold the code frames of the later findings of each recurring code before the strategy runs (repeated_frames.ts)",
  ),
  enabled: z.boolean().default(true),
  generic: z.boolean().default(true).describe(
    "Run the safe generic folds (repeated lines, library stack frames, system-header notes, long lines) after the rule",
  ),
  rendered: z.boolean().default(false).describe(
    "The rule's output is a rendering of the input, not lines of it: the engine does not put emitted lines back as printed",
  ),
  failure_records: z.array(z.string()).default([]).describe(
    "Regexes of lines that record a failure of the tool (`make: *** [all] Error 2`, ` ! [rejected]`): output holding one is filtered as a failed run's whatever the exit code (`| tee`, `|| true`)",
  ),
}).strict();
export type RuleConfig = z.infer<typeof RuleConfig>;
/** The keys a `[[rules]]` entry takes, for a mistyped one's "did you mean". */
const RULE_KEYS = Object.keys(RuleConfig.shape);

/** The strategy keys whose text the engine emits as a summary of what a rule removed. */
const TEMPLATE_KEYS = ["summary", "on_empty", "results_fold"];

export interface CompiledRule {
  readonly name: string;
  /** Where the rule came from: `built-in (filters/git.toml)` or the user file's path. */
  readonly source: string;
  readonly strategy: CompiledStrategy;
  /** Whether the generic folds that keep every failure line run after it (`false`: not; default on). */
  readonly generic?: boolean;
  /** The matcher as written (`prefix 'cargo test'`), for `--explain` and `--rules`. */
  readonly matchText?: string;
  /** `file:line` of its `[[rules]]` header, when known. */
  readonly at?: string;
  /** The source of the built-in rule of the same name it replaced (user rules only). */
  readonly replaces?: string;
  /** The strategy as configured, for `--explain` to say which pattern removed a line. */
  readonly config?: StrategyConfig;
  /** Its output is a rendering: the guard that keeps lines as printed leaves it alone. */
  readonly rendered?: boolean;
  /** Patterns of the lines its own templates produce (summaries, `on_empty`): engine markers. */
  readonly markers?: RegExp[];
  /**
   * The lines that record a failure of its tool: its `failure_records` and those its strategy
   * knows (`CompiledStrategy.recordsFailure`). Absent when it knows none.
   */
  readonly recordsFailure?: (line: string) => boolean;
  matches(candidate: string): boolean;
}

export class RuleError extends Error {
  constructor(readonly rule: string, readonly field: string, readonly reason: string) {
    super(`Rule "${rule}": ${field}: ${reason}`);
    this.name = "RuleError";
  }
}

export interface CompileRuleOptions {
  /** The entry's position in its file, for a rule without a name. @default 0 */
  index?: number;
  /** Built-in rules run their patterns on V8 (checked linear), the user's on re2js. @default "re2" */
  engine?: RegexEngine;
}

/** Validates and compiles one raw `[[rules]]` entry; throws `RuleError` naming the field. */
export function compileRule(
  raw: unknown,
  source: string,
  options: CompileRuleOptions = {},
): CompiledRule {
  const { index = 0, engine = "re2" } = options;
  const name = ruleName(raw, index);
  const parsed = RuleConfig.safeParse(raw);
  if (!parsed.success) {
    const { field, reason } = describeRuleIssues(parsed.error.issues, raw, RULE_KEYS);
    throw new RuleError(name, field, reason);
  }
  const config = parsed.data;
  try {
    checkOptionNeeds((raw as { strategy?: unknown }).strategy);
    const matcher = compileMatcher(config.match);
    const compiled = compileStrategy(config.strategy, engine);
    const strategy = config.frames
      ? withFrames(compiled, compileFrames(config.frames, engine))
      : compiled;
    const [kind, text] = Object.entries(config.match).find(([, v]) => v !== undefined)!;
    const records = config.failure_records.length
      ? anyMatcher(patternList(config.failure_records, "failure_records", engine))
      : undefined;
    const known = strategy.recordsFailure;
    return {
      name: config.name,
      source,
      strategy,
      generic: config.generic,
      config: config.strategy,
      // As it is written in TOML: a literal string where it can be one.
      matchText: `${kind} ${text!.includes("'") ? JSON.stringify(text) : `'${text}'`}`,
      rendered: config.rendered,
      recordsFailure: records && known ? (line) => records(line) || known(line) : records ?? known,
      markers: TEMPLATE_KEYS.flatMap((key) => {
        const template = (config.strategy as Record<string, unknown>)[key];
        return typeof template === "string" && template.trim() ? [templateMarker(template)] : [];
      }),
      matches: matcher,
    };
  } catch (error) {
    if (error instanceof RuleFieldError) throw new RuleError(name, error.field, error.reason);
    throw error;
  }
}

/** The rule's name for messages, even when the entry is broken. */
export function ruleName(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === "string" && name ? name : `#${index + 1}`;
}

/**
 * The command matcher. Its regex runs on re2js whoever wrote it: it reads one short command per
 * call, and the built-ins' command shapes (`^cargo\s+(\+\S+\s+)?clippy\b`) have several repeats.
 * Every command of a run is tried against every rule, so a command that holds none of the texts
 * one of which each match of the regex holds (`clippy`) is refused before the regex runs.
 */
function compileMatcher(match: MatchConfig): (candidate: string) => boolean {
  if (match.exact !== undefined) {
    const exact = match.exact;
    return (c) => c === exact;
  }
  if (match.prefix !== undefined) {
    const prefix = match.prefix;
    return (c) => c.startsWith(prefix);
  }
  const pattern = patternField(match.regex!, "match.regex", "re2");
  const literals = requiredLiterals(match.regex!);
  if (literals === null) return (c) => pattern.test(c);
  return (c) => {
    for (const literal of literals) if (c.includes(literal)) return pattern.test(c);
    return false;
  };
}
