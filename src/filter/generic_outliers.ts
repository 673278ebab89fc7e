/**
 * The odd ones out of a fold of similar lines. A run of lines of one shape (an access log's
 * requests, `git branch -vv`'s branches, a `tar -tv` listing) folds because its lines say the same
 * thing about different items; a line that says something else in a field where the others agree
 * — a `500` among `200`s, `[origin/x: gone]` among plain tracking, another owner, a size of 0 — is
 * what the reader looks for, so it stays as printed.
 *
 * A line's fields are its words counted from the start (far enough to reach the middle of a long
 * line) and from the end (an access log's status is the next-to-last word whatever the path
 * holds), the groups in brackets or parentheses with
 * their paths, hex ids and numbers masked (`[origin/x: gone]` reads `[P: gone]`), and whether a
 * numeric word is zero (a measure — `17B`, `0.4s` — is read for that only: it varies by degree, not
 * by kind, and a time of zero, `0ms`, is only fast; one that counts up line by line, `tick 0`,
 * `shard 1`, is a place in a sequence and read for nothing). Times are masked first: a fast run's
 * lines share a few seconds, which says nothing. A field is categorical when, over at least
 * MIN_LINES lines, it takes at most MAX_VALUES values (or one for every LINES_PER_VALUE lines of a
 * long run: an access log's statuses) and its most common value holds more than MODE_SHARE (half)
 * of them: paths, ids and timestamps take many values and never are. A line whose value there is
 * not the most common one is an outlier, unless its value holds KIND_SHARE of the run (a second
 * kind of line, as `Building project …` after each `Project … is out of date`). A value's lines
 * all stay while they are few beside the run (FEW_SHARE of it); past that its first KEEP_FIRST
 * and last KEEP_LAST lines stay and the others are counted on the fold line (`… 40 lines like
 * these folded (12 of them with 500) …`). The rules' folds read the same way: `truncate`'s cut
 * (generic_shapes.ts' `oddInCut`) and `dedup`'s counts, which split by every value apart from the
 * common one (`kinds`).
 *
 * An odd line kept alone does not say where it is: a changed `return` line of a `git blame` or a
 * numbered listing is in the function its `def` line names. So the nearest line before a kept odd
 * line (within REACH lines of the fold) whose content is less indented stays with it, as
 * `grep -B` would show it: a line's content starts at its beginning or after a gutter both lines
 * print at one column (`git blame`'s `) `, `cat -n`'s tab, `grep -n`'s `:`). Rows of one level (an
 * access log's requests, a listing's files) lead nothing. Such lines are bounded as one value's
 * lines are: a listing of many odd lines keeps no more of them than of the odd lines themselves.
 */

import { appendAll } from "./arrays.ts";
import { isBlank, MAX_TESTED } from "./sanitize.ts";

/** Times and dates in a line, for telling lines apart that differ only in when they were printed. */
const TIMES =
  /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?|\b\d\d:\d\d:\d\d(?:[.,]\d{1,9})?\b|^[IWEF]\d{4}\b/g;

/** A line with its times and dates masked (klog's `E1126` prefix too). */
export function withoutTimes(line: string): string {
  return line.length > MAX_TESTED ? line : line.replace(TIMES, "<T>");
}

/** A field is read only over at least this many lines. */
const MIN_LINES = 10;
/** Lines of a longer run a field is first read over (`majorityOf` a sample). */
const SAMPLE_LINES = 256;
/** A categorical field takes at most this many values … */
const MAX_VALUES = 8;
const LINES_PER_VALUE = 16;
/** … and its most common value holds more than this share of the lines: the odd ones are a minority. */
const MODE_SHARE = 0.5;
/**
 * A path's template is read only where one template holds this share of the lines and the lines
 * hold at most MAX_VALUES templates, however long the run: a listing of one folder's files of one
 * kind, whose few others are out of place (a `/usr/bin` whose names have no extension but for a
 * tenth of them, of many extensions, is a mixed listing, each kind as usual as the next).
 */
const PATH_MODE_SHARE = 0.9;
/** A value held by this share of the lines or more is a second kind of line, not an odd one. */
const KIND_SHARE = 1 / 3;
/**
 * An odd value's lines all stay while they are at most FEW_SHARE of the run (or KEEP_FIRST +
 * KEEP_LAST); past that its first lines and its last line stay and the others are counted.
 */
