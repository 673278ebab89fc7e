/**
 * dedup's default normalisers (`DEFAULT_NORMALIZERS` in dedup.ts) as one hand-written scanner
 * over a line's UTF-8 bytes.
 *
 * The regex path runs the eleven defaults as one V8 alternation at every position of every line
 * (~480 ms per 25 MB of docker logs). This scanner gives the same result as that alternation —
 * leftmost match, alternatives tried in order at each position, each with the match V8's
 * backtracking would pick — looking at most bytes once, a word at a time (see normalizeUtf8). It
 * reads bytes, not the string: a typed-array load costs a fraction of `charCodeAt` on a sliced
 * line (25 MB: 19–27 ms against 104–125 ms for a bare loop), and the engine hands the first stage
 * each line's bytes from the encoding the security pass needs anyway. Every alternative is ASCII
 * except the micro sign of `µs` (C2 B5 in UTF-8); any other non-ASCII character is a run of
 * bytes ≥ 0x80, which have no class, just as the character has none in the regex (`\b`, `\d`,
 * `\w` are ASCII there), so the match positions are the same and the key is the UTF-8 of the
 * regex's result. Text with a lone surrogate is encoded as WTF-8 (the surrogate as its own three
 * bytes), which keeps it distinct. User-configured `normalize_patterns` keep the regex path.
 * Agreement with the regex path is tested on the corpus, edge cases and generated lines
 * (tests/filter/dedup_normalize_test.ts).
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
 *
 * Bounds: the scanner reads a line `src[from..to)` and may look a few bytes past `to`; the byte
 * at `to` must be a newline (the engine's chunks end with one; `normalizeDefault` adds it). A
 * newline has no class and is none of the characters an alternative needs, so no match runs
 * through it, and what lies beyond can only make an early check fail, never a match succeed.
 */
import { isWellFormed } from "../chunks.ts";

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

/** Per byte; only ASCII has classes. A read past a buffer's end is `undefined | 0`: NUL, none. */
const CLASS = new Uint8Array(256);
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

/** The month names as `b0 << 16 | b1 << 8 | b2`. */
const MONTHS = new Set(
  ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map((m) =>
    (m.charCodeAt(0) << 16) | (m.charCodeAt(1) << 8) | m.charCodeAt(2)
  ),
);

// The class of b[i] is `CLASS[b[i] | 0]` (`undefined | 0` is 0 past the buffer's end).
// Written out at each use: these run for most bytes of a log.
const isWord = (b: Uint8Array, i: number) => (CLASS[b[i] | 0] & WORD) !== 0;
const isDigit = (b: Uint8Array, i: number) => (CLASS[b[i] | 0] & DIGIT) !== 0;
const isHex = (b: Uint8Array, i: number) => (CLASS[b[i] | 0] & HEX) !== 0;

/** Length of the run of `kind` bytes at `i`, counted up to `cap`. */
function run(b: Uint8Array, i: number, kind: number, cap: number): number {
  let k = 0;
  while (k < cap && (CLASS[b[i + k] | 0] & kind) !== 0) k++;
  return k;
}

/** `dd:dd:dd` at i. */
function clock(b: Uint8Array, i: number): boolean {
  return isDigit(b, i) && isDigit(b, i + 1) && b[i + 2] === 58 &&
    isDigit(b, i + 3) && isDigit(b, i + 4) && b[i + 5] === 58 &&
    isDigit(b, i + 6) && isDigit(b, i + 7);
}

// Each matcher returns the end of the match starting at i, or -1.

/** 1: ISO timestamp (no leading `\b`). */
function isoTimestamp(b: Uint8Array, i: number): number {
  if (b[i + 4] !== 45 || b[i + 7] !== 45) return -1;
  if (!(isDigit(b, i) && isDigit(b, i + 1) && isDigit(b, i + 2) && isDigit(b, i + 3))) return -1;
  if (!(isDigit(b, i + 5) && isDigit(b, i + 6) && isDigit(b, i + 8) && isDigit(b, i + 9))) {
    return -1;
  }
  const sep = b[i + 10];
  if (sep !== 84 && sep !== 32) return -1;
  if (!clock(b, i + 11)) return -1;
  let j = i + 19;
  const dot = b[j];
  if (dot === 46 || dot === 44) j++;
  j += run(b, j, DIGIT, 9);
  const c = b[j];
  if (c === 90) return j + 1;
  if ((c === 43 || c === 45) && isDigit(b, j + 1) && isDigit(b, j + 2)) {
    if (b[j + 3] === 58 && isDigit(b, j + 4) && isDigit(b, j + 5)) return j + 6;
    if (isDigit(b, j + 3) && isDigit(b, j + 4)) return j + 5;
  }
  return j;
}

