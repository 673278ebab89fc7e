/**
 * The generic pass: what an output no rule matches goes through, so that an unknown tool's output
 * is not passed through whole. Library frames of stack traces, the biggest directories of long
 * path listings and subtrees of long tree drawings, and runs of hex or base64 data fold
 * (generic_folds.ts), compiler notes in system headers and a linker's repeated undefined
 * references fold (generic_compiler.ts) and, in an
 * output with a failure, so do passing-test lines (generic_tests.ts; long runs of them in one
 * without), long runs of per-item lines of one shape (generic_shapes.ts; in a failed run their
 * last lines stay, and they fold after rules that all passed the output on), long usage listings
 * printed after an error (generic_usage.ts) and routine log lines (generic_logs.ts); runs of
 * multi-line blocks of one shape keep their first block and the lines that differ in the others
 * (generic_blocks.ts); advice on getting more output or help and decoration-only lines go
 * (generic_advice.ts), as do the steps a tool reports as finished (`pickling environment... done`,
 * generic_steps.ts) and the fields Node prints after an error's stack when its message says
 * them all (generic_error_fields.ts), Python's echo of a `warnings.warn(…)` call under the warning
 * it printed (generic_warnings.ts), and the empty gutter rows of a compiler's code frames
 * (generic_gutters.ts), the code frames of a flood of one message past its first
 * (generic_frames.ts), and a block printed again later becomes a reference to its first copy
 * (generic_repeats.ts); a sanitizer's shadow-memory map and legend fold (generic_sanitizer.ts), as
 * do the fully covered rows of a coverage table (generic_coverage.ts);
 * runs of a repeated line
 * (or of lines that differ only in their timestamps, or only in a counter one higher each line:
 * `  7 | polling: empty`) collapse to one with a count, progress and
 * spinner lines go, very long lines are cut in the middle with a marker, and a very long output
 * keeps its head and tail (and the odd ones out of the lines of one shape between, as
 * generic_outliers.ts finds them, and the records of the failure lines between, as
 * generic_records.ts reads them). A line carrying a failure signal is never removed (a cut
 * keeps every one of them, wherever it is; a compiler's note in a system header, a passing test's line and
 * a line of a usage listing under an error are no failure, nor is advice such as `For more
 * information about this error, try …`; a failure printed twice stays in its first copy) and a
 * long one keeps the text around its signal. A JSON-lines log folds its runs of alike routine
 * records (generic_jsonl.ts), every record it keeps as printed; other output that is JSON goes to
 * the json strategy's defaults instead, its kept JSON lines as printed. Commands that print content rather than a
 * report (`cat`, `head`, `sed`, `diff` …) are left alone: the model may edit what it read.
 */
import {
  carriesFailure,
  CutGap,
  documentAmid,
  FAILURE_SIGNAL,
  FailureKeeper,
  JsonConfig,
  looksLikeJson,
  readJsonAsPrinted,
  SUBJECT_WINDOW,
} from "./strategies/mod.ts";
import { HeldLines } from "./arrays.ts";
import { programNames } from "./command.ts";
import { type Confidence, emitLines, type Stage, type StageContext } from "./types.ts";
import { BAR_CHARS, SPINNER_CHARS } from "./_progress.ts";
import { foldAdvice } from "./generic_advice.ts";
import { dropFinishedSteps } from "./generic_steps.ts";
import {
  foldCompilerNotes,
  foldLinkerRepeats,
  foldRepeatedDiagnostics,
  foldRepeatedReferences,
} from "./generic_compiler.ts";
import { foldPassingTests } from "./generic_tests.ts";
import { cutReader, firstWord, foldShapeRuns } from "./generic_shapes.ts";
import { foldUsage } from "./generic_usage.ts";
import { foldRepeatedBlocks } from "./generic_blocks.ts";
import { foldRepeatedText } from "./generic_repeats.ts";
import { dropWarnCallEchoes, foldWarningStorms } from "./generic_warnings.ts";
import { foldRoutineLogs } from "./generic_logs.ts";
import { foldJsonLogs } from "./generic_jsonl.ts";
import { withoutTimes } from "./generic_outliers.ts";
import { foldSanitizerMaps } from "./generic_sanitizer.ts";
import { foldCoverageTables } from "./generic_coverage.ts";
import { foldEchoedErrorFields } from "./generic_error_fields.ts";
import { dropEmptyGutters } from "./generic_gutters.ts";
import { foldRepeatedFrames } from "./generic_frames.ts";
import { recordKeeper } from "./generic_records.ts";
import {
  foldDataRuns,
  foldPathListing,
  foldStackFrames,
  foldTreeListing,
} from "./generic_folds.ts";

