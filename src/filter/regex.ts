/**
 * One gate for every regex the filters run. Patterns use RE2 syntax and are validated by re2js,
 * so backreferences and lookaround are rejected up front. Two engines:
 * - `re2` (re2js, linear in the input whatever the pattern): user patterns (filters.toml,
 *   `extra_patterns`).
 * - `v8`: built-in patterns (filters/*.toml, the strategies' defaults, the security pass). Each
 *   is translated to V8 syntax with RE2's meaning of `\s`, `\S` and `.`, and checked at load to
 *   be unable to backtrack without bound (see `linearityProblem`); one that is not throws, so a
 *   bad built-in cannot ship.
 * Both give the same answers on ordinary text; they may differ on astral characters (V8 reads
 * UTF-16 units) and on `(?i)` folding outside ASCII.
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

/** Which engine runs a pattern: `v8` for built-in patterns, `re2` for the user's. */
export type RegexEngine = "v8" | "re2";

export interface PatternMatch {
  /** Group by index (0 = whole match) or by name; undefined when it did not participate. */
  group(which: number | string): string | undefined;
}

export interface Pattern {
  readonly source: string;
  readonly engine: RegexEngine;
  /** The V8 form (`v8` engine only), for callers that combine patterns into one regex. */
  readonly v8?: V8Form;
  test(text: string): boolean;
  exec(text: string): PatternMatch | null;
  /** Replaces every match with `replacement`, taken literally (no `$1` expansion). */
  replaceAll(text: string, replacement: string): string;
  /** How many non-overlapping matches the text has. */
  countMatches(text: string): number;
  /** The leftmost match starting at or after `from`, as [start, end), or null. */
  search(text: string, from: number): { start: number; end: number } | null;
}

/** An RE2 pattern in V8 syntax: `new RegExp(body, flags)`. */
export interface V8Form {
  body: string;
  /** `body` with every group non-capturing: the same matches, for callers that only test. */
  bare: string;
  flags: string;
  /** Every top-level alternative starts with `^`. */
  anchored: boolean;
}

/**
 * Compiles a pattern on `engine`, throwing `PatternError` with a reason a user can act on.
 * @default engine "re2"
 */
export function compilePattern(source: string, engine: RegexEngine = "re2"): Pattern {
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
  if (engine === "re2") return new Re2Pattern(source, re2);
  const form = translate(source);
  if (typeof form === "string") {
    throw new PatternError(source, `a built-in pattern must run on V8 in linear time: ${form}`);
  }
  return new V8Pattern(source, form);
}

/**
 * The V8 form of a valid RE2 pattern when it is provably linear on V8 (see `linearityProblem`),
 * else null. Also used by grep's line matcher.
 */
export function v8Form(source: string): V8Form | null {
  try {
    return compilePattern(source, "v8").v8!;
  } catch {
    return null;
  }
}

