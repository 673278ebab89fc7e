/**
 * group_by_rule: groups diagnostics (clippy, rustc, eslint, deno lint, tsc) by their rule and
 * prints one block per rule: `rule (N warnings): first message`, then the locations. Errors are
 * kept verbatim (their code frames are what the model needs), unless `group_errors` is set
 * (linters whose every finding is an "error"). Improvement over the reference: a warning without
 * a rule line (rustc names the lint only once) is grouped by its message with quoted names
 * elided, errors no longer disable the grouping, and single-line formats are supported through
 * `line_pattern` (named groups `loc`, `rule`, `msg`, optional `sev`) plus `file_pattern`.
 */
import { z } from "zod";
import type { Pattern } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatcher, FAILURE_SIGNAL, patternField, patternList } from "./_shared.ts";
import {
  classifyGccLine,
  GCC_LINE,
  GCC_NOISE,
  type GccWarning,
  LastWarning,
  NOISE,
  UNSURE,
  WARNING,
} from "./gcc_lines.ts";

const CARGO_NOISE = [
  "^\\s*(Compiling|Checking|Downloading|Downloaded|Updating|Fetching|Fresh|Packaging|Verifying|Archiving|Locking|Adding|Removing|Documenting|Blocking|Unpacking|Building|Locked) ",
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
  noise_patterns: z.array(z.string()).default(CARGO_NOISE).describe("Lines dropped outright"),
  grouped_noise_patterns: z.array(z.string()).default([]).describe(
    "Lines dropped only when diagnostics were grouped (clippy's `Finished` timing line); a clean run keeps them",
  ),
  group_errors: z.boolean().default(false).describe("Group errors too instead of keeping them"),
  max_locations: z.number().int().min(1).default(20).describe("Locations listed per rule"),
  max_error_lines: z.number().int().min(1).default(40).describe("Lines kept per error"),
}).strict();
export type GroupByRuleConfig = z.infer<typeof GroupByRuleConfig>;

/** A diagnostic being read: only what the output can show is kept, not all its lines. */
interface Diagnostic {
  seq: number;
  message: string;
  error: boolean;
  /** Its own rule (from its message or a rule line), before inheritance by shape. */
  rule?: string;
  shape: string;
  location?: string;
  /** The first `max_error_lines` lines (errors and unlocated diagnostics show them). */
  head: string[];
  /** Lines up to and including the last non-blank one. */
  trimmed: number;
  count: number;
}

/** A located warning as a group lists it. */
interface Member {
  seq: number;
  message: string;
  rule?: string;
  shape: string;
  location: string;
}

/** Located warnings with the same own rule (or, without one, the same shape), in order. */
interface Bucket {
  rule?: string;
  shape: string;
  count: number;
  /** The first `max_locations` members (a group shows no more). */
  members: Member[];
}

interface Compiled {
  location: Pattern;
  rule: Pattern;
  message: Pattern;
  line?: Pattern;
  file?: Pattern;
  noise: (line: string) => boolean;
  groupedNoise: (line: string) => boolean;
  /** The noise and line patterns are make-gcc's built-in ones (gcc_lines.ts reads them). */
  gcc: boolean;
}

