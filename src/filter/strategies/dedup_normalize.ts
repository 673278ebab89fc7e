/**
 * dedup's default normalisers (`DEFAULT_NORMALIZERS` in dedup.ts) as one hand-written scanner.
 *
 * The regex path runs the eleven defaults as one V8 alternation at every position of every line
 * (~480 ms per 25 MB of docker logs, the bulk of the dedup strategy's time). This scanner gives
 * the same result as that alternation — leftmost match, alternatives tried in order at each
 * position, each with the match V8's backtracking would pick — with one class lookup per
 * character. User-configured `normalize_patterns` keep the regex path. Agreement with the regex
 * path is tested on the corpus, edge cases and generated lines (tests/filter/dedup_normalize_test.ts).
 *
 * The alternatives, in order (`\b` and `\d` are ASCII, the patterns have no flags):
 *   1 `\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}[.,]?\d{0,9}(Z|[+-]\d{2}:?\d{2})?` → `<TS>`
 *   2 `\b(Jan|…|Dec) [ \d]\d \d{2}:\d{2}:\d{2}` → `<TS>`
 *   3 `\b\d{2}:\d{2}:\d{2}([.,]\d{1,9})?\b` → `<TIME>`
 *   4 `\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-…-[0-9a-fA-F]{12}\b` → `<UUID>`
 *   5 `\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(:\d{1,5})?\b` → `<IP>`
 *   6 `\bport[=: ]{1,3}\d{1,10}` → `port=<N>`
 *   7 `\b(pid|PID|tid)[=: ]{1,3}\d{1,10}` → `pid=<N>`
 *   8 `\[\d{1,10}\]` → `[<N>]`
 *   9 `\b0x[0-9a-fA-F]{4,16}\b` → `<HEX>`
 *  10 `[0-9a-f]{12,64}\b` → `<ID>`
 *  11 `\b\d{1,9}(\.\d{1,9})?(ms|µs|us|ns|s)\b` → `<DUR>`
 */

const WORD = 1;
const DIGIT = 2;
/** `[0-9a-f]` */
const LOWER_HEX = 4;
/** `[0-9a-fA-F]` */
const HEX = 8;
/** The first letter of a month name (alternative 2). */
const MONTH = 16;
/** `p`, `P`, `t` (alternatives 6 and 7). */
const PID = 32;
/** `[=: ]` */
const SEP = 64;

/** Per UTF-16 unit (all 65536, so a lookup needs no range check; only ASCII has classes). */
const CLASS = new Uint8Array(65536);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let k = 0;
  if (/\w/.test(ch)) k |= WORD;
  if (/\d/.test(ch)) k |= DIGIT;
  if (/[0-9a-f]/.test(ch)) k |= LOWER_HEX;
  if (/[0-9a-fA-F]/.test(ch)) k |= HEX;
  if ("JFMASOND".includes(ch)) k |= MONTH;
  if ("pPt".includes(ch)) k |= PID;
  if ("=: ".includes(ch)) k |= SEP;
  CLASS[c] = k;
}
/** Classes that can start an alternative at a word start. */
const START_AT_BOUNDARY = DIGIT | HEX | MONTH | PID;

const MONTHS = new Set([
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
]);

// The class of s[i] is `CLASS[s.charCodeAt(i) | 0]`: 0 outside the string (`NaN | 0` is 0,
// and NUL has no class). Written out at each use: these run for most characters of a log.
const isWord = (s: string, i: number) => (CLASS[s.charCodeAt(i) | 0] & WORD) !== 0;
const isDigit = (s: string, i: number) => (CLASS[s.charCodeAt(i) | 0] & DIGIT) !== 0;
const isHex = (s: string, i: number) => (CLASS[s.charCodeAt(i) | 0] & HEX) !== 0;

/** Length of the run of `kind` characters at `i`, counted up to `cap`. */
function run(s: string, i: number, kind: number, cap: number): number {
  let k = 0;
  while (k < cap && (CLASS[s.charCodeAt(i + k) | 0] & kind) !== 0) k++;
  return k;
}

/** `dd:dd:dd` at i. */
function clock(s: string, i: number): boolean {
  return isDigit(s, i) && isDigit(s, i + 1) && s.charCodeAt(i + 2) === 58 &&
    isDigit(s, i + 3) && isDigit(s, i + 4) && s.charCodeAt(i + 5) === 58 &&
    isDigit(s, i + 6) && isDigit(s, i + 7);
}

// Each matcher returns the end of the match starting at i, or -1. `bounded` = `\b` holds at i
// (i.e. the character before i is not a word character; every caller's s[i] is one).