/** Programs whose output is content to be read as it is. */
const CONTENT_PRINTERS = new Set([
  "cat",
  "tac",
  "head",
  "tail",
  "less",
  "more",
  "bat",
  "batcat",
  "nl",
  "sed",
  "awk",
  "gawk",
  "cut",
  "sort",
  "uniq",
  "tr",
  "rev",
  "paste",
  "column",
  "echo",
  "printf",
  "seq",
  "yes",
  "base64",
  "xxd",
  "od",
  "hexdump",
  "diff",
  "cmp",
  "envsubst",
  "yq",
  "readlink",
  "realpath",
  "pwd",
  "wc",
  "strings",
]);

/** Lines longer than this are cut in the middle. */
export const LONG_LINE = 1000;
const LONG_HEAD = 500;
const LONG_TAIL = 250;
/** Around a failure signal inside a cut, this many characters either side stay. */
const SIGNAL_WINDOW = 150;
/** Runs of at least this many identical lines collapse. */
const MIN_RUN = 3;
/**
 * Rows that differ only in a counter collapse from this many on: a loop printing one row, not a
 * short numbered list whose rows a reader may quote one by one.
 */
const MIN_COUNTER_RUN = 6;
/** Outputs longer than this keep their head and tail (and every failure-signal line). */
const MAX_LINES = 400;
const HEAD = 150;
const TAIL = 150;

/** A progress bar: a run of bar characters next to a percentage or an amount moved. */
const BAR = new RegExp(`[${BAR_CHARS}]{4}`);
const PERCENT = /\b\d{1,3}(?:\.\d{1,2})?%/;
/** An amount moved or a rate (`30.0/30.0 MB`, `12.3MB/45.6MB`, `258.7 MB/s`): pip's bar has no percentage. */
const AMOUNT =
  /\b\d{1,9}(?:\.\d{1,3})? ?(?:[kKMGT]i?)?B(?:\/s\b| ?\/ ?\d)|\b\d{1,9}(?:\.\d{1,3})?\/\d{1,9}(?:\.\d{1,3})? ?(?:[kKMGT]i?)?B\b/;
/**
 * A tool's message (`curl: (18) transfer closed…`, `abc123: Downloading`): curl prints its error
 * right after the last frame of its `-#` bar, with no newline between.
 */
const MESSAGE = /[A-Za-z][\w.-]{0,40}: \S/;
/** A spinner frame at the start of a line (braille or block spinners). */
const SPINNER = new RegExp(String.raw`^\s{0,8}[${SPINNER_CHARS}]\s`);

const JSON_DEFAULTS = JsonConfig.parse({ type: "json" });

/** Whether the generic pass applies to a command (false for programs that print content). */
export function genericApplies(command: string): boolean {
  const name = firstWord(command);
  const base = name.slice(name.lastIndexOf("/") + 1);
  return !CONTENT_PRINTERS.has(base);
}

/** One line's verdict, for `--explain`: why the generic pass removed or rewrote it. */
/**
 * When `line` is `last` with one number in it one higher (the rest as printed, a right-aligned
 * number's padding aside) and that number stands apart as a counter does, the two values; else
 * null. A line carrying a failure never counts on:
 * each attempt of a failing retry stays.
 */
