/**
 * `zeph filter --explain`: which rule and stage removed (or added) which lines, for people
 * writing rules. Each stage's input and output are compared as multisets of lines, so a stage
 * that rewrites a line shows it removed and its new form added. A line a `strip_noise` or
 * `keep_matching` rule removed names the pattern that took it; a pattern that took nothing, a
 * removed line that reads as a failure and a rule of yours that matched no candidate are said,
 * since each is how a rule that looks right does nothing or hides what went wrong.
 */
import { appendAll } from "./arrays.ts";
import { matchCandidates } from "./command.ts";
import type { FilterEngine, StageTrace } from "./engine.ts";
import { compilePattern, type Pattern } from "./regex.ts";
import type { CompiledRule } from "./rule.ts";
import { FAILURE_SIGNAL } from "./strategies/mod.ts";
import { GroupByRuleConfig } from "./strategies/mod.ts";
import type { Restore } from "./verbatim.ts";

/** Lines listed per stage and direction; the rest are counted. */
const MAX_LISTED = 200;

/** The explanation of one output, as lines of text. */
export function explainFilter(
  engine: FilterEngine,
  command: string,
  raw: string,
  options: { failed?: boolean } = {},
): string[] {
  const record = options.failed ? null : engine.failureRecord(command, raw);
  const failed = (options.failed ?? false) || record !== null;
  const traces = engine.trace(command, raw, options);
  const byName = new Map(engine.rules.map((rule) => [rule.name, rule]));
  const out: string[] = [];
  if (traces.length === 1) out.push(`no rule matches "${command}" and the generic pass is off`);
  else if (traces.some((t) => t.name === "generic")) {
    out.push(`no rule matches "${command}": the generic pass runs`);
  }
  if (record !== null) {
    out.push(`a failed run's output (a matched rule's failure record: ${JSON.stringify(record)})`);
  }
  for (const trace of traces) appendAll(out, explainStage(trace, byName.get(trace.name), failed));
  if (traces.some((t) => byName.has(t.name))) appendAll(out, evidenceNote(traces, failed));
  appendAll(out, unmatchedRules(engine, command));
  return out;
}

/**
 * What the engine adds back after the rules, said where the stages alone would mislead: rules
 * that removed every line leave the output's last lines (a rule never empties an output), and
 * a failed command the rules left without a failure-looking line gets its failure lines back.
 */
function evidenceNote(traces: StageTrace[], failed: boolean): string[] {
  const input = traces[0].output.filter((line) => line.trim() !== "");
  const left = traces.at(-1)!.output.filter((line) => line.trim() !== "");
  if (!input.length) return [];
  if (!left.length) {
    return [
      "! every line went, so the output is its last lines as they came (rules never empty an output); " +
      `${
        failed ? "on a clean run, " : ""
      }strip_noise's on_empty = "…" is the line a clean run shows instead`,
    ];
  }
  if (!failed || left.length > 2 || left.some((line) => FAILURE_SIGNAL.test(line))) return [];
  const back = input.filter((line) => FAILURE_SIGNAL.test(line)).length;
  if (!back) return [];
  return [
    `! the command failed and the rules left no line that reads as a failure: its ${
      Math.min(back, 20)
    } failure-looking line${back === 1 ? "" : "s"} come${
      back === 1 ? "s" : ""
    } back after what they left`,
  ];
}

