/**
 * Long runs of lines of one shape: a tool's per-item lines (`Project 'a/tsconfig.json' is up to
 * date …` of a verbose build, `Skipping x`, `Downloading y`, ` src/a.ts | 12 ++++--` of a
 * diffstat, `* 1a2b3c4 subject` of a graph log) fold to the run's first and last lines around a
 * count. An output that is a listing of paths (`npm notice 1.2kB lib/a.js` of a tarball's
 * contents) is content: the generic pass folds it by directory (generic_folds.ts) and not here. A line's shape
 * is its indent, its first word as printed (digits masked) and the kinds of the next two words
 * (number, hex, path, quoted text, word, or the punctuation as printed); blank lines inside a run
 * belong to it. Blocks of a few lines whose shapes repeat (`git bisect run`'s steps) fold the same
 * way, to their first and last blocks. A run whose lines group by a leading name (a blame's
 * commit, a listing's owner, a log's logger) folds group by group: the first line after each
 * change of that name is what a reader looks for, and a fold note names no such name.
 *
 * Only progress and status chatter folds, never rows of data the command was asked to print: a
 * run whose first words differ only in digits that name each row (`row1 …`, `row2 …` of a table,
 * `1.`, `2.` of numbered results, `#17`, `4.0K` of a size column) stays as printed; digits that
 * move on as a clock, a date, a count of a total or a labelled counter do (`12:00:01`,
 * `2026-11-27`, `3/40`, apt's `Get:12`).
 *
 * A unified diff printed under a log prefix (yarn's `➤ YN0028: │ +    marked: "npm:^13.0.0"`,
 * each line of a `git diff` stamped with a time) is content, not one shape: its hunk headers and,
 * within the lines each header counts, the lines whose text past the prefix starts with `+` or `-`
 * never fold (`diffLines`); the context lines between them fold as any run does.
 *
 * In a failed run a run folds too, but its last FAILED_RUN_TAIL lines stay as printed: what the
 * tool did just before it failed is the failure's context (`Compiling 'pkg/mod_25.py'...` over
 * its syntax error); blocks of lines fold only in a run that passed. A line that carries a
 * failure, a location or a warning (or a word that says a diagnostic's severity: `illegal`,
 * `invalid`, `ignored`, …) never folds and ends the run, nor does an earlier pass's note
 * of what it folded (`… 16 log lines folded (15 2xx, 1 3xx) …`), and the last lines of the output
 * (where a tool prints its summary) never fold either.
 */

import { appendAll, FoldedLines } from "./arrays.ts";
import { carriesFailure, FAILURE_SIGNAL, LOCATION } from "./signals.ts";
import { MAX_TESTED } from "./sanitize.ts";
import { indentOf, isBlank } from "./sanitize.ts";
import { foldAroundOutliers, oddLines, remembered } from "./generic_outliers.ts";
import { coverageRows } from "./generic_coverage.ts";

/** Runs of fewer lines of one shape (blank lines not counted) stay as printed. */
export const MIN_SHAPE_RUN = 12;
/**
 * A run that passed and printed more lines than this is not read for shapes: the generic pass's
 * cut to its head and tail decides what shows of it, and reading every line of a huge output
 * would double the pass's time.
 */
export const MAX_SHAPED_LINES = 20_000;
/**
 * In a failed run, the last lines of a run that stay as printed: what the tool did just before it
 * failed.
 */
const FAILED_RUN_TAIL = 3;
/** The last non-blank lines of an output never fold: a summary is printed there. */
const KEPT_TAIL = 3;
/** Words of a line its shape reads: the first as printed, the next ones by kind. */
const SHAPE_WORDS = 3;

const WARNING = /warn|deprecat/i;
/**
 * A diagnostic whose word says its severity without saying "warning" (BIND's `… is a CNAME
 * (illegal)`, ssh's `Unsupported option`): on a run that passed it is what the run has to say,
 * not status chatter, and each names another subject. A step announced with an ellipsis
 * (`Flushing … relations that have become invalid...`) is chatter whatever its words.
 */