class V8Pattern implements Pattern {
  readonly engine = "v8";
  #re: RegExp;
  #global: RegExp;
  constructor(readonly source: string, readonly v8: V8Form) {
    this.#re = new RegExp(v8.body, v8.flags);
    this.#global = new RegExp(v8.body, v8.flags + "g");
  }
  test(text: string): boolean {
    return this.#re.test(text);
  }
  exec(text: string): PatternMatch | null {
    const m = this.#re.exec(text);
    if (m === null) return null;
    return { group: (which) => typeof which === "number" ? m[which] : m.groups?.[which] };
  }
  replaceAll(text: string, replacement: string): string {
    this.#global.lastIndex = 0;
    return text.replace(this.#global, () => replacement);
  }
  search(text: string, from: number): { start: number; end: number } | null {
    const re = this.#global;
    re.lastIndex = from;
    const m = re.exec(text);
    return m === null ? null : { start: m.index, end: m.index + m[0].length };
  }
  countMatches(text: string): number {
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

class Re2Pattern implements Pattern {
  readonly engine = "re2";
  constructor(readonly source: string, readonly re: RE2JS) {}
  test(text: string): boolean {
    return this.re.test(text);
  }
  exec(text: string): PatternMatch | null {
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
    const m = this.re.matcher(text);
    return m.find(from) ? { start: m.start(), end: m.end() } : null;
  }
}

// ---------------------------------------------------------------------------------------------
// Translation and linearity check. The parser reads a conservative subset of RE2 syntax that
// means the same in JavaScript once `\s`, `\S` and `.` are spelled out; anything outside it
// (POSIX classes, \pL, \A, \z, inline flags other than a leading (?i), possessive forms) has no
// V8 form.

type Node =
  | { kind: "char"; lit?: string }
  | { kind: "anchor"; start: boolean }
  | { kind: "group"; alts: Node[][] }
  | { kind: "repeat"; child: Node; min: number; max: number };

/** RE2's `\s` (Perl class): tab, newline, form feed, carriage return, space — not \v. */
const RE2_SPACE = "\\t\\n\\f\\r ";

const ESCAPES_OK = new Set(["d", "D", "w", "W", "s", "S", "t", "n", "r", "f", "v"]);

/** The V8 form of `source`, or why it has none. */
function translate(source: string): V8Form | string {
  let body = source;
  let flags = "";
  if (body.startsWith("(?i)")) {
    body = body.slice(4);
    flags = "i";
  }
  // An astral character in the pattern is two units to V8 (a repeat would take only the
  // second), and `(?i)` folds non-ASCII otherwise (Å and U+212B, ß and U+1E9E …).
  if (/[\uD800-\uDFFF]/.test(body)) return "it holds a character past U+FFFF";
  if (flags && /[^ -~\t\n\r]|\\x[89a-fA-F]/.test(body)) return "(?i) with non-ASCII characters";
  const parser = new Parser(body);
  const tree = parser.parse();
  if (!tree || parser.pos !== body.length) return "it uses syntax outside the V8-compatible subset";
  const problem = linearityProblem(tree);
  if (problem) return problem;
  let bare = "";
  let last = 0;
  for (const { at, length } of parser.captures) {
    bare += parser.out.slice(last, at) + "(?:";
    last = at + length;
  }
  bare += parser.out.slice(last);
  return { body: parser.out, bare, flags, anchored: tree.every(startsAnchored) };
}

const startsAnchored = (alt: Node[]) => alt[0]?.kind === "anchor" && alt[0].start;

/**
 * Why V8's backtracking could take more than linear time on a pattern, or null: a repeat over
 * anything wider than one character (`(ab)+`, `(a|b)*` can try exponentially many splits), or
 * more than one unbounded repeat (`\d+ \w+`: each split between them is tried), or one in a
 * pattern not anchored at the start (`\d+x` is retried from every position). Bounded repeats
 * are fine up to a total width of 2,000.
 */
function linearityProblem(tree: Node[][]): string | null {
  let unbounded = 0;
  let width = 0;
  let problem: string | null = null;
  const visit = (node: Node): void => {
    if (node.kind === "group") { for (const alt of node.alts) alt.forEach(visit); }
    if (node.kind !== "repeat") return;
    if (node.max === Infinity) unbounded++;
    else width += node.max;
    if (node.child.kind !== "char" && node.max > 1) problem ??= "a repeat over a group";
    // RE2 gives such a group's capture as "", V8 as undefined.
    if (node.child.kind === "group" && node.child.alts.some(nullable)) {
      problem ??= "an optional group that can match empty";
    }
    visit(node.child);
  };
  for (const alt of tree) alt.forEach(visit);
  if (problem) return problem;
  if (width > 2000) return "bounded repeats wider than 2,000 characters in all";
  if (unbounded > 1) return "more than one unbounded repeat";
  if (unbounded === 1 && !tree.every(startsAnchored)) return "an unbounded repeat, not anchored";
  return null;
}

/** Whether a sequence can match the empty string. */
function nullable(seq: Node[]): boolean {
  return seq.every((node) =>
    node.kind === "anchor" ||
    (node.kind === "repeat" && (node.min === 0 || nullable([node.child]))) ||
    (node.kind === "group" && node.alts.some(nullable))
  );
}

class Parser {
  pos = 0;
  out = "";
  /** Where each capturing group's opening (`(`, `(?<name>`) stands in `out`. */
  captures: { at: number; length: number }[] = [];
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
        this.captures.push({ at: this.out.length, length: name.length + 4 });
        this.out += `(?<${name}>`;
      } else if (s[this.pos + 1] === "?") {
        return null;
      } else {
        this.pos++;
        this.captures.push({ at: this.out.length, length: 1 });
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
        return ESCAPES_OK.has(e) ? { kind: "char" } : { kind: "char", lit: e };
      }
      return null;
    }
    if (c === "^" || c === "$") {
      this.pos++;
      this.out += c;
      return { kind: "anchor", start: c === "^" };
    }
    if (c === "*" || c === "+" || c === "?" || c === "{" || c === "}" || c === "]") return null;
    this.pos++;
    // RE2's `.` is any character but a newline; V8's also refuses \r, U+2028 and U+2029.
    this.out += c === "/" ? "\\/" : c === "." ? "[^\\n]" : c;
    return c === "." ? { kind: "char" } : { kind: "char", lit: c };
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
        // `\S` among other members has no V8 form without the `v` flag.
        if (e === "S") return null;
        text += e === "s" ? RE2_SPACE : "\\" + e;
        i += 2;
        continue;
      }
      text += c;
      i++;
    }
    if (s[i] !== "]") return null;
    this.pos = i + 1;
    this.out += text + "]";
    return { kind: "char" };
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
    if (s[this.pos] === "?") {
      this.pos++;
      this.out += "?";
    }
    if (s[this.pos] === "*" || s[this.pos] === "+" || s[this.pos] === "{") return null;
    return { kind: "repeat", child: atom, min, max };
  }
}