const FEW_SHARE = 0.05;
const KEEP_FIRST = 3;
const KEEP_LAST = 1;
/**
 * Words read from each end of a line: from the start far enough to reach the middle of a long
 * line (a structured log's state word), from the end the last few (a status after a path of
 * spaces).
 */
const ENDS = { s: 24, e: 8 };
/** Words a template reads. */
const TEMPLATE_WORDS = 16;
/** Groups in brackets or parentheses read per line. */
const GROUPS = 3;
/** A fold between kept lines has at least this many lines; fewer stay as printed. */
const MIN_FOLDED = 3;
/** Share of a sequence's steps that may go down (a counter that restarts once). */
const MAX_DOWN = 0.1;
/** Longest value shown in a fold line's count of the odd lines it holds. */
const MAX_LABEL = 40;
/** Lines before a kept odd line read for the less indented one that says where it is. */
const REACH = 8;
/** Columns of a line read for a gutter's end. */
const MAX_GUTTER = 120;
/** Characters that end a gutter before a line's content: `git blame`'s `)`, `cat -n`'s tab, `:`, `|`. */
const GUTTER_END = /[)\t:|]/;

const GROUP = /\[[^\][]{1,200}\]|\([^()]{1,200}\)/g;
const NUMBER = /^[+-]?\d[\d.,]{0,30}[A-Za-z%]{0,3}$/;
const ZERO = /^[+-]?0+(?:[.,]0+)?[A-Za-z%]{0,3}$/;
/** A zero of time (`0ms`, `0.0s`): faster than the clock tells, no empty result. */
const NO_TIME = /^[+-]?0+(?:[.,]0+)?(?:ns|us|µs|ms|s)$/;
/** A key before a value in one word (`rows=0`, `size:0`). */
const KEYED = /^[A-Za-z_][\w.-]{0,40}[=:]/;
const MEASURE = /^[+-]?\d[\d,]{0,30}(?:\.\d{1,30}[A-Za-z%]{0,3}|[A-Za-z%]{1,3})$/;
/** A count a fold appended to the line it kept (`(x3)`). */
const COUNTED = / \(x\d{1,12}\)$/;
/** A diffstat's bar (`+++--`): how much changed, a degree like a measure. */
const BAR = /^[+-]{1,200}$/;

/**
 * A word with what varies item by item masked: a path as `P` (`P:` when `colon` and the path ends
 * a label), hex ids as `H`, numbers as `0`.
 */
function maskWord(word: string, colon = false): string {
  if (/[/\\]/.test(word)) return colon && word.endsWith(":") ? "P:" : "P";
  return word.replace(/\b[0-9a-f]{7,64}\b/g, "H").replace(/\d+/g, "0");
}

/** A group's text with what varies item by item masked: paths, hex ids, numbers. */
function maskGroup(group: string): string {
  return group.split(/ +/).map((word) => maskWord(word, true)).join(" ");
}

/**
 * Times of any width (`2:27:05 AM`, `05:02`) and dates (`2026-11-20`, `27/Nov/2026`, and `ls -l`'s
 * and syslog's `Apr  7  2025`, `Nov 27 05:10`: a month and a day with a year or a time).
 */
const WHEN =
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}\d{1,2} {1,2}(?:\d{4}\b|\d{1,2}:\d\d(?::\d\d)?\b|<T>)|\b\d{1,2}:\d\d(?::\d\d)?(?:[.,]\d{1,9})?(?: ?[AP]M\b)?|\b\d{4}[-/]\d\d[-/]\d\d\b|\b\d{1,2}[-/][A-Z][a-z]{2}[-/]\d{4}\b/g;

/** A line with its times and dates masked: when a line was printed says nothing of its kind. */
function withoutDates(line: string): string {
  return withoutTimes(line).replace(WHEN, "<T>");
}

/**
 * A line as its fields read it: its words (times masked) and its bracketed groups, each word and
 * group read once whatever the fields and runs that read it (`readWord`, `maskedGroup`).
 */
