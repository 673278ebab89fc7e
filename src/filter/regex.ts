/**
 * One gate for every regex the filters run (rule matchers, strategy patterns, security patterns,
 * the strategies' own parsers). Patterns use RE2 syntax and are validated by re2js, so
 * backreferences and lookaround are rejected up front. A pattern runs on V8's backtracking
 * engine only when a static check proves backtracking cannot blow up (anchored with at most one
 * unbounded repeat, or no unbounded repeat at all, repeats only over single characters); every
 * other pattern runs on re2js, which is linear in the input. Measured reason for the split
 * (bench/README.md): re2js tests 45–110 MB/s per pattern on short lines, V8 400–1500 MB/s.
 * The answers are RE2's either way: a V8 translation that could read a text otherwise (see
 * `Native.exact`: emoji, lone surrogates, ſ, K) hands that text to re2js, and patterns whose
 * translation would differ on any text (astral literals, `(?i)` on non-ASCII, an optional group
 * that can match empty) run on re2js.
 */
import { RE2JS } from "re2js";

/** Longest accepted pattern (spec: regexes over 512 characters are rejected). */
export const MAX_PATTERN_LENGTH = 512;

export class PatternError extends Error {
  constructor(readonly pattern: string, readonly reason: string) {
    super(reason);
    this.name = "PatternError";
  }
}

export interface PatternMatch {
  /** Group by index (0 = whole match) or by name; undefined when it did not participate. */
  group(which: number | string): string | undefined;
}

export interface Pattern {
  readonly source: string;
  /** `native` only when the pattern is provably linear on V8; otherwise `re2`. */
  readonly engine: "native" | "re2";
  /** A substring every match must contain, used as a cheap pre-check; null when none. */
  readonly literal: string | null;
  /**
   * The V8 translation (only on the native engine), for callers that combine patterns:
   * `anchored` when every top-level alternative starts with `^`; `first`, for an anchored
   * pattern without `(?i)`, the character codes a match can start with — null when that is
   * not known (a class, `.`, an escape such as `\t` or `\x41`, `\b`), when any character can,
   * or when a match can be empty at column 0.
   */
  readonly native?: Native;
  test(text: string): boolean;
  exec(text: string): PatternMatch | null;
  /** Replaces every match with `replacement`, taken literally (no `$1` expansion). */
  replaceAll(text: string, replacement: string): string;
  /** How many non-overlapping matches the text has. */
  countMatches(text: string): number;
  /** The leftmost match starting at or after `from`, as [start, end), or null. */
  search(text: string, from: number): { start: number; end: number } | null;
}

/** Compiles a pattern, throwing `PatternError` with a reason a user can act on. */
export function compilePattern(source: string): Pattern {
  if (typeof source !== "string" || source.length === 0) {
    throw new PatternError(String(source), "the pattern is empty");
  }
  if (source.length > MAX_PATTERN_LENGTH) {
    throw new PatternError(
      source,
      `the pattern is ${source.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`,
    );
  }
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(source);
  } catch (error) {
    throw new PatternError(source, `invalid RE2 regex: ${(error as Error).message}`);
  }
  const { native, literal, numbered } = analyze(source);
  return native
    ? new NativePattern(source, native, literal, numbered!)
    : new Re2Pattern(source, re2, literal);
}

/**
 * A test of a line's first character against a pattern's `first` set: a table for ASCII, the
 * set for the rest. A line that fails it cannot match (an empty line fails it too).
 */
export function firstCharGate(first: ReadonlySet<number>): (line: string) => boolean {
  const ascii = new Uint8Array(128);
  for (const c of first) if (c < 128) ascii[c] = 1;
  return (line) => {
    const c = line.charCodeAt(0);
    return c < 128 ? ascii[c] === 1 : first.has(c);
  };
}

