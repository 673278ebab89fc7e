/**
 * Steps a tool reports as finished, one line each: `pickling environment... done`, `Reading
 * package lists... Done`, `Applying orders.0001_initial... OK`, `looking for now-outdated
 * files... none found`, `generating indices... genindex done`, and a step's progress over its
 * items (`reading sources... [ 50%] index`). Such a line says only that a step the reader did not
 * ask about went well: it goes whole and without a marker, as advice does (generic_advice.ts).
 *
 * A step whose result is anything else (`selecting default time zone ... Etc/UTC`, `checking for
 * gcc... no`, a step cut off by its failure) is no finished step and stays, and so does every
 * line that carries a failure or a location. A line in the shape of a passing test (`test_add
 * (t.CalcTests.test_add) ... ok`) is left to the fold that counts them (generic_tests.ts). The
 * finished step read last before a line that carries one (since the one before) stays too,
 * whatever lines were kept between them (a warning), unless a step not reported finished came
 * after it (`running tests...`, which stays): it is what the tool did last before it went wrong. A failed run whose output carries no failure (`Killed`, a crash the shell
 * reports, a script that exits with no message) says what went on only by its steps: the last
 * step of each run of them stays (before the output's end or a line that is no step), and a short
 * output keeps them all. An output made of nothing but finished steps stays whole.
 */

import { FoldedLines } from "./arrays.ts";
import { dropStrandedBlanks } from "./generic_advice.ts";
import { isPassingTest } from "./generic_tests.ts";
import { carriesFailure } from "./signals.ts";
import { isBlank, MAX_TESTED } from "./sanitize.ts";

/** A step line is read only up to this length (a longer line is no status line). */
const MAX_STEP = 300;
/** The step's name before its ellipsis: it starts with a letter. */
const STEP_NAME = /^\s{0,8}[A-Za-z]/;
/**
 * What follows the ellipsis of a finished step: a success word, an item and `done` (sphinx's
 * `genindex done`), `none found`, or the step's progress (`[ 50%] index`).
 */
const FINISHED = new RegExp(
  String.raw`^ ?(?:(?:[\w-]{1,40} )?(?:done|Done|DONE)|ok|OK|okay|none found` +
    String.raw`|\[ {0,2}\d{1,3}%\] \S{1,200})\.?$`,
);
/**
 * A failed run's output that shows no failure, of at most this many non-blank lines, keeps its
 * finished steps.
 */
const SHORT_FAILED = 12;

/**
 * Where a step's report goes on after its ellipsis (`pickling environment... done`: at ` done`),
 * or -1 for a line that is no step's (too long, no ellipsis, not a name before it).
 */
function stepEnd(line: string): number {
  if (line.length > MAX_STEP || !STEP_NAME.test(line)) return -1;
  const dots = line.lastIndexOf("...");
  const ellipsis = line.lastIndexOf("…");
  return dots >= 0 && dots > ellipsis ? dots + 3 : ellipsis >= 0 ? ellipsis + 1 : -1;
}

/** Whether a line is a step reported as finished (see the module comment). */
export function isFinishedStep(line: string): boolean {
  const end = stepEnd(line);
  return end >= 0 && FINISHED.test(line.slice(end)) && !carriesFailure(line);
}

/** The lines without the steps reported as finished (see the module comment). */
export function dropFinishedSteps(
  lines: readonly string[],
  options: { failed?: boolean } = {},
): readonly string[] {
  // A failed run that shows no failure: its steps are its evidence.
  const unexplained = (options.failed ?? false) &&
    !lines.some((line) => line.length <= MAX_TESTED && carriesFailure(line));
  if (unexplained && countNonBlank(lines, SHORT_FAILED + 1) <= SHORT_FAILED) return lines;
  const gone = new Uint8Array(lines.length);
  let any = false;
  // The last step read since the last line carrying a failure: the step the next one happened
  // in, whatever lines that are no steps came between (a warning, a note).
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    // A line is read for a failure only while a step waits for one (most lines of a long output
    // are read once, by isFinishedStep's cheap tests).
    if (last >= 0 && lines[i].length <= MAX_TESTED && carriesFailure(lines[i])) {
      gone[last] = 0;
      last = -1;
      continue;
    }
    // A passing test's line (`test_add (t.CalcTests.test_add) ... ok`) is counted where it
    // folds (generic_tests.ts).
    if (!isFinishedStep(lines[i]) || isPassingTest(lines[i])) {
      // A step that is not reported finished (`running tests...`) stays: a failure after it
      // happened in it, not in a finished one before.
      if (stepEnd(lines[i]) >= 0) last = -1;
      continue;
    }
    last = i;
    let next = i + 1;
    while (next < lines.length && isBlank(lines[next])) next++;
    // In a failed run that shows no failure, the last step before the end or before any line
    // that is no finished step (`Killed`) is its context.
    if (
      unexplained &&
      (next === lines.length || !isFinishedStep(lines[next]) || isPassingTest(lines[next]))
    ) continue;
    gone[i] = 1;
  }
  for (let i = 0; i < lines.length && !any; i++) any = gone[i] === 1;
  if (!any) return lines;
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length; i++) if (!gone[i]) out.push(lines[i]);
  const kept = out.lines();
  if (!kept.some((line) => !isBlank(line))) return lines;
  return dropStrandedBlanks(kept);
}

/** The count of non-blank lines, read up to `cap` of them. */
function countNonBlank(lines: readonly string[], cap: number): number {
  let n = 0;
  for (let i = 0; i < lines.length && n < cap; i++) if (!isBlank(lines[i])) n++;
  return n;
}
