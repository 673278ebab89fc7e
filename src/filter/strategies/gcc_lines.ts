/**
 * The make-gcc rule's built-in patterns (filters/make.toml), read from a line's UTF-8 by hand
 * with the regexes' result: group_by_rule runs this instead of its noise test and line pattern
 * when a rule's patterns are exactly these and its lines come with their bytes. A build's
 * output is mostly these lines, and a regex call on each (two for a warning, plus the literal
 * pre-check) was most of make's filtering time.
 *
 * Each regex is anchored and has one way to match, which the code below follows:
 * - `^\S+: In …` and `^\S+: note: …`: `\S+` then `: ` can only end at the line's first
 *   whitespace, which must be the space after a colon.
 * - The warning line: its location ends the same way; it is `P:D:D` where each D is the whole
 *   digit run after a colon (a colon is not a digit) and P is what comes before. The rule is
 *   the maximal run of `[\w=-]` before the final `]` (a `[` is not in that class), led by
 *   `-W` and preceded by ` [`; the message is what lies between.
 * - `^\s{1,40}\d{0,7} \| `: with digits, the blanks are the whole leading run; without, the
 *   run's last blank is the space before the `|`.
 * RE2's `\s` is tab, newline, form feed, carriage return and space (not \v); `\S` takes every
 * other character, so every byte of a multi-byte character. Only the location's `{1,400}`
 * counts characters: a location with a non-ASCII byte is left to the regex (UNSURE).
 */

/** filters/make.toml's make-gcc `noise_patterns`, as written there. */
export const GCC_NOISE: readonly string[] = [
  "^\\S+: In (function|member function|constructor) ",
  "^\\S+: note: each undeclared identifier is reported only once",
  "^\\s{1,40}\\d{0,7} \\| ",
  "^(cc|gcc|g\\+\\+|c\\+\\+|clang|clang\\+\\+|ar|ranlib|ld)\\s",
];

/** filters/make.toml's make-gcc `line_pattern`. */
export const GCC_LINE =
  "^(?P<loc>\\S{1,400}?:\\d{1,7}:\\d{1,7}): (?P<sev>warning): (?P<msg>.+?) \\[(?P<rule>-W[\\w=-]{1,80})\\]$";

/** A line no pattern matches. */
export const NEITHER = 0;
/** A line one of the noise patterns matches. */
export const NOISE = 1;
/** A line the line pattern matches (and no noise pattern): see `GccWarning`. */
export const WARNING = 2;
/** Not known from the bytes: ask the regexes. */
export const UNSURE = 3;

/** Where a WARNING line's groups are, in the line's characters (`sev` is `warning`). */
export interface GccWarning {
  /** `loc` is `line.slice(0, locEnd)`. */
  locEnd: number;
  /** `msg` is `line.slice(msgStart, line.length - msgTail)`. */
  msgStart: number;
  msgTail: number;
  /** `rule` is `line.slice(line.length - 1 - ruleLength, line.length - 1)`. */
  ruleLength: number;
}

const enc = new TextEncoder();
const IN_FUNCTIONS = ["In function ", "In member function ", "In constructor "].map((s) =>
  enc.encode(s)
);
const NOTE = enc.encode("note: each undeclared identifier is reported only once");
const WARNING_WORD = enc.encode("warning: ");
const BAR = enc.encode(" | ");
/** The tool names of the fourth noise pattern, by their first byte. */
const TOOLS: Uint8Array[][] = Array.from({ length: 128 }, () => []);
for (const tool of ["cc", "gcc", "g++", "c++", "clang", "clang++", "ar", "ranlib", "ld"]) {
  TOOLS[tool.charCodeAt(0)].push(enc.encode(tool));
}

/** RE2's `\s` (the line holds no newline, but the byte after it is one). */
function blank(b: number): boolean {
  return b === 32 || b === 9 || b === 12 || b === 13 || b === 10;
}

function digit(b: number): boolean {
  return b >= 48 && b <= 57;
}