export function compileGroupByRule(config: GroupByRuleConfig): CompiledStrategy {
  const patterns: Compiled = {
    location: patternField(config.location_pattern, "strategy.location_pattern"),
    rule: patternField(config.rule_pattern, "strategy.rule_pattern"),
    message: patternField(config.message_pattern, "strategy.message_pattern"),
    line: config.line_pattern === undefined
      ? undefined
      : patternField(config.line_pattern, "strategy.line_pattern"),
    file: config.file_pattern === undefined
      ? undefined
      : patternField(config.file_pattern, "strategy.file_pattern"),
    noise: anyMatcher(patternList(config.noise_patterns, "strategy.noise_patterns")),
    groupedNoise: anyMatcher(
      patternList(config.grouped_noise_patterns, "strategy.grouped_noise_patterns"),
    ),
    gcc: config.line_pattern === GCC_LINE && config.file_pattern === undefined &&
      config.noise_patterns.length === GCC_NOISE.length &&
      config.noise_patterns.every((source, i) => source === GCC_NOISE[i]),
  };
  return {
    type: "group_by_rule",
    createStage(ctx: StageContext): Stage {
      // The input is held for the unchanged pass-through only when it cannot be walked again.
      const input: string[] | null = ctx.replay ? null : [];
      const g = grouper(patterns, config);
      return {
        utf8: patterns.gcc,
        push(line, utf8, from, to) {
          input?.push(line);
          g.push(line, utf8, from, to);
        },
        finish() {
          const result = g.finish();
          if (result) { for (const line of result.lines) ctx.emit(line); }
          else if (input) { for (const line of input) ctx.emit(line); }
          else ctx.replay!(ctx.emit);
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

/**
 * Reads diagnostics as lines arrive. Memory is bounded by what the output shows (errors' first
 * lines, loose lines, `max_locations` members per group) and the number of distinct groups; all
 * lines are kept only while no diagnostic has had a location (the output then lists them all).
 */
function grouper(p: Compiled, config: GroupByRuleConfig): {
  push(line: string, utf8?: Uint8Array, from?: number, to?: number): void;
  finish(): { lines: string[]; confidence: "full" | "partial" } | null;
} {
  const maxLines = config.max_error_lines;
  const other: string[] = [];
  /** Every diagnostic line in order, until one diagnostic has a location. */
  let allLines: string[] | null = [];
  const errorLines: string[] = [];
  let summaries: string[] = [];
  // Buckets by own rule, and by shape for warnings without one; `buckets` in order of creation.
  const byRule = new Map<string, Bucket>();
  const byShape = new Map<string, Bucket>();
  const buckets: Bucket[] = [];
  // rustc names a lint only on its first occurrence; later ones with the same message shape
  // inherit it (the last rule seen for a shape wins).
  const ruleByShape = new Map<string, string>();
  // The last entry set in ruleByShape and the last bucket filed into: a run of diagnostics of
  // one kind (a build's hundred `-Wunused-variable`s) then compares two short strings instead
  // of hashing a new one into each map per diagnostic.
  let lastShape = "";
  let lastRule = "";
  let lastMap: Map<string, Bucket> | null = null;
  let lastKey = "";
  let lastBucket: Bucket | undefined;
  let current: Diagnostic | null = null;
  let seq = 0;
  let file = "";
  let noise = 0;
  const spans: GccWarning = { locEnd: 0, msgStart: 0, msgTail: 0, ruleLength: 0 };
  // The last gcc warning read from bytes and the state it left: while that state is still the
  // current one, a warning with its rule and shape changes nothing but counts.
  const run = {
    bytes: new LastWarning(),
    bucket: undefined as Bucket | undefined,
    rule: "",
    shape: "",
  };

  const open = (line: string, message: string, error: boolean, rule?: string): Diagnostic => ({
    seq: seq++,
    message,
    error,
    rule,
    shape: elideNames(message),
    head: [line],
    trimmed: line.trim() === "" ? 0 : 1,
    count: 1,
  });

  /** The last rule seen for a shape wins (see ruleByShape). */
  const noteRule = (rule: string | undefined, shape: string): void => {
    if (rule && (rule !== lastRule || shape !== lastShape)) {
      ruleByShape.set(shape, rule);
      lastRule = rule;
      lastShape = shape;
    }
  };

  /** Files a located warning in its bucket. */
  const fileWarning = (member: Member): void => {
    const map = member.rule !== undefined ? byRule : byShape;
    const key = member.rule ?? member.shape;
    let bucket = lastMap === map && lastKey === key ? lastBucket : map.get(key);
    if (!bucket) {
      bucket = { rule: member.rule, shape: member.shape, count: 0, members: [] };
      map.set(key, bucket);
      buckets.push(bucket);
    }
    lastMap = map;
    lastKey = key;
    lastBucket = bucket;
    bucket.count++;
    if (bucket.members.length < config.max_locations) bucket.members.push(member);
  };

  /** Files a finished diagnostic under errors, summaries or its bucket. */
  const close = (d: Diagnostic): void => {
    noteRule(d.rule, d.shape);
    if (!d.location) {
      summaries.push(...d.head.slice(0, Math.min(maxLines, d.trimmed)));
      return;
    }
    if (d.error) {
      errorLines.push(...d.head.slice(0, Math.min(maxLines, d.trimmed)));
      if (d.trimmed > maxLines) errorLines.push(`... (${d.trimmed - maxLines} more lines)`);
      errorLines.push("");
      return;
    }
    fileWarning({
      seq: d.seq,
      message: d.message,
      rule: d.rule,
      shape: d.shape,
      location: d.location,
    });
  };

  /** A one-line diagnostic (the line pattern's groups). */
  const oneLine = (
    line: string,
    loc: string,
    msg: string | undefined,
    sev: string | undefined,
    rule: string | undefined,
  ): void => {
    if (current) close(current);
    current = null;
    const location = file && !loc.includes(file) ? `${file}:${loc}` : loc;
    const message = (msg ?? line).trim();
    const error = config.group_errors ? false : (sev ?? "error") === "error";
    if (location) allLines = null;
    else allLines?.push(line);
    if (location && !error) {
      // The common case (a build's warnings), filed without a Diagnostic: what close() does.
      const shape = elideNames(message);
      noteRule(rule, shape);
      fileWarning({ seq: seq++, message, rule, shape, location });
      return;
    }
    const d = open(line, message, error, rule);
    d.location = location;
    close(d);
  };

  const push = (line: string, utf8?: Uint8Array, from?: number, to?: number): void => {
    // make-gcc's built-in patterns from the bytes when they are at hand (gcc_lines.ts).
    const kind = p.gcc && utf8 !== undefined ? classifyGccLine(utf8, from!, to!, spans) : UNSURE;
    if (kind === NOISE) {
      noise++;
      return;
    }
    if (kind === WARNING) {
      // The same rule and shape as the last warning read from bytes, whose bucket lists no
      // more: only counted, without building its strings. oneLine would close no diagnostic
      // (none is open), note nothing (the last rule and shape noted are still that warning's:
      // a warning read by the regexes in between may have noted others) and file it in that
      // bucket (its rule's).
      const bucket = run.bucket;
      if (
        bucket !== undefined && current === null && lastRule === run.rule &&
        lastShape === run.shape && bucket.members.length >= config.max_locations &&
        run.bytes.same(utf8!, from!, to!, spans)
      ) {
        allLines = null;
        bucket.count++;
        seq++;
        return;
      }
      const n = line.length;
      oneLine(
        line,
        line.slice(0, spans.locEnd),
        line.slice(spans.msgStart, n - spans.msgTail),
        "warning",
        line.slice(n - 1 - spans.ruleLength, n - 1),
      );
      run.bytes.save(utf8!, from!, to!, spans);
      run.bucket = lastBucket;
      run.rule = lastRule;
      run.shape = lastShape;
      return;
    }
    if ((kind === UNSURE && p.noise(line)) || allDuplicates(line)) {
      noise++;
      return;
    }
    const one = kind === UNSURE ? p.line?.exec(line) : null;
    if (one) {
      oneLine(line, one.group("loc") ?? "", one.group("msg"), one.group("sev"), one.group("rule"));
      return;
    }
    const fileMatch = p.file?.exec(line);
    if (fileMatch) {
      file = fileMatch.group(1) ?? "";
      if (current) close(current);
      current = null;
      return;
    }
    const start = p.message.exec(line);
    if (start) {
      if (current) close(current);
      current = open(
        line,
        line.trim(),
        !config.group_errors && line.startsWith("error"),
        start.group("rule"),
      );
      allLines?.push(line);
      return;
    }
    if (!current) {
      if (line.trim()) other.push(line);
      return;
    }
    const d: Diagnostic = current;
    allLines?.push(line);
    d.count++;
    if (d.head.length < maxLines) d.head.push(line);
    if (line.trim() !== "") d.trimmed = d.count;
    if (!d.location) {
      const loc = p.location.exec(line);
      if (loc) {
        d.location = loc.group(1);
        // A located diagnostic exists: the all-lines output can no longer happen.
        if (d.location) allLines = null;
      }
    }
    if (!d.rule) {
      const rule = p.rule.exec(line);
      if (rule) d.rule = firstGroup(rule);
    }
  };

  const finish = (): { lines: string[]; confidence: "full" | "partial" } | null => {
    if (current) close(current);
    current = null;
    if (allLines !== null) {
      if (noise === 0) return null;
      return { lines: [...other, ...allLines], confidence: "partial" };
    }
    // Buckets whose key is the same once rules are inherited form one group, listing its first
    // `max_locations` members in input order. Buckets are in order of their first member, so
    // groups are too (the first bucket of a group has the group's first member).
    const groups = new Map<string, { count: number; members: Member[] }>();
    for (const bucket of buckets) {
      const key = bucket.rule ?? ruleByShape.get(bucket.shape) ?? bucket.shape;
      const group = groups.get(key);
      if (!group) {
        groups.set(key, { count: bucket.count, members: bucket.members });
        continue;
      }
      group.count += bucket.count;
      group.members = [...group.members, ...bucket.members].sort((a, b) => a.seq - b.seq)
        .slice(0, config.max_locations);
    }
    const out: string[] = [...errorLines];
    let findings = 0;
    for (const [key, group] of groups) {
      const list = group.members;
      findings += group.count;
      const first = stripSeverity(list[0].message);
      const keyed = (list[0].rule ?? ruleByShape.get(list[0].shape)) !== undefined;
      out.push(
        keyed ? `${key} (${group.count}): ${first}` : `${stripSeverity(key)} (${group.count})`,
      );
      for (const d of list) {
        const message = stripSeverity(d.message);
        out.push(
          `  ${d.location}${!keyed || message !== first ? `  ${differing(message, first)}` : ""}`,
        );
      }
      if (group.count > config.max_locations) {
        out.push(`  … and ${group.count - config.max_locations} more`);
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
    return { lines: out, confidence: "full" };
  };
  return { push, finish };
}

const DUPLICATES = /generated (\d+) warnings? \((\d+) duplicates?\)$/;

/**
 * cargo's `warning: \`x\` (lib test) generated 17 warnings (17 duplicates)`: every warning was
 * already reported for another target, so the line adds nothing. Partial duplicates stay.
 */
function allDuplicates(line: string): boolean {
  // Ends with `)` before any search: most lines are ruled out by one character.
  if (line.charCodeAt(line.length - 1) !== 41 || !line.includes(" duplicate")) return false;
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

const QUOTED = /`[^`]*`|'[^']*'|‘[^’]*’/g;

/** `unused variable: \`x\`` and `unused variable: \`y\`` share one group. */
export function elideNames(message: string): string {
  // Each kind of quote in turn, as `/`[^`]*`/g`, `/'[^']*'/g`, `/‘[^’]*’/g` replaced by the
  // quotes around `…` would (tested against those regexes), searched with indexOf: a regex
  // replace per message was most of the cost of a diagnostic.
  return elide(elide(elide(message, "`", "`"), "'", "'"), "‘", "’");
}

/** Every `open…close` span (no `close` inside) of `text` as `open…close`, left to right. */
function elide(text: string, open: string, close: string): string {
  let at = text.indexOf(open);
  if (at < 0) return text;
  let out = "";
  let last = 0;
  while (at >= 0) {
    const end = text.indexOf(close, at + 1);
    if (end < 0) break;
    out += text.slice(last, at) + open + "…" + close;
    last = end + 1;
    at = text.indexOf(open, last);
  }
  return last === 0 ? text : out + text.slice(last);
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