function explainStage(
  trace: StageTrace,
  rule: CompiledRule | undefined,
  failed: boolean,
): string[] {
  if (trace.restored) return explainGuard(trace.restored, trace.asInput ?? false);
  const { removed, added } = difference(trace.input, trace.output);
  const isRule = rule !== undefined && trace.type === rule.strategy.type;
  // The generic pass and its folds after the rules are named as they are; a rule with its type,
  // and with its file when it was loaded from one (yours, or a built-in you replaced).
  const from = isRule && rule.at && !rule.at.startsWith("built-in")
    ? `; ${rule.at}${rule.replaces ? `, replaces ${rule.replaces}` : ""}`
    : "";
  const what = trace.name === trace.type || trace.type === "generic"
    ? trace.name
    : `rule ${trace.name} (${trace.type}${from})`;
  const out = [
    `${what}: ${trace.input.length} lines in, ${trace.output.length} out, ${removed.length} removed, ${added.length} added (confidence ${trace.confidence})`,
  ];
  const fields = isRule ? patternFields(rule, failed) : NO_FIELDS;
  // The lines right above a frame mark: the code line a mark goes with.
  const aboveMark = new Set<string>();
  if (fields.marks.length) {
    trace.input.forEach((line, i) => {
      if (i > 0 && fields.marks.some((f) => f.pattern.test(line))) {
        aboveMark.add(trace.input[i - 1]);
      }
    });
  }
  const why = (line: string): string => {
    const notes: string[] = [];
    const hit = fields.removers.find((f) => f.pattern.test(line));
    if (hit) notes.push(hit.label);
    else if (fields.keeps.length && !fields.keeps.some((f) => f.pattern.test(line))) {
      notes.push("matches no pattern");
    } else if (aboveMark.has(line)) {
      notes.push(`the code line above a ${fields.marks[0].label} mark`);
    }
    if (isRule && FAILURE_SIGNAL.test(line)) notes.push("looks like a failure");
    return notes.length ? `   [${notes.join("; ")}]` : "";
  };
  const list = (sign: string, lines: string[], note: (line: string) => string) => {
    for (const line of lines.slice(0, MAX_LISTED)) out.push(`  ${sign} ${line}${note(line)}`);
    if (lines.length > MAX_LISTED) out.push(`  ${sign} … ${lines.length - MAX_LISTED} more`);
  };
  list("-", removed, why);
  list("+", added, () => "");
  for (const field of fields.checks) {
    if (!trace.input.some((line) => field.pattern.test(line))) {
      out.push(`  ! ${field.label} matches no line of this output`);
    }
  }
  // Without a line showing results are an echo, strip_noise folds none: said once, for all of them.
  if (
    fields.evidence.length &&
    !trace.input.some((line) => fields.evidence.some((field) => field.pattern.test(line)))
  ) {
    out.push(
      `  ! results_evidence (${fields.evidence.length} pattern${
        fields.evidence.length === 1 ? "" : "s"
      }) matches no line of this output: the result lines stay as printed, none folds`,
    );
  }
  const failures = isRule ? removed.filter((line) => FAILURE_SIGNAL.test(line)).length : 0;
  if (failures) {
    out.push(
      `  ! ${failures} removed line${
        failures === 1 ? " reads" : "s read"
      } as a failure: make sure the rule means to drop ${failures === 1 ? "it" : "them"}`,
    );
  }
  return out;
}

interface PatternField {
  /** `patterns[0] '^ok \d+ '` */
  label: string;
  pattern: Pattern;
}

/**
 * The patterns of a rule that `--explain` reads: `removers` name why a removed line went (the
 * first that matches it), `keeps` are keep_matching's (a removed line matching none went for
 * that), `marks` are code-frame marks (the line above one goes with it), and `checks` are said
 * when they match no line of the output — a pattern that never matches is a rule doing less
 * than it looks.
 */
interface RuleFields {
  removers: PatternField[];
  keeps: PatternField[];
  marks: PatternField[];
  checks: PatternField[];
  /** strip_noise's results_evidence: said when none of them matches a line. */
  evidence: PatternField[];
}

const NO_FIELDS: RuleFields = { removers: [], keeps: [], marks: [], checks: [], evidence: [] };

/** group_by_rule's options as the schema fills them in, to tell a default from a setting. */
const GROUP_DEFAULTS = GroupByRuleConfig.parse({ type: "group_by_rule" });

/**
 * The patterns of a `strip_noise`, `keep_matching` or `group_by_rule` rule that decide whether a
 * line goes (`failed_patterns` only when the command failed, `passed_patterns` only when it
 * passed), in the order the strategy tries them. They run on re2js here whatever engine the rule
 * uses: every rule pattern is valid RE2.
 */