const SEVERITY = /\b(?:illegal|invalid|not allowed|ignor(?:ed|ing)|bad|refused|unsupported)\b/i;
const ANNOUNCED = /(?:\.\.\.|…)\s*$/;
/**
 * Whether a line carries a failure, a location, a warning or a severity word (`carriesFailure`,
 * WARNING, SEVERITY): one scan of the line, each part with its own flags (`(?i:…)`), where three
 * scans took longer; a hit is confirmed by the parts, as the failure words' form matches them
 * inside paths too and a severity word does not count in an announced step.
 */
const neverFolds: (line: string) => boolean = (() => {
  const confirm = (line: string) =>
    carriesFailure(line) || WARNING.test(line) || (SEVERITY.test(line) && !ANNOUNCED.test(line));
  const forms = [FAILURE_SIGNAL.v8, LOCATION.v8];
  if (!forms.every((f) => f !== undefined && /^i?$/.test(f.flags))) return confirm;
  const parts = forms.map((f) => f!.flags ? `(?i:${f!.bare})` : `(?:${f!.bare})`);
  const any = new RegExp(
    [...parts, `(?i:${WARNING.source})`, `(?i:${SEVERITY.source})`].join("|"),
  );
  return (line: string) => any.test(line) && confirm(line);
})();
const NUMBER = /^[+-]?[\d.,:]{0,20}\d[\w.,:%/()]{0,20}$/;
const HEX = /^[0-9a-f]{7,64}$/;
const HEX_RUN = /[0-9a-f]{7,64}/g;
const FILE_NAME = /^[\w.@+-]{1,200}\.[A-Za-z]\w{0,9}$/;
const WORD = /^[A-Za-z][\w-]{0,100}[:,;.]?$/;
const PUNCTUATION = /^[^\w\s]{1,4}$/;
const QUOTES = "\"'`‘“";

function isQuote(word: string): boolean {
  return QUOTES.includes(word[0]);
}

function isHex(word: string): boolean {
  return word.length >= 7 && HEX.test(word);
}

function isNumber(word: string): boolean {
  const c = word.charCodeAt(0);
  // A digit, a sign, `.`, `,` or `:` starts one.
  return ((c >= 48 && c <= 58) || c === 43 || c === 45 || c === 46 || c === 44) &&
    NUMBER.test(word);
}

function isPath(word: string): boolean {
  return word.includes("/") || word.includes("\\") ||
    (word.includes(".") && FILE_NAME.test(word));
}

/** The kind of a word after a line's first. */
function kindOf(word: string): string {
  if (isQuote(word)) return "Q";
  if (isHex(word)) return "H";
  if (isNumber(word)) return "N";
  if (isPath(word)) return "P";
  if (WORD.test(word)) return "W";
  // Punctuation (`|`, `*`, `->`) stays as printed; other mixed words are words.
  return PUNCTUATION.test(word) ? word : "W";
}

/** The kinds (`kindOf`) and heads (`headOf`) of the words read so far (see `remembered`). */
const KINDS = new Map<string, string>();
const HEADS = new Map<string, string>();

/** A line's first word as its shape reads it: by kind, or as printed with digits masked. */
function headOf(word: string): string {
  if (isQuote(word) || isHex(word) || isNumber(word) || isPath(word)) return kindOf(word);
  return /\d/.test(word) ? unhashed(word).replace(/\d+/g, "0") : word;
}

/**
 * A clock, a date, a count of a total or a labelled counter (apt's `Get:12`): digits of a status
 * line that move on, naming no row.
 */
const MOVING = /\d:\d|\d-\d\d-\d|\d\/\d|^[A-Za-z]{1,20}:\d{1,9}$/;
const FIRST_WORD = /^\s*(\S+)/;

/** A word with its hashes masked (`[4f608cf…]` of a bisect step is a commit, not a row's name). */
function unhashed(word: string): string {
  return /\d/.test(word) ? word.replace(HEX_RUN, "H") : word;
}

/** A line's (or a command's) first word as printed; "" for a blank line. */
export function firstWord(line: string): string {
  return FIRST_WORD.exec(line)?.[1] ?? "";
}

/**
 * Whether the lines at `at` (one shape) are rows of data: their first words, read by their
 * digits (neither a path, a hash nor quoted text), differ from one another and their digits name
 * each row rather than move on as a clock, a date or a counter does.
 */
