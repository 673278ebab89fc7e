/**
 * The engine's notes about lines it left out, as a later stage reads them: a stage's input may
 * hold an earlier stage's notes (`... (12 lines omitted) ...`, `… 4 lines of a test's output
 * folded …`) and lines standing for repeats (`Retrying… (x40)`). A later fold or cut that counts
 * the lines it leaves out counts the command's lines each of those stands for, so that its count
 * is the one a reader finds in the output as printed, not the number of lines it was handed; and
 * cut notes one after another become one.
 */

/**
 * A repeat count after a line, as the generic pass and dedup put it: `(x3)`, `(x3, at different
 * times)`, `(x6, numbered 1 to 6)`.
 */
const REPEAT = /\s\(x(\d{1,9})(?:, [^()]{1,80})?\)$/;
/** A note's start: an ellipsis or a parenthesis (`… `, `... (`, `(`), after its indent. */
const NOTE_START = String.raw`^\s*(?:…|\.\.\.)?\s*\(?\+?`;
/**
 * A note counting lines: `… 4 lines of a passing test's output folded …`, `... (7 more lines)`,
 * `(3953 lines of go's -x command echo not shown)`, `… the 7 lines from "…" again …`, `… 6
 * \`can inline\` lines folded …` (at most two words between the count and `lines`).
 */
const LINES_NOTE = new RegExp(
  `${NOTE_START}(?:the )?(\\d{1,9}) (?:more )?(?:[^\\s\\d]{1,40} ){0,2}lines?\\b`,
);
/** `… 3 repeats of the 2 lines above folded …`: the repeats folded, each of that many lines. */
const REPEATS_NOTE = new RegExp(`${NOTE_START}(\\d{1,9}) repeats of the (\\d{1,9}) lines? `);
/**
 * What makes a count a note of lines left out (`(4044 unique lines of 4945)` counts lines shown).
 */
const LEFT_OUT = /\b(?:more|folded|omitted|not shown|cut|hidden|elided|again)\b/;
/** A note is short: a long line that happens to start with `(` and a count is the tool's. */
const MAX_NOTE = 300;

/**
 * How many of the command's lines `line` stands for: the count of a note that says how many
 * lines it stands for, a repeated line's repeats, else 1.
 */
export function linesStoodFor(line: string): number {
  if (line.length > MAX_NOTE) return 1;
  // Read by a cut for each line it takes: a line that neither ends as a repeat count does nor
  // starts as a note does is told by two characters.
  if (line.endsWith(")")) {
    const repeat = REPEAT.exec(line);
    if (repeat) return Number(repeat[1]);
  }
  const first = line.trimStart()[0];
  if ((first !== "…" && first !== "." && first !== "(") || !LEFT_OUT.test(line)) return 1;
  const repeats = REPEATS_NOTE.exec(line);
  if (repeats) return Number(repeats[1]) * Number(repeats[2]);
  const note = LINES_NOTE.exec(line);
  return note ? Number(note[1]) : 1;
}

/**
 * The cut notes that say only how many lines are left out, not what they are, each a way to say
 * another count: `... (12 lines omitted) ...`, `... (3 more lines)`, a go test's `... (3 more
 * lines printed by the test)`.
 */
const CUT_NOTES: { pattern: RegExp; say: (n: number) => string }[] = [
  {
    pattern: /^\.\.\. \((\d{1,9}) lines? omitted\) \.\.\.$/,
    say: (n) => `... (${n} line${n === 1 ? "" : "s"} omitted) ...`,
  },
  { pattern: /^\.\.\. \((\d{1,9}) more lines\)$/, say: (n) => `... (${n} more lines)` },
  {
    pattern: /^\.\.\. \((\d{1,9}) more lines printed by the test\)$/,
    say: (n) => `... (${n} more lines printed by the test)`,
  },
];

/** A cut note's count and its form, or null for any other line. */
export function cutNote(line: string): { n: number; form: number } | null {
  if (!line.startsWith("... (")) return null;
  for (const [form, { pattern }] of CUT_NOTES.entries()) {
    const m = pattern.exec(line);
    if (m) return { n: Number(m[1]), form };
  }
  return null;
}

/** A cut note of the form `cutNote` read (its `form`) saying `n`. */
export const sayCut = (form: number, n: number): string => CUT_NOTES[form].say(n);

/**
 * The lines with each run of cut notes one after another made one note counting them all: in
 * the form they share, or `... (N more lines)` when their forms differ. A reader finds one gap
 * in the output as printed where the notes stood, of as many lines as the note says.
 */
export function mergeCutNotes(lines: readonly string[]): readonly string[] {
  let merged: string[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const note = cutNote(lines[i]);
    const next = note && i + 1 < lines.length ? cutNote(lines[i + 1]) : null;
    if (next === null) {
      merged?.push(lines[i]);
      continue;
    }
    merged ??= lines.slice(0, i);
    let n = note!.n;
    let form = note!.form;
    let j = i + 1;
    let more: { n: number; form: number } | null = next;
    while (more !== null) {
      n += more.n;
      if (more.form !== form) form = 1;
      j++;
      more = j < lines.length ? cutNote(lines[j]) : null;
    }
    merged.push(sayCut(form, n));
    i = j - 1;
  }
  return merged ?? lines;
}

