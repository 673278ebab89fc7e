/**
 * `zeph filter --explain`: which rule and stage removed (or added) which lines, for people
 * writing rules. Each stage's input and output are compared as multisets of lines, so a stage
 * that rewrites a line shows it removed and its new form added. A line a `strip_noise` or
 * `keep_matching` rule removed names the pattern that took it; a pattern that took nothing, a
 * removed line that reads as a failure and a rule of yours that matched no candidate are said,
 * since each is how a rule that looks right does nothing or hides what went wrong.
 */
import { appendAll } from "./_arrays.ts";
import { matchCandidates } from "./command.ts";
import type { FilterEngine, StageTrace } from "./engine.ts";
import { compilePattern, type Pattern } from "./regex.ts";
import type { CompiledRule } from "./rule.ts";
import { FAILURE_SIGNAL } from "./strategies/mod.ts";
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
  const failed = options.failed ?? false;
  const traces = engine.trace(command, raw, options);
  const byName = new Map(engine.rules.map((rule) => [rule.name, rule]));
  const out: string[] = [];
  if (traces.length === 1) out.push(`no rule matches "${command}" and the generic pass is off`);
  else if (traces.some((t) => t.name === "generic")) {
    out.push(`no rule matches "${command}": the generic pass runs`);
  }
  for (const trace of traces) appendAll(out, explainStage(trace, byName.get(trace.name), failed));
  appendAll(out, unmatchedRules(engine, command));
  return out;
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
  const fields = isRule ? patternFields(rule, failed) : [];
  const why = (line: string): string => {
    const notes: string[] = [];
    if (fields.length) {
      const hit = fields.find((f) => f.pattern.test(line));
      if (hit && rule!.strategy.type === "strip_noise") notes.push(hit.label);
      else if (!hit && rule!.strategy.type === "keep_matching") notes.push("matches no pattern");
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
  for (const field of fields) {
    if (!trace.input.some((line) => field.pattern.test(line))) {
      out.push(`  ! ${field.label} matches no line of this output`);
    }
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
 * The line patterns of a `strip_noise` or `keep_matching` rule that decide whether a line goes
 * (`failed_patterns` only when the command failed), in the order the strategy tries them. They
 * run on re2js here whatever engine the rule uses: every rule pattern is valid RE2.
 */
function patternFields(rule: CompiledRule, failed: boolean): PatternField[] {
  const config = rule.config;
  if (config?.type !== "strip_noise" && config?.type !== "keep_matching") return [];
  const lists: [string, string[]][] = [["patterns", config.patterns]];
  if (config.type === "strip_noise" && failed) {
    lists.push(["failed_patterns", config.failed_patterns]);
  }
  return lists.flatMap(([field, sources]) =>
    sources.map((source, i) => ({
      label: `${field}[${i}] '${source}'`,
      pattern: compilePattern(source, "re2"),
    }))
  );
}

/**
 * Your rules (loaded from a file, not built in) that no candidate of the command matched, with
 * the candidates: a rule that never runs is otherwise invisible here.
 */
function unmatchedRules(engine: FilterEngine, command: string): string[] {
  const candidates = matchCandidates(command);
  const mine = engine.rules.filter((rule) =>
    rule.at !== undefined && !rule.at.startsWith("built-in") &&
    !candidates.some((c) => rule.matches(c))
  );
  if (!mine.length) return [];
  return [
    `your rules that do not match ${candidates.map((c) => JSON.stringify(c)).join(" or ")}:`,
    ...mine.map((rule) => `  ${rule.name}: ${rule.matchText ?? "?"} (${rule.at})`),
  ];
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
