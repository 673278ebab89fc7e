/**
 * group_by_rule: groups diagnostics (clippy, rustc, eslint, deno lint, tsc) by their rule and
 * prints one block per rule: `rule (N warnings): first message`, then the locations. Errors are
 * kept verbatim (their code frames are what the model needs), unless `group_errors` is set
 * (linters whose every finding is an "error"). Improvement over the reference: a warning without
 * a rule line (rustc names the lint only once) is grouped by its message with quoted names
 * elided, errors no longer disable the grouping, and single-line formats are supported through
 * `line_pattern` (named groups `loc`, `rule`, `msg`, optional `sev`) plus `file_pattern`; lines
 * matching `continuation_pattern` right after such a diagnostic (tsc's indented elaboration) belong
 * to it and are shown under its location, not left at the end.
 */
import { z } from "zod";
import type { Pattern, RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatcher, FAILURE_SIGNAL, patternField, patternList } from "./_shared.ts";

const CARGO_NOISE = [
  "^\\s*(Compiling|Checking|Downloading|Downloaded|Updating|Fetching|Fresh|Packaging|Verifying|Archiving|Locking|Adding|Removing|Documenting|Blocking|Unpacking|Building|Locked) ",
  // rustc's pointers to the long explanations of error codes: each error keeps its code.
  "^For more information about (this|an) error, try `rustc --explain",
  "^Some errors have detailed explanations: [\\w, ]{1,300}\\.$",
];

export const GroupByRuleConfig = z.object({
  type: z.literal("group_by_rule"),
  location_pattern: z.string().default("^\\s*--> (\\S{1,400}:\\d{1,7}:\\d{1,7})").describe(
    "Regex whose group 1 is a diagnostic's location",
  ),
  rule_pattern: z.string().default(
    "#\\[(?:warn|deny|forbid)\\(([\\w:]{1,100})\\)\\]|rust-clippy/[\\w.-]{1,40}/index\\.html#(\\w{1,100})",
  ).describe("Regex whose first matching group is the rule name"),
  message_pattern: z.string().default("^(?:warning|error)(?:\\[(?P<rule>[\\w:/-]+)\\])?: \\S")
    .describe("Regex of the line that starts a diagnostic (named group `rule` optional)"),
  line_pattern: z.string().optional().describe(
    "Regex of a one-line diagnostic with named groups loc, rule, msg and optional sev",
  ),
  file_pattern: z.string().optional().describe(
    "Regex whose group 1 names the file for the one-line diagnostics that follow",
  ),
  continuation_pattern: z.string().optional().describe(
    "Regex of the lines that continue the one-line diagnostic before them (shown under its location)",
  ),
  noise_patterns: z.array(z.string()).default(CARGO_NOISE).describe("Lines dropped outright"),
  grouped_noise_patterns: z.array(z.string()).default([]).describe(
    "Lines dropped only when diagnostics were grouped (clippy's `Finished` timing line); a clean run keeps them",
  ),
  group_errors: z.boolean().default(false).describe("Group errors too instead of keeping them"),
  max_locations: z.number().int().min(1).default(20).describe("Locations listed per rule"),
  max_error_lines: z.number().int().min(1).default(40).describe("Lines kept per error"),
}).strict();
export type GroupByRuleConfig = z.infer<typeof GroupByRuleConfig>;

interface Diagnostic {
  lines: string[];
  message: string;
  error: boolean;
  rule?: string;
  location?: string;
  /** Lines continuing a one-line diagnostic (`continuation_pattern`), also in `lines`. */
  continuation?: string[];
}

interface Compiled {
  location: Pattern;
  rule: Pattern;
  message: Pattern;
  line?: Pattern;
  file?: Pattern;
  continuation?: Pattern;
  noise: (line: string) => boolean;
  groupedNoise: (line: string) => boolean;
}