interface LineRead {
  words: string[];
  /** The line as printed, its count dropped (see `readLine`), for its groups. */
  said: string;
  /** Undefined until a group field reads them (`groupsOf`). */
  groups: string[] | undefined;
  /** Per word: undefined until read, null for a word that reads as itself (see `readWord`). */
  read: (WordRead | null | undefined)[];
  masked: (string | undefined)[];
  /** Undefined until a path field reads them (`pathTemplatesOf`): with and without extension. */
  path: [string, string] | undefined;
}

/** A word as the fields read it: as a value, as a zero test, as a count. */
interface WordRead {
  value: string;
  zero: string;
  /** The number the word holds, for telling a sequence (`countsUp`); null when it holds none. */
  count: number | null;
}

/** A line of a run, read for its fields. */
function readLine(line: string): LineRead {
  // A count an earlier fold appended (dedup's `(x3)`) says how often, not what.
  const said = line.endsWith(")") ? line.replace(COUNTED, "") : line;
  return {
    words: withoutDates(said).trim().split(/\s+/),
    said,
    groups: undefined,
    read: [],
    masked: [],
    path: undefined,
  };
}

/** The groups of `line` (GROUPS of them at most), found when first read. */
function groupsOf(line: LineRead): string[] {
  return line.groups ??= line.said.match(GROUP)?.slice(0, GROUPS) ?? [];
}

/**
 * The word at index `i` of `line` as the fields read it (see FIELDS); null for a word that reads
 * as itself, no number (most words: nothing is made for them).
 */
function readWord(line: LineRead, i: number): WordRead | null {
  const known = line.read[i];
  if (known !== undefined) return known;
  const word = line.words[i];
  // Only a word holding `=` or `:` has a key; only one starting with a digit or a sign is a
  // number, a measure or a bar: any other reads as itself.
  const keyed = word.includes("=") || word.includes(":");
  const c = keyed ? -1 : word.charCodeAt(0);
  if (c >= 0 && !(c >= 48 && c <= 57) && c !== 43 && c !== 45) return line.read[i] = null;
  // A number's reading depends on the word alone, and a log's numbers repeat (`200`, `0ms`).
  return line.read[i] = remembered(NUMBERS, word, numberOf);
}

/** Words read by `numberOf` so far, and groups masked (see `remembered`). */
const NUMBERS = new Map<string, WordRead | null>();
const GROUPS_MASKED = new Map<string, string>();
/** Texts a table of `remembered` holds at most (then it starts again). */
const MAX_REMEMBERED = 4096;
/**
 * Longest text remembered: V8 copies a substring shorter than 13 characters, and a longer one may
 * be a slice that keeps its whole input alive for as long as the table holds it.
 */
const MAX_REMEMBERED_LENGTH = 12;

/**
 * `read(text)`, remembered in `known` for the next lines (whose words and groups repeat) when
 * `text` is short (MAX_REMEMBERED_LENGTH); `read` depends on `text` alone.
 */
export function remembered<T>(known: Map<string, T>, text: string, read: (text: string) => T): T {
  if (text.length > MAX_REMEMBERED_LENGTH) return read(text);
  let value = known.get(text);
  if (value === undefined) {
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(text, value = read(text));
  }
  return value;
}

/** `word` as the fields read it (see `readWord`): null when it holds no number past its key. */
function numberOf(word: string): WordRead | null {
  const number = word.includes("=") || word.includes(":") ? word.replace(KEYED, "") : word;
  const c = number.charCodeAt(0);
  if (!(c >= 48 && c <= 57) && c !== 43 && c !== 45) return null;
  const numeric = NUMBER.test(number);
  return {
    value: MEASURE.test(number) || BAR.test(word) ? "" : word,
    zero: !numeric ? "" : ZERO.test(number) && !NO_TIME.test(number) ? word : "N",
    count: numeric ? parseFloat(number.replace(/,/g, "")) : null,
  };
}

/** The index of the word at `p` from `end` of `line`, or -1 past its words. */
function wordAt(line: LineRead, end: "s" | "e", p: number): number {
  const n = line.words.length;
  return p >= n ? -1 : end === "s" ? p : n - 1 - p;
}

/** The word at `p` from `end` as a value ("" past the line's words). */
function valueAt(line: LineRead, end: "s" | "e", p: number): string {
  const i = wordAt(line, end, p);
  if (i < 0) return "";
  const read = readWord(line, i);
  return read === null ? line.words[i] : read.value;
}