/** `[\w=-]` */
function ruleChar(b: number): boolean {
  return (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || digit(b) || b === 95 || b === 61 ||
    b === 45;
}

/** `lit` at `bytes[at..]`, ending by `to`. */
function at(bytes: Uint8Array, i: number, to: number, lit: Uint8Array): boolean {
  if (i + lit.length > to) return false;
  for (let k = 0; k < lit.length; k++) if (bytes[i + k] !== lit[k]) return false;
  return true;
}

/**
 * Classifies the line `bytes[from..to)` (its UTF-8, as the engine hands it on) against
 * GCC_NOISE and GCC_LINE; for a WARNING, `out` gets where its groups are.
 */
export function classifyGccLine(
  bytes: Uint8Array,
  from: number,
  to: number,
  out: GccWarning,
): number {
  if (from >= to) return NEITHER;
  const b0 = bytes[from];
  if (blank(b0)) return indentedNoise(bytes, from, to) ? NOISE : NEITHER;
  if (b0 < 128) {
    for (const tool of TOOLS[b0]) {
      const end = from + tool.length;
      if (end < to && blank(bytes[end]) && at(bytes, from, to, tool)) return NOISE;
    }
  }
  // The first blank: `\S+: ` and the location both end at it.
  let s = from + 1;
  while (s < to && !blank(bytes[s])) s++;
  if (s >= to || bytes[s] !== 32 || bytes[s - 1] !== 58 || s - 1 === from) return NEITHER;
  const word = bytes[s + 1];
  if (word === 73) {
    for (const words of IN_FUNCTIONS) if (at(bytes, s + 1, to, words)) return NOISE;
    return NEITHER;
  }
  if (word === 110) return at(bytes, s + 1, to, NOTE) ? NOISE : NEITHER;
  if (word !== 119 || !at(bytes, s + 1, to, WARNING_WORD)) return NEITHER;
  // The location `P:D:D` in [from, s - 1).
  let i = s - 2;
  for (let colons = 0; colons < 2; colons++) {
    const end = i;
    while (i >= from && digit(bytes[i])) i--;
    if (end - i < 1 || end - i > 7 || i < from || bytes[i] !== 58) return NEITHER;
    i--;
  }
  // P is [from, i]: 1 to 400 characters, counted as bytes while they are ASCII.
  if (i < from) return NEITHER;
  for (let k = from; k <= i; k++) if (bytes[k] >= 0x80) return UNSURE;
  if (i - from + 1 > 400) return NEITHER;
  // ` [-W…]` at the end, after a message of at least one character.
  if (bytes[to - 1] !== 93) return NEITHER;
  let q = to - 2;
  while (q > s && ruleChar(bytes[q])) q--;
  const rule = to - 2 - q;
  if (bytes[q] !== 91 || bytes[q - 1] !== 32 || rule < 3 || rule > 82) return NEITHER;
  if (bytes[q + 1] !== 45 || bytes[q + 2] !== 87) return NEITHER;
  const msgStart = s + 1 + WARNING_WORD.length;
  if (q - 1 <= msgStart) return NEITHER;
  out.locEnd = s - 1 - from;
  out.msgStart = msgStart - from;
  out.msgTail = to - (q - 1);
  out.ruleLength = rule;
  return WARNING;
}

/** `^\s{1,40}\d{0,7} \| ` on a line led by a blank. */
function indentedNoise(bytes: Uint8Array, from: number, to: number): boolean {
  let r = from;
  while (r < to && blank(bytes[r])) r++;
  const run = r - from;
  let d = r;
  while (d < to && digit(bytes[d])) d++;
  const digits = d - r;
  if (digits >= 1) return run <= 40 && digits <= 7 && at(bytes, d, to, BAR);
  // No digit: the run's last blank is the space before the `|`.
  return run >= 2 && run <= 41 && at(bytes, r - 1, to, BAR);
}

/**
 * The last warning's rule and message, as bytes: the next warning has the same rule and the
 * same elideNames shape when `same` says so (it may say no when they are the same, never yes
 * when they are not). A build prints its warnings of one kind in runs, so group_by_rule can
 * count such a warning without building its strings.
 *
 * Only a message elideNames reads simply is kept: no backtick nor `'` (its first two passes
 * then leave it as it is), nothing `trim()` would remove at either end. Its third pass elides
 * each `‘…’` span (a `‘`, then the first `’` after it); the message is kept with those spans.
 * Another message has the same shape when it has the same text between and around the same
 * number of spans, and no backtick nor `'` in them either.
 */
export class LastWarning {
  #rule = new Uint8Array(96);
  #ruleLength = -1;
  #message = new Uint8Array(256);
  #messageLength = -1;
  /** The spans in #message: for each, where its `‘` starts and where its `’` ends. */
  #spans = new Int32Array(16);
  #spanCount = 0;

  /** Remembers a WARNING's rule and message (a message not kept: nothing is `same`). */
  save(bytes: Uint8Array, from: number, to: number, w: GccWarning): void {
    const start = from + w.msgStart;
    const end = to - w.msgTail;
    this.#messageLength = -1;
    if (!plainMessage(bytes, start, end)) return;
    const length = end - start;
    if (this.#message.length < length) this.#message = new Uint8Array(2 * length);
    const message = this.#message;
    message.set(bytes.subarray(start, end));
    let count = 0;
    for (let at = quote(message, 0, length, 0x98); at >= 0;) {
      const close = quote(message, at + 3, length, 0x99);
      if (close < 0) break;
      if (2 * count + 2 > this.#spans.length) {
        const spans = new Int32Array(2 * this.#spans.length);
        spans.set(this.#spans);
        this.#spans = spans;
      }
      this.#spans[2 * count] = at;
      this.#spans[2 * count + 1] = close + 3;
      count++;
      at = quote(message, close + 3, length, 0x98);
    }
    this.#spanCount = count;
    this.#messageLength = length;
    this.#rule.set(bytes.subarray(to - 1 - w.ruleLength, to - 1));
    this.#ruleLength = w.ruleLength;
  }

  /** Whether a WARNING has the saved one's rule and its message the saved one's shape. */
  same(bytes: Uint8Array, from: number, to: number, w: GccWarning): boolean {
    if (this.#messageLength < 0 || w.ruleLength !== this.#ruleLength) return false;
    const rule = this.#rule;
    const r = to - 1 - w.ruleLength;
    for (let k = 0; k < w.ruleLength; k++) if (bytes[r + k] !== rule[k]) return false;
    const saved = this.#message;
    const spans = this.#spans;
    const end = to - w.msgTail;
    let i = from + w.msgStart;
    let j = 0;
    for (let s = 0; s < this.#spanCount; s++) {
      // The text before the span: the saved one's (which holds no `‘`, backtick nor `'`).
      const open = spans[2 * s];
      for (; j < open; i++, j++) if (bytes[i] !== saved[j]) return false;
      if (bytes[i] !== 0xe2 || bytes[i + 1] !== 0x80 || bytes[i + 2] !== 0x98) return false;
      // Its inside, to the first `’`: any text but a backtick or `'`.
      for (i += 3;; i++) {
        if (i + 3 > end) return false;
        const b = bytes[i];
        if (b === 96 || b === 39) return false;
        if (b === 0xe2 && bytes[i + 1] === 0x80 && bytes[i + 2] === 0x99) break;
      }
      i += 3;
      j = spans[2 * s + 1];
    }
    // The rest: the saved one's (it holds no span, nor a backtick or `'`).
    if (end - i !== this.#messageLength - j) return false;
    for (; i < end; i++, j++) if (bytes[i] !== saved[j]) return false;
    return true;
  }
}

/**
 * The message starts and ends with a visible ASCII character or a curly quote (so `trim()`
 * keeps it whole) and holds no backtick nor `'` (elideNames' first two passes leave it as it
 * is).
 */
function plainMessage(bytes: Uint8Array, start: number, end: number): boolean {
  const first = bytes[start];
  const last = bytes[end - 1];
  if ((first < 33 || first > 126) && quote(bytes, start, start + 3, 0x98) < 0) return false;
  if ((last < 33 || last > 126) && (end - start < 3 || quote(bytes, end - 3, end, 0x99) < 0)) {
    return false;
  }
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b === 96 || b === 39) return false;
  }
  return true;
}

/** `‘` and `’` in UTF-8: E2 80 98 and E2 80 99. The first of `last`'s at or after `i`. */
function quote(bytes: Uint8Array, i: number, end: number, last: number): number {
  for (; i + 2 < end; i++) {
    if (bytes[i] === 0xe2 && bytes[i + 1] === 0x80 && bytes[i + 2] === last) return i;
  }
  return -1;
}