export function compileGroupByRule(
  config: GroupByRuleConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const patterns: Compiled = {
    location: patternField(config.location_pattern, "strategy.location_pattern", engine),
    rule: patternField(config.rule_pattern, "strategy.rule_pattern", engine),
    message: patternField(config.message_pattern, "strategy.message_pattern", engine),
    line: config.line_pattern === undefined
      ? undefined
      : patternField(config.line_pattern, "strategy.line_pattern", engine),
    file: config.file_pattern === undefined
      ? undefined
      : patternField(config.file_pattern, "strategy.file_pattern", engine),
    continuation: config.continuation_pattern === undefined
      ? undefined
      : patternField(config.continuation_pattern, "strategy.continuation_pattern", engine),
    noise: anyMatcher(patternList(config.noise_patterns, "strategy.noise_patterns", engine)),
    groupedNoise: anyMatcher(
      patternList(config.grouped_noise_patterns, "strategy.grouped_noise_patterns", engine),
    ),
  };
  return {
    type: "group_by_rule",
    createStage(ctx: StageContext): Stage {
      const input: string[] = [];
      return {
        push: (line) => void input.push(line),
        finish() {
          const result = group(input, patterns, config);
          for (const line of result?.lines ?? input) ctx.emit(line);
          return result?.confidence ?? "fallback";
        },
      };
    },
  };
}

function firstGroup(match: { group(i: number | string): string | undefined }): string | undefined {
  for (let i = 1; i < 10; i++) {
    const g = match.group(i);
    if (g) return g;
  }
  return undefined;
}

function group(
  lines: string[],
  p: Compiled,
  config: GroupByRuleConfig,
): { lines: string[]; confidence: "full" | "partial" } | null {
  const diagnostics: Diagnostic[] = [];
  const other: string[] = [];
  let current: Diagnostic | null = null;
  // The last one-line diagnostic, while the lines after it continue it.
  let continued: Diagnostic | null = null;
  let file = "";
  let noise = 0;
  for (const line of lines) {
    if (p.noise(line) || allDuplicates(line)) {
      noise++;
      continue;
    }
    if (continued && p.continuation?.test(line)) {
      continued.lines.push(line);
      (continued.continuation ??= []).push(line);
      continue;
    }
    continued = null;
    const one = p.line?.exec(line);
    if (one) {
      current = null;
      const loc = one.group("loc") ?? "";
      continued = {
        lines: [line],
        message: (one.group("msg") ?? line).trim(),
        error: config.group_errors ? false : (one.group("sev") ?? "error") === "error",
        rule: one.group("rule"),
        location: file && !loc.includes(file) ? `${file}:${loc}` : loc,
      };
      diagnostics.push(continued);
      continue;
    }
    const fileMatch = p.file?.exec(line);
    if (fileMatch) {
      file = fileMatch.group(1) ?? "";
      current = null;
      continue;
    }
    const start = p.message.exec(line);
    if (start) {
      current = {
        lines: [line],
        message: line.trim(),
        error: !config.group_errors && line.startsWith("error"),
        rule: start.group("rule"),
      };
      diagnostics.push(current);
      continue;
    }
    if (!current) {
      if (line.trim()) other.push(line);
      continue;
    }
    current.lines.push(line);
    const loc = current.location ? undefined : p.location.exec(line);
    if (loc) current.location = loc.group(1);
    const rule = current.rule ? undefined : p.rule.exec(line);
    if (rule) current.rule = firstGroup(rule);
  }
  const located = diagnostics.filter((d) => d.location);
  if (located.length === 0) {
    if (noise === 0) return null;
    const kept = [...other, ...diagnostics.flatMap((d) => d.lines)];
    return { lines: kept, confidence: "partial" };
  }

  // rustc names a lint only on its first occurrence; later ones with the same message shape
  // inherit it.
  const ruleByShape = new Map<string, string>();
  for (const d of diagnostics) if (d.rule) ruleByShape.set(elideNames(d.message), d.rule);
  for (const d of diagnostics) d.rule ??= ruleByShape.get(elideNames(d.message));

  const out: string[] = [];
  const groups = new Map<string, Diagnostic[]>();
  let summaries: string[] = [];
  for (const d of diagnostics) {
    if (!d.location) {
      summaries.push(...trimBlank(d.lines).slice(0, config.max_error_lines));
      continue;
    }
    if (d.error) {
      const body = trimBlank(d.lines);
      out.push(...body.slice(0, config.max_error_lines));
      if (body.length > config.max_error_lines) {
        out.push(`... (${body.length - config.max_error_lines} more lines)`);
      }
      out.push("");
      continue;
    }
    const key = d.rule ?? elideNames(d.message);
    const list = groups.get(key) ?? [];
    list.push(d);
    groups.set(key, list);
  }
  let findings = 0;
  for (const [key, list] of groups) {
    findings += list.length;
    const first = stripSeverity(list[0].message);
    const keyed = list[0].rule !== undefined;
    out.push(
      keyed ? `${key} (${list.length}): ${first}` : `${stripSeverity(key)} (${list.length})`,
    );
    for (const d of list.slice(0, config.max_locations)) {
      const message = stripSeverity(d.message);
      // A message without quoted names is the group's line itself: the location says it all.
      const differs = keyed ? message !== first : elideNames(message) !== message;
      out.push(`  ${d.location}${differs ? `  ${differing(message, first)}` : ""}`);
      // A one-line diagnostic's continuation lines, indented under its location.
      for (const line of d.continuation ?? []) out.push(`  ${line}`);
    }
    if (list.length > config.max_locations) {
      out.push(`  … and ${list.length - config.max_locations} more`);
    }
  }
  const rest = groups.size ? other.filter((line) => !p.groupedNoise(line)) : other;
  if (groups.size) summaries = summaries.filter((line) => !p.groupedNoise(line));
  // Our total only when the tool printed none equal to it (cargo's `generated 17 warnings`).
  const total = new RegExp(`\\b${findings} (warning|error|problem|diagnostic)s?\\b`);
  if (groups.size && ![...rest, ...summaries].some((line) => total.test(line))) {
    out.push(`${findings} diagnostics in ${groups.size} groups`);
  }
  // Loose error lines (a linker error, make's `*** Error 2`) lead; the rest trails.
  const loud = rest.filter((line) => FAILURE_SIGNAL.test(line));
  out.unshift(...loud);
  out.push(...rest.filter((line) => !FAILURE_SIGNAL.test(line)), ...summaries);
  // Grouping that saves nothing (each finding its own rule) is discarded whole by the engine,
  // noise and all: the findings as printed, without the noise lines, are then the shorter form.
  if (noise > 0) {
    const plain = lines.filter((line) => !p.noise(line) && !allDuplicates(line));
    if (textSize(plain) <= textSize(out)) return { lines: plain, confidence: "full" };
  }
  return { lines: out, confidence: "full" };
}