/** Where an input line stands: its index among the lines, and how many non-blank lines precede it. */
interface Place {
  at: number;
  nonBlank: number;
}

/**
 * The output's cut notes made to count at least the gap they stand in: each run of notes between
 * two lines the output keeps of the input (or its start or end) says, with its cut notes, every
 * non-blank input line between them — also those a stage dropped without a note (a noise pattern,
 * a code frame's connector line) beside another stage's cut, which that cut's note leaves out. A
 * line with a repeat count (`(x3)`) stands at its first place and for the next ones of its text.
 * Left as it is where the gap cannot be told: an output out of the input's order (a grouping), a
 * repeat whose lines differ (`(x6, numbered 1 to 6)`), a line of the engine's (a header) or one
 * printed more than once beside the run. `walk` hands over the input's lines as the stages read
 * them.
 */
export function recountCutNotes(
  output: readonly string[],
  walk: (fn: (line: string) => void) => void,
): readonly string[] {
  if (!output.some((line) => cutNote(line) !== null)) return output;
  const repeatOf = (line: string) => {
    const m = line.endsWith(")") ? REPEAT.exec(line) : null;
    return m ? { text: line.slice(0, m.index).trim(), n: Number(m[1]) } : null;
  };
  const isNote = (line: string) =>
    cutNote(line) !== null || (repeatOf(line) === null && linesStoodFor(line) !== 1);
  const textOf = (line: string) => repeatOf(line)?.text ?? line.trim();
  const wanted = new Map<string, Place[]>();
  for (const line of output) {
    if (line.trim() !== "" && !isNote(line)) wanted.set(textOf(line), []);
  }
  let at = 0;
  let nonBlank = 0;
  walk((line) => {
    const t = line.trim();
    wanted.get(t)?.push({ at, nonBlank });
    at++;
    if (t !== "") nonBlank++;
  });
  const end: Place = { at, nonBlank };
  // Each output line's place in the input, in order: the next place of its text after the last
  // one's. A repeat's further lines are taken where its text comes next.
  const places: (Place | null)[] = [];
  // Whether each output line's place is sure: its text is printed once (a line printed again
  // may stand for a later place than the first one after the last).
  const sure: boolean[] = [];
  const taken: number[] = [];
  const next = new Map<string, number>();
  let last = -1;
  for (const line of output) {
    const t = textOf(line);
    const list = t === "" || isNote(line) ? undefined : wanted.get(t);
    if (list === undefined || list.length === 0) {
      if (repeatOf(line)) return output;
      places.push(null);
      sure.push(false);
      continue;
    }
    let k = next.get(t) ?? 0;
    while (k < list.length && list[k].at <= last) k++;
    const n = repeatOf(line)?.n ?? 1;
    if (k + n > list.length) return output;
    for (let r = k + 1; r < k + n; r++) taken.push(list[r].at);
    next.set(t, k + n);
    places.push(list[k]);
    sure.push(list.length === 1);
    last = list[k].at;
  }
  taken.sort((a, b) => a - b);
  /** Lines a repeat took strictly between two places. */
  const takenBetween = (from: number, to: number) => below(taken, to) - below(taken, from + 1);
  let changed = false;
  const out: string[] = [];
  for (let i = 0; i < output.length;) {
    if (!isNote(output[i])) {
      out.push(output[i++]);
      continue;
    }
    let j = i;
    while (j < output.length && (isNote(output[j]) || output[j].trim() === "")) j++;
    const run = output.slice(i, j);
    let k = i - 1;
    while (k >= 0 && output[k].trim() === "") k--;
    const before = k < 0 ? { at: -1, nonBlank: 0 } : sure[k] ? places[k] : null;
    const after = j === output.length ? end : sure[j] ? places[j] : null;
    const recounted = before && after
      ? recountRun(run, before, after, takenBetween(before.at, after.at))
      : null;
    if (recounted) changed = true;
    for (const line of recounted ?? run) out.push(line);
    i = j;
  }
  return changed ? out : output;
}

/** How many of the sorted `values` are below `limit`. */
function below(values: readonly number[], limit: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A run of notes between the input lines at `before` and `after` (`taken` of the lines between
 * them said by a repeat count elsewhere), its cut notes made one saying the non-blank lines
 * between them no other note of the run counts; null when it says them already (or more).
 */
function recountRun(
  run: readonly string[],
  before: Place,
  after: Place,
  taken: number,
): string[] | null {
  const nonBlank = after.nonBlank - before.nonBlank - (before.at >= 0 ? 1 : 0) - taken;
  let cuts = 0;
  let others = 0;
  let form: number | null = null;
  for (const line of run) {
    const note = cutNote(line);
    if (note) {
      cuts += note.n;
      form ??= note.form;
    } else if (line.trim() !== "") others += linesStoodFor(line);
  }
  // A note saying more than its gap counts lines of the cut kept apart from it too (a cut that
  // keeps the lines naming what failed, or the commits, past it puts one note after them all).
  const said = cuts + others;
  if (form === null || said >= nonBlank) return null;
  const n = nonBlank - others;
  let first = true;
  const out: string[] = [];
  for (const line of run) {
    if (cutNote(line) === null) out.push(line);
    else if (first) {
      // A count that grew holds lines the note's words may not be about: said plainly.
      out.push(sayCut(n > cuts && form === 2 ? 1 : form, n));
      first = false;
    }
  }
  return out;
}