/** Whether the word at `p` from `end` is a zero among numbers (see WordRead.zero). */
function zeroAt(line: LineRead, end: "s" | "e", p: number): string {
  const i = wordAt(line, end, p);
  return i < 0 ? "" : readWord(line, i)?.zero ?? "";
}

/** The number the word at `p` from `end` holds, or null. */
function countAt(line: LineRead, end: "s" | "e", p: number): number | null {
  const i = wordAt(line, end, p);
  return i < 0 ? null : readWord(line, i)?.count ?? null;
}

/** The `k`th group of `line` masked (see `maskGroup`), "" past its groups. */
function maskedGroup(line: LineRead, k: number): string {
  if (k >= groupsOf(line).length) return "";
  const known = line.masked[k];
  if (known !== undefined) return known;
  // A group's masked form depends on its text alone, and a log's groups repeat (`[http]`).
  const group = line.groups![k];
  return line.masked[k] = remembered(GROUPS_MASKED, group, maskGroup);
}

/**
 * A word naming a file: one holding a `/` (`src/gen_1.o`, `build/`), or a name with an extension
 * (`debug.log`), a diagnostic's `:line:col` dropped; a number (`0.4s`, `1.2.3`) is none.
 */
const PATH_WORD = /\/|^[\w@+~-][\w.@+~-]*\.[A-Za-z][A-Za-z0-9]{0,7}$/;
const PATH_QUOTES = /^["'`(<]+|["'`)>,;]+$|(?::\d+){1,2}:?$/g;

/**
 * The template of the first word of `line` that names a file: its folder with its numbers masked,
 * its extension and whether it names a folder (`src/*.o`, `./*.log`, a trailing `/`); "" when none
 * does. A listing's paths take as many values as it has lines, but their templates few: the file
 * of another folder or kind among them (`build/`, `debug.log` among `src/gen_N.o`) is odd by it.
 */
function pathTemplatesOf(line: LineRead): [string, string] {
  if (line.path !== undefined) return line.path;
  let templates: [string, string] = ["", ""];
  for (const word of line.words) {
    // Cheap test first: a word naming a file holds a `/` or a `.`.
    if (word.length > 200 || (!word.includes("/") && !word.includes("."))) continue;
    const path = word.replace(PATH_QUOTES, "");
    if (!PATH_WORD.test(path)) continue;
    const folder = path.endsWith("/");
    const bare = folder ? path.replace(/\/+$/, "") : path;
    const slash = bare.lastIndexOf("/");
    const dir = slash < 0 ? "." : bare.slice(0, slash).replace(/\d+/g, "0");
    const name = bare.slice(slash + 1);
    const dot = name.lastIndexOf(".");
    const extension = dot > 0 ? name.slice(dot).replace(/\d+/g, "0") : "";
    const end = folder ? "/" : "";
    templates = [`${dir}/*${extension}${end}`, `${dir}/*${end}`];
    break;
  }
  return line.path = templates;
}

/** A field: how to read its value from a line, and whether it is a zero test. */
interface Field {
  key: string;
  value: (line: LineRead) => string;
  /** A word's field: the word's place from its end (a line of fewer words reads "" there). */
  word?: { end: "s" | "e"; p: number };
  /** The number the value holds (`rows=0`: `0`), for telling a sequence. */
  count?: (line: LineRead) => number | null;
  zeros?: boolean;
  /** The share of the lines the most common value holds at least (MODE_SHARE when unset). */
  mode?: number;
  /** Whether the most common value leaves no line odd by this field. */
  skip?: (mode: string) => boolean;
}

/**
 * The fields read: each end's words as printed (a measure — a number with a unit or a fraction,
 * `17B`, `0.4s`, or a diffstat's bar — varies by degree, not by kind, and reads as nothing there;
 * a bare whole number, a status or an exit code, is a code), whether each is a zero among numbers,
 * and the groups.
 */
const FIELDS: Field[] = [
  ...(["s", "e"] as const).flatMap((end) =>
    Array.from({ length: ENDS[end] }, (_, p): Field[] => {
      const count = (line: LineRead) => countAt(line, end, p);
      const word = { end, p };
      return [
        { key: `${end}${p}`, value: (line) => valueAt(line, end, p), word, count },
        {
          key: `z:${end}${p}`,
          value: (line) => zeroAt(line, end, p),
          word,
          count,
          zeros: true,
        },
      ];
    }).flat()
  ),
  ...Array.from({ length: GROUPS }, (_, k): Field => ({
    key: `b${k}`,
    value: (line) => maskedGroup(line, k),
  })),
  // A path's folder, and its extension where the common one has one: in a listing of names
  // without one (`/usr/bin`), a dot in a name (`vim.basic`, `perl5.36.0`) makes no other kind. Where
  // most lines name no file, one that does is no odd one.
  {
    key: "p",
    value: (line) => pathTemplatesOf(line)[1],
    mode: PATH_MODE_SHARE,
    skip: (mode) => mode === "",
  },
  {
    key: "x",
    value: (line) => pathTemplatesOf(line)[0],
    mode: PATH_MODE_SHARE,
    skip: (mode) => !mode.includes("*."),
  },
];

/**
 * What a line says with its items masked: its words (times masked) with numbers as `0`, paths as
 * `P` and hex ids as `H`. Lines of one template are alike (`processing job 0 for tenant-0`)
 * however many kinds of line a log mixes.
 */
export function templateOf(line: string): string {
  return withoutDates(line).trim().split(/\s+/, TEMPLATE_WORDS).map((word) => maskWord(word))
    .join(" ");
}

/** What `findOutliers` decides for each line of a run. */
export interface Outliers {
  /** The lines that stay as printed. */
  kept: Set<number>;
  /** The odd lines past the bound, each with the value that makes it odd (as printed). */
  counted: Map<number, string>;
  /** Every odd line, kept or counted, with the value that makes it odd (as printed). */
  odd: Map<number, string>;
}

/**
 * The outliers of `lines` (lines of one shape; null entries, blank lines between them, are not
 * read): which stay, and which are counted with the value that makes them odd. `few`: the lines
 * of one odd value that all stay. `kinds`: a value held by KIND_SHARE of the lines or more is odd
 * too (a count of lines alike splits by it, where a fold would show it as a second kind of line).
 */
export function findOutliers(
  lines: readonly (string | null)[],
  options: { few?: number; kinds?: boolean } = {},
): Outliers {
  return outliersOf(lines, readerOf(lines), options);
}

/**
 * The reads of `lines` by index, each line read once however many runs and kinds read it, and
 * identical lines sharing one read.
 */
function readerOf(lines: readonly (string | null)[]): (at: number) => LineRead {
  const reads: (LineRead | undefined)[] = [];
  const byText = new Map<string, LineRead>();
  return (at) => {
    const known = reads[at];
    if (known) return known;
    const line = lines[at]!;
    let reading = byText.get(line);
    if (!reading) byText.set(line, reading = readLine(line));
    return reads[at] = reading;
  };
}

/**
 * `findOutliers` with the lines read by `readingOf` (at: the index in `lines`), which may hand out
 * a line already read for another run.
 */
function outliersOf(
  lines: readonly (string | null)[],
  readingOf: (at: number) => LineRead,
  options: { few?: number; kinds?: boolean },
): Outliers {
  const kept = new Set<number>();
  const counted = new Map<number, string>();
  const odd = new Map<number, string>();
  // The lines read (their indexes in `lines`, and their reads) and the most words one holds.
  const ats: number[] = [];
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at];
    if (line !== null && !isBlank(line)) ats.push(at);
  }
  const n = ats.length;
  // Too few lines to read: none is read.
  if (n < MIN_LINES) return { kept, counted, odd };
  const read: LineRead[] = new Array(n);
  // The distinct reads (identical lines share one) and each line's place among them: a field is
  // first read once per distinct line.
  const distinct: LineRead[] = [];
  const slots = new Int32Array(n);
  const slotOf = new Map<LineRead, number>();
  let most = 0;
  for (let i = 0; i < n; i++) {
    const reading = read[i] = readingOf(ats[i]);
    let slot = slotOf.get(reading);
    if (slot === undefined) {
      slotOf.set(reading, slot = distinct.length);
      distinct.push(reading);
    }
    slots[i] = slot;
    if (reading.words.length > most) most = reading.words.length;
  }
  const values = Math.max(MAX_VALUES, Math.floor(n / LINES_PER_VALUE));
  // A long run's fields are first read over a sample of its lines, spread evenly: a field whose
  // most common value holds no majority there holds none over the run, and is not read whole.
  const stride = Math.floor(n / SAMPLE_LINES);
  const sample = stride > 1 ? read.filter((_, i) => i % stride === 0) : null;
  // Whether a word's numbers count up, per word place (its value and zero fields read the same).
  const sequences = new Map<string, boolean>();
  // The values of the field being read, line by line (and over the sample).
  const column: string[] = new Array(n);
  const once: string[] = distinct.length < n ? new Array(distinct.length) : column;
  const sampled: string[] = sample ? new Array(sample.length) : [];
  for (const field of FIELDS) {
    // Past every line's words each line reads "": one value, no line odd by it.
    if (field.word && field.word.p >= most) continue;
    if (sample) {
      fill(sampled, sample, field);
      if (majorityOf(sampled, field) === null) continue;
    }
    // A value held by every line leaves no line odd.
    if (fill(once, distinct, field)) continue;
    if (once !== column) { for (let i = 0; i < n; i++) column[i] = once[slots[i]]; }
    // A value held by no majority leaves no line odd either.
    const major = majorityOf(column, field);
    if (major === null || major.count === n) continue;
    if (field.mode !== undefined && major.count < field.mode * n) continue;
    if (field.skip?.(major.value)) continue;
    const byValue = new Map<string, number[]>();
    let all = true;
    // A path's templates are few in a listing of one template but for a few, however long.
    const limit = field.mode === undefined ? values : MAX_VALUES;
    for (let i = 0; i < n; i++) {
      const value = column[i];
      const same = byValue.get(value);
      if (same) same.push(ats[i]);
      else if (byValue.size === limit) {
        all = false;
        break;
      } else byValue.set(value, [ats[i]]);
    }
    if (!all) continue;
    const mode = major.value;
    // A number that counts up line by line (`tick 0`, `shard 1`) is a place in a sequence.
    if (field.count) {
      const place = `${field.word!.end}${field.word!.p}`;
      let up = sequences.get(place);
      if (up === undefined) sequences.set(place, up = countsUp(countsAt(read, field.word!)));
      if (up) continue;
    }
    // A value's lines all stay while they are few beside the run; else its first and last.
    const few = options.few ?? fewOf(n);
    for (const [value, ats] of byValue) {
      if (value === mode || (field.zeros && value === "")) continue;
      if (!options.kinds && ats.length >= KIND_SHARE * n) continue;
      ats.forEach((at, k) => {
        if (!odd.has(at)) odd.set(at, labelOf(field.key, value, lines[at]!));
        if (ats.length <= few || k < KEEP_FIRST || k >= ats.length - KEEP_LAST) kept.add(at);
        else if (!counted.has(at)) counted.set(at, odd.get(at)!);
      });
    }
  }
  for (const at of kept) counted.delete(at);
  return { kept, counted, odd };
}