function namesRows(lines: readonly string[], at: readonly number[]): boolean {
  const first = unhashed(firstWord(lines[at[0]]));
  if (!/\d/.test(first) || MOVING.test(first)) return false;
  if (isQuote(first) || (!isNumber(first) && isPath(first))) return false;
  return at.some((k) => unhashed(firstWord(lines[k])) !== first);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 12 || c === 11;
}

/**
 * Whether a word of `length` characters starting with `first`, holding no `/`, `\\` or `.`, is
 * a word by `kindOf` (`W`), read from its first character alone: a letter starts no quote, number
 * or punctuation, and no hex id unless it is one of `a`–`f` and the word is long enough.
 */
function isPlainWord(first: number, length: number): boolean {
  const upper = first >= 65 && first <= 90;
  const lower = first >= 97 && first <= 122;
  return upper || (lower && (first > 102 || length < 7));
}

/** An earlier pass's note of what it folded or cut (`… 16 log lines folded (…) …`). */
const NOTE = /^\s*… .{1,400} …$/;

function isNote(line: string): boolean {
  return line.includes("…") && NOTE.test(line);
}

/** A line's shape, or null for a line that never folds (blank, too long, one word, a signal). */
export function shapeOf(line: string): string | null {
  if (line.length > MAX_TESTED) return null;
  const n = line.length;
  let i = 0;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  const indent = i;
  let key = "";
  let words = 0;
  while (i < n && words < SHAPE_WORDS) {
    const start = i;
    // Whether the word holds a character that may make it a path (`/`, `\\`, `.`).
    let pathy = false;
    for (let c = line.charCodeAt(i); i < n && !isSpace(c); c = line.charCodeAt(++i)) {
      if (c === 47 || c === 92 || c === 46) pathy = true;
    }
    if (words === 0) key += remembered(HEADS, line.slice(start, i), headOf);
    else if (!pathy && isPlainWord(line.charCodeAt(start), i - start)) key += " W";
    else key += ` ${remembered(KINDS, line.slice(start, i), kindOf)}`;
    words++;
    while (i < n && isSpace(line.charCodeAt(i))) i++;
  }
  if (words < 2) return null;
  if (neverFolds(line) || isNote(line)) return null;
  return line.slice(0, indent) + key;
}

/** The shape of every status step in a failed run (`stepShapes`). */
const STEP_SHAPE = "step…";
/** A status step: a capitalised word, then words, ending in an ellipsis. */
const STEP = /^[A-Z][a-z]{1,30} [^\s].{0,300}(?:\.\.\.|…)$/;

/**
 * In a failed run, a tool's steps announced with an ellipsis (doxygen's `Parsing file a.h...`,
 * `Building group list...`) are one shape whatever their words where their own shape's run is
 * too short to fold: the steps of one phase differ in their verb, and the errors sit among them.
 * A long run of one step (`Compiling 'a.py'...` ×40) keeps its own shape and its folds.
 */
function stepShapes(lines: readonly string[], shapes: (string | null)[]): void {
  for (let i = 0; i < shapes.length;) {
    const shape = shapes[i];
    let end = i + 1;
    while (end < shapes.length && shape !== null && shapes[end] === shape) end++;
    if (shape !== null && end - i < MIN_SHAPE_RUN) {
      for (let k = i; k < end; k++) if (STEP.test(lines[k])) shapes[k] = STEP_SHAPE;
    }
    i = end;
  }
}

/** Lines of one odd value a cut keeps, at most (the rest go with the cut). */
const ODD_IN_CUT = 10;

/**
 * The lines of a cut (a long output's middle, which goes) that differ from the other lines of
 * their kind where those agree — a `500` among `200`s, a setuid `-rwsr-xr-x` or another owner
 * among a listing's rows: generic_outliers.ts, at most ODD_IN_CUT lines of each odd value. Lines
 * are read by shape and again by their columns: a shape whose first word is read with its
 * lowercase letters and dashes masked, since a table's first column (a mode string) is a value
 * of the row, not what kind of line it is.
 */