function textSize(lines: string[]): number {
  return lines.reduce((n, line) => n + line.length + 1, 0);
}

const DUPLICATES = /generated (\d+) warnings? \((\d+) duplicates?\)$/;

/**
 * cargo's `warning: \`x\` (lib test) generated 17 warnings (17 duplicates)`: every warning was
 * already reported for another target, so the line adds nothing. Partial duplicates stay.
 */
function allDuplicates(line: string): boolean {
  if (!line.includes(" duplicate")) return false;
  const m = DUPLICATES.exec(line);
  return m !== null && m[1] === m[2];
}

/** `warning: unused import` → `unused import` (the group line already says what it is). */
function stripSeverity(message: string): string {
  return message.replace(/^(warning|error)(\[[^\]]*\])?: /, "").replace(
    /^(error: )?TS\d+ \[(ERROR|WARNING)\]: /,
    "",
  );
}

function trimBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === "") end--;
  return lines.slice(0, end);
}

const QUOTED = /`[^`]*`|'[^']*'|‘[^’]*’/g;

/** `unused variable: \`x\`` and `unused variable: \`y\`` share one group. */
export function elideNames(message: string): string {
  return message.replace(/`[^`]*`/g, "`…`").replace(/'[^']*'/g, "'…'").replace(
    /‘[^’]*’/g,
    "‘…’",
  );
}

/**
 * What a location line shows of its message: only the quoted names when the message has the
 * group's first message's shape (`unused variable ‘b’` under `unused variable ‘a’` → `‘b’`).
 * Several names are shown in the order of the message's slots, joined by ` … ` (the text
 * between them is the group's): `` writing `&Vec` instead of `&[_]` … `` → `` `&Vec` … `&[_]` ``.
 */
function differing(message: string, first: string): string {
  const names = message.match(QUOTED);
  if (!names || elideNames(message) !== elideNames(first)) return message;
  return names.join(" … ");
}