/** 1: ISO timestamp (no leading `\b`). */
function isoTimestamp(s: string, i: number): number {
  if (s.charCodeAt(i + 4) !== 45 || s.charCodeAt(i + 7) !== 45) return -1;
  if (!(isDigit(s, i) && isDigit(s, i + 1) && isDigit(s, i + 2) && isDigit(s, i + 3))) return -1;
  if (!(isDigit(s, i + 5) && isDigit(s, i + 6) && isDigit(s, i + 8) && isDigit(s, i + 9))) {
    return -1;
  }
  const sep = s.charCodeAt(i + 10);
  if (sep !== 84 && sep !== 32) return -1;
  if (!clock(s, i + 11)) return -1;
  let j = i + 19;
  const dot = s.charCodeAt(j);
  if (dot === 46 || dot === 44) j++;
  j += run(s, j, DIGIT, 9);
  const c = s.charCodeAt(j);
  if (c === 90) return j + 1;
  if ((c === 43 || c === 45) && isDigit(s, j + 1) && isDigit(s, j + 2)) {
    if (s.charCodeAt(j + 3) === 58 && isDigit(s, j + 4) && isDigit(s, j + 5)) return j + 6;
    if (isDigit(s, j + 3) && isDigit(s, j + 4)) return j + 5;
  }
  return j;
}

/** 2: `Nov 20 10:00:00` (syslog). */
function syslogTimestamp(s: string, i: number): number {
  if (s.charCodeAt(i + 3) !== 32 || !MONTHS.has(s.slice(i, i + 3))) return -1;
  const day = s.charCodeAt(i + 4);
  if (day !== 32 && !isDigit(s, i + 4)) return -1;
  if (!isDigit(s, i + 5) || s.charCodeAt(i + 6) !== 32 || !clock(s, i + 7)) return -1;
  return i + 15;
}

/** 3: `10:00:00`, `10:00:00.123`. */
function time(s: string, i: number): number {
  if (!clock(s, i)) return -1;
  const j = i + 8;
  const c = s.charCodeAt(j);
  if ((c === 46 || c === 44) && isDigit(s, j + 1)) {
    const end = j + 1 + run(s, j + 1, DIGIT, 9);
    if (!isWord(s, end)) return end;
  }
  return isWord(s, j) ? -1 : j;
}

/** 4: UUID. */
function uuid(s: string, i: number): number {
  if (
    s.charCodeAt(i + 8) !== 45 || s.charCodeAt(i + 13) !== 45 || s.charCodeAt(i + 18) !== 45 ||
    s.charCodeAt(i + 23) !== 45
  ) return -1;
  for (let k = 0; k < 36; k++) {
    if (k === 8 || k === 13 || k === 18 || k === 23) continue;
    if (!isHex(s, i + k)) return -1;
  }
  return isWord(s, i + 36) ? -1 : i + 36;
}

/** 5: IPv4 with an optional port. */
function ip(s: string, i: number): number {
  let p = i;
  for (let octet = 0; octet < 3; octet++) {
    const r = run(s, p, DIGIT, 4);
    if (r < 1 || r > 3 || s.charCodeAt(p + r) !== 46) return -1;
    p += r + 1;
  }
  const r = run(s, p, DIGIT, 4);
  if (r < 1 || r > 3) return -1;
  const q = p + r;
  if (s.charCodeAt(q) === 58) {
    const rp = run(s, q + 1, DIGIT, 6);
    if (rp >= 1 && rp <= 5 && !isWord(s, q + 1 + rp)) return q + 1 + rp;
    return q;
  }
  return isWord(s, q) ? -1 : q;
}

/** 6 and 7: `port=80`, `pid 42` after the keyword of length `at - i`. */
function keyed(s: string, at: number): number {
  const r = run(s, at, SEP, 4);
  if (r < 1 || r > 3) return -1;
  const d = run(s, at + r, DIGIT, 10);
  return d < 1 ? -1 : at + r + d;
}

/** 8: `[123]`. */
function bracketed(s: string, i: number): number {
  const d = run(s, i + 1, DIGIT, 11);
  return d >= 1 && d <= 10 && s.charCodeAt(i + 1 + d) === 93 ? i + 2 + d : -1;
}

/** 9: `0xdeadbeef`. */
function hex0x(s: string, i: number): number {
  if (s.charCodeAt(i) !== 48 || s.charCodeAt(i + 1) !== 120) return -1;
  const h = run(s, i + 2, HEX, 17);
  return h >= 4 && h <= 16 && !isWord(s, i + 2 + h) ? i + 2 + h : -1;
}

/** 10: a long lower-case hex id (no leading `\b`); `hexEnd` ends the `[0-9a-f]` run at i. */
function hexId(s: string, i: number, hexEnd: number): number {
  const h = hexEnd - i;
  return h >= 12 && h <= 64 && !isWord(s, hexEnd) ? hexEnd : -1;
}

/** 11: a duration, `12ms`, `1.5s`. */
function duration(s: string, i: number): number {
  const r1 = run(s, i, DIGIT, 10);
  if (r1 < 1 || r1 > 9) return -1;
  const q = i + r1;
  if (s.charCodeAt(q) === 46 && isDigit(s, q + 1)) {
    const r2 = run(s, q + 1, DIGIT, 10);
    return r2 <= 9 ? unit(s, q + 1 + r2) : -1;
  }
  return unit(s, q);
}