/**
 * `column` filled with `field`'s value of each line of `read`; whether every line holds the same
 * one. A word's field reads the word in place (`readWord`), the same value as `field.value`.
 */
function fill(column: string[], read: readonly LineRead[], field: Field): boolean {
  const n = read.length;
  const word = field.word;
  let same = true;
  if (word === undefined) {
    for (let i = 0; i < n; i++) {
      const value = column[i] = field.value(read[i]);
      if (same && i > 0 && value !== column[0]) same = false;
    }
    return same;
  }
  const { p } = word;
  const fromEnd = word.end === "e";
  const zeros = field.zeros === true;
  for (let i = 0; i < n; i++) {
    const line = read[i];
    const words = line.words;
    let value = "";
    if (p < words.length) {
      const k = fromEnd ? words.length - 1 - p : p;
      let known = line.read[k];
      if (known === undefined) known = readWord(line, k);
      value = zeros ? known?.zero ?? "" : known === null ? words[k] : known.value;
    }
    column[i] = value;
    if (same && i > 0 && value !== column[0]) same = false;
  }
  return same;
}

/**
 * The value more than MODE_SHARE of `column` (a field's values) hold, with its count; null when
 * none does (for a zero test: when the non-zero numbers do not). A majority is the one value
 * left standing when each value is paired off against a different one (Boyer and Moore's vote).
 */