function patternFields(rule: CompiledRule, failed: boolean): RuleFields {
  const config = rule.config;
  const fields = (field: string, sources: readonly string[]): PatternField[] =>
    sources.map((source, i) => ({
      label: `${field}[${i}] '${source}'`,
      pattern: compilePattern(source, "re2"),
    }));
  const one = (field: string, source: string | undefined, note = ""): PatternField[] =>
    source === undefined
      ? []
      : [{ label: `${field} '${source}'${note}`, pattern: compilePattern(source, "re2") }];
  if (config?.type === "keep_matching") {
    const keeps = fields("patterns", config.patterns);
    return { ...NO_FIELDS, keeps, checks: keeps };
  }
  if (config?.type === "strip_noise") {
    const removers = [
      ...fields("patterns", config.patterns),
      ...(failed
        ? fields("failed_patterns", config.failed_patterns)
        : fields("passed_patterns", config.passed_patterns)),
    ];
    const marks = fields("frame_marks", config.frame_marks);
    return {
      removers: [...removers, ...marks],
      keeps: [],
      marks,
      checks: [...removers, ...marks],
      evidence: fields("results_evidence", config.results_evidence),
    };
  }
  if (config?.type === "group_by_rule") {
    const noise = fields("noise_patterns", config.noise_patterns);
    const mine = (key: "noise_patterns" | "grouped_noise_patterns") =>
      config[key].join("\n") !== GROUP_DEFAULTS[key].join("\n");
    const file = one(
      "file_pattern",
      config.file_pattern,
      ": the file goes into its findings' locations",
    );
    const frame = one("frame_pattern", config.frame_pattern);
    const grouped = fields("grouped_noise_patterns", config.grouped_noise_patterns);
    return {
      ...NO_FIELDS,
      removers: [...noise, ...grouped, ...file],
      keeps: [],
      marks: frame,
      // Only what the rule sets: the defaults are cargo's, and match no other tool's output.
      checks: [
        ...(mine("noise_patterns") ? noise : []),
        ...one("line_pattern", config.line_pattern),
        ...one("file_pattern", config.file_pattern),
        ...one("continuation_pattern", config.continuation_pattern),
        ...one("message_line_pattern", config.message_line_pattern),
        ...frame,
      ],
    };
  }
  return NO_FIELDS;
}

/**
 * Your rules (loaded from a file, not built in) that no candidate of the command matched, with
 * the candidates and, where a matcher nearly matches, why it does not: a rule that never runs is
 * otherwise invisible here. When a rule of yours ran, the others are for other commands.
 */
function unmatchedRules(engine: FilterEngine, command: string): string[] {
  const candidates = matchCandidates(command);
  const yours = engine.rules.filter((rule) =>
    rule.at !== undefined && !rule.at.startsWith("built-in")
  );
  const mine = yours.filter((rule) => !candidates.some((c) => rule.matches(c)));
  if (!mine.length || mine.length < yours.length) return [];
  return [
    `your rules that do not match ${candidates.map((c) => JSON.stringify(c)).join(" or ")}:`,
    ...mine.flatMap((rule) => [
      `  ${rule.name}: ${rule.matchText ?? "?"} (${rule.at})`,
      ...nearMiss(rule, candidates).map((hint) => `    ${hint}`),
    ]),
  ];
}

/**
 * Why a matcher that nearly matches a candidate does not: `exact` compares the whole command
 * (its arguments too), `prefix` its start (not a program found after a path or a launcher).
 */
function nearMiss(rule: CompiledRule, candidates: string[]): string[] {
  const m = /^(exact|prefix) (?:'(.*)'|(".*"))$/.exec(rule.matchText ?? "");
  if (!m) return [];
  const [, kind, literal, quoted] = m;
  const text: string = literal ?? JSON.parse(quoted);
  if (kind === "exact" && candidates.some((c) => c.startsWith(`${text} `))) {
    return [
      `exact compares the whole command, arguments too: prefix = ${
        JSON.stringify(text)
      } matches it with any`,
    ];
  }
  if (kind === "prefix" && candidates.some((c) => c.includes(text))) {
    return [
      `prefix compares the command's start, and ${
        JSON.stringify(text)
      } comes later in it: match = { regex = '\\b${escapeRegex(text)}\\b' } finds it anywhere`,
    ];
  }
  return [];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The guard's step: each emitted line it put back as printed, or dropped as already shown. */
function explainGuard(restored: Restore[], asInput: boolean): string[] {
  const out = [
    `guard: ${restored.length} emitted line${
      restored.length === 1 ? "" : "s"
    } put back as printed (a rule rewrote or cut them)`,
  ];
  if (asInput) out.push("  longer than the input once put back: the input is shown as it came");
  for (const { emitted, restored: line } of restored.slice(0, MAX_LISTED)) {
    out.push(`  ~ ${emitted}`);
    out.push(
      line === null ? `    dropped: its input line is already in the output` : `  = ${line}`,
    );
  }
  if (restored.length > MAX_LISTED) out.push(`  … ${restored.length - MAX_LISTED} more`);
  return out;
}

/** Lines of `before` missing from `after` and lines of `after` not in `before`, counted. */
function difference(before: string[], after: string[]): { removed: string[]; added: string[] } {
  const counts = new Map<string, number>();
  for (const line of after) counts.set(line, (counts.get(line) ?? 0) + 1);
  const removed: string[] = [];
  for (const line of before) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else removed.push(line);
  }
  const left = new Map<string, number>();
  for (const line of before) left.set(line, (left.get(line) ?? 0) + 1);
  const added: string[] = [];
  for (const line of after) {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else added.push(line);
  }
  return { removed, added };
}