/** 2: `Nov 20 10:00:00` (syslog). */
function syslogTimestamp(b: Uint8Array, i: number): number {
  if (b[i + 3] !== 32 || !MONTHS.has((b[i] << 16) | (b[i + 1] << 8) | b[i + 2])) return -1;
  if (b[i + 4] !== 32 && !isDigit(b, i + 4)) return -1;
  if (!isDigit(b, i + 5) || b[i + 6] !== 32 || !clock(b, i + 7)) return -1;
  return i + 15;
}

/** 3: `10:00:00`, `10:00:00.123`. */
function time(b: Uint8Array, i: number): number {
  if (!clock(b, i)) return -1;
  const j = i + 8;
  const c = b[j];
  if ((c === 46 || c === 44) && isDigit(b, j + 1)) {
    const end = j + 1 + run(b, j + 1, DIGIT, 9);
    if (!isWord(b, end)) return end;
  }
  return isWord(b, j) ? -1 : j;
}

/** 4: UUID. */
function uuid(b: Uint8Array, i: number): number {
  if (b[i + 8] !== 45 || b[i + 13] !== 45 || b[i + 18] !== 45 || b[i + 23] !== 45) return -1;
  for (let k = 0; k < 36; k++) {
    if (k === 8 || k === 13 || k === 18 || k === 23) continue;
    if (!isHex(b, i + k)) return -1;
  }
  return isWord(b, i + 36) ? -1 : i + 36;
}

/** 5: IPv4 with an optional port. */
function ip(b: Uint8Array, i: number): number {
  let p = i;
  for (let octet = 0; octet < 3; octet++) {
    const r = run(b, p, DIGIT, 4);
    if (r < 1 || r > 3 || b[p + r] !== 46) return -1;
    p += r + 1;
  }
  const r = run(b, p, DIGIT, 4);
  if (r < 1 || r > 3) return -1;
  const q = p + r;
  if (b[q] === 58) {
    const rp = run(b, q + 1, DIGIT, 6);
    if (rp >= 1 && rp <= 5 && !isWord(b, q + 1 + rp)) return q + 1 + rp;
    return q;
  }
  return isWord(b, q) ? -1 : q;
}

/** 6 and 7: `port=80`, `pid 42` after the keyword ending at `at`. */
function keyed(b: Uint8Array, at: number): number {
  const r = run(b, at, SEP, 4);
  if (r < 1 || r > 3) return -1;
  const d = run(b, at + r, DIGIT, 10);
  return d < 1 ? -1 : at + r + d;
}

/** 8: `[123]`. */
function bracketed(b: Uint8Array, i: number): number {
  const d = run(b, i + 1, DIGIT, 11);
  return d >= 1 && d <= 10 && b[i + 1 + d] === 93 ? i + 2 + d : -1;
}

/** 9: `0xdeadbeef`. */
function hex0x(b: Uint8Array, i: number): number {
  if (b[i] !== 48 || b[i + 1] !== 120) return -1;
  const h = run(b, i + 2, HEX, 17);
  return h >= 4 && h <= 16 && !isWord(b, i + 2 + h) ? i + 2 + h : -1;
}

/** 10: a long lower-case hex id (no leading `\b`); `hexEnd` ends the `[0-9a-f]` run at i. */
function hexId(b: Uint8Array, i: number, hexEnd: number): number {
  const h = hexEnd - i;
  return h >= 12 && h <= 64 && !isWord(b, hexEnd) ? hexEnd : -1;
}

/** 11: a duration, `12ms`, `1.5s`, `3µs`. */
function duration(b: Uint8Array, i: number): number {
  const r1 = run(b, i, DIGIT, 10);
  if (r1 < 1 || r1 > 9) return -1;
  const q = i + r1;
  if (b[q] === 46 && isDigit(b, q + 1)) {
    const r2 = run(b, q + 1, DIGIT, 10);
    return r2 <= 9 ? unit(b, q + 1 + r2) : -1;
  }
  return unit(b, q);
}

function unit(b: Uint8Array, u: number): number {
  const c = b[u];
  if (c === 115) return isWord(b, u + 1) ? -1 : u + 1; // s
  // ms, us, ns
  if ((c === 109 || c === 117 || c === 110) && b[u + 1] === 115) {
    return isWord(b, u + 2) ? -1 : u + 2;
  }
  // µs: the micro sign is two bytes
  if (c === 0xc2 && b[u + 1] === 0xb5 && b[u + 2] === 115) return isWord(b, u + 3) ? -1 : u + 3;
  return -1;
}

/**
 * The first alternative matching at i, a word's first byte (of class `k`), in the alternation's
 * order, as `end * 16 + alternative` (1–11; a number, so no allocation per match), or -1.
 * `hexEnd` ends the run of `[0-9a-f]` at i (i itself when `b[i]` is not one).
 */