function majorityOf(
  column: readonly string[],
  field: Field,
): { value: string; count: number } | null {
  let value = "N";
  if (!field.zeros) {
    let lead = 0;
    for (const v of column) {
      if (lead === 0) value = v;
      lead += v === value ? 1 : -1;
    }
  }
  let count = 0;
  for (const v of column) if (v === value) count++;
  return count > MODE_SHARE * column.length ? { value, count } : null;
}

/**
 * The odd lines of `lines`, read by kind: the lines a `kindOf` gives one key (a shape, a template;
 * null: not read) are read together, each kind of at least MIN_LINES lines; with several `kindOf`s,
 * the odd lines by each (a line is read once for all of them). `few`: as in `findOutliers`.
 */
export function oddLines(
  lines: readonly string[],
  kindsOf: readonly ((line: string, at: number) => string | null)[],
  options: { few?: number } = {},
): Set<number> {
  const readingOf = readerOf(lines);
  const odd = new Set<number>();
  // The kinds read, by their first line: a kind of the same lines by another `kindOf` finds
  // the same odd lines.
  const readKinds = new Map<number, number[][]>();
  for (const kindOf of kindsOf) {
    const byKind = new Map<string, number[]>();
    lines.forEach((line, at) => {
      const kind = kindOf(line, at);
      if (kind === null) return;
      const ats = byKind.get(kind);
      if (ats) ats.push(at);
      else byKind.set(kind, [at]);
    });
    for (const ats of byKind.values()) {
      if (ats.length < MIN_LINES) continue;
      const same = readKinds.get(ats[0]);
      if (same?.some((other) => sameLines(other, ats))) continue;
      if (same) same.push(ats);
      else readKinds.set(ats[0], [ats]);
      const kept = outliersOf(
        ats.map((at) => lines[at]),
        (k) => readingOf(ats[k]),
        options,
      ).kept;
      const found = new Set([...kept].map((k) => ats[k]));
      const where = whereOf(lines, found, options.few ?? fewOf(ats.length));
      for (const at of found) odd.add(at);
      for (const at of where) odd.add(at);
    }
  }
  return odd;
}

