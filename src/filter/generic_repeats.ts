/**
 * Text a tool prints twice: once where it happened and again in a closing summary (Maven's
 * compiler errors under `COMPILATION ERROR` and again under `Failed to execute goal`, a test
 * runner's failures and its summary of them). A later block of lines identical to an earlier one
 * becomes one line that names its first line and says it was shown above. A single repeated line
 * stays, and so does a repeated block naming a failure or a location that some new failure
 * follows: a location, a note or a stack printed under each of several errors belongs to each
 * of them; only in the closing part of an output (no failure after it that was not shown
 * before) is such a block the summary's copy. The first copy always stays as printed, so no failure
 * the output reports is lost; a block that holds a count or summary line (`3 errors`) stays, and
 * so does a block whose reference would save less than it costs itself.
 *
 * One pass: each line is looked up in a map of the first place it was seen; a block is extended
 * only while it matches and is skipped whole afterwards, so the time is linear in the output.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./generic_folds.ts";
import { carriesFailure } from "./strategies/mod.ts";

/** A count or summary line: it stays wherever it is. */
const COUNT =
  /\b\d+ (?:errors?|warnings?|failures?|failed|passed|tests?|problems?|issues?|examples?)\b/i;
/** A bracketed level a tool puts before each line (`[ERROR] `). */
const LEVEL = /^\s*\[[A-Za-z]{1,10}\]/;
/** Blocks shorter than this stay (a line repeated under each of several errors is theirs). */
const MIN_LINES = 2;
/** The first line's text quoted in a reference, at most. */
const QUOTED = 40;

/** An engine's marker (`… 3 more`) is no text the tool printed: it never starts or joins a block. */
const MARKER = /^\s*…/;

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
    const text = line.replace(LEVEL, "").trim();
    if (shown.has(text)) return;
    shown.add(text);
    if (carriesFailure(line)) lastNew = i;
  });
  const first = new Map<string, number>();
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    const seen = comparable(line) && line.trim() !== "" ? first.get(line) : undefined;
    if (seen !== undefined && seen < i - 1) {
      let k = 0;
      let chars = 0;
      let counts = false;
      let failing = false;
      while (
        i + k < lines.length && seen + k < i && lines[seen + k] === lines[i + k] &&
        comparable(lines[i + k])
      ) {
        chars += lines[i + k].length + 1;
        if (COUNT.test(lines[i + k])) counts = true;
        if (carriesFailure(lines[i + k])) failing = true;
        k++;
      }
      // Blank lines at the block's end stay where they are.
      while (k > 1 && lines[i + k - 1].trim() === "") chars -= lines[i + --k].length + 1;
      const ref = reference(line, k);
      // The reference must save at least what it costs. A single line stays: a location or note
      // repeated under each of several errors belongs to each of them.
      const closing = !failing || i + k > lastNew;
      if (!counts && closing && k >= MIN_LINES && chars - (ref.length + 1) >= ref.length + 1) {
        out.push(ref);
      } else for (let j = i; j < i + k; j++) out.push(lines[j]);
      i += k;
      continue;
    }
    if (seen === undefined && comparable(line) && line.trim() !== "") first.set(line, i);
    out.push(line);
    i++;
  }
  return out.lines();
}