export function countedOn(last: string, line: string): { from: number; to: number } | null {
  if (line.trim() === "" || line === last || Math.abs(line.length - last.length) > 1) return null;
  // A JSON record's numbers are its fields' values (a time, an id): the JSON lines pass reads
  // its records, a server error told by its status field among them.
  if (line.trimStart().startsWith("{") && line.trimEnd().endsWith("}")) return null;
  let start = 0;
  const max = Math.min(last.length, line.length);
  while (start < max && last[start] === line[start]) start++;
  let end = 0;
  while (
    end < max - start && last[last.length - 1 - end] === line[line.length - 1 - end]
  ) end++;
  // Widen the difference to whole numbers (`10` → `11` differ in their last digit only).
  while (start > 0 && isDigit(line[start - 1])) start--;
  while (end > 0 && isDigit(line[line.length - end])) end--;
  const a = last.slice(start, last.length - end).trimStart();
  const b = line.slice(start, line.length - end).trimStart();
  if (!/^\d{1,9}$/.test(a) || !/^\d{1,9}$/.test(b) || Number(b) !== Number(a) + 1) return null;
  // A counter stands apart (`  7 | …`, `[7]`, `#7:`, `attempt 7 of 9`): a number inside a word
  // or a path (`/products/7`, `p7/tsconfig.json`) names a row of data.
  const before = line[start - 1];
  const after = line[line.length - end];
  if (before !== undefined && !/[\s(\[#:=]/.test(before)) return null;
  if (after !== undefined && !/[\s)\]:|.,;/]/.test(after)) return null;
  if (carriesFailure(line)) return null;
  return { from: Number(a), to: Number(b) };
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

export type GenericAction = "progress" | "repeat" | "cut" | "truncated";

/**
 * The generic pass as a stage; `onRemove` hears every line it removes or rewrites (for --explain).
 * With `after` set it is the pass after a rule: only the folds that keep every failure-looking
 * line run (usage listings under an error, advice and decoration, library stack frames,
 * system-header notes of compiler diagnostics, blocks of one shape, routine log lines of a failed
 * run, runs of lines of one shape in a failed run's output the rules all passed on (their last
 * lines stay), text printed twice, repeated lines, long lines
 * cut in the middle unless they name a failure or a location); no progress line goes, no path or
 * tree listing folds, nothing is truncated, and JSON is left to the rule. `command` names the
 * `--help` call a usage fold points to; `rulesPassedOn` says, once the rules finished, whether
 * they all passed the output on (then rows numbered by a counter fold as with no rule).
 */
export function genericStage(
  ctx: StageContext,
  onRemove?: (line: string, why: GenericAction) => void,
  options: { after?: boolean; command?: string; rulesPassedOn?: () => boolean } = {},
): Stage {
  const after = options.after ?? false;
  // Rows numbered by a counter fold in a program's own output: with no rule, or after rules
  // that all passed it on (cargo's rules on `cargo run`), not in what a rule chose to keep.
  const counters = () => !after || options.rulesPassedOn?.() === true;
  // The programs the command runs: a crashed tool's frames nearest the library that raised stay.
  const tools = options.command ? programNames(options.command) : [];
  let first: string | null = null;
  // Output whose first line is JSON: a JSON-lines log folds here, other JSON goes to the json
  // strategy (kept records as printed).
  let json = false;
  // A JSON-lines log: a record that names a failure is never cut (it is kept as printed).
  let logs = false;
  const tail = after ? passOn(ctx) : truncator(ctx, onRemove);
  // Lines pushed one by one; an array handed over whole is held as it is.
  const pushed = new HeldLines();
  let held: string[] = [];
  let run: string | null = null;
  let runKey: string | null = null;
  let runTimed = false;
  let runCount = 0;
  /** A run of rows that differ only in a counter: its first and last values (null: equal lines). */
  let runCounter: { from: number; to: number } | null = null;
  let runLast = "";
  let changed = false;
  const cut = (line: string): string => {
    if (line.length <= LONG_LINE) return line;
    // After a rule, a long line it kept that names a failure or a location stays whole.
    if ((after || logs) && carriesFailure(line)) return line;
    changed = true;
    onRemove?.(line, "cut");
    return cutMiddle(line);
  };
  const flushRun = () => {
    if (run === null) return;
    if (runCount >= (runCounter ? MIN_COUNTER_RUN : MIN_RUN)) {
      changed = true;
      for (let i = 1; i < runCount; i++) onRemove?.(run, "repeat");
      const how = runCounter
        ? `, numbered ${runCounter.from} to ${runCounter.to}`
        : runTimed
        ? ", at different times"
        : "";
      tail.push(`${cut(run)} (x${runCount}${how})`);
    } else {
      for (const line of runLines) tail.push(cut(line));
    }
    run = null;
    runCount = 0;
    runCounter = null;
    runLines.length = 0;
  };
  // A run's lines, while it is too short to collapse (lines whose times differ are not equal).
  const runLines: string[] = [];
  const take = (line: string) => {
    // Lines that differ in their times only are as long as each other (times have fixed widths).
    // Blank lines never collapse (the pass after a rule may receive several in a row).
    if (
      line.trim() !== "" && run !== null && runCounter === null &&
      (line === run ||
        (line.length === run.length && withoutTimes(line) === (runKey ??= withoutTimes(run))))
    ) {
      if (line !== run) runTimed = true;
      runCount++;
      if (runLines.length < MIN_RUN) runLines.push(line);
      return;
    }
    // A row that differs from the last only in a counter one higher goes on a run of such rows
    // (a program's `  7 | polling: empty`), unless the run is of equal lines.
    const counted = run !== null && (runCount === 1 || runCounter !== null) && counters()
      ? countedOn(runLast, line)
      : null;
    if (counted !== null) {
      runCounter = { from: runCounter?.from ?? counted.from, to: counted.to };
      runLast = line;
      runCount++;
      if (runLines.length < MIN_COUNTER_RUN) runLines.push(line);
      return;
    }
    flushRun();
    if (!after && isProgress(line)) {
      changed = true;
      onRemove?.(line, "progress");
      return;
    }
    run = line;
    runLast = line;
    runKey = null;
    runTimed = false;
    runCount = 1;
    runLines.push(line);
  };
  return {
    push(line) {
      if (!after && first === null && line.trim() !== "") {
        first = line;
        json = looksLikeJson(line);
      }
      pushed.push(line);
    },
    // A stage before that emits what it held hands its array over: it is held as it is.
    pushAll(lines) {
      if (held.length || pushed.length) {
        for (const line of lines) this.push(line);
        return;
      }
      if (!after && first === null) {
        const head = lines.find((line) => line.trim() !== "");
        if (head !== undefined) {
          first = head;
          json = looksLikeJson(head);
        }
      }
      held = lines;
    },
    finish(): Confidence {
      if (pushed.length && held.length) pushed.drain((line) => held.push(line));
      else if (pushed.length) held = pushed.take();
      const count = held.length;
      const logLines = after ? null : foldJsonLogs(held);
      if (logLines !== null) {
        // A JSON-lines log: its records are read as records, not by the line folds for text.
        logs = true;
        if (logLines !== held) changed = true;
        for (const line of logLines) take(line);
        held.length = 0;
        flushRun();
        const truncated = tail.finish();
        return changed || truncated ? "partial" : "fallback";
      }
      // A document printed amid text (`npm run`'s echo before it) is read as one too, handed the
      // document found so that it is parsed once. Output that only starts like JSON (one log
      // record before a crash printed as text) goes on to the folds for text.
      const amid = json || after ? null : documentAmid(held);
      const read = json || amid !== null
        ? readJsonAsPrinted(JSON_DEFAULTS, held, { found: amid ?? undefined })
        : null;
      if (read !== null) {
        held = [];
        emitLines(ctx, read);
        return "full";
      }
      // Each fold's result replaces the lines before it (one variable, the held lines let go),
      // and a fold that changes nothing returns its input: a huge output is held once or twice
      // at a time, not once per fold.
      let lines = foldUsage(held, { failed: ctx.failed, command: options.command });
      if (lines !== held) held.length = 0;
      // Where a usage listing folded, the tool's own pointer to its help stays: it leads back to
      // what was folded.
      lines = foldAdvice(lines, { keepHelp: lines.length !== count });
      lines = dropFinishedSteps(lines, { failed: ctx.failed });
      lines = foldSanitizerMaps(lines);
      lines = foldCoverageTables(lines);
      // Before the stack folds: a crash after a warning storm keeps its frames as they fold.
      if (!after) lines = foldWarningStorms(lines);
      lines = dropWarnCallEchoes(lines);
      lines = foldEchoedErrorFields(lines);
      lines = foldStackFrames(lines, { tools });
      lines = foldCompilerNotes(lines);
      lines = foldRepeatedDiagnostics(lines);
      lines = foldLinkerRepeats(lines);
      lines = dropEmptyGutters(lines);
      lines = foldRepeatedFrames(lines);
      lines = foldRepeatedReferences(lines);
      lines = foldRepeatedBlocks(lines);
      lines = foldRoutineLogs(lines, ctx.failed);
      // A repeat refers to the text above it: only in an output short enough that no cut takes
      // that text away and the reader has it in view.
      if (lines.length <= MAX_LINES) lines = foldRepeatedText(lines);
      // A listing folded by its directories is content, not chatter: its rows do not fold again
      // by their shape.
      let listed = false;
      if (!after) {
        const folded = foldPathListing(lines);
        listed = folded !== lines;
        lines = folded;
      }
      // A tree drawing a rule left whole in a failed run folds as with no rule: each problem
      // entry stays under the entries leading to it.
      if (!after || ctx.failed) lines = foldTreeListing(lines);
      if (!after) {
        lines = foldDataRuns(lines);
        lines = foldPassingTests(lines, ctx.failed);
      }
      // After rules, only in a failed run's output the rules all passed on: what a rule chose to
      // keep (a linter's locations, a runner's failing names) is not progress.
      if (!listed && (!after || (ctx.failed && counters()))) {
        lines = foldShapeRuns(lines, ctx.failed);
      }
      if (lines.length !== count) changed = true;
      for (const line of lines) take(line);
      lines = [];
      held.length = 0;
      flushRun();
      const truncated = tail.finish();
      return changed || truncated ? "partial" : "fallback";
    },
  };
}

/** Whether a line is a progress bar or spinner frame (never one that carries a failure). */
export function isProgress(line: string): boolean {
  if (FAILURE_SIGNAL.test(line)) return false;
  if (SPINNER.test(line)) return true;
  if (!BAR.test(line)) return false;
  const percent = line.lastIndexOf("%");
  if (percent < 0 || !PERCENT.test(line)) return AMOUNT.test(line) && !MESSAGE.test(line);
  return !MESSAGE.test(line.slice(percent + 1));
}

/**
 * A long line with its middle replaced by markers; the text around every failure signal in the
 * middle stays (windows that touch are merged).
 */
export function cutMiddle(line: string): string {
  const tailStart = line.length - LONG_TAIL;
  let out = line.slice(0, LONG_HEAD);
  let next = LONG_HEAD;
  for (let at = FAILURE_SIGNAL.search(line, next); at !== null && at.start < tailStart;) {
    const from = Math.max(next, at.start - SIGNAL_WINDOW);
    let to = Math.min(tailStart, at.end + SIGNAL_WINDOW);
    // The next signals within reach of this window extend it.
    let more = to < tailStart ? FAILURE_SIGNAL.search(line, at.end) : null;
    while (more !== null && more.start < tailStart && more.start - SIGNAL_WINDOW <= to) {
      to = Math.min(tailStart, more.end + SIGNAL_WINDOW);
      more = to < tailStart ? FAILURE_SIGNAL.search(line, more.end) : null;
    }
    if (from > next) out += ` …[${from - next} chars cut]… `;
    out += line.slice(from, to);
    next = to;
    at = more;
  }
  if (tailStart > next) out += ` …[${tailStart - next} chars cut]… `;
  return out + line.slice(Math.max(next, tailStart));
}

/** Every line straight through (the pass after a rule cuts nothing). */
function passOn(ctx: StageContext): { push(line: string): void; finish(): boolean } {
  return { push: ctx.emit, finish: () => false };
}

/**
 * Beyond MAX_LINES, the first HEAD and last TAIL lines and every failure-signal line between
 * them (and the odd ones out of the lines of one shape there: `cutReader`), each with the rest of
 * its record (`recordKeeper`), with a count of what went. Returns from `finish` whether it cut.
 */
function truncator(
  ctx: StageContext,
  onRemove?: (line: string, why: GenericAction) => void,
): { push(line: string): void; finish(): boolean } {
  const pending: string[] = [];
  let cutting = false;
  const keeper = new FailureKeeper();
  const gap = new CutGap();
  const out = { push: ctx.emit };
  // The last cut lines, told to onRemove once the next kept line shows whether one of them
  // comes back as its failure's subject.
  const untold: string[] = [];
  const tell = () => {
    for (const line of untold.splice(0)) onRemove?.(line, "truncated");
  };
  // The line the cut itself keeps (not one its record brings), while the record keeper hands it on.
  let chosen: string | undefined;
  // A kept line brings the rest of its record (its message and code frame); the line the cut
  // keeps also brings its failure's subject when that was cut right above it.
  const records = recordKeeper((line) => {
    const subject = chosen !== undefined && line === chosen ? keeper.subject : undefined;
    chosen = undefined;
    if (subject !== undefined && gap.holds(subject.back)) untold.splice(-subject.back, 1);
    tell();
    gap.flush(out, subject);
    ctx.emit(line);
  }, (line) => {
    // A line the folds made of several (`(x40)`, `… 12 lines like these folded …`) counts as
    // them: the count is the lines the output printed.
    gap.add(line);
    untold.push(line);
    if (untold.length > SUBJECT_WINDOW) onRemove?.(untold.shift()!, "truncated");
  });
  const cut = cutReader((line, odd) => {
    const kept = keeper.keep(line) || odd;
    chosen = kept ? line : undefined;
    records.push(line, kept);
    chosen = undefined;
  });
  return {
    push(line) {
      pending.push(line);
      if (!cutting) {
        if (pending.length <= MAX_LINES) return;
        cutting = true;
        for (const head of pending.splice(0, HEAD)) {
          keeper.observe(head);
          records.observe(head);
          ctx.emit(head);
        }
        // The lines past the tail's window are in the cut.
        for (const line of pending.splice(0, pending.length - TAIL)) cut.push(line);
      }
      // The oldest line leaves the tail window: it is in the cut.
      if (pending.length > TAIL) cut.push(pending.shift()!);
    },
    finish() {
      if (!cutting) {
        for (const line of pending) ctx.emit(line);
        return false;
      }
      cut.finish();
      records.finish();
      tell();
      gap.flush(out);
      for (const line of pending) ctx.emit(line);
      return true;
    },
  };
}
