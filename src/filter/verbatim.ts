/**
 * Kept lines as printed. Whoever reads a filtered output (an agent, a grader) looks for lines
 * copied verbatim from the raw output, so a line a rule keeps must stay as the command printed
 * it. This module says how an emitted line relates to the lines the rules received (`kindOf`,
 * `isMarker`: what `bench/rewrites.ts` audits) and is the engine's guard (`KeptLines`): after the
 * rules ran, every emitted line that is neither an input line as printed nor an engine marker
 * goes back to the input line it came from — whatever a rule's stages did to it.
 */
import { stripAnsi } from "./sanitize.ts";

/**
 * Lines the engine adds about what it did, not copied from the output: folds (`… 12 lines
 * folded …`, `... 3 more`), the stats line and bracketed summaries (`[zeph] …`), counts of what
 * was left out (`(4 more)`, `(12 unique lines of 40)`), and a group's header (`TS2322 (3):`,
 * `Type 'x' is not assignable (3):`, `src/a.ts:`).
 */
export function isMarker(line: string): boolean {
  const t = line.trim();
  return t === "" || /^(?:…|\.\.\.)/.test(t) || /^\[[a-z][\w -]*\] /.test(t) ||
    /^\(\d+ /.test(t) || /lines? (?:folded|omitted|hidden|removed|elided)/.test(t) ||
    / \(\d+\):$/.test(t) || /^\S+:$/.test(t);
}

/** An output line as compared with the input: ANSI escapes removed, ends trimmed. */
export const normalLine = (line: string): string => stripAnsi(line).trim();

/** What a group adds around a kept line: a count after it (`(x3)`, `×3`, `(3)`, `(3):`). */
const COUNT = /\s*(?:\(x\d+\)|×\d+|\(\d+\):?)$/;
/** A group's count after a line, set apart by a space: what a restore must not lose. */
const GROUP_COUNT = /\s(?:\(x?\d+\):?|×\d+)$/;
/** `source` as printed, with the group count `emitted` carries after it (`(2)`) unless it has it. */
function withCount(emitted: string, source: string): string {
  const count = GROUP_COUNT.exec(emitted)?.[0].trim();
  return count && !source.includes(count) ? `${source} ${count}` : source;
}

/** A long line cut with an ellipsis keeps at least this many characters before it. */
const CUT_PREFIX = 20;

/** The part of a line before an ellipsis that cuts it, when long enough to be an input line's head. */
function cutHead(t: string): string | null {
  const cut = /^(.*?)\s*(?:…|\.\.\.)/.exec(t);
  return cut && cut[1].length >= CUT_PREFIX ? cut[1] : null;
}

/** How a line the engine emits relates to the lines it was given. */
export type Kind = "kept" | "cut" | "rewritten";

/**
 * `kept`: the line keeps an input line as printed — equal to one (indentation aside: the audit
 * does not look at it, the guard puts a lost indentation back), that line
 * with a count after it, a line containing a whole input line (an indented group member, a join
 * of several), or an input line's leading part cut with an ellipsis. `cut`: a part of an input
 * line as printed, the rest dropped (a hint or a timing cut off) — what was kept is verbatim,
 * what was cut is lost. `rewritten`: neither. `inputs` are the normalised input lines, `long`
 * those of at least 8 characters. For audits: it compares with every input line.
 */
export function kindOf(line: string, inputs: Set<string>, long: string[]): Kind {
  const t = normalLine(line);
  const bare = t.replace(COUNT, "");
  if (inputs.has(t) || inputs.has(bare)) return "kept";
  const head = cutHead(t);
  if (head && long.some((l) => l.startsWith(head))) return "kept";
  if (long.some((l) => t.includes(l))) return "kept";
  if (bare.length >= 8 && long.some((l) => l.includes(bare))) return "cut";
  return "rewritten";
}

/** One emitted line the guard put back as printed (`restored` null: already in the output). */
export interface Restore {
  emitted: string;
  restored: string | null;
}

/** A rule's summary template (`ruff: {#} issues`) as the pattern of the lines it produces. */
export function templateMarker(template: string): RegExp {
  const escaped = template.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(/\\\{[^}]*\\\}/g, ".*")}$`);
}

/** The start of a JSON document or of a JSON line: `{"`, `{`, `[`, `[{`, `["`, `[1`. */
export const JSON_START = /^(?:\{\s*(?:"|\}|$)|\[\s*(?:\{|\[|"|-?\d|\]|$))/;

/** A line's leading whitespace, ANSI escapes removed. */
function leadOf(line: string): string {
  const bare = line.includes("\x1b") ? stripAnsi(line) : line;
  return bare.slice(0, bare.length - bare.trimStart().length);
}

/** Words compared, case aside: runs of letters, digits and underscores (`x_spec`, `rb`, `26`). */
const WORD = /[\p{L}\p{N}_]+/gu;
/** Numbers in a line, in the order printed. */
const NUMBER = /\d+/g;

/**
 * Whether `source` prints the numbers of `emitted` in the same order (other numbers between
 * them allowed; a group's count after the emitted line aside): words may move, numbers may
 * not — `1 passed, 3 failed` is no source of `3 passed, 1 failed`.
 */
export function numbersInOrder(emitted: string, source: string): boolean {
  return numbersIn(emittedNumbers(emitted), numberIndex(source));
}

/** The numbers of an emitted line a source must print in order (a group's count after it aside). */
const emittedNumbers = (emitted: string): string[] =>
  emitted.replace(GROUP_COUNT, "").match(NUMBER) ?? [];

/** Each number of a line with the places (in order) it is printed at among the line's numbers. */
function numberIndex(line: string): Map<string, number[]> {
  const index = new Map<string, number[]>();
  let at = 0;
  for (const n of line.match(NUMBER) ?? []) {
    const places = index.get(n);
    if (places) places.push(at++);
    else index.set(n, [at++]);
  }
  return index;
}

/**
 * Whether `wanted` comes in order among a line's numbers (its `numberIndex`): each the first
 * place after the previous one's, found by bisection — a line of many numbers that is the
 * candidate source of many emitted lines is read once, not once per emitted line.
 */
function numbersIn(wanted: string[], index: Map<string, number[]>): boolean {
  let after = -1;
  for (const n of wanted) {
    const places = index.get(n);
    if (!places || places.at(-1)! <= after) return false;
    let lo = 0;
    let hi = places.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (places[mid] > after) hi = mid;
      else lo = mid + 1;
    }
    after = places[lo];
  }
  return true;
}

/** Emitted lines the guard looks for a source of; past it, lines stay as emitted. */
export const MAX_GUARDED = 20_000;
/** Word comparisons the search may make in all; past it, lines stay as emitted. */
const MAX_WORK = 4_000_000;
/** Candidate source lines remembered per emitted line (the first ones in input order). */
const CANDIDATES = 64;
/** Recent input lines an emitted line is compared with as it streams by. */
const RECENT = 8;

/** A 32-bit FNV-1a hash of `text.slice(start, end)`, read in place. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The bits of a sketch (`sketchOf`) the guard's first pass reads, at most. */
const MAX_SKETCH_BITS = 16;

/**
 * A 32-bit mix of the length, last and middle characters of `text.slice(start, end)`: texts whose
 * sketches differ differ (read in place, no slice), so the first pass hashes a line only when a
 * text looked for shares its sketch's leading bits.
 */
function sketchOf(text: string, start: number, end: number): number {
  const length = end - start;
  if (length === 0) return 0;
  const last = text.charCodeAt(end - 1);
  const middle = text.charCodeAt(start + (length >> 1));
  return (Math.imul(length, 0x9e3779b1) ^ Math.imul(last, 0x85ebca6b) ^
    Math.imul(middle, 0xc2b2ae35)) >>> 0;
}

/** Line positions in order, in a typed array grown by doubling: no object per position. */
class Positions {
  #items = new Int32Array(64);
  length = 0;

  push(position: number): void {
    if (this.length === this.#items.length) {
      const grown = new Int32Array(this.#items.length * 2);
      grown.set(this.#items);
      this.#items = grown;
    }
    this.#items[this.length++] = position;
  }

  at(i: number): number {
    return this.#items[i];
  }
}

interface Suspect {
  index: number;
  line: string;
  text: string;
  /** The line's leading whitespace (ANSI escapes removed). */
  indent: string;
  /** An input line of the same text printed with an indentation this line lost. */
  printed?: string;
  words?: string[];
  /** The source lines found, in input order (at most `CANDIDATES`). */
  found: Found[];
}

/** An input line containing every word of an emitted line: normalised, as printed, its index. */
interface Found {
  text: string;
  line: string;
  at: number;
  /** How many distinct words it has. */
  words: number;
  /** Its numbers' places (`numberIndex`), made when first needed. */
  numbers?: Map<string, number[]>;
}

export interface KeptLinesOptions {
  /** Patterns of lines the matched rules' own templates produce (never restored). */
  markers?: RegExp[];
  /** Emitted lines searched for a source at most. @default MAX_GUARDED */
  cap?: number;
}

/**
 * The guard over one chain's output. Streaming: `input` receives each line the rules receive,
 * `emitted` each line they emit (in order), and `restore` runs once at the end, given the
 * output's text and a way to walk the input again. An emitted line equal to a recent input line
 * costs nothing; of the others only the place in the output is held, and a first pass over the
 * input drops those equal to an input line. Those left are checked against the input in a second
 * pass (an input line as printed but for its indentation or the whitespace it ends in, with a
 * count after it, or cut with an ellipsis), and those left then are looked up by their rarest word in a third pass: the input line containing every word of the emitted line (in any order,
 * its numbers in the order printed) replaces it — preferring one not already in the output, then one that holds the emitted text as it is, then one with the fewest other words,
 * then the first after the source of the line restored before it, then the shortest; each input
 * line at most once. A line with no such source (a join of several lines, a summary) stays as emitted.
 */
export class KeptLines {
  #recent: string[] = [];
  #inputs = 0;
  #count = 0;
  /** Where the emitted lines that may not be input lines as printed are in the output. */
  #suspects = new Positions();
  #markers: RegExp[];
  #cap: number;

  constructor(options: KeptLinesOptions = {}) {
    this.#markers = options.markers ?? [];
    this.#cap = options.cap ?? MAX_GUARDED;
  }

  readonly input = (line: string): void => {
    this.#recent[this.#inputs++ % RECENT] = line;
  };

  readonly emitted = (line: string): void => {
    const index = this.#count++;
    // A line with newlines in it is several lines of the text, left as emitted.
    if (line.includes("\n")) {
      this.#count += line.split("\n").length - 1;
      return;
    }
    if (this.#recent.includes(line) || isMarker(line)) return;
    const text = normalLine(line);
    if (this.#markers.some((m) => m.test(text))) return;
    this.#suspects.push(index);
  };

  /**
   * The output with emitted lines restored (`text` split on newlines is the emitted lines in
   * order, trailing blank ones left out), and what was restored. `walk` calls its callback with
   * each input line in order and stops when the callback returns `true` (a pass with nothing left
   * to look for).
   */
  restore(
    text: string,
    walk: (fn: (line: string) => boolean | void) => void,
  ): { text: string; restored: Restore[] } {
    const unkept = this.#unkept(this.#differing(text, walk), walk);
    if (!unkept.length) return { text, restored: [] };
    const replace = new Map<number, string | null>();
    const restored: Restore[] = [];
    // A line that only lost its indentation gets it back from an input line of its text.
    for (const s of unkept) {
      if (s.printed === undefined) continue;
      const to = withCount(s.text, s.printed);
      replace.set(s.index, to);
      restored.push({ emitted: s.line, restored: to });
    }
    const open = unkept.filter((s) => s.printed === undefined);
    this.#search(open, walk);
    const inOutput = this.#inOutput(text, open);
    const used = new Set<number>();
    // Outputs keep their input's order: the next source after the previous one restored is the
    // likeliest (a tree's `mod.ts` under the directory just shown, not under another).
    let last = -1;
    for (const s of open) {
      const wanted = emittedNumbers(s.text);
      if (wanted.length) {
        s.found = s.found.filter((f) => numbersIn(wanted, f.numbers ??= numberIndex(f.text)));
      }
      const free = s.found.length === 1
        ? (used.has(s.found[0].at) ? [] : s.found)
        : s.found.filter((f) => !used.has(f.at));
      // A text is shown enough once the output holds it as many times as the input printed it:
      // a frame under two errors, a file in two directories are two facts, not one said twice.
      const printed = new Map<string, number>();
      for (const f of s.found) printed.set(f.text, (printed.get(f.text) ?? 0) + 1);
      const shown = (f: Found) => (inOutput.get(f.text) ?? 0) >= printed.get(f.text)!;
      const fresh = free.filter((f) => !shown(f));
      const some = fresh.length ? fresh : free;
      // A line that prints the emitted text as it is (a rule cut off its end: a hint, a timing)
      // is its source before one that only holds its words: cargo's `warning: \`rs\` (lib)
      // generated 1 warning` comes from its `(lib) … (run \`cargo fix\` …)` line, not from the
      // later `(lib test) generated 1 warning (1 duplicate)`, which would move it out of order.
      const whole = some.filter((f) => f.text.includes(s.text));
      const near = whole.length ? whole : some;
      // The fewest words beyond the emitted line's: `agent` comes from `├── agent`, not `agent.ts`.
      const fewest = near.reduce((least, f) => Math.min(least, f.words), Infinity);
      const pool = near.filter((f) => f.words === fewest);
      const source = pool.find((f) => f.at > last) ??
        pool.reduce<Found | undefined>(
          (a, b) => a && a.text.length <= b.text.length ? a : b,
          undefined,
        );
      if (!source) continue;
      used.add(source.at);
      last = source.at;
      // A group line (`TS2554: Expected 2 arguments … (2)`) keeps its count after the line as
      // printed, even when the line is shown already: the count is what it adds.
      const counted = withCount(s.text, source.line);
      const twice = counted === source.line && shown(source);
      const to = twice ? null : counted;
      replace.set(s.index, to);
      inOutput.set(source.text, (inOutput.get(source.text) ?? 0) + 1);
      restored.push({ emitted: s.line, restored: to });
    }
    if (!replace.size) return { text, restored };
    const lines: string[] = [];
    let index = 0;
    for (const line of text.split("\n")) {
      const to = replace.has(index) ? replace.get(index)! : line;
      if (to !== null) lines.push(to);
      index++;
    }
    return { text: lines.join("\n"), restored };
  }

  /**
   * The suspects equal to no input line (one pass over the input), read from the output's text
   * at their positions: a line a holding stage passes on as printed is kept whatever its
   * indentation or its place, so only the lines that differ get a record. A suspect with a
   * group's count after it (`… (x3)`, no escapes in it) is looked up without the count as well:
   * an input line that prints the rest as it is keeps it, as the next pass would find. The lines
   * are compared through a table of their hashes and places in the text, not a set of line
   * strings.
   */
  #differing(text: string, walk: (fn: (line: string) => boolean | void) => void): Suspect[] {
    const positions = this.#suspects;
    const n = positions.length;
    if (!n) return [];
    // The texts looked up: key i < k is suspect i's line; the keys after them are the lines of
    // suspects with a count, without it (`owner`: the suspect each key is of).
    const starts = new Int32Array(2 * n);
    const ends = new Int32Array(2 * n);
    const owner = new Int32Array(2 * n);
    let k = 0;
    for (let start = 0, index = 0; start <= text.length && k < n; index++) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      if (index === positions.at(k)) {
        starts[k] = start;
        ends[k] = end;
        owner[k] = k++;
      }
      start = end + 1;
    }
    const suspects = k;
    for (let i = 0; i < suspects; i++) {
      // A count ends in `)`, `:` or a digit (`×3`): other lines are not sliced.
      const last = text.charCodeAt(ends[i] - 1);
      if (last !== 41 && last !== 58 && !(last >= 48 && last <= 57)) continue;
      const line = text.slice(starts[i], ends[i]);
      const count = line.includes("\x1b") ? null : COUNT.exec(line);
      if (!count) continue;
      starts[k] = starts[i];
      ends[k] = starts[i] + count.index;
      owner[k++] = i;
    }
    // The distinct texts in an open-addressed table of their first key: `first[i]` is the key of
    // the same text entered, `found` says which of those the input prints.
    const size = 1 << Math.ceil(Math.log2(2 * k + 2));
    const table = new Int32Array(size).fill(-1);
    const first = new Int32Array(k);
    // The other keys of a text, linked from its first key (-1: no more).
    const next = new Int32Array(k).fill(-1);
    const hashes = new Uint32Array(k);
    const same = (a: number, hash: number, line: string) =>
      hashes[a] === hash && ends[a] - starts[a] === line.length &&
      text.startsWith(line, starts[a]);
    for (let i = 0; i < k; i++) {
      const hash = hashes[i] = hashOf(text, starts[i], ends[i]);
      let slot = hash & (size - 1);
      first[i] = i;
      for (; table[slot] >= 0; slot = (slot + 1) & (size - 1)) {
        const other = table[slot];
        // Compared only when the hashes agree: the slice is made for a likely equal line.
        if (hashes[other] === hash && same(other, hash, text.slice(starts[i], ends[i]))) {
          first[i] = other;
          next[i] = next[other];
          next[other] = i;
          break;
        }
      }
      if (first[i] === i) table[slot] = i;
    }
    // The sketches of the distinct texts: an input line of another length, last or middle
    // character is hashed for nothing (log lines share their start, not their middle and end).
    let longest = 0;
    for (let i = 0; i < k; i++) longest = Math.max(longest, ends[i] - starts[i]);
    // A table of about 64 entries a text (at most 1 << MAX_SKETCH_BITS): a few of them set.
    const bits = Math.min(MAX_SKETCH_BITS, Math.max(8, Math.ceil(Math.log2(64 * k))));
    const shift = 32 - bits;
    const sketches = new Uint8Array(1 << bits);
    for (let i = 0; i < k; i++) {
      if (first[i] === i) sketches[sketchOf(text, starts[i], ends[i]) >>> shift] = 1;
    }
    // Suspects not yet kept: the walk ends once every one is (by its line or its line's rest).
    const kept = new Uint8Array(suspects);
    let left = suspects;
    const found = new Uint8Array(k);
    walk((line) => {
      if (line.length > longest || !sketches[sketchOf(line, 0, line.length) >>> shift]) return;
      const hash = hashOf(line, 0, line.length);
      for (let slot = hash & (size - 1); table[slot] >= 0;) {
        const entry = table[slot];
        if (same(entry, hash, line)) {
          if (found[entry]) return;
          found[entry] = 1;
          // Every key of this text keeps its suspect.
          for (let i = entry; i >= 0; i = next[i]) {
            if (kept[owner[i]]) continue;
            kept[owner[i]] = 1;
            left--;
          }
          return left === 0;
        }
        slot = (slot + 1) & (size - 1);
      }
    });
    const differing: Suspect[] = [];
    for (let i = 0; i < suspects; i++) {
      if (kept[i]) continue;
      const line = text.slice(starts[i], ends[i]);
      differing.push({
        index: positions.at(i),
        line,
        text: normalLine(line),
        indent: leadOf(line),
        found: [],
      });
    }
    return differing;
  }

  /** The suspects no input line keeps as printed (one pass over the input). */
  #unkept(suspects: Suspect[], walk: (fn: (line: string) => boolean | void) => void): Suspect[] {
    if (!suspects.length) return [];
    // Suspects by their text, then by their indentation: an input line keeps those of its text
    // that have at least its indentation (a group's members may sit deeper); one that lost it
    // is left open, and put back as printed.
    type Group = { list: Suspect[]; printed?: string };
    type ByIndent = Map<string, Group>;
    const exact = new Map<string, ByIndent>();
    // Cut lines by their head, and the heads' lengths by their first characters: an input line
    // is compared once per length, not once per cut line (log lines share their start).
    const heads = new Map<string, ByIndent>();
    const lengths = new Map<string, Set<number>>();
    const kept = new Set<Suspect>();
    const add = (map: Map<string, ByIndent>, key: string, s: Suspect) => {
      let byIndent = map.get(key);
      if (!byIndent) map.set(key, byIndent = new Map());
      const group = byIndent.get(s.indent);
      if (group) group.list.push(s);
      else byIndent.set(s.indent, { list: [s] });
    };
    for (const s of suspects) {
      add(exact, s.text, s);
      const bare = s.text.replace(COUNT, "");
      if (bare !== s.text) add(exact, bare, s);
      const head = cutHead(s.text);
      if (head) {
        add(heads, head, s);
        const key = head.slice(0, CUT_PREFIX);
        const sizes = lengths.get(key);
        if (sizes) sizes.add(head.length);
        else lengths.set(key, new Set([head.length]));
      }
    }
    let work = 0;
    // Lines found kept leave the maps: a line the input repeats does not visit them again.
    const keep = (map: Map<string, ByIndent>, key: string, lead: string, line: string) => {
      const byIndent = map.get(key);
      if (!byIndent) return;
      // Many indentations of one text are compared within the search's budget.
      if (byIndent.size > 1 && (work += byIndent.size) > MAX_WORK) return;
      for (const [indent, group] of byIndent) {
        if (!indent.endsWith(lead)) {
          if (map === exact) group.printed ??= line;
          continue;
        }
        // A line that lost only the whitespace the input line ends in gets it back: the line as
        // printed is byte for byte what a reader copies (a recap row's trailing spaces too).
        const trailing = map === exact && line.length !== line.trimEnd().length;
        for (const s of group.list) {
          if (trailing && s.line === line.trimEnd()) s.printed ??= line;
          else kept.add(s);
        }
        byIndent.delete(indent);
      }
      if (!byIndent.size) map.delete(key);
    };
    // The walk ends once every suspect is kept: a later line could only keep them again or give
    // an indentation to suspects already kept.
    walk((line) => {
      const t = line.includes("\x1b") ? normalLine(line) : line.trim();
      const lead = t === "" || line.length === t.length ? "" : leadOf(line);
      keep(exact, t, lead, line);
      if (!heads.size || t.length < CUT_PREFIX || work > MAX_WORK) {
        return kept.size === suspects.length;
      }
      for (const size of lengths.get(t.slice(0, CUT_PREFIX)) ?? []) {
        work += size;
        if (size <= t.length) keep(heads, t.slice(0, size), lead, line);
      }
      return kept.size === suspects.length;
    });
    for (const byIndent of exact.values()) {
      for (const { list, printed } of byIndent.values()) {
        if (printed !== undefined) {
          for (const s of list) if (!kept.has(s)) s.printed ??= printed;
        }
      }
    }
    return suspects.filter((s) => !kept.has(s));
  }

  /** Finds each open line's candidate sources (a second pass over the input, bounded). */
  #search(open: Suspect[], walk: (fn: (line: string) => boolean | void) => void): void {
    // Each line is looked up by its word the fewest other open lines share (the longest of
    // those): lines differing only in a number do not all wait on their common word.
    const searched = open.slice(0, this.#cap);
    const shared = new Map<string, number>();
    for (const s of searched) {
      s.words = [...new Set(s.text.toLowerCase().match(WORD) ?? [])];
      for (const w of s.words) shared.set(w, (shared.get(w) ?? 0) + 1);
    }
    const byKey = new Map<string, Suspect[]>();
    for (const s of searched) {
      if (!s.words!.length) continue;
      const key = s.words!.reduce((a, b) => {
        const d = shared.get(b)! - shared.get(a)!;
        return d < 0 || (d === 0 && b.length > a.length) ? b : a;
      });
      const list = byKey.get(key);
      if (list) list.push(s);
      else byKey.set(key, [s]);
    }
    if (!byKey.size) return;
    // A few keys: a line is split into words only when it contains one of them.
    // The key as each open line spells it, in lower case, capitals and capitalised: a line's
    // case is looked at only when it may hold one.
    const spelled = (k: string, s: Suspect) =>
      s.text.match(WORD)?.find((w) => w.toLowerCase() === k) ?? k;
    const keys = byKey.size <= 16
      ? [
        ...new Set([...byKey].flatMap(([k, list]) => [
          k,
          k.toUpperCase(),
          k[0].toUpperCase() + k.slice(1),
          ...list.map((s) => spelled(k, s)),
        ])),
      ]
      : null;
    let work = 0;
    let at = -1;
    walk((line) => {
      at++;
      if (work > MAX_WORK) return;
      if (keys && !keys.some((k) => line.includes(k))) return;
      const lower = line.toLowerCase();
      const t = line.includes("\x1b") ? normalLine(line) : line.trim();
      // A JSON line is no line as printed of what a renderer shows from it.
      if (JSON_START.test(t)) return;
      const words = (lower.includes("\x1b") ? t.toLowerCase() : lower).match(WORD);
      if (!words) return;
      work += words.length;
      // A short line's words are searched as they are; a long one's through a set.
      let have: { has(w: string): boolean } | null = null;
      // Made once per line: every open line it holds shares it (a long line is not re-counted).
      let made: Found | null = null;
      const found = () => made ??= { text: t, line, at, words: new Set(words).size };
      // A word the line repeats (`a a a …`) visits the lines waiting on it once.
      let visited: Set<string> | null = null;
      for (const word of words) {
        const waiting = byKey.get(word);
        if (!waiting || visited?.has(word)) continue;
        (visited ??= new Set()).add(word);
        have ??= words.length <= 16 ? { has: (w) => words.includes(w) } : new Set(words);
        for (const s of waiting) {
          work += s.words!.length;
          if (!s.words!.length || s.found.length >= CANDIDATES || s.found.at(-1)?.at === at) {
            continue;
          }
          if (s.words!.every((w) => have!.has(w))) s.found.push(found());
        }
      }
    });
  }

  /**
   * How many times the output already holds each candidate source's text (one pass over it),
   * the open lines themselves aside: a line that only lost its indentation is not its own copy.
   */
  #inOutput(text: string, open: Suspect[]): Map<string, number> {
    const wanted = new Set<string>();
    for (const s of open) for (const f of s.found) wanted.add(f.text);
    const present = new Map<string, number>();
    if (!wanted.size) return present;
    const self = new Set(open.map((s) => s.index));
    let index = 0;
    for (let start = 0; start < text.length; index++) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      const t = normalLine(text.slice(start, end));
      if (wanted.has(t) && !self.has(index)) present.set(t, (present.get(t) ?? 0) + 1);
      start = end + 1;
    }
    return present;
  }
}

/** The guard over lines held in arrays (`FilterEngine.trace`): the same result as streaming. */
export function keepAsPrinted(
  input: string[],
  output: string[],
  options: KeptLinesOptions = {},
): { lines: string[]; restored: Restore[] } {
  const guard = new KeptLines(options);
  for (const line of output) guard.emitted(line);
  // Blank lines at the end are not part of a text, as the streaming output drops them.
  let end = output.length;
  while (end > 0 && output[end - 1].trim() === "") end--;
  const { text, restored } = guard.restore(
    output.slice(0, end).join("\n"),
    (fn) => {
      for (const line of input) if (fn(line) === true) return;
    },
  );
  return { lines: end ? text.split("\n") : [], restored };
}
