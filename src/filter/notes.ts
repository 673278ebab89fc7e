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