function matchAt(b: Uint8Array, i: number, k: number, hexEnd: number): number {
  if (k & DIGIT) {
    // Each matcher only after a character it needs is in place (the same order and result).
    let e = b[i + 4] === 45 ? isoTimestamp(b, i) : -1;
    if (e >= 0) return e * 16 + 1;
    e = b[i + 2] === 58 ? time(b, i) : -1;
    if (e >= 0) return e * 16 + 3;
    e = b[i + 8] === 45 ? uuid(b, i) : -1;
    if (e >= 0) return e * 16 + 4;
    const dot = b[i + 1] === 46 || b[i + 2] === 46 || b[i + 3] === 46;
    e = dot ? ip(b, i) : -1;
    if (e >= 0) return e * 16 + 5;
    e = b[i + 1] === 120 ? hex0x(b, i) : -1;
    if (e >= 0) return e * 16 + 9;
    e = hexEnd - i >= 12 ? hexId(b, i, hexEnd) : -1;
    if (e >= 0) return e * 16 + 10;
    e = duration(b, i);
    return e >= 0 ? e * 16 + 11 : -1;
  }
  if (k & MONTH) {
    const e = syslogTimestamp(b, i);
    if (e >= 0) return e * 16 + 2;
  }
  if (k & HEX && b[i + 8] === 45) {
    const e = uuid(b, i);
    if (e >= 0) return e * 16 + 4;
  }
  if (k & PID) {
    const c = b[i];
    if (c === 112 && b[i + 1] === 111 && b[i + 2] === 114 && b[i + 3] === 116) { // port
      const e = keyed(b, i + 4);
      if (e >= 0) return e * 16 + 6;
    }
    const c1 = b[i + 1];
    const c2 = b[i + 2];
    const pid = (c === 112 && c1 === 105 && c2 === 100) || // pid
      (c === 80 && c1 === 73 && c2 === 68) || // PID
      (c === 116 && c1 === 105 && c2 === 100); // tid
    if (pid) {
      const e = keyed(b, i + 3);
      if (e >= 0) return e * 16 + 7;
    }
  }
  if (k & LOWER_HEX && hexEnd - i >= 12) {
    const e = hexId(b, i, hexEnd);
    if (e >= 0) return e * 16 + 10;
  }
  return -1;
}

const REPLACEMENT = [
  "",
  "<TS>",
  "<TS>",
  "<TIME>",
  "<UUID>",
  "<IP>",
  "port=<N>",
  "pid=<N>",
  "[<N>]",
  "<HEX>",
  "<ID>",
  "<DUR>",
].map((r) => new TextEncoder().encode(r));

/**
 * The longest key a line of `n` bytes can give (a replacement is at most 3 bytes longer than its
 * match, `1s` → `<DUR>`).
 */
export const maxKeyLength = (n: number): number => n * 3 + 8;

/**
 * Writes the line `src[from..to)` with every default normaliser applied into `out` (of at least
 * `maxKeyLength(to - from)` bytes) and returns the key's length. `src[to]` must be a newline.
 *
 * The scan goes a word (a run of `\w` bytes) at a time instead of a byte at a time. Where an
 * alternative can start:
 * - at a word's first byte (a `\b` before it): any, by that byte's class (`matchAt`);
 * - inside a word, only the two without a leading `\b`: a long hex id `[0-9a-f]{12,64}\b` must
 *   end where the word ends (the `\b`), so its leftmost start is where the word's trailing run of
 *   `[0-9a-f]` begins (no further back than 64 bytes from the end), and only if that leaves 12
 *   bytes or more; an ISO timestamp's `\d{4}-` is four word bytes and a `-`, so it can only start
 *   four bytes before the word's end, when a `-` ends the word. The id, if any, starts first (at
 *   least 12 bytes before the end), and nothing else can start between them;
 * - outside words, only `\[\d{1,10}\]`.
 * So each word costs a run of class lookups with one exit, instead of a branch per byte on
 * what the byte might start (a letter of a-f inside a word is a third of English text).
 */