function unit(s: string, u: number): number {
  const c = s.charCodeAt(u);
  if (c === 115) return isWord(s, u + 1) ? -1 : u + 1; // s
  // ms, µs, us, ns
  if ((c === 109 || c === 0xb5 || c === 117 || c === 110) && s.charCodeAt(u + 1) === 115) {
    return isWord(s, u + 2) ? -1 : u + 2;
  }
  return -1;
}

const TS = "<TS>";

/**
 * The first alternative matching at i, in the alternation's order, as `end * 16 + alternative`
 * (1–11; a number, so no allocation per match), or -1. `bounded`: a word boundary precedes i.
 */
function matchAt(s: string, i: number, k: number, bounded: boolean, hexEnd: number): number {
  if (k & DIGIT) {
    // Each matcher only after a character it needs is in place (the same order and result).
    let e = s.charCodeAt(i + 4) === 45 ? isoTimestamp(s, i) : -1;
    if (e >= 0) return e * 16 + 1;
    if (bounded) {
      e = s.charCodeAt(i + 2) === 58 ? time(s, i) : -1;
      if (e >= 0) return e * 16 + 3;
      e = s.charCodeAt(i + 8) === 45 ? uuid(s, i) : -1;
      if (e >= 0) return e * 16 + 4;
      const dot = s.charCodeAt(i + 1) === 46 || s.charCodeAt(i + 2) === 46 ||
        s.charCodeAt(i + 3) === 46;
      e = dot ? ip(s, i) : -1;
      if (e >= 0) return e * 16 + 5;
      e = s.charCodeAt(i + 1) === 120 ? hex0x(s, i) : -1;
      if (e >= 0) return e * 16 + 9;
    }
    e = hexEnd - i >= 12 ? hexId(s, i, hexEnd) : -1;
    if (e >= 0) return e * 16 + 10;
    if (bounded) {
      e = duration(s, i);
      if (e >= 0) return e * 16 + 11;
    }
    return -1;
  }
  if (s.charCodeAt(i) === 91) {
    const e = bracketed(s, i);
    return e >= 0 ? e * 16 + 8 : -1;
  }
  if (bounded) {
    if (k & MONTH) {
      const e = syslogTimestamp(s, i);
      if (e >= 0) return e * 16 + 2;
    }
    if (k & HEX && s.charCodeAt(i + 8) === 45) {
      const e = uuid(s, i);
      if (e >= 0) return e * 16 + 4;
    }
    if (k & PID) {
      const c = s.charCodeAt(i);
      if (c === 112 && s.startsWith("port", i)) {
        const e = keyed(s, i + 4);
        if (e >= 0) return e * 16 + 6;
      }
      if (s.startsWith("pid", i) || s.startsWith("PID", i) || s.startsWith("tid", i)) {
        const e = keyed(s, i + 3);
        if (e >= 0) return e * 16 + 7;
      }
    }
  }
  if (k & LOWER_HEX && hexEnd - i >= 12) {
    const e = hexId(s, i, hexEnd);
    if (e >= 0) return e * 16 + 10;
  }
  return -1;
}

const REPLACEMENT = [
  "",
  TS,
  TS,
  "<TIME>",
  "<UUID>",
  "<IP>",
  "port=<N>",
  "pid=<N>",
  "[<N>]",
  "<HEX>",
  "<ID>",
  "<DUR>",
];

/** The line with every default normaliser applied, exactly as the regex alternation does. */
export function normalizeDefault(line: string): string {
  const n = line.length;
  let out = "";
  let last = 0;
  let prevWord = false;
  // End of the run of `[0-9a-f]` holding i (valid while i < hexEnd): computed once per run, so
  // a long-id check is one subtraction, not a rescan at every letter of a word.
  let hexEnd = 0;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    const k = CLASS[c];
    if ((k & LOWER_HEX) !== 0 && i >= hexEnd) {
      hexEnd = i + 1;
      while (hexEnd < n && (CLASS[line.charCodeAt(hexEnd)] & LOWER_HEX) !== 0) hexEnd++;
    }
    // Inside a word only an ISO timestamp (`\d{4}-`) or a long hex id can start; `[` anywhere.
    const candidate = prevWord
      ? ((k & LOWER_HEX) !== 0 &&
        (hexEnd - i >= 12 || ((k & DIGIT) !== 0 && line.charCodeAt(i + 4) === 45))) || c === 91
      : (k & START_AT_BOUNDARY) !== 0 || c === 91;
    if (candidate) {
      const m = matchAt(line, i, k, !prevWord, (k & LOWER_HEX) !== 0 ? hexEnd : i);
      if (m >= 0) {
        const end = Math.floor(m / 16);
        out += line.slice(last, i) + REPLACEMENT[m % 16];
        last = i = end;
        prevWord = isWord(line, end - 1);
        continue;
      }
    }
    prevWord = (k & WORD) !== 0;
    i++;
  }
  return last === 0 ? line : out + line.slice(last);
}
