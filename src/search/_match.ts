/**
 * grep's fast paths (their effect is in bench/README.md "## grep vs ripgrep"): a byte-level
 * literal check before any UTF-8 decoding, a lenient decode with a strict re-check only when
 * needed, and V8's RegExp for the patterns the filter engine's static check proves cannot
 * backtrack badly (re2js, linear in the input, keeps every other pattern).
 */
import { Buffer } from "node:buffer";
import { RE2JS } from "re2js";
import { v8Form } from "../filter/regex.ts";
import { indexOfByte } from "./_bytes.ts";
import { skipClass, skipGroup } from "./_literal.ts";

const LENIENT_UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The text of UTF-8 bytes, or null when they are not valid UTF-8. The lenient decoder is the
 * faster one; only text that holds U+FFFD (a replacement, or a real one) is decoded again
 * strictly to tell the two apart.
 */
export function decodeUtf8(bytes: Uint8Array): string | null {
  const text = LENIENT_UTF8.decode(bytes);
  if (text.indexOf("\uFFFD") === -1) return text;
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

let viewOf: ArrayBufferLike | null = null;
let view: Buffer | null = null;

/**
 * The bytes as a latin1 string: one character per byte, so indexOf on it is a byte search. The
 * Buffer view of the last ArrayBuffer is kept: grep reads into one reused buffer, so one view
 * serves every file instead of a new one per file.
 */
function latin1(bytes: Uint8Array): string {
  if (bytes.buffer !== viewOf || !view) {
    viewOf = bytes.buffer;
    view = Buffer.from(bytes.buffer);
  }
  return view.toString("latin1", bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/** The UTF-8 bytes of `text`, one latin1 character per byte. */
function utf8AsLatin1(text: string): string {
  return latin1(new TextEncoder().encode(text));
}

/** Lower is rarer in source code and prose: letters by English frequency, space most common. */
function byteRank(b: number): number {
  if (b === 0x20) return 255;
  const lower = "etaoinsrhldcumfpgwybvkxjqz".indexOf(String.fromCharCode(b));
  if (lower !== -1) return 250 - lower * 4;
  if (b === 0x09 || b === 0x0a || b === 0x0d) return 200;
  if ("(),.;=\"':/-{}".includes(String.fromCharCode(b))) return 150;
  if (b >= 0x30 && b <= 0x39) return 120;
  const upper = "ETAOINSRHLDCUMFPGWYBVKXJQZ".indexOf(String.fromCharCode(b));
  if (upper !== -1) return 110 - upper;
  return b >= 0x80 ? 30 : 60;
}

/**
 * Whether `bytes` hold `needle`: native indexOf of the needle's rarest byte, then a compare
 * around each hit, cheaper than a latin1 string plus String indexOf per file.
 */
function byteSearch(needle: Uint8Array): (bytes: Uint8Array) => boolean {
  // A byte the needle repeats (the x of `x{50}y`) is dense wherever the text nearly matches, so
  // its rank counts once per repeat: the anchor is then the byte that stands alone (y).
  const repeats = new Map<number, number>();
  for (const b of needle) repeats.set(b, (repeats.get(b) ?? 0) + 1);
  const score = (b: number) => byteRank(b) * repeats.get(b)!;
  let r = 0;
  for (let i = 1; i < needle.length; i++) if (score(needle[i]) < score(needle[r])) r = i;
  const rare = needle[r];
  const n = needle.length;
  return (bytes) => {
    const last = bytes.length - n + r;
    for (
      let p = indexOfByte(bytes, rare, r);
      p !== -1 && p <= last;
      p = indexOfByte(bytes, rare, p + 1)
    ) {
      const start = p - r;
      let k = 0;
      while (k < n && bytes[start + k] === needle[k]) k++;
      if (k === n) return true;
    }
    return false;
  };
}

/**
 * A check on raw bytes that is true for every file holding `literal` (false positives allowed,
 * false negatives never), or null when no such check is cheap. Case-sensitive: a search for the
 * literal's UTF-8 bytes. Case-insensitive: ASCII literals only, as a latin1 regex; RE2's case
 * folding maps ASCII letters to exactly two non-ASCII characters (K and S: U+212A KELVIN SIGN,
 * U+017F LONG S, checked against re2js in tests/search/_match_test.ts), spelled here as their UTF-8
 * bytes.
 */
export function bytePrefilter(
  literal: string,
  caseSensitive: boolean,
): ((bytes: Uint8Array) => boolean) | null {
  if (literal === "") return null;
  if (caseSensitive) return byteSearch(new TextEncoder().encode(literal));
  for (let i = 0; i < literal.length; i++) if (literal.charCodeAt(i) > 0x7f) return null;
  let source = "";
  for (const c of literal) {
    const lower = c.toLowerCase();
    const upper = c.toUpperCase();
    if (lower === "k") source += `(?:[kK]|${utf8AsLatin1("\u212A")})`;
    else if (lower === "s") source += `(?:[sS]|${utf8AsLatin1("\u017F")})`;
    else if (lower !== upper) source += `[${lower}${upper}]`;
    else source += c.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
  }
  const re = new RegExp(source);
  // Every match holds the literal's rarest character other than k and s (whose folds are
  // multi-byte) as one byte, in either case: files without it skip the latin1 string.
  let anchor = -1;
  for (let i = 0; i < literal.length; i++) {
    const c = literal.toLowerCase().charCodeAt(i);
    if (c === 0x6b || c === 0x73) continue;
    if (anchor === -1 || byteRank(c) < byteRank(literal.toLowerCase().charCodeAt(anchor))) {
      anchor = i;
    }
  }
  if (anchor === -1) return (bytes) => re.test(latin1(bytes));
  const a = literal.toLowerCase().charCodeAt(anchor);
  const b = literal.toUpperCase().charCodeAt(anchor);
  return (bytes) =>
    (indexOfByte(bytes, a) !== -1 || (a !== b && indexOfByte(bytes, b) !== -1)) &&
    re.test(latin1(bytes));
}

/** Tests a line (no `\n`, trailing `\r` removed) and a whole text (any line matching). */
export interface LineMatcher {
  readonly engine: "v8" | "re2";
  testLine(line: string): boolean;
  testText(text: string): boolean;
}

/**
 * RE2 escapes whose V8 meaning differs: `\s` (RE2: [\t\n\f\r ], V8: also Unicode spaces), and
 * with case folding `\b \B \w \W` (V8's /iu word characters include K and S signs).
 */
function escapesDiffer(pattern: string, caseInsensitive: boolean): boolean {
  const differ = caseInsensitive ? "sSbBwW" : "sS";
  for (let i = pattern.indexOf("\\"); i !== -1; i = pattern.indexOf("\\", i + 2)) {
    if (differ.includes(pattern[i + 1] ?? "")) return true;
  }
  return false;
}

/**
 * The V8 form of an RE2 pattern, or null when V8 is not provably linear on it or might not mean
 * the same. Linearity is the filter engine's check (`v8Form`:
 * no unbounded repeat, or anchored with one, repeats only over single characters). Flags `su`
 * give RE2's `.` (any character but `\n`, whole code points: lines never hold `\n`) and code
 * point classes; a translation that is not valid with `u` falls back to re2js.
 */
export function v8Translation(
  pattern: string,
  caseSensitive: boolean,
): { body: string; flags: string } | null {
  const native = v8Form(pattern);
  if (!native) return null;
  const caseInsensitive = !caseSensitive || native.flags.includes("i");
  if (escapesDiffer(pattern, caseInsensitive)) return null;
  const flags = "su" + (caseInsensitive ? "i" : "");
  try {
    new RegExp(native.body, flags);
  } catch {
    return null;
  }
  return { body: native.body, flags };
}

/** Compiles with V8 when `v8Translation` allows it, else with re2js (errors come from re2js). */
export function compileLineMatcher(pattern: string, caseSensitive: boolean): LineMatcher {
  const v8 = v8Translation(pattern, caseSensitive);
  if (v8) {
    const line = new RegExp(v8.body, v8.flags);
    const text = new RegExp(v8.body, v8.flags + "m");
    return {
      engine: "v8",
      testLine: (s) => line.test(s),
      testText: (s) => text.test(s),
    };
  }
  const flags = caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
  const line = RE2JS.compile(pattern, flags);
  const text = RE2JS.compile(pattern, flags | RE2JS.MULTILINE);
  // RE2's multi-line `$` matches before "\n" only, so a CRLF file cannot be ruled out whole.
  const dollar = pattern.includes("$");
  return {
    engine: "re2",
    testLine: (s) => line.test(s),
    testText: (s) => (dollar && s.includes("\r")) || text.test(s),
  };
}

/**
 * Pieces of an RE2 pattern that every match contains as a contiguous substring: the top-level
 * sequence cut at each unbounded repeat (`X+` and `X{n,}` leave one X on both sides of the cut,
 * `X*` none). Each piece that `v8Translation` accepts becomes a V8 check run on the text before
 * re2js, so a pattern like `[A-Z][a-z]+[0-9]{2}\b` is tried by re2js only on files holding both
 * `[A-Z][a-z]` and `[a-z][0-9]{2}\b`. Case-sensitive patterns only; anything unusual (top-level
 * `|`, inline flags, `\x`, `\p`, `\Q`, octal, POSIX classes) gives no pieces.
 */
export function requiredPieces(pattern: string): string[] {
  if (/\\[0-9xpPQCzA]|\(\?[^:P<]|\(\?<[=!]|\[:/.test(pattern)) return [];
  const pieces: string[] = [];
  let current = "";
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    let atomEnd: number;
    if (c === "|") return [];
    if (c === "\\") atomEnd = i + 2;
    else if (c === "[") atomEnd = skipClass(pattern, i);
    else if (c === "(") atomEnd = skipGroup(pattern, i);
    else if (c === ")" || c === "*" || c === "+" || c === "?" || c === "{") return [];
    else atomEnd = i + String.fromCodePoint(pattern.codePointAt(i)!).length;
    if (atomEnd > pattern.length) return [];
    // A group is one opaque atom (alternation inside it is fine).
    const atom = pattern.slice(i, atomEnd);
    i = atomEnd;
    // The quantifier, if any.
    let min = 1;
    let unbounded = false;
    let quant = "";
    const q = pattern[i];
    if (q === "*" || q === "+" || q === "?") {
      quant = q;
      min = q === "+" ? 1 : 0;
      unbounded = q !== "?";
      i++;
    } else if (q === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!m) return [];
      quant = m[0];
      min = Number(m[1]);
      unbounded = m[2] !== undefined && m[3] === "";
      i += m[0].length;
    }
    if (pattern[i] === "?" && quant) {
      quant += "?";
      i++;
    }
    if (!unbounded) {
      current += atom + quant;
      continue;
    }
    if (min >= 1) current += atom;
    if (current) pieces.push(current);
    current = min >= 1 ? atom : "";
  }
  if (current) pieces.push(current);
  return pieces;
}

/** V8 checks from `requiredPieces` (only pieces V8 runs in linear time with RE2's meaning). */
export function pieceChecks(pattern: string, caseSensitive: boolean): RegExp[] {
  if (!caseSensitive) return [];
  const checks: RegExp[] = [];
  for (const piece of requiredPieces(pattern)) {
    if (piece === pattern) continue;
    const v8 = v8Translation(piece, true);
    if (v8 && !v8.flags.includes("i")) checks.push(new RegExp(v8.body, v8.flags + "m"));
  }
  return checks;
}