function sameLines(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The lines of one odd value that all stay, in a run of `n` lines read. */
function fewOf(n: number): number {
  return Math.max(KEEP_FIRST + KEEP_LAST, Math.floor(FEW_SHARE * n));
}

/**
 * The lines that say where the `odd` lines of `lines` are (null entries: not in the fold): for
 * each odd line, in order, the nearest line before it, within REACH lines and in the fold, whose
 * content is less indented (`leads`); at most `limit` of them.
 */
function whereOf(
  lines: readonly (string | null)[],
  odd: ReadonlySet<number>,
  limit: number,
): Set<number> {
  const where = new Set<number>();
  for (const at of [...odd].sort((a, b) => a - b)) {
    if (where.size >= limit) break;
    const line = lines[at];
    if (line === null || line === undefined) continue;
    for (let j = at - 1; j >= 0 && j >= at - REACH; j--) {
      const before = lines[j];
      if (before === null || odd.has(j) || where.has(j)) break;
      if (isBlank(before)) continue;
      if (leads(before, line)) {
        where.add(j);
        break;
      }
    }
  }
  return where;
}

/**
 * Whether `before` is less indented in its content than `line`: at the start of the lines, or after
 * a gutter both lines end with one character at one column (`) `, a tab, `:`).
 */
function leads(before: string, line: string): boolean {
  const end = Math.min(before.length, line.length, MAX_GUTTER);
  for (let p = -1; p < end; p++) {
    if (p >= 0 && (before[p] !== line[p] || !GUTTER_END.test(line[p]))) continue;
    const outer = indentFrom(before, p + 1);
    if (outer >= 0 && indentFrom(line, p + 1) > outer) return true;
  }
  return false;
}

/** The spaces and tabs from `from` to the next character, or -1 when none follows. */
function indentFrom(line: string, from: number): number {
  let i = from;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  return i < line.length ? i - from : -1;
}

/** The number each line of `read` holds in the word at `p` from `end` (`countAt`), or null. */
function countsAt(
  read: readonly LineRead[],
  { end, p }: { end: "s" | "e"; p: number },
): (number | null)[] {
  const counts: (number | null)[] = new Array(read.length);
  for (let i = 0; i < read.length; i++) {
    const line = read[i];
    const n = line.words.length;
    if (p >= n) counts[i] = null;
    else {
      const k = end === "s" ? p : n - 1 - p;
      counts[i] = (line.read[k] === undefined ? readWord(line, k) : line.read[k])?.count ?? null;
    }
  }
  return counts;
}

/**
 * Whether the numbers among `counts` (null: a word that holds none) take more than one value and
 * never go down but for the odd step (MAX_DOWN of them): an index or a sequence number, not a code
 * or a count.
 */
function countsUp(counts: readonly (number | null)[]): boolean {
  let previous: number | null = null;
  let up = 0;
  let down = 0;
  for (const value of counts) {
    if (value === null) continue;
    if (previous !== null && value > previous) up++;
    if (previous !== null && value < previous) down++;
    previous = value;
  }
  return up > 0 && down <= MAX_DOWN * (up + down);
}

/** The value a counted line is odd by, as the line prints it. */
function labelOf(key: string, value: string, line: string): string {
  let label = value;
  if (key.startsWith("b")) {
    // The group as printed in this line.
    const k = Number(key.slice(1));
    label = (line.match(GROUP) ?? [])[k] ?? value;
  } else if (value === "") label = "fewer words";
  return label.length > MAX_LABEL ? label.slice(0, MAX_LABEL) + "…" : label;
}

/**
 * A run of units of one shape (a line with the blank lines after it, or a block of lines whose
 * shapes repeat) folded around its outliers: the first and last units, and every unit holding an
 * outlier among the lines at its place in the other units, stay; each stretch between them of at
 * least MIN_FOLDED lines becomes `fold(count, note)` when that is shorter, `note` counting the odd
 * lines it holds. Null when nothing folds.
 */
export function foldAroundOutliers(
  units: readonly (readonly string[])[],
  fold: (count: number, note: string) => string,
): string[] | null {
  const period = units.reduce((least, unit) => Math.min(least, unit.length), Infinity);
  const keep = new Set<number>([0, units.length - 1]);
  const counted = new Map<number, string[]>();
  const outliers = new Set<number>();
  for (let q = 0; q < period; q++) {
    const { kept, counted: odd } = findOutliers(units.map((unit) => unit[q]));
    for (const u of kept) outliers.add(u);
    for (const [u, label] of odd) counted.set(u, [...counted.get(u) ?? [], label]);
  }
  // A unit of one line: the line before an odd one that says where it is stays too (a block
  // of lines holds its own).
  const where = period === 1
    ? whereOf(units.map((unit) => unit[0]), outliers, fewOf(units.length))
    : new Set<number>();
  for (const u of [...outliers, ...where]) keep.add(u);
  const out: string[] = [];
  let folded = false;
  for (let u = 0; u < units.length;) {
    if (keep.has(u)) {
      appendAll(out, units[u++]);
      continue;
    }
    let end = u;
    while (end < units.length && !keep.has(end)) end++;
    const stretch = units.slice(u, end).flat();
    const count = stretch.filter((line) => !isBlank(line)).length;
    const labels = new Map<string, number>();
    for (let k = u; k < end; k++) {
      const label = counted.get(k)?.[0];
      if (label !== undefined) labels.set(label, (labels.get(label) ?? 0) + 1);
    }
    const line = fold(count, noteOf(labels));
    if (count >= MIN_FOLDED && line.length < stretch.join("\n").length) {
      out.push(line);
      folded = true;
    } else appendAll(out, stretch);
    u = end;
  }
  return folded ? out : null;
}

/** `(12 of them with 500, 2 with [origin/x: gone])`, or nothing: what a fold's count holds. */
export function noteOf(labels: Map<string, number>): string {
  if (labels.size === 0) return "";
  const parts = [...labels].map(([label, n], k) =>
    k === 0 ? `${n} of them with ${label}` : `${n} with ${label}`
  );
  return ` (${parts.join(", ")})`;
}