export function normalizeUtf8(src: Uint8Array, from: number, to: number, out: Uint8Array): number {
  let o = 0;
  let last = from;
  /** Whether the byte before i is a word byte (false at the line's start). */
  let inWord = false;
  let i = from;
  while (i < to) {
    const c = src[i];
    const k = CLASS[c];
    let m = -1;
    let at = i;
    if ((k & WORD) === 0) {
      inWord = false;
      if (c !== 91) {
        i++;
        continue;
      }
      const e = bracketed(src, i);
      if (e >= 0) m = e * 16 + 8;
    } else {
      let p = i;
      if (!inWord) {
        // A word's first byte: every alternative that can start with its class.
        if ((k & START_AT_BOUNDARY) !== 0) {
          // The runs here are counted inline, not with run(): measured 10% faster over docker
          // logs (these loops see every word of a log).
          let hexEnd = i;
          if ((k & LOWER_HEX) !== 0) {
            hexEnd = i + 1;
            while ((CLASS[src[hexEnd]] & LOWER_HEX) !== 0) hexEnd++;
          }
          m = matchAt(src, i, k, hexEnd);
        }
        p = i + 1;
      }
      if (m < 0) {
        // The rest of the word, [p, end): a long hex id ending with it, or an ISO timestamp
        // starting four bytes before its end.
        let end = p;
        while ((CLASS[src[end]] & WORD) !== 0) end++;
        const floor = p > end - 64 ? p : end - 64;
        let hex = end;
        while (hex > floor && (CLASS[src[hex - 1]] & LOWER_HEX) !== 0) hex--;
        if (end - hex >= 12) {
          m = end * 16 + 10;
          at = hex;
        } else if (src[end] === 45 && end - 4 >= p) {
          const e = isoTimestamp(src, end - 4);
          if (e >= 0) {
            m = e * 16 + 1;
            at = end - 4;
          }
        }
        if (m < 0) {
          // A non-word byte follows: it sets inWord.
          i = end;
          continue;
        }
      }
    }
    if (m < 0) {
      i++;
      continue;
    }
    // A match [at, end) of alternative m % 16: the bytes before it, then its replacement.
    const end = Math.floor(m / 16);
    while (last < at) out[o++] = src[last++];
    const replacement = REPLACEMENT[m % 16];
    for (let r = 0; r < replacement.length; r++) out[o++] = replacement[r];
    last = i = end;
    inWord = (CLASS[src[end - 1]] & WORD) !== 0;
  }
  while (last < to) out[o++] = src[last++];
  return o;
}

/**
 * A line as the scanner reads it, into `buf` (grown when short; the newline after the line
 * included): UTF-8, or WTF-8 when the line holds a lone surrogate. Returns the buffer and the
 * line's byte length.
 */
export function encodeLine(line: string, buf: Uint8Array): { buf: Uint8Array; length: number } {
  if (buf.length < line.length * 3 + 1) buf = new Uint8Array(line.length * 3 + 64);
  const length = isWellFormed(line) ? utf8.encodeInto(line, buf).written : encodeWtf8(line, buf);
  buf[length] = 10;
  return { buf, length };
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/** UTF-16 to WTF-8: UTF-8, with each lone surrogate encoded like a code point of its own. */
function encodeWtf8(text: string, buf: Uint8Array): number {
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) buf[o++] = c;
    else if (c < 0x800) {
      buf[o++] = 0xc0 | (c >> 6);
      buf[o++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      buf[o++] = 0xe0 | (c >> 12);
      buf[o++] = 0x80 | ((c >> 6) & 63);
      buf[o++] = 0x80 | (c & 63);
    } else {
      buf[o++] = 0xf0 | (c >> 18);
      buf[o++] = 0x80 | ((c >> 12) & 63);
      buf[o++] = 0x80 | ((c >> 6) & 63);
      buf[o++] = 0x80 | (c & 63);
    }
  }
  return o;
}

/** WTF-8 back to UTF-16 (the inverse of encodeWtf8). */
function decodeWtf8(buf: Uint8Array, length: number): string {
  let out = "";
  for (let i = 0; i < length;) {
    const b = buf[i];
    let c: number;
    if (b < 0x80) c = buf[i++];
    else if (b < 0xe0) {
      c = ((b & 31) << 6) | (buf[i + 1] & 63);
      i += 2;
    } else if (b < 0xf0) {
      c = ((b & 15) << 12) | ((buf[i + 1] & 63) << 6) | (buf[i + 2] & 63);
      i += 3;
    } else {
      c = ((b & 7) << 18) | ((buf[i + 1] & 63) << 12) | ((buf[i + 2] & 63) << 6) |
        (buf[i + 3] & 63);
      i += 4;
    }
    out += String.fromCodePoint(c);
  }
  return out;
}

/**
 * The line with every default normaliser applied, exactly as the regex alternation does (one
 * line at a time, for tests and callers outside a stage; the stage keys by bytes).
 */
export function normalizeDefault(line: string): string {
  const { buf, length } = encodeLine(line, new Uint8Array(0));
  const keyBuf = new Uint8Array(maxKeyLength(length));
  const n = normalizeUtf8(buf, 0, length, keyBuf);
  return isWellFormed(line) ? fromUtf8.decode(keyBuf.subarray(0, n)) : decodeWtf8(keyBuf, n);
}