export function oddInCut(cut: readonly string[]): Set<number> {
  // Shapes repeat line after line: each is one string, masked for its columns once, and each kind
  // by columns (a count of words and a masked shape) is one string, made once.
  const kinds = new Map<string, CutKind>();
  const ofLine = cut.map((line) => {
    const shape = shapeOf(line);
    if (shape === null) return null;
    let kind = kinds.get(shape);
    if (kind === undefined) {
      kinds.set(shape, kind = { shape, head: columnsHead(shape), byCount: [] });
    }
    return kind;
  });
  const columnsOf = (line: string, at: number) => {
    const kind = ofLine[at];
    if (kind === null) return null;
    const count = wordCount(line);
    return kind.byCount[count] ??= `${count} ${kind.head}`;
  };
  return oddLines(cut, [(_, at) => ofLine[at]?.shape ?? null, columnsOf], { few: ODD_IN_CUT });
}

/** A shape of a cut's lines: as printed, its head masked for columns, its kinds by columns. */
interface CutKind {
  shape: string;
  head: string;
  byCount: string[];
}

/**
 * What goes of a long output between its head and its tail, read for what stays: the lines come
 * in order as they leave the tail's window (`push`) and each is handed to `consider` with whether
 * it is odd (`oddInCut`), which keeps it or counts it gone: the keep rule of the one who cuts (the
 * generic pass's truncator, the `truncate` strategy). The cut is held to be read for its odd lines
 * while it holds at most MAX_SHAPED_LINES lines; a longer one (or any, when `odd` is false) is
 * handed on line by line as it comes, none of its lines odd, so a huge output is not held twice.
 */
export function cutReader(
  consider: (line: string, odd: boolean) => void,
  options: { odd?: boolean } = {},
): { push(line: string): void; finish(): void } {
  const held: string[] = [];
  let streaming = options.odd === false;
  return {
    push(line) {
      if (streaming) return consider(line, false);
      held.push(line);
      if (held.length <= MAX_SHAPED_LINES) return;
      // Too long a cut to read for odd lines: the keep rule alone decides.
      streaming = true;
      for (const line of held) consider(line, false);
      held.length = 0;
    },
    finish() {
      const odd = oddInCut(held);
      held.forEach((line, k) => consider(line, odd.has(k)));
      held.length = 0;
    },
  };
}

/**
 * A line's shape with its first word's lowercase letters and dashes masked (`-rwsr-xr-x`: `a`):
 * with its count of words, the layout of a table's rows, whose columns line up from either end.
 */
function columnsHead(shape: string): string {
  return shape.replace(/^(\s*)(\S+)/, (_, indent, head) => indent + head.replace(/[a-z-]+/g, "a"));
}