class NativePattern implements Pattern {
  readonly engine = "native";
  #re: RegExp;
  #global: RegExp;
  /** Rules out lines by their first character, when the pattern is anchored (see Native). */
  #gate: ((line: string) => boolean) | null;
  /** Group name → index: the regexes run with named groups as numbered ones (see Numbered). */
  #names: Map<string, number>;
  /** re2js, for the texts the translation may read otherwise (see Native.exact). */
  #re2: Re2Pattern | null = null;
  constructor(
    readonly source: string,
    readonly native: Native,
    readonly literal: string | null,
    numbered: Numbered,
  ) {
    this.#re = new RegExp(numbered.body, native.flags);
    this.#global = new RegExp(numbered.body, native.flags + "g");
    this.#names = numbered.names;
    this.#gate = native.first ? firstCharGate(native.first) : null;
  }
  /** RE2 itself, when the translation may answer otherwise on `text`. */
  #exact(text: string): Re2Pattern | null {
    if (this.native.exact || !mayDiffer(text)) return null;
    return this.#re2 ??= new Re2Pattern(this.source, RE2JS.compile(this.source), this.literal);
  }
  test(text: string): boolean {
    if (this.#gate !== null && !this.#gate(text)) return false;
    if (this.literal !== null && !text.includes(this.literal)) return false;
    const exact = this.#exact(text);
    return exact ? exact.test(text) : this.#re.test(text);
  }
  exec(text: string): PatternMatch | null {
    if (this.#gate !== null && !this.#gate(text)) return null;
    if (this.literal !== null && !text.includes(this.literal)) return null;
    const exact = this.#exact(text);
    if (exact) return exact.exec(text);
    const m = this.#re.exec(text);
    return m === null ? null : new NativeMatch(m, this.#names);
  }
  replaceAll(text: string, replacement: string): string {
    if (this.literal !== null && !text.includes(this.literal)) return text;
    const exact = this.#exact(text);
    if (exact) return exact.replaceAll(text, replacement);
    this.#global.lastIndex = 0;
    return text.replace(this.#global, () => replacement);
  }
  search(text: string, from: number): { start: number; end: number } | null {
    if (this.literal !== null && !text.includes(this.literal)) return null;
    const exact = this.#exact(text);
    if (exact) return exact.search(text, from);
    const re = this.#global;
    re.lastIndex = from;
    const m = re.exec(text);
    return m === null ? null : { start: m.index, end: m.index + m[0].length };
  }
  countMatches(text: string): number {
    const exact = this.#exact(text);
    if (exact) return exact.countMatches(text);
    const re = this.#global;
    re.lastIndex = 0;
    let n = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      n++;
      if (m[0] === "") re.lastIndex++;
    }
    return n;
  }
}

class NativeMatch implements PatternMatch {
  constructor(readonly m: RegExpExecArray, readonly names: Map<string, number>) {}
  group(which: number | string): string | undefined {
    const index = typeof which === "number" ? which : this.names.get(which);
    return index === undefined ? undefined : this.m[index];
  }
}

class Re2Pattern implements Pattern {
  readonly engine = "re2";
  constructor(readonly source: string, readonly re: RE2JS, readonly literal: string | null) {}
  test(text: string): boolean {
    if (this.literal !== null && !text.includes(this.literal)) return false;
    return this.re.test(text);
  }
  exec(text: string): PatternMatch | null {
    if (this.literal !== null && !text.includes(this.literal)) return null;
    const m = this.re.matcher(text);
    if (!m.find()) return null;
    return {
      group: (which) => {
        try {
          return m.group(which as number) ?? undefined;
        } catch {
          return undefined;
        }
      },
    };
  }
  replaceAll(text: string, replacement: string): string {
    if (this.literal !== null && !text.includes(this.literal)) return text;
    return this.re.matcher(text).replaceAll(RE2JS.quoteReplacement(replacement));
  }
  countMatches(text: string): number {
    const m = this.re.matcher(text);
    let n = 0;
    while (m.find()) n++;
    return n;
  }
  search(text: string, from: number): { start: number; end: number } | null {
    if (from > text.length) return null;
    if (this.literal !== null && !text.includes(this.literal)) return null;
    const m = this.re.matcher(text);
    return m.find(from) ? { start: m.start(), end: m.end() } : null;
  }
}

// ---------------------------------------------------------------------------------------------
// Static linearity check. It parses a conservative subset of RE2 syntax that means the same in
// JavaScript; anything outside the subset (POSIX classes, \pL, \A, \z, inline flags other than a
// leading (?i), possessive forms) simply runs on re2js.

type Node =
  // `noBlank`: a class that never takes a space or tab (`\S`, `\d`, `\w`). `members`: every
  // character a class takes, where the parser knows them (`\d`, `\s`, `[#ℹ]`).
  // `wide`: a class that can take a surrogate (`.`, `[^…]`, `\S`, `\W`, `\D`, a class holding
  // `\W`, `\D` or a member from U+D800 up), where V8 without the `u` flag reads one UTF-16 unit
  // and RE2 one code point.
  // `split`: a wide class whose members reach the surrogates (`[一-\uFFFF]`): V8 takes the units
  // of a pair where RE2 takes no astral character at all, even in a run.
  | {
    kind: "char";
    lit?: string;
    noBlank?: boolean;
    members?: string;
    wide?: boolean;
    split?: boolean;
  }
  // `end`: `$` (not `\b`, `\B`).
  | { kind: "anchor"; start: boolean; end?: boolean }
  | { kind: "group"; alts: Node[][] }
  | { kind: "repeat"; child: Node; min: number; max: number; lazy?: boolean };

/** RE2's `\s` (Perl class): tab, newline, form feed, carriage return, space — not \v. */
const RE2_SPACE = "\\t\\n\\f\\r ";

const ESCAPES_OK = new Set(["d", "D", "w", "W", "s", "S", "t", "n", "r", "f", "v"]);

/**
 * The V8 translation with its named groups as plain ones, and each name's group index: V8
 * builds a `groups` object on every match of a regex with named groups, a measurable part of
 * a line's cost when a pattern runs on every line.
 */
interface Numbered {
  body: string;
  names: Map<string, number>;
}

export interface Native {
  body: string;
  flags: string;
  anchored: boolean;
  first: ReadonlySet<number> | null;
  /**
   * The translation gives RE2's answer on every text. False when it has a class that can take
   * a surrogate (`.`, a negated class, `\S`, `\W`, `\D` …), `(?i)`, or can match the empty
   * string: such a translation may answer otherwise on a text holding an astral character or
   * a lone surrogate (V8 without the `u` flag reads a pair as two characters and steps an empty
   * match into it) or U+017F ſ or U+212A K (RE2's `(?i)` folds them with s and k, V8's does
   * not). `mayDiffer` tells when a text holds any of them.
   */
  exact: boolean;
}

/** What a translation that is not `exact` may read otherwise than RE2 (see Native.exact). */
const EXOTIC = /[\uD800-\uDFFF\u017F\u212A]/;

/**
 * Set while the engine filters a text that holds none of EXOTIC, as far as it has read it (see
 * `onText`, `progressively`). Module state rather than an argument: patterns are called deep
 * inside strategies that take no context, and it is only set inside one synchronous call, put
 * back in a `finally`.
 */
let plainText = false;

/**
 * Whether a translation that is not `exact` may answer otherwise than RE2 on `text`: it holds
 * a surrogate, U+017F or U+212A. False without a look while `onText` or `progressively` says the
 * text is free of them (every string the filters see then is a piece of it, or their own ASCII
 * and `…`).
 */
export function mayDiffer(text: string): boolean {
  if (plainText) return false;
  // Several patterns usually test one line in turn.
  if (text !== lastLooked) {
    lastLooked = text;
    lastDiffers = EXOTIC.test(text);
  }
  return lastDiffers;
}
let lastLooked = "";
let lastDiffers = false;

/**
 * Runs `fn`, telling the patterns that the strings they see come from `text`: when it holds
 * no surrogate, U+017F or U+212A, no string needs its own look (one scan of the text instead of
 * one per string; a one-byte string cannot hold any of them and is not even scanned by V8).
 */
export function onText<T>(text: string, fn: () => T): T {
  return progressively((plain) => {
    plain(!EXOTIC.test(text));
    return fn();
  });
}

/**
 * `onText` for a text read a part at a time: `fn` says, as it learns it, whether the text so far
 * holds none of EXOTIC (the engine's walk, from the security scan of each chunk before the
 * chunk's lines go on). Until it says so, every string gets its own look.
 */
export function progressively<T>(fn: (plain: (yes: boolean) => void) => T): T {
  const before = plainText;
  plainText = false;
  try {
    return fn((yes) => {
      plainText = yes;
    });
  } finally {
    plainText = before;
  }
}

interface Analysis {
  /** The V8 translation, when backtracking is provably bounded. */
  native: Native | null;
  numbered?: Numbered;
  /** A substring every match contains (checked with `includes` before any regex runs). */
  literal: string | null;
}

function analyze(source: string): Analysis {
  let body = source;
  let flags = "";
  if (body.startsWith("(?i)")) {
    body = body.slice(4);
    flags = "i";
  }
  // An astral character in the pattern is two units to V8 (a repeat would take only the second),
  // and `(?i)` on non-ASCII, typed or as `\x80`–`\xff`, folds otherwise (Å and U+212B, ß and
  // U+1E9E, θ and ϴ …): re2js runs those.
  if (/[\uD800-\uDFFF]/.test(body) || (flags && /[^ -~\t\n\r]|\\x[89a-fA-F]/.test(body))) {
    return { native: null, literal: null };
  }
  const parser = new Parser(body);
  const tree = parser.parse();
  if (!tree || parser.pos !== body.length) return { native: null, literal: null };
  const literal = flags ? null : requiredLiteral(tree);
  let unbounded = 0;
  let width = 0;
  let unsafe = false;
  const visit = (node: Node): void => {
    if (node.kind === "group") { for (const alt of node.alts) alt.forEach(visit); }
    if (node.kind === "repeat") {
      if (node.max === Infinity) unbounded++;
      else width += node.max;
      // A repeat over anything wider than one character (other than `?`) can backtrack
      // exponentially; leave it to re2js.
      if (node.child.kind !== "char" && node.max > 1) unsafe = true;
      // A group that can match empty under a repeat (`(a?)?`): RE2 gives its capture as "", V8
      // as undefined.
      if (node.child.kind === "group" && nullable([node.child])) unsafe = true;
      visit(node.child);
    }
  };
  for (const alt of tree) alt.forEach(visit);
  const anchored = isAnchored(tree);
  const linear = !unsafe && width <= 2000 && (unbounded === 0 || (anchored && unbounded <= 1));
  if (!linear) return { native: null, literal };
  let numbered = "";
  let last = 0;
  for (const { at, length } of parser.named) {
    numbered += parser.out.slice(last, at) + "(";
    last = at + length;
  }
  numbered += parser.out.slice(last);
  return {
    native: {
      body: parser.out,
      flags,
      anchored,
      first: anchored && !flags ? firstCodes(tree) : null,
      exact: !flags && !wideRisk(tree) && !tree.some(nullable),
    },
    literal,
    numbered: { body: numbered, names: parser.names },
  };
}

/** Every top-level alternative starts with `^`. */
function isAnchored(tree: Node[][]): boolean {
  return tree.every((alt) => alt[0]?.kind === "anchor" && alt[0].start);
}

/** The tree of a pattern without flags that the parser reads whole and that is anchored, or null. */
function anchoredTree(source: string): Node[][] | null {
  if (source.startsWith("(?")) return null;
  const parser = new Parser(source);
  const tree = parser.parse();
  if (!tree || parser.pos !== source.length || !isAnchored(tree)) return null;
  return tree;
}

/**
 * Whether a match of an RE2 pattern can start with a space or tab (true unless its tree rules
 * that out: `^` then `\S`, `\d`, `\w`, a literal, a group of such …; true for a pattern
 * this parser cannot read, one not anchored at the start, or one with flags).
 */
export function mayStartBlank(source: string): boolean {
  const tree = anchoredTree(source);
  if (tree === null) return true;
  // A non-blank class (`\S`, `\d`, `\w`) adds no code, but is known not to start blank.
  const codes = startCodes(tree, (node) => node.noBlank ? new Set() : null);
  return codes === null || codes.has(32) || codes.has(9);
}

/**
 * The UTF-16 units the first character after a line's leading spaces and tabs can be, for any
 * line an anchored pattern matches (`^\s*(FAIL|ok) ` → F, o): null when any can, or the tree
 * does not say (not anchored, unreadable, a class of unknown members, a blank after the skipped
 * ones). Leading nodes that only take whitespace (`\s*`, ` ?`, ` `) are skipped: the line's own
 * leading blanks are. test_summary keys its per-character testers by this.
 */
export function firstAfterBlanks(source: string): Set<number> | null {
  const tree = anchoredTree(source);
  if (tree === null) return null;
  const out = new Set<number>();
  for (const alt of tree) {
    let i = 1;
    while (i < alt.length && blankOnly(alt[i])) i++;
    const f = sequenceFirst(alt.slice(i), (node) => node.members ? unitsOf(node.members) : null);
    if (f === null || f.empty) return null;
    for (const c of f.codes) out.add(c);
  }
  return out.has(32) || out.has(9) ? null : out;
}

/**
 * A node that only ever takes whitespace: a literal space or tab character, `\s`, or a repeat
 * of one (the escape `\t` is not recognised: a shape with it gives null, which is only slower).
 * `\s`'s members are RE2's; V8's `\s` takes more, but a set holding a space or tab is null
 * anyway, and a line going on with other whitespace takes the full classifier.
 */
function blankOnly(node: Node): boolean {
  const char = node.kind === "repeat" ? node.child : node;
  if (char.kind !== "char") return false;
  const members = char.lit ?? char.members;
  return members !== undefined && /^\s+$/.test(members);
}

const unitsOf = (text: string): Set<number> => {
  const units = new Set<number>();
  for (let i = 0; i < text.length; i++) units.add(text.charCodeAt(i));
  return units;
};

/**
 * What a match of a node or sequence can start with: codes (a class counts as `classCodes`
 * says), or null for any character.
 */
type First = { codes: Set<number>; empty: boolean } | null;
type ClassCodes = (node: Node & { kind: "char" }) => Set<number> | null;

/**
 * The codes the first character of any match of an anchored tree can have: null when a
 * match can start with any character (a class, `.`, `\b`) or be empty at column 0.
 */
function firstCodes(tree: Node[][]): Set<number> | null {
  return startCodes(tree, () => null);
}

/** firstCodes with classes as `classCodes` says. */
function startCodes(tree: Node[][], classCodes: ClassCodes): Set<number> | null {
  const out = new Set<number>();
  for (const alt of tree) {
    const f = sequenceFirst(alt, classCodes);
    if (f === null || f.empty) return null;
    for (const c of f.codes) out.add(c);
  }
  return out;
}

function sequenceFirst(seq: Node[], classCodes: ClassCodes): First {
  const codes = new Set<number>();
  for (const node of seq) {
    if (node.kind === "anchor") {
      if (node.start) continue;
      return null;
    }
    const f = nodeFirst(node, classCodes);
    if (f === null) return null;
    for (const c of f.codes) codes.add(c);
    if (!f.empty) return { codes, empty: false };
  }
  return { codes, empty: true };
}

function nodeFirst(node: Node, classCodes: ClassCodes): First {
  if (node.kind === "char") {
    if (node.lit !== undefined) return { codes: new Set([node.lit.charCodeAt(0)]), empty: false };
    const codes = classCodes(node);
    return codes && { codes, empty: false };
  }
  if (node.kind === "repeat") {
    const f = nodeFirst(node.child, classCodes);
    return f && { codes: f.codes, empty: f.empty || node.min === 0 };
  }
  if (node.kind === "group") {
    const codes = new Set<number>();
    let empty = false;
    for (const alt of node.alts) {
      const f = sequenceFirst(alt, classCodes);
      if (f === null) return null;
      for (const c of f.codes) codes.add(c);
      empty ||= f.empty;
    }
    return { codes, empty };
  }
  return null;
}

/**
 * Whether a class that can take a surrogate (`wide`) sits where V8 (UTF-16 units) and RE2 (code
 * points) may match otherwise. It is safe only as a `*` or `+` run (so that how many units it
 * takes does not matter) between a literal or `^` before it and a literal or `$` after it (so
 * that it cannot start or end inside a surrogate pair), or at the pattern's start or greedy at
 * its end (`^\S+: In ` and `'.*' is up to date` are safe; `x.y`, `\S{1,400}`, `(\S+)` are not).
 */
function wideRisk(tree: Node[][]): boolean {
  const literal = (node: Node | undefined) => node?.kind === "char" && node.lit !== undefined;
  const risky = (seq: Node[], top: boolean): boolean =>
    seq.some((node, i) => {
      if (node.kind === "group") return node.alts.some((alt) => risky(alt, false));
      if (node.kind === "char") return node.wide === true;
      if (node.kind !== "repeat") return false;
      const child = node.child;
      if (child.kind === "group") return child.alts.some((alt) => risky(alt, false));
      if (child.kind !== "char" || !child.wide) return false;
      if (child.split) return true;
      if (node.max !== Infinity || node.min > 1) return true;
      const before = seq[i - 1];
      const after = seq[i + 1];
      const startOk = before === undefined
        ? top
        : literal(before) || (before.kind === "anchor" && before.start);
      const endOk = after === undefined
        ? top && !node.lazy
        : literal(after) || (after.kind === "anchor" && after.end === true);
      return !(startOk && endOk);
    });
  return tree.some((alt) => risky(alt, true));
}

/**
 * Whether a sequence can match the empty string. A pattern that can is not `exact`: V8 steps
 * over an empty match by one UTF-16 unit, into a surrogate pair, where RE2 steps a code point.
 */
function nullable(seq: Node[]): boolean {
  return seq.every((node) =>
    node.kind === "anchor" ||
    (node.kind === "repeat" && (node.min === 0 || nullable([node.child]))) ||
    (node.kind === "group" && node.alts.some(nullable))
  );
}

/**
 * The longest run of plain characters every match contains: the top-level sequence, looking
 * through groups with a single alternative (`: (?P<sev>warning): ` gives ": warning: ").
 */
function requiredLiteral(tree: Node[][]): string | null {
  if (tree.length !== 1) return null;
  let best = "";
  let run = "";
  const walk = (seq: Node[]): void => {
    for (const node of seq) {
      if (node.kind === "char" && node.lit !== undefined) {
        run += node.lit;
        if (run.length > best.length) best = run;
      } else if (node.kind === "group" && node.alts.length === 1) {
        walk(node.alts[0]);
      } else {
        run = "";
      }
    }
  };
  walk(tree[0]);
  return best.length >= 2 ? best : null;
}

class Parser {
  pos = 0;
  out = "";
  /** Capturing groups opened so far. */
  groups = 0;
  /** Named group → its index. */
  names = new Map<string, number>();
  /** Where each named group's `(?<name>` stands in `out`. */
  named: { at: number; length: number }[] = [];
  constructor(readonly src: string) {}

  parse(): Node[][] | null {
    return this.#alts();
  }

  #alts(): Node[][] | null {
    const alts: Node[][] = [];
    let seq: Node[] = [];
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === ")") break;
      if (c === "|") {
        this.pos++;
        this.out += "|";
        alts.push(seq);
        seq = [];
        continue;
      }
      const atom = this.#atom();
      if (!atom) return null;
      const repeated = this.#quantifier(atom);
      if (repeated === null) return null;
      seq.push(repeated);
    }
    alts.push(seq);
    return alts;
  }

  #atom(): Node | null {
    const s = this.src;
    const c = s[this.pos];
    if (c === "(") {
      if (s.startsWith("(?:", this.pos)) {
        this.pos += 3;
        this.out += "(?:";
      } else if (s.startsWith("(?P<", this.pos) || s.startsWith("(?<", this.pos)) {
        const open = s.indexOf("<", this.pos);
        const close = s.indexOf(">", open);
        const name = s.slice(open + 1, close);
        if (close < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return null;
        this.pos = close + 1;
        this.names.set(name, ++this.groups);
        this.named.push({ at: this.out.length, length: name.length + 4 });
        this.out += `(?<${name}>`;
      } else if (s[this.pos + 1] === "?") {
        return null;
      } else {
        this.pos++;
        this.groups++;
        this.out += "(";
      }
      const alts = this.#alts();
      if (!alts || s[this.pos] !== ")") return null;
      this.pos++;
      this.out += ")";
      return { kind: "group", alts };
    }
    if (c === "[") return this.#charClass();
    if (c === "\\") {
      const e = s[this.pos + 1];
      if (e === undefined) return null;
      if (e === "b" || e === "B") {
        this.pos += 2;
        this.out += "\\" + e;
        return { kind: "anchor", start: false };
      }
      if (e === "x") {
        const hex = s.slice(this.pos + 2, this.pos + 4);
        if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
        this.pos += 4;
        this.out += "\\x" + hex;
        return { kind: "char" };
      }
      if (ESCAPES_OK.has(e) || /[^A-Za-z0-9]/.test(e)) {
        this.pos += 2;
        // RE2's `\s` is [\t\n\f\r ]; V8's also takes \v, U+00A0, U+3000 … (see RE2_SPACE).
        this.out += e === "s" ? `[${RE2_SPACE}]` : e === "S" ? `[^${RE2_SPACE}]` : "\\" + e;
        if (!ESCAPES_OK.has(e)) return { kind: "char", lit: e };
        if (e === "d") return { kind: "char", noBlank: true, members: "0123456789" };
        if (e === "s") return { kind: "char", members: "\t\n\f\r " };
        const wide = "SWD".includes(e);
        return "Sdw".includes(e) ? { kind: "char", noBlank: true, wide } : { kind: "char", wide };
      }
      return null;
    }
    if (c === "^" || c === "$") {
      this.pos++;
      this.out += c;
      return { kind: "anchor", start: c === "^", end: c === "$" };
    }
    if (c === "*" || c === "+" || c === "?" || c === "{" || c === "}" || c === "]") return null;
    this.pos++;
    // RE2's `.` is any character but a newline; V8's also refuses \r, U+2028 and U+2029.
    this.out += c === "/" ? "\\/" : c === "." ? "[^\\n]" : c;
    return c === "." ? { kind: "char", wide: true } : { kind: "char", lit: c };
  }

  #charClass(): Node | null {
    const s = this.src;
    let i = this.pos + 1;
    let text = "[";
    if (s[i] === "^") {
      text += "^";
      i++;
    }
    if (s[i] === "]") return null;
    while (i < s.length && s[i] !== "]") {
      const c = s[i];
      if (c === "[") {
        if (s[i + 1] === ":") return null;
        text += "\\[";
        i++;
        continue;
      }
      if (c === "\\") {
        const e = s[i + 1];
        if (e === undefined) return null;
        if (e === "x") {
          const hex = s.slice(i + 2, i + 4);
          if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
          text += "\\x" + hex;
          i += 4;
          continue;
        }
        if (!(ESCAPES_OK.has(e) || /[^A-Za-z0-9]/.test(e))) return null;
        // `\S` among other members has no V8 form without the `v` flag: re2js runs it.
        if (e === "S") return null;
        text += e === "s" ? RE2_SPACE : "\\" + e;
        i += 2;
        continue;
      }
      text += c;
      i++;
    }
    if (s[i] !== "]") return null;
    const body = s.slice(this.pos + 1, i);
    this.pos = i + 1;
    this.out += text + "]";
    // Negated, `\W`/`\D` among the members, or a member from U+D800 up (a range over the
    // surrogates): V8 may take half of a surrogate pair.
    if (/[\uD800-\uFFFF]/.test(body)) return { kind: "char", wide: true, split: true };
    if (body.startsWith("^") || /\\[WD]/.test(body)) return { kind: "char", wide: true };
    // Plain members only (no range or escape): what the class takes is its text.
    return /^[^\\-][^\\-]*$/.test(body) ? { kind: "char", members: body } : { kind: "char" };
  }

  #quantifier(atom: Node): Node | null {
    const s = this.src;
    const c = s[this.pos];
    let min = 1;
    let max = 1;
    if (c === "*" || c === "+" || c === "?") {
      this.pos++;
      this.out += c;
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Infinity;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.pos));
      if (!m) return null;
      this.pos += m[0].length;
      this.out += m[0];
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      if (max < min || min > 1000) return null;
    } else {
      return atom;
    }
    if (atom.kind === "anchor") return null;
    const lazy = s[this.pos] === "?";
    if (lazy) {
      this.pos++;
      this.out += "?";
    }
    if (s[this.pos] === "*" || s[this.pos] === "+" || s[this.pos] === "{") return null;
    return { kind: "repeat", child: atom, min, max, lazy };
  }
}
