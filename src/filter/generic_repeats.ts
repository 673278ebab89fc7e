/**
 * Text a tool prints twice: once where it happened and again in a closing summary (Maven's
 * compiler errors under `COMPILATION ERROR` and again under `Failed to execute goal`, a test
 * runner's failures and its summary of them). A later block of lines identical to an earlier one
 * becomes one line that names its first line and says it was shown above. A single repeated line
 * stays, and so does a short repeated block naming a failure or a location that some new failure
 * follows: a location, a note or a few frames printed under each of several errors belong to each
 * of them; only in the closing part of an output (no failure after it that was not shown before)
 * is such a block the summary's copy. A block of MIN_REPORT lines or more is a whole report
 * printed again, a failure's message and its location in it (a test retried with the same
 * failure, jest's `RETRY 2`, Playwright's `Retry #1`; a parametrized test failing alike for each
 * value; a race reported again with the same conflicting access): its copy folds wherever it
 * is, and the lines that differ (the retry's or the value's header) stay around the reference. The first copy always stays as printed, so no
 * failure the output reports is lost; a block that holds a count or summary line (`3 errors`)
 * stays, and so does a block whose reference would save less than it costs itself.
 *
 * A copy may carry a bracketed level the first copy's lines lack: Maven prints a compiler error's
 * continuation lines bare under `COMPILATION ERROR` (`  symbol:   class Account`) and again under
 * `[ERROR] ` in its closing summary. Two lines are the same text when they are equal, or equal
 * once a level (and the indent around it) is taken off a line that has one and the other has none
 * or the same one (`[WARNING] x` is not `[ERROR] x`: the level says something).
 *
 * One pass: each line is looked up in a map of the first place it was seen; a block is extended
 * only while it matches and is skipped whole afterwards, so the time is linear in the output.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./generic_folds.ts";
import { carriesFailure } from "./strategies/mod.ts";
import { FAILURE_SIGNAL, LOCATION } from "./signals.ts";

/** A count or summary line: it stays wherever it is. */
const COUNT =
  /\b\d+ (?:errors?|warnings?|failures?|failed|passed|tests?|problems?|issues?|examples?)\b/i;
/** A bracketed level a tool puts before each line (`[ERROR] `). */
const LEVEL = /^\s*\[[A-Za-z]{1,10}\]/;
/** Blocks shorter than this stay (a line repeated under each of several errors is theirs). */
const MIN_LINES = 2;
/**
 * A block of at least this many lines that holds a failure's message (a failure word on a line
 * naming no location) and a location is a whole report, not a note or stack under each error: a
 * later copy folds wherever it is.
 */
const MIN_REPORT = 6;
/** The first line's text quoted in a reference, at most. */
const QUOTED = 40;

/** An engine's marker (`… 3 more`) is no text the tool printed: it starts or joins no block. */
const MARKER = /^\s*…/;

/** A line's text without its bracketed level, for matching copies (see `same`). */
function textOf(line: string): string {
  return line.replace(LEVEL, "").trim();
}

/** A line's bracketed level (`[ERROR]`), or "" when it has none. */
function levelOf(line: string): string {
  return LEVEL.exec(line)?.[0].trim() ?? "";
}

/** Whether a later line repeats an earlier one: equal, or equal but for a level only one adds. */
function same(earlier: string, later: string): boolean {
  if (earlier === later) return true;
  if (earlier.trim() === "" || textOf(earlier) !== textOf(later)) return false;
  const a = levelOf(earlier);
  const b = levelOf(later);
  // Without a level on either line, the text must be the same as printed, indent and all.
  return (a !== "" || b !== "") && (a === "" || b === "" || a === b);
}

/** Whether a line may be part of a repeated block (a blank line only inside one). */
function comparable(line: string): boolean {
  return line.length <= MAX_TESTED && !MARKER.test(line);
}

/** The line that stands for a repeated block of `count` lines starting with `first`. */
function reference(first: string, count: number): string {
  const text = first.trim();
  const quote = text.length > QUOTED ? `${text.slice(0, QUOTED).trimEnd()}…` : text;
  const indent = /^\s*/.exec(first)![0];
  return `${indent}… the ${count} lines from "${quote}" again, as shown above …`;
}

/** The lines with each later copy of an earlier block replaced by a reference to it. */
export function foldRepeatedText(lines: readonly string[]): readonly string[] {
  // Where the last failure-looking line that repeats none above it is.
  let lastNew = -1;
  const shown = new Set<string>();
  lines.forEach((line, i) => {
    if (!comparable(line)) return;
    // `[ERROR]   symbol: x` under a summary repeats `  symbol: x` above it.
    const text = textOf(line);
    if (shown.has(text)) return;
    shown.add(text);
    // A level alone is no new failure: Maven puts `[ERROR] ` before its closing advice too
    // (`[ERROR]   mvn <args> -rf :core`).
    if (carriesFailure(text)) lastNew = i;
  });
  // Where each line was first seen as printed, and as text without its level.
  const first = new Map<string, number>();
  const firstText = new Map<string, number>();
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    const key = comparable(line) && line.trim() !== "" ? textOf(line) : undefined;
    let seen = key !== undefined ? first.get(line) : undefined;
    if (seen === undefined && key !== undefined) {
      const found = firstText.get(key);
      if (found !== undefined && same(lines[found], line)) seen = found;
    }
    if (seen !== undefined && seen < i - 1) {
      let k = 0;
      let chars = 0;
      let counts = false;
      let failing = false;
      let message = false;
      let located = false;
      while (
        i + k < lines.length && seen + k < i && same(lines[seen + k], lines[i + k]) &&
        comparable(lines[i + k])
      ) {
        chars += lines[i + k].length + 1;
        if (COUNT.test(lines[i + k])) counts = true;
        if (carriesFailure(lines[i + k])) {
          failing = true;
          if (LOCATION.test(lines[i + k])) located = true;
          else if (FAILURE_SIGNAL.test(lines[i + k])) message = true;
        }
        k++;
      }
      // Blank lines at the block's end stay where they are.
      while (k > 1 && lines[i + k - 1].trim() === "") chars -= lines[i + --k].length + 1;
      const ref = reference(line, k);
      // The reference must save at least what it costs. A single line stays: a location or note
      // repeated under each of several errors belongs to each of them.
      const report = k >= MIN_REPORT && message && located;
      const closing = !failing || i + k > lastNew || report;
      if (!counts && closing && k >= MIN_LINES && chars - (ref.length + 1) >= ref.length + 1) {
        out.push(ref);
      } else for (let j = i; j < i + k; j++) out.push(lines[j]);
      i += k;
      continue;
    }
    if (key !== undefined) {
      if (!first.has(line)) first.set(line, i);
      if (!firstText.has(key)) firstText.set(key, i);
    }
    out.push(line);
    i++;
  }
  return out.lines();
}