/** The words of a line (split at whitespace as `\s` reads it), for a line of at least one. */
function wordCount(line: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    const space = c < 128 ? c === 32 || (c >= 9 && c <= 13) : isWideSpace(c);
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/** Whether `c`, past ASCII, is a space as `\s` reads it (Unicode's Zs, U+2028/9, U+FEFF). */
function isWideSpace(c: number): boolean {
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 ||
    c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Blocks of up to this many lines repeat as a whole (`git bisect run`'s three lines a step). */
const MAX_PERIOD = 4;
/** A run of blocks has at least this many. */
const MIN_BLOCKS = 3;

/**
 * The lines with each run of at least MIN_SHAPE_RUN lines of one shape folded to its first line,
 * a count of the lines between and its last line (its last FAILED_RUN_TAIL lines when the
 * command failed), when the count is shorter than the lines it replaces. In a run that passed, a
 * run of blocks of 2 to MAX_PERIOD lines whose shapes repeat block after block (a step's
 * `running …`, `Bisecting: …`, `[hash] subject`) folds the same way, keeping its first and last
 * blocks.
 */
export function foldShapeRuns(lines: readonly string[], failed: boolean): readonly string[] {
  if (lines.length < MIN_SHAPE_RUN || lines.length > MAX_SHAPED_LINES) return lines;
  // Where the kept tail starts: the last KEPT_TAIL non-blank lines.
  let tail = lines.length;
  for (let seen = 0; tail > 0 && seen < KEPT_TAIL;) if (!isBlank(lines[--tail])) seen++;
  // A coverage table's kept rows each name a file and its uncovered lines: none folds.
  const covered = coverageRows(lines);
  const shapes = lines.map((line, i) => i < tail && !covered?.[i] ? shapeOf(line) : null);
  for (const k of diffLines(lines)) shapes[k] = null;
  if (failed) stepShapes(lines, shapes);
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const shape = shapes[i];
    if (shape === null) {
      out.push(lines[i++]);
      continue;
    }
    // The run: lines of this shape, with blank lines between them; `last` is its last line.
    const run = [i];
    for (let j = i + 1; j < tail; j++) {
      if (shapes[j] !== shape) {
        if (shapes[j] === null && isBlank(lines[j])) continue;
        break;
      }
      run.push(j);
    }
    const indent = lines[i].slice(0, indentOf(lines[i]));
    const fold = (n: number, note = "") => `${indent}… ${n} lines like these folded${note} …`;
    // A run whose lines group by a leading name (a blame's commit, a listing's owner) folds
    // group by group: the first line after each change of that name stays.
    // A group too short to be a run of its own still folds its middle.
    // Steps of one phase differ in their verb, which names no group (STEP).
    const groups = shape !== STEP_SHAPE && run.length >= MIN_SHAPE_RUN && !namesRows(lines, run)
      ? groupsByKey(lines, run)
      : null;
    if (groups !== null) {
      groups.forEach((group, g) => {
        const end = g + 1 < groups.length ? groups[g + 1][0] - 1 : run.at(-1)!;
        const folded = foldAroundOutliers(unitsOf(lines, group[0], end), fold);
        if (folded !== null) appendAll(out, folded);
        else appendAll(out, lines, group[0], end + 1);
      });
      i = run.at(-1)! + 1;
      continue;
    }
    const last = run.at(-1)!;
    const count = run.length;
    // Lines that differ from the others where the others agree stay (generic_outliers.ts).
    // In a failed run, the run's last lines (what it did just before failing) stay as printed.
    const units = count >= MIN_SHAPE_RUN && !namesRows(lines, run) ? unitsOf(lines, i, last) : [];
    const lastKept = failed ? units.splice(units.length - FAILED_RUN_TAIL + 1) : [];
    const folded = units.length ? foldAroundOutliers(units, fold) : null;
    if (folded !== null) {
      appendAll(out, folded);
      for (const unit of lastKept) appendAll(out, unit);
      i = last + 1;
      continue;
    }
    const blocks = failed ? null : blockRunAt(shapes, i);
    if (blocks !== null) {
      const { period, count: n } = blocks;
      const rows = Array.from(
        { length: period },
        (_, p) => namesRows(lines, Array.from({ length: n }, (_, b) => i + p + b * period)),
      );
      const units = Array.from(
        { length: n },
        (_, b) => lines.slice(i + b * period, i + (b + 1) * period),
      );
      const folded = rows.includes(true) ? null : foldAroundOutliers(units, fold);
      if (folded !== null) {
        appendAll(out, folded);
        i += n * period;
        continue;
      }
    }
    appendAll(out, lines, i, last + 1);
    i = last + 1;
  }
  return out.lines();
}

/** A mode string of a listing (`-rw-r--r--`, `drwxr-xr-x.`): a value of the row, not its name. */
const MODE = /^[-dlcbps][-rwxsStT]{9}[.+@]?$/;
/** Leading words of a line read for its key, at most. */
const KEY_WORDS = 3;

/**
 * A line's key: its first leading word that names something (a hash, a path, a name), past
 * numbers, clocks, dates, quotes, punctuation and mode strings; null when none of the first
 * KEY_WORDS does.
 */
function keyOf(line: string): string | null {
  const words = line.trimStart().split(/\s+/, KEY_WORDS);
  for (const word of words) {
    if (word === "" || isNumber(word) || isQuote(word) || MOVING.test(word)) continue;
    if (PUNCTUATION.test(word) || MODE.test(word)) continue;
    return word;
  }
  return null;
}

/**
 * The run's lines in groups of one key (`keyOf`), when the key groups them: every line has one
 * and it changes at most once in MIN_GROUP lines on average (a blame's few commits, not a
 * diffstat's path per line); null otherwise. A line alone with its key (another author's one
 * line amid a commit's) is no group: it stays in the group around it, for the outliers' reading
 * (generic_outliers.ts) to keep it and the line that says where it is.
 */
function groupsByKey(lines: readonly string[], run: readonly number[]): number[][] | null {
  const keys: string[] = [];
  for (const k of run) {
    const key = keyOf(lines[k]);
    if (key === null) return null;
    keys.push(key);
  }
  const groups: { key: string; at: number[] }[] = [];
  for (let r = 0; r < run.length; r++) {
    const last = groups.at(-1);
    const alone = r + 1 < run.length && keys[r + 1] !== keys[r] && last !== undefined;
    if (last !== undefined && (last.key === keys[r] || alone)) last.at.push(run[r]);
    else groups.push({ key: keys[r], at: [run[r]] });
    if (groups.length * MIN_GROUP > run.length) return null;
  }
  return groups.length > 1 ? groups.map((g) => g.at) : null;
}
/** A key groups a run when its lines change it at most once in this many, on average. */
const MIN_GROUP = 8;

/** The run from `first` to `last`: each of its lines with the blank lines after it. */
function unitsOf(lines: readonly string[], first: number, last: number): string[][] {
  const units: string[][] = [];
  for (let k = first; k <= last; k++) {
    if (units.length > 0 && isBlank(lines[k])) units.at(-1)!.push(lines[k]);
    else units.push([lines[k]]);
  }
  return units;
}

/**
 * The run of blocks starting at `at` whose lines' shapes repeat with a period of 2 to MAX_PERIOD
 * lines (no blank or unshaped line inside, the lines of a block not all of one shape), when it
 * has MIN_BLOCKS blocks and MIN_SHAPE_RUN lines at least; else null.
 */
function blockRunAt(
  shapes: readonly (string | null)[],
  at: number,
): { period: number; count: number } | null {
  for (let period = 2; period <= MAX_PERIOD; period++) {
    if (at + period > shapes.length) return null;
    let alike = true;
    for (let p = at; p < at + period; p++) {
      if (shapes[p] === null) return null;
      if (shapes[p] !== shapes[at]) alike = false;
    }
    if (alike) continue;
    let end = at + period;
    while (end < shapes.length && shapes[end] !== null && shapes[end] === shapes[end - period]) {
      end++;
    }
    const count = Math.floor((end - at) / period);
    if (count >= MIN_BLOCKS && count * period >= MIN_SHAPE_RUN) return { period, count };
  }
  return null;
}

/** A hunk header after a log prefix: the prefix, then `@@ -16,9 +16,10 @@`. */
const PREFIXED_HUNK = /^(\S.{0,300}?\s)@@ -\d{1,9}(?:,(\d{1,9}))? \+\d{1,9}(?:,(\d{1,9}))? @@/;

/**
 * The lines of unified diffs printed under a log prefix: each hunk header (`➤ YN0000: │ @@ -16,9
 * +16,10 @@`) and, of the lines its counts cover (old and new together, at most), those whose
 * text past as many words as the header's prefix has starts with `+` or `-`. A diff printed bare
 * needs none of this: its marks head its lines, and so their shapes.
 */
function diffLines(lines: readonly string[]): number[] {
  const found: number[] = [];
  // The line past the last one read for a hunk: a hunk's lines are read once, where headers'
  // counts overlap (each claiming more lines than come before the next) too.
  let scanned = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.includes("@@ -") || line.length > MAX_TESTED) continue;
    const hunk = PREFIXED_HUNK.exec(line);
    if (hunk === null) continue;
    found.push(i);
    const words = hunk[1].trim().split(/\s+/).length;
    const span = Number(hunk[2] ?? 1) + Number(hunk[3] ?? 1);
    const end = Math.min(lines.length, i + 1 + span);
    for (let k = Math.max(i + 1, scanned); k < end; k++) {
      const mark = lines[k].charAt(bodyStart(lines[k], words));
      if (mark === "+" || mark === "-") found.push(k);
    }
    scanned = Math.max(scanned, end);
  }
  return found;
}

/** Where a line's text starts past its first `words` words and the one space after them. */
function bodyStart(line: string, words: number): number {
  let i = 0;
  for (let w = 0; w < words; w++) {
    while (i < line.length && isSpace(line.charCodeAt(i))) i++;
    while (i < line.length && !isSpace(line.charCodeAt(i))) i++;
  }
  return i + 1;
}
