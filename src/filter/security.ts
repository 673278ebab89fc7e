/**
 * The security pass, over the output before any rule ran. Two jobs:
 * 1. Credential-shaped strings (cloud keys, tokens, private keys, JWTs, passwords in URLs) add a
 *    warning naming the kind and count, never the value. Nothing is redacted here.
 * 2. Lines carrying security signals (panics, auth failures, permission denied, advisories,
 *    segfaults) that the filters removed are appended, so no rule can hide them.
 * Every credential pattern has a literal hint checked with `includes` first; the patterns
 * themselves only use bounded repeats, so they run on V8 in linear time (see regex.ts).
 */
import { compilePattern, type Pattern, PatternError } from "./regex.ts";
import { sanitizeLine } from "./sanitize.ts";
import { CHUNK, type ChunkSink, forEachChunk, MAX_ENCODED, textStart } from "./chunks.ts";

interface CredentialKind {
  kind: string;
  /** Substrings one of which every match contains (cheap pre-check). */
  hints: string[];
  pattern: Pattern;
}

const CREDENTIALS: [string, string[], string][] = [
  ["AWS access key ID", ["AKIA", "ASIA"], "\\b(AKIA|ASIA)[0-9A-Z]{16}\\b"],
  ["GitHub token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], "\\bgh[pousr]_[A-Za-z0-9]{36,251}\\b"],
  ["GitHub fine-grained token", ["github_pat_"], "\\bgithub_pat_[A-Za-z0-9_]{22,255}"],
  ["GitLab token", ["glpat-"], "\\bglpat-[A-Za-z0-9_-]{20,64}"],
  ["Slack token", ["xox"], "\\bxox[abposr]-[A-Za-z0-9-]{10,250}"],
  ["Anthropic API key", ["sk-ant-"], "\\bsk-ant-[A-Za-z0-9_-]{20,300}"],
  ["OpenAI API key", ["sk-"], "\\bsk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}"],
  ["Google API key", ["AIza"], "\\bAIza[0-9A-Za-z_-]{35}\\b"],
  ["Stripe key", ["k_live_", "k_test_"], "\\b(sk|rk|pk)_(live|test)_[0-9A-Za-z]{16,247}"],
  ["npm token", ["npm_"], "\\bnpm_[A-Za-z0-9]{36}\\b"],
  ["Hugging Face token", ["hf_"], "\\bhf_[A-Za-z]{34}\\b"],
  ["private key", ["PRIVATE KEY"], "-----BEGIN [A-Z ]{0,30}PRIVATE KEY( BLOCK)?-----"],
  ["JWT", ["eyJ"], "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"],
  [
    "password in URL",
    ["://"],
    "\\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^/\\s:@]{1,256}:[^/\\s@]{1,256}@",
  ],
];

const MAX_PRESERVED = 20;

/** Hint → a part of it that starts with a less frequent character, searched first. */
const PROBES: Record<string, string> = {
  "github_pat_": "_pat_",
  "sk-ant-": "k-ant-",
  "sk-": "k-",
  "eyJ": "yJ",
  "ghp_": "gh",
  "gho_": "gh",
  "ghu_": "gh",
  "ghs_": "gh",
  "ghr_": "gh",
};

/** Past this many hint occurrences one regex scan of the whole text is cheaper than per line. */
const MAX_LINE_CHECKS = 2000;

/**
 * Counts `pattern`'s matches in `text`, running it only on the lines holding one of `hints`.
 * The same count as over the whole text: no credential pattern matches across a newline (every
 * class excludes it) and a line boundary is a word boundary either way.
 */
function countNearHints(text: string, hints: string[], pattern: Pattern): number {
  const starts: number[] = [];
  for (const hint of hints) {
    let at = text.indexOf(hint);
    while (at >= 0) {
      if (starts.length >= MAX_LINE_CHECKS) return pattern.countMatches(text);
      const start = text.lastIndexOf("\n", at) + 1;
      starts.push(start);
      const end = text.indexOf("\n", at);
      if (end < 0) break;
      at = text.indexOf(hint, end + 1);
    }
  }
  if (hints.length > 1) starts.sort((a, b) => a - b);
  let n = 0;
  let previous = -1;
  for (const start of starts) {
    if (start === previous) continue;
    previous = start;
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    n += pattern.countMatches(text.slice(start, end));
  }
  return n;
}

export interface SecurityOptions {
  /** Extra credential regexes (RE2 syntax) from `[tools.filters.security] extra_patterns`. */
  extraPatterns?: Pattern[];
}

/** Compiles user extra patterns; invalid ones are skipped with a warning each. */
export function compileExtraPatterns(
  sources: string[],
): { patterns: Pattern[]; warnings: string[] } {
  const patterns: Pattern[] = [];
  const warnings: string[] = [];
  sources.forEach((source, i) => {
    try {
      patterns.push(compilePattern(source));
    } catch (error) {
      const reason = error instanceof PatternError ? error.reason : String(error);
      warnings.push(
        `[tools.filters.security] extra_patterns[${i}] skipped: ${reason}. Fix or remove the pattern.`,
      );
    }
  });
  return { patterns, warnings };
}

const CREDENTIAL_KINDS: CredentialKind[] = CREDENTIALS.map(([kind, hints, source]) => ({
  kind,
  hints,
  pattern: compilePattern(source),
}));

const SIGNALS_GLOBAL = new RegExp(
  "panicked at|^panic: |[Ss]egmentation fault|SIGSEGV|[Cc]ore dumped|[Ss]tack overflow|" +
    "[Aa]uthentication failed|AUTHENTICATION FAILED|[Uu]nauthorized|UNAUTHORIZED|" +
    "[Pp]ermission denied|PERMISSION DENIED|[Aa]ccess denied|ACCESS DENIED|[Ff]orbidden|FORBIDDEN|" +
    "[Ii]nvalid credentials|RUSTSEC-\\d{4}-\\d{4}|GHSA-[0-9a-z]{4}-|CVE-\\d{4}-\\d{4}|" +
    "[Ss]ecurity advisory|[Vv]ulnerabilit|VULNERABILIT|[Ww]eak cipher|[Ii]nsecure hash|" +
    "[Cc]ertificate verify failed|SQL injection",
  "gm",
);

/** The same alternatives for one line (`m`: `^` also after a `\r` inside it, as before). */
const SIGNAL_LINE = new RegExp(SIGNALS_GLOBAL.source, "m");

const ANTHROPIC = CREDENTIAL_KINDS.findIndex((k) => k.kind === "Anthropic API key");
const OPENAI = CREDENTIAL_KINDS.findIndex((k) => k.kind === "OpenAI API key");

/**
 * Literals one of which every credential match (its kind's hints) and every signal match holds,
 * each with the three characters whose two pairs the scan looks for: the adjacent pairs rarest
 * together in bench/corpus and the fixtures (they only decide how often the literal is
 * compared, not what is found). Two adjacent pairs because the scan reads the pairs that start
 * at even offsets: one of the two starts at one, wherever the literal sits.
 */
const TRIGGERS: [literal: string, pairs: string][] = [
  ["AKIA", "AKI"],
  ["ASIA", "SIA"],
  ["ghp_", "hp_"],
  ["gho_", "ho_"],
  ["ghu_", "hu_"],
  ["ghs_", "ghs"],
  ["ghr_", "ghr"],
  ["github_pat_", "b_p"],
  ["glpat-", "glp"],
  ["xox", "xox"],
  ["sk-", "sk-"],
  ["AIza", "Iza"],
  // Every Stripe prefix (sk, rk, pk) ends with k: "k_t" is 25× rarer in the corpus than "_te".
  ["k_live_", "k_l"],
  ["k_test_", "k_t"],
  ["npm_", "pm_"],
  ["hf_", "hf_"],
  ["PRIVATE KEY", "KEY"],
  ["eyJ", "eyJ"],
  ["://", "://"],
  // SIGNALS_GLOBAL's alternatives, less their optional first-letter case.
  ["panicked at", "nic"],
  ["panic: ", "ic:"],
  ["egmentation fault", "egm"],
  ["SIGSEGV", "EGV"],
  ["ore dumped", "ump"],
  ["tack overflow", "rfl"],
  ["uthentication failed", "fai"],
  ["AUTHENTICATION FAILED", "AUT"],
  ["nauthorized", "ize"],
  ["UNAUTHORIZED", "IZE"],
  ["ermission denied", "rmi"],
  ["PERMISSION DENIED", "SIO"],
  ["ccess denied", "nie"],
  ["ACCESS DENIED", "NIE"],
  ["orbidden", "rbi"],
  ["FORBIDDEN", "DDE"],
  ["nvalid credentials", "nva"],
  ["RUSTSEC-", "EC-"],
  ["GHSA-", "GHS"],
  ["CVE-", "VE-"],
  ["ecurity advisory", "dvi"],
  ["ulnerabilit", "uln"],
  ["VULNERABILIT", "ULN"],
  ["eak cipher", "ak "],
  ["nsecure hash", "cur"],
  ["ertificate verify failed", "ify"],
  ["SQL injection", "SQL"],
];

/** Index of the first signal literal in TRIGGERS (the ones before are credential hints). */
const FIRST_SIGNAL = TRIGGERS.findIndex(([literal]) => literal === "panicked at");
/** Per trigger: bit k set when credential kind k's pattern must run on a line holding it. */
const KIND_MASK = TRIGGERS.map(([literal], id) =>
  id >= FIRST_SIGNAL ? 0 : CREDENTIAL_KINDS.reduce(
    (mask, kind, k) => kind.hints.some((hint) => hint.includes(literal)) ? mask | (1 << k) : mask,
    0,
  )
);
for (const [k, { kind, hints }] of CREDENTIAL_KINDS.entries()) {
  for (const hint of hints) {
    const covered = TRIGGERS.some(([literal], id) =>
      hint.includes(literal) && KIND_MASK[id] & (1 << k)
    );
    if (!covered) throw new Error(`credential hint "${hint}" (${kind}) holds no trigger literal`);
  }
}

interface Trigger {
  bytes: Uint8Array;
  /** Where the pair starts in the literal. */
  offset: number;
  /** Index in TRIGGERS. */
  id: number;
}
/** Pair (first byte << 8 | second byte) → 1 + index into PAIR_TRIGGERS, or 0. */
const PAIR = new Uint8Array(65536);
/**
 * The same, indexed by the pair as a Uint16Array over the bytes reads it (platform order), and
 * EXOTIC_UNIT for the units that start a character V8 and RE2 read otherwise.
 */
const PAIR16 = new Uint8Array(65536);
const EXOTIC_UNIT = 255;
const PAIR_TRIGGERS: Trigger[][] = [];
{
  const encoder = new TextEncoder();
  const littleEndian = new Uint16Array(new Uint8Array([1, 0]).buffer)[0] === 1;
  /** The bytes `a`, `b` as a Uint16Array over them reads them. */
  const unit = (a: number, b: number) => littleEndian ? (b << 8) | a : (a << 8) | b;
  for (const [id, [literal, pairs]] of TRIGGERS.entries()) {
    const at = literal.indexOf(pairs);
    if (at < 0 || pairs.length !== 3) throw new Error(`trigger "${pairs}" not in "${literal}"`);
    for (const offset of [at, at + 1]) {
      const [a, b] = [literal.charCodeAt(offset), literal.charCodeAt(offset + 1)];
      const key = (a << 8) | b;
      if (PAIR[key] === 0) {
        PAIR_TRIGGERS.push([]);
        PAIR[key] = PAIR_TRIGGERS.length;
        PAIR16[unit(a, b)] = PAIR[key];
      }
      PAIR_TRIGGERS[PAIR[key] - 1].push({ bytes: encoder.encode(literal), offset, id });
    }
  }
  if (PAIR_TRIGGERS.length >= EXOTIC_UNIT) throw new Error("too many trigger pairs");
  // The units that hold the start of a character regex.ts's V8 translations may read otherwise
  // than RE2 (see `SecurityScanner.exotic`), at either alignment: a 4-byte sequence (past
  // U+FFFF: lead byte F0–F4), U+212A (E2 84 AA), U+017F (C5 BF). None is ASCII: no trigger
  // pair is one of them.
  const mark = (a: number, b: number) => {
    PAIR16[unit(a, b)] = EXOTIC_UNIT;
  };
  for (let x = 0; x < 256; x++) {
    for (let lead = 0xf0; lead <= 0xf4; lead++) {
      mark(lead, x);
      mark(x, lead);
    }
    mark(x, 0xc5);
  }
  mark(0xe2, 0x84);
  mark(0x84, 0xaa);
  mark(0xc5, 0xbf);
}

/** Whether one of those characters starts at `at - 1`, `at` or `at + 1` of `buf[0..n)`. */
function exoticNear(buf: Uint8Array, n: number, at: number): boolean {
  for (let p = Math.max(0, at - 1); p <= at + 1 && p < n; p++) {
    const b = buf[p];
    if (b >= 0xf0 && b <= 0xf4) return true;
    if (b === 0xe2 && buf[p + 1] === 0x84 && buf[p + 2] === 0xaa) return true;
    if (b === 0xc5 && buf[p + 1] === 0xbf) return true;
  }
  return false;
}

// ignoreBOM: a U+FEFF opening a line is part of it (the old scanner kept it), not a mark to drop.
const fromUtf8 = new TextDecoder("utf-8", { ignoreBOM: true });
const toUtf8 = new TextEncoder();

/**
 * Calls `fn` with every line (no newline) of a chunk (see `ChunkSink`) holding one of the
 * trigger literals, in order, each once, with the ids (TRIGGERS indices) of the literals found
 * in it (an id may repeat). One pass instead of a search per literal: the bytes are read two
 * at a time, as 16-bit units, and each unit is one table lookup; every occurrence of a literal
 * has one of its two pairs at an even offset. Literals are ASCII, so a multi-byte character
 * never matches one; non-ASCII lines are decoded back (exact for an encoded chunk, which is
 * well-formed; for the caller's bytes of `scanBytes`, the decoding the text came from).
 * A chunk without bytes is encoded a window at a time (windowedLines).
 */
function triggerLines(
  chunk: string | null,
  buf: Uint8Array | null,
  written: number,
  fn: (line: string, ids: readonly number[]) => void,
): boolean {
  const ids: number[] = [];
  if (buf === null) {
    windowedLines(chunk!, fn, ids);
    return true;
  }
  // Without the chunk's text (`scanBytes`), lines are decoded and every unit is looked at.
  const ascii = chunk !== null && written === chunk.length;
  let exotic = false;
  // Pairs starting at 0, 2, 4 …; an odd `written` ends with the last byte and the newline
  // after it (no literal holds a newline).
  const units = new Uint16Array(buf.buffer, buf.byteOffset, (written + 1) >> 1);
  let u = 0;
  while ((u = nextUnit(units, u)) >= 0) {
    const at = 2 * u;
    if (PAIR16[units[u]] === EXOTIC_UNIT) {
      exotic ||= exoticNear(buf, written, at);
      u++;
      continue;
    }
    const t = PAIR[(buf[at] << 8) | buf[at + 1]];
    if (!literalsAt(buf, written, at, PAIR_TRIGGERS[t - 1], ids)) {
      u++;
      continue;
    }
    let lineStart = at;
    while (lineStart > 0 && buf[lineStart - 1] !== 10) lineStart--;
    let lineEnd = at + 2;
    while (lineEnd < written && buf[lineEnd] !== 10) lineEnd++;
    // The other literals of the line: every pair after this one (an earlier literal would
    // have had its even pair found first).
    for (let p = at + 1; p + 1 < lineEnd; p++) {
      const v = PAIR[(buf[p] << 8) | buf[p + 1]];
      if (v !== 0) literalsAt(buf, written, p, PAIR_TRIGGERS[v - 1], ids);
    }
    // The units skipped below (the rest of this line, the next line's first byte) are looked
    // at for the characters of `exotic` here.
    for (let p = at + 1; !ascii && !exotic && p <= lineEnd + 1; p += 2) {
      exotic = exoticNear(buf, written, p);
    }
    fn(
      ascii ? chunk!.slice(lineStart, lineEnd) : fromUtf8.decode(buf.subarray(lineStart, lineEnd)),
      ids,
    );
    ids.length = 0;
    // Go on from the first even pair of the next line.
    u = (lineEnd + 2) >> 1;
  }
  return exotic;
}

/** The longest trigger literal less one: how far the windows of a long line overlap. */
const OVERLAP = Math.max(...TRIGGERS.map(([literal]) => literal.length)) - 1;

/**
 * triggerLines for a chunk that is not encoded (one line too long to encode whole, see
 * chunks.ts): each line is encoded a window of `CHUNK` characters at a time into a buffer of
 * its own, the windows overlapping by the longest literal less one, so every occurrence lies
 * whole in one of them (it may be found twice: an id may repeat). A window that cuts a
 * surrogate pair, like a lone surrogate, is encoded as U+FFFD, which holds no literal's ASCII.
 */
function windowedLines(
  chunk: string,
  fn: (line: string, ids: readonly number[]) => void,
  ids: number[],
): void {
  const buf = new Uint8Array(3 * Math.min(chunk.length, CHUNK) + 1);
  const encode = (from: number, to: number) =>
    toUtf8.encodeInto(chunk.slice(from, to), buf).written;
  let lineStart = 0;
  while (lineStart < chunk.length) {
    let lineEnd = chunk.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = chunk.length;
    literalsInWindows(lineStart, lineEnd, buf, encode, ids);
    if (ids.length) fn(chunk.slice(lineStart, lineEnd), ids);
    ids.length = 0;
    lineStart = lineEnd + 1;
  }
}

/**
 * Adds to `ids` every literal in `[start, end)` of a line, read a window of `CHUNK` units at a
 * time: `fill(from, to)` puts the window's bytes at the start of `buf` and says how many. The
 * windows overlap by the longest literal less one, so every occurrence lies whole in one.
 */
function literalsInWindows(
  start: number,
  end: number,
  buf: Uint8Array,
  fill: (from: number, to: number) => number,
  ids: number[],
): void {
  for (let from = start;; from += CHUNK - OVERLAP) {
    const to = Math.min(end, from + CHUNK);
    const written = fill(from, to);
    buf[written] = 10;
    literalsIn(buf, written, ids);
    if (to === end) break;
  }
}

/** Adds to `ids` every literal in `buf[0..n)` (`buf[n]` a newline), one lookup per even pair. */
function literalsIn(buf: Uint8Array, n: number, ids: number[]): void {
  const units = new Uint16Array(buf.buffer, buf.byteOffset, (n + 1) >> 1);
  let u = 0;
  while ((u = nextUnit(units, u)) >= 0) {
    const at = 2 * u;
    // A unit of `exotic`'s characters has no trigger (an unencoded chunk is exotic anyway).
    const t = PAIR[(buf[at] << 8) | buf[at + 1]];
    if (t !== 0) literalsAt(buf, n, at, PAIR_TRIGGERS[t - 1], ids);
    u++;
  }
}

/**
 * The index of the next 16-bit unit at or after `u` that is a pair some literal holds, or -1.
 * Kept small and separate: it is the loop every byte goes through.
 */
function nextUnit(units: Uint16Array, u: number): number {
  const n = units.length;
  for (; u < n; u++) if (PAIR16[units[u]] !== 0) return u;
  return -1;
}

/** Adds to `ids` every one of `triggers` found in `buf` with its pair at `at`; true if any. */
function literalsAt(
  buf: Uint8Array,
  n: number,
  at: number,
  triggers: Trigger[],
  ids: number[],
): boolean {
  let found = false;
  for (const { bytes, offset, id } of triggers) {
    const from = at - offset;
    if (from < 0 || from + bytes.length > n) continue;
    let k = 0;
    while (k < bytes.length && buf[from + k] === bytes[k]) k++;
    if (k === bytes.length) {
      ids.push(id);
      found = true;
    }
  }
  return found;
}

/**
 * Scans a whole output and reports what it saw. Memory is bounded: at most 20 signal lines are
 * kept, and the byte buffer holds one chunk (a line too long to encode whole gets a buffer of
 * one window, about 3 MB, while it is scanned).
 */
export class SecurityScanner {
  /** Kind → matches, credential kinds in CREDENTIAL_KINDS order, then the extra patterns. */
  readonly found = new Map<string, number>();
  /** Matches per credential kind over every chunk so far. */
  #counts = new Array<number>(CREDENTIAL_KINDS.length).fill(0);
  #extraCounts = new Map<string, number>();
  readonly signalLines: string[] = [];
  signalCount = 0;
  /**
   * The chunks scanned so far hold a character past U+FFFF, a lone surrogate, U+017F or U+212A:
   * what regex.ts's V8 translations may read otherwise than RE2 (`mayDiffer`). Found on the way
   * (their UTF-8 is in the unit table); true for a chunk that was not encoded.
   */
  exotic = false;
  #extra: Pattern[];

  constructor(options: SecurityOptions = {}) {
    this.#extra = options.extraPatterns ?? [];
  }

  /**
   * Scans one text (a whole output, or one line). Counts add up over calls; `found` lists the
   * credential kinds in table order, then the extra patterns.
   */
  scan(text: string): void {
    forEachChunk(text, true, this.scanChunk);
    this.scanExtras(text);
  }

  /**
   * The built-in credential kinds only, over lines shown as they are (the engine's notices: the
   * tool's `[exit code 2]` and a program's own last line that reads as one). Not the signals (the
   * lines are in the output anyway) nor the extra patterns (a user's pattern may match the tool's
   * own wording, `[timeout] command timed out …`, on every call).
   */
  scanCredentials(text: string): void {
    forEachChunk(text, true, (chunk, _offset, bytes, length) => {
      this.#chunk(chunk, bytes, length, false);
    });
  }

  /**
   * The credential and signal scan of one chunk of the output (a `ChunkSink`: the engine feeds
   * it the chunks its walk encodes anyway). One pass over the chunk's UTF-8 finds the lines
   * holding a credential hint or a signal literal; the exact patterns then run on those lines
   * only. A chunk that was not encoded because the text has a lone surrogate somewhere (UTF-8
   * cannot carry one) takes the string path; one huge line is encoded in windows.
   */
  readonly scanChunk: ChunkSink = (chunk, _offset, bytes, length) => {
    this.#chunk(chunk, bytes, length, true);
  };

  /** scanChunk's work; `signals`: signal lines are collected too. */
  #chunk(chunk: string, bytes: Uint8Array | null, length: number, signals: boolean): void {
    if (bytes === null && chunk.length <= MAX_ENCODED) {
      this.exotic = true;
      return this.#scanText(chunk, signals);
    }
    this.#scanLines(signals, (fn) => triggerLines(chunk, bytes, length, fn));
  }

  /**
   * The same scan over output the caller still holds as UTF-8 (the bash tool's capture), so the
   * text is not encoded again: `utf8` is what the text was decoded from (TextDecoder's default
   * replacement mode; the BOM it drops at the start is skipped here too). Same result as
   * `scan(text)`: every ASCII byte decodes to itself (an invalid sequence becomes U+FFFD and never
   * takes an ASCII byte with it), so each literal is found in the same line, and a line decoded
   * alone is the text's line (a newline ends any sequence). `exotic` may say yes where the text
   * has none of those characters (an invalid F0–F4 lead decodes to U+FFFD), never the reverse:
   * decoding makes no lone surrogate; a line of over `MAX_ENCODED` bytes says yes, as a line of
   * over `MAX_ENCODED` characters does in `scan`. The bytes are read a window of whole lines at a
   * time, copied into a buffer of the scan's own (an even offset for the 16-bit reads, a newline
   * after the last line), so `utf8` is left as it is.
   */
  scanBytes(utf8: Uint8Array): void {
    const n = utf8.length;
    let start = textStart(utf8);
    let window = new Uint8Array(0);
    while (start < n) {
      // [start, end) is whole lines, `end` a newline or the end of the bytes.
      let end = start + CHUNK >= n ? n : utf8.indexOf(10, start + CHUNK);
      if (end < 0) end = n;
      if (end - start > MAX_ENCODED) {
        // A huge line crosses the step: the lines before it form a window of their own.
        const before = utf8.lastIndexOf(10, start + CHUNK - 1);
        if (before >= start) end = before;
      }
      const length = end - start;
      if (length > MAX_ENCODED) this.#scanHugeLine(utf8, start, end);
      else {
        if (window.length < length + 1) {
          window = new Uint8Array(Math.min(MAX_ENCODED, 2 * length) + 1);
        }
        window.set(utf8.subarray(start, end));
        window[length] = 10;
        this.#scanLines(true, (fn) => triggerLines(null, window, length, fn));
      }
      start = end + 1;
    }
  }

  /**
   * One line of over `MAX_ENCODED` bytes, `utf8[start..end)` (exotic, as an unencoded line is in
   * `scan`): its bytes are read in windows (literalsInWindows), the line decoded only if it holds
   * a literal.
   */
  #scanHugeLine(utf8: Uint8Array, start: number, end: number): void {
    this.#scanLines(true, (fn) => {
      const ids: number[] = [];
      const window = new Uint8Array(CHUNK + 1);
      const copy = (from: number, to: number) => {
        window.set(utf8.subarray(from, to));
        return to - from;
      };
      literalsInWindows(start, end, window, copy, ids);
      if (ids.length) fn(fromUtf8.decode(utf8.subarray(start, end)), ids);
      return true;
    });
  }

  /**
   * The exact patterns on the lines `each` hands on with the ids of the literals they hold (each
   * returns whether it saw an exotic character); counts are taken per call (see below).
   * `signals`: signal lines are collected too.
   */
  #scanLines(
    signals: boolean,
    each: (fn: (line: string, ids: readonly number[]) => void) => boolean,
  ): void {
    const counts = new Array<number>(CREDENTIAL_KINDS.length).fill(0);
    const exotic = each((line, ids) => {
      let kinds = 0;
      let signal = false;
      for (const id of ids) {
        kinds |= KIND_MASK[id];
        if (id >= FIRST_SIGNAL) signal = true;
      }
      for (let k = 0; kinds !== 0 && k < CREDENTIAL_KINDS.length; k++) {
        if (kinds & (1 << k)) counts[k] += CREDENTIAL_KINDS[k].pattern.countMatches(line);
      }
      if (signals && signal && SIGNAL_LINE.test(line)) this.#signal(line);
    });
    if (exotic) this.exotic = true;
    counts.forEach((n, k) => {
      // Every "sk-ant-" key also matches the OpenAI shape; count it once, as Anthropic. One
      // chunk's difference can be negative (an OpenAI-shaped match holding two "-sk-ant-"
      // keys); the total is what the whole-text count gives, and only totals above 0 show.
      if (n && k === OPENAI) n -= counts[ANTHROPIC];
      this.#counts[k] += n;
    });
    this.#publish();
  }

  /** `found` from the counts (the same order whatever chunk a kind was first seen in). */
  #publish(): void {
    this.found.clear();
    this.#counts.forEach((n, k) => {
      if (n > 0) this.found.set(CREDENTIAL_KINDS[k].kind, n);
    });
    for (const [kind, n] of this.#extraCounts) this.found.set(kind, n);
  }

  /** `[tools.filters.security] extra_patterns`, over the whole text. */
  scanExtras(text: string): void {
    if (this.#extra.length === 0) return;
    this.#extra.forEach((pattern, i) => {
      const n = pattern.countMatches(text);
      if (n > 0) {
        const kind = `extra pattern #${i + 1}`;
        this.#extraCounts.set(kind, (this.#extraCounts.get(kind) ?? 0) + n);
      }
    });
    this.#publish();
  }

  /** One signal line (raw, before sanitising). */
  #signal(raw: string): void {
    // "found 0 vulnerabilities" (npm audit after every install) reports the absence of one.
    if (/\b0 vulnerabilit/i.test(raw)) return;
    this.signalCount++;
    if (this.signalLines.length >= MAX_PRESERVED) return;
    const line = sanitizeLine(raw).replace(/^\[stderr\] /, "");
    if (!this.signalLines.includes(line)) this.signalLines.push(line);
  }

  /** The string path: literal searches over the whole text, then the hinted lines. */
  #scanText(text: string, signals: boolean): void {
    // One literal search per distinct probe (V8's `includes` is far faster than any regex);
    // the credential regexes then run only on the lines that hold a hint occurrence.
    const seen = new Map<string, boolean>();
    const has = (hint: string): boolean => {
      let found = seen.get(hint);
      if (found === undefined) {
        // A search for a substring starting with a rarer character rules most texts out faster
        // (V8 looks for the first character, then compares).
        const probe = PROBES[hint];
        found = (probe === undefined || has(probe)) && text.includes(hint);
        seen.set(hint, found);
      }
      return found;
    };
    let anthropic: number | undefined;
    for (const [k, { kind, hints, pattern }] of CREDENTIAL_KINDS.entries()) {
      if (!hints.some(has)) continue;
      let n = countNearHints(text, hints.filter(has), pattern);
      if (n && kind === "OpenAI API key") {
        // Every "sk-ant-" key also matches the OpenAI shape; count it once, as Anthropic.
        anthropic ??= has("sk-ant-")
          ? countNearHints(text, ["sk-ant-"], CREDENTIAL_KINDS[5].pattern)
          : 0;
        n -= anthropic;
      }
      this.#counts[k] += n;
    }
    this.#publish();
    if (!signals) return;
    SIGNALS_GLOBAL.lastIndex = 0;
    let m: RegExpExecArray | null;
    let lastLineEnd = -1;
    while ((m = SIGNALS_GLOBAL.exec(text)) !== null) {
      if (m.index < lastLineEnd) continue;
      const start = text.lastIndexOf("\n", m.index) + 1;
      let end = text.indexOf("\n", m.index);
      if (end < 0) end = text.length;
      lastLineEnd = end;
      SIGNALS_GLOBAL.lastIndex = end;
      this.#signal(text.slice(start, end));
    }
  }

  /** What to append to the filtered text: removed signal lines, then the credential warning. */
  appendix(filtered: string): string[] {
    const out: string[] = [];
    const missing = this.signalLines.filter((line) => !filtered.includes(line.trim()));
    if (missing.length) {
      out.push("", "--- Security-relevant lines (preserved) ---", ...missing);
      const more = this.signalCount - this.signalLines.length;
      if (more > 0) out.push(`... (${more} more)`);
    }
    if (this.found.size) {
      const kinds = [...this.found].map(([kind, n]) => (n > 1 ? `${kind} x${n}` : kind));
      out.push(
        "",
        `[security] The output contains credential-shaped strings (${
          kinds.join(", ")
        }). They were not removed: do not repeat, store or send them anywhere.`,
      );
    }
    return out;
  }
}
