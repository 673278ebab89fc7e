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
  /**
   * How many of the text's lines hold a match, each line searched on its own: linear on both
   * engines (re2js, asked for every match of a line, may rescan the rest of the line for each:
   * `.*z|a` over a line of `a`).
   */
  countLines(text: string): number;
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
  /**
   * A class body (`\x30\x31…`) holding every character a match can start with, or null when
   * that is not known to be a set of ASCII characters (a match may be empty, start at `^`, or
   * start with a character past ASCII).
   */
  starts: string | null;
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
    throw new PatternError(
      source,
      `invalid RE2 regex: ${parserMessage(source, (error as Error).message)}${re2Hint(source)}`,
    );
  }
  const ambiguous = ambiguousRepeat(source);
  if (ambiguous) {
    throw new PatternError(
      source,
      `the repeat count "${ambiguous}" has a leading zero, which RE2 reads as literal text and V8 as a count; write it without the zero`,
    );
  }
  if (engine === "re2") return new Re2Pattern(source, re2);
  const form = translate(source);
  if (typeof form === "string") {
    throw new PatternError(source, `a built-in pattern must run on V8 in linear time: ${form}`);
  }
  return new V8Pattern(source, form);
}

/**
 * The parser's message, but where it misreads a lookbehind: RE2's parser takes `(?<` for the start
 * of a named group and says "invalid named capture", which sends the writer to the wrong construct.
 */
function parserMessage(source: string, message: string): string {
  const lookbehind = /\(\?<[=!]/.exec(source);
  if (!lookbehind || !/invalid named capture/.test(message)) return message;
  return `error parsing regexp: lookbehind \`${lookbehind[0]}\` is not RE2 syntax`;
}

/**
 * What to write instead of a construct RE2 refuses by design (it keeps every match linear): the
 * parser's own message names the construct but not the way around it.
 */
function re2Hint(source: string): string {
  if (/\(\?<?[=!]/.test(source)) {
    return "; RE2 has no lookahead or lookbehind: match the text itself (`^ok \\d+ ` rather than `^ok(?= )`), or leave the condition out and add a narrower pattern";
  }
  if (/\\[1-9]/.test(source)) {
    return "; RE2 has no backreferences (`\\1`): match the repeated text with its own pattern";
  }
  if (/[*+?}][+]/.test(source)) {
    return "; RE2 has no possessive repeats (`++`, `*+`): write the plain repeat, which cannot backtrack in RE2";
  }
  return "";
}

/**
 * A repeat count the two engines read differently (`a{01}`, `a{1,02}`: a count to V8, literal
 * text to RE2), or null. Escapes and character classes are skipped.
 */
function ambiguousRepeat(source: string): string | null {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]" || source[i - 1] === "[" || source[i - 1] === "^";
    else if (c === "[") inClass = true;
    else if (c === "{") {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (m && [m[1], m[2] ?? ""].some((n) => n.length > 1 && n[0] === "0")) return m[0];
    }
  }
  return null;
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

/**
 * Texts one of which every match of a valid RE2 pattern holds (`eslint` in `^(npx\s+)?eslint\b`,
 * `npm`, `yarn` or `bun` in `^(npm|yarn|bun)\s+install\b`), or null when none are known: `(?i)`,
 * syntax outside the V8-compatible subset, an alternative without a literal character it cannot
 * match without. A text holding none of them cannot match, so a caller may skip the regex there
 * (the command matchers do).
 */
export function requiredLiterals(source: string): string[] | null {
  if (source.startsWith("(?i)") || /[\uD800-\uDFFF]/.test(source)) return null;
  const parser = new Parser(source);
  const tree = parser.parse();
  if (!tree || parser.pos !== source.length) return null;
  return literalsOf(tree);
}

/** Texts one of which a match of one of `alts` holds: each alternative's (`literalsIn`). */
function literalsOf(alts: Node[][]): string[] | null {
  const all = new Set<string>();
  for (const alt of alts) {
    const some = literalsIn(alt);
    if (some === null) return null;
    for (const literal of some) all.add(literal);
  }
  return [...all];
}

/**
 * Texts one of which a match of a sequence holds: its longest run of literal characters, or the
 * texts of a group it cannot match without, whichever has the longer shortest text.
 */
function literalsIn(seq: Node[]): string[] | null {
  let best: string[] | null = null;
  const offer = (some: string[] | null) => {
    if (some === null || some.length === 0) return;
    const shortest = (texts: string[]) => Math.min(...texts.map((t) => t.length));
    if (best === null || shortest(some) > shortest(best)) best = some;
  };
  let run = "";
  const end = () => {
    if (run) offer([run]);
    run = "";
  };
  // The nodes a match passes through in order: a group of one alternative is read inline, and
  // anchors take no character, so the literals either side of them are adjacent.
  const walk = (nodes: Node[]) => {
    for (const node of nodes) {
      if (node.kind === "anchor") continue;
      if (node.kind === "char" && node.lit !== undefined) run += node.lit;
      else if (node.kind === "group" && node.alts.length === 1) walk(node.alts[0]);
      else if (node.kind === "repeat" && node.min >= 1 && node.child.kind === "char") {
        // `xa+y` holds `xa` and `ay`: the first and the last of the repeat's characters.
        const lit = node.child.lit;
        if (lit !== undefined) run += lit;
        end();
        if (lit !== undefined) run = lit;
      } else {
        end();
        const group = node.kind === "repeat" && node.min >= 1 ? node.child : node;
        if (group.kind === "group") offer(literalsOf(group.alts));
      }
    }
  };
  walk(seq);
  end();
  return best;
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
  search(text: string, from: number): { start: number; end: number } | null {
    const re = this.#global;
    re.lastIndex = from;
    const m = re.exec(text);
    return m === null ? null : { start: m.index, end: m.index + m[0].length };
  }
  countLines(text: string): number {
    return countLines(text, (line) => this.#re.test(line));
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
  countLines(text: string): number {
    return countLines(text, (line) => this.re.test(line));
  }
  search(text: string, from: number): { start: number; end: number } | null {
    if (from > text.length) return null;
    const m = this.re.matcher(text);
    return m.find(from) ? { start: m.start(), end: m.end() } : null;
  }
}

function countLines(text: string, test: (line: string) => boolean): number {
  let n = 0;
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (test(text.slice(start, end))) n++;
    start = end + 1;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Translation and linearity check. The parser reads a conservative subset of RE2 syntax that
// means the same in JavaScript once `\s`, `\S` and `.` are spelled out; anything outside it
// (POSIX classes, \pL, \A, \z, inline flags other than a leading (?i), possessive forms) has no
// V8 form.

type Node =
  | {
    kind: "char";
    lit?: string; /** Its V8 text (a class, an escape, a character). */
    re?: string;
  }
  | { kind: "anchor"; start: boolean; /** `$` (not `\b`, `\B`). */ end?: boolean }
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
  const problem = linearityProblem(tree, flags);
  if (problem) return problem;
  let bare = "";
  let last = 0;
  for (const { at, length } of parser.captures) {
    bare += parser.out.slice(last, at) + "(?:";
    last = at + length;
  }
  bare += parser.out.slice(last);
  const starts = body.replace(/\[\^/g, "").includes("^") ? null : new Choices(tree, flags).starts();
  return { body: parser.out, bare, flags, anchored: tree.every(startsAnchored), starts };
}

const startsAnchored = (alt: Node[]) => alt[0]?.kind === "anchor" && alt[0].start;

/**
 * Most paths one match attempt may explore, over the bounded repeats and alternations, when the
 * attempt is made at every position of a line or runs after an unbounded repeat (so the line's
 * length multiplies it).
 */
const MAX_PATHS_PER_POSITION = 500;
/** The same, for a pattern anchored at the start with no unbounded repeat (tried once a line). */
const MAX_PATHS_ANCHORED = 100_000;

/**
 * Why V8's backtracking could take more than linear time on a pattern, or null. A backtracking
 * attempt explores at most the product of the choices of the pattern's repeats and alternations
 * (a repeat `{m,n}` has n - m + 1; a group the sum of its alternatives'); an unbounded repeat
 * has as many as the line is long. The attempt is made once a line when every alternative starts
 * with `^`, else at every position. So a pattern is linear when it has no repeat over anything
 * wider than one character (`(ab)+`, `(a|b)*` can try exponentially many splits), at most one
 * unbounded repeat and only when anchored (`\d+ \w+` tries each split between them; `\d+x` is
 * retried from every position), and a bounded product of choices: adjacent bounded repeats
 * multiply (`.{0,1000}.{0,1000}z` explores a million paths from every position).
 */
function linearityProblem(tree: Node[][], flags: string): string | null {
  let problem: string | null = null;
  let width = 0;
  const check = (node: Node): void => {
    if (node.kind === "group") { for (const alt of node.alts) alt.forEach(check); }
    if (node.kind !== "repeat") return;
    if (node.max !== Infinity) width += node.max;
    if (node.child.kind !== "char" && node.max > 1) problem ??= "a repeat over a group";
    // RE2 gives such a group's capture as "", V8 as undefined.
    if (node.child.kind === "group" && node.child.alts.some(nullable)) {
      problem ??= "an optional group that can match empty";
    }
    check(node.child);
  };
  for (const alt of tree) alt.forEach(check);
  if (problem) return problem;
  if (width > 2000) return "bounded repeats wider than 2,000 characters in all";
  const { work, ambiguous, unbounded, leading } = new Choices(tree, flags).count();
  const anchored = tree.every(startsAnchored);
  if (unbounded > 0 && !anchored) return "an unbounded repeat, not anchored";
  if (ambiguous > 0 && unbounded > 1) return "more than one unbounded repeat";
  // Unbounded repeats scanned once (determined, before any choice) leave the work per line
  // constant; any other makes it a multiple of the line's length.
  const limit = anchored && unbounded === leading ? MAX_PATHS_ANCHORED : MAX_PATHS_PER_POSITION;
  if (work > limit) {
    return `its repeats and alternatives may take more than ${
      limit.toLocaleString("en")
    } steps to match at one position`;
  }
  return null;
}

/** What may come next at a point of a pattern: the characters, and whether the match may end. */
interface Follow {
  chars: Set<string>;
  end: boolean;
}

/**
 * Counts the paths a backtracking attempt may explore and what each may scan. A repeat is determined when nothing that may
 * follow it can start with a character it takes (`\s*-->`, `\S{1,400}$`, `\d{1,7}:`): once
 * it has taken what it can, giving a character back only offers the next element a character
 * that element cannot take, so there is one split to explore. Any other repeat is ambiguous:
 * a bounded one multiplies the paths by its choices, an unbounded one by the line's length.
 * Character sets are compared on representatives: every ASCII character, every other character
 * the pattern names, and one character it does not name (a class treats all unnamed non-ASCII
 * characters alike).
 */
class Choices {
  #reps: string[];
  #sets = new Map<string, Set<string>>();
  #flags: string;
  ambiguous = 0;
  unbounded = 0;
  /** Determined unbounded repeats before any choice: scanned once per attempt. */
  leading = 0;
  #chosen = false;

  constructor(readonly tree: Node[][], flags: string) {
    this.#flags = flags;
    const reps = new Set<string>();
    for (let c = 0; c < 128; c++) reps.add(String.fromCharCode(c));
    reps.add("\uE000");
    const named = (node: Node): void => {
      if (node.kind === "group") node.alts.forEach((alt) => alt.forEach(named));
      if (node.kind === "repeat") named(node.child);
      if (node.kind === "char" && node.re) {
        for (const c of node.re) if (c.charCodeAt(0) >= 128) reps.add(c);
        for (const m of node.re.matchAll(/\\x([0-9A-Fa-f]{2})/g)) {
          reps.add(String.fromCharCode(parseInt(m[1], 16)));
        }
      }
    };
    tree.forEach((alt) => alt.forEach(named));
    this.#reps = [...reps];
  }

  /**
   * The characters a match can start with, as a class body of `\xHH` escapes, or null when a
   * match can be empty or start with a character past ASCII. For a pattern without `^` (the
   * caller checks): `\b` and `$` take no character, so what follows them is what starts.
   */
  starts(): string | null {
    const none: Follow = { chars: new Set(), end: true };
    const chars = new Set<string>();
    for (const alt of this.tree) {
      const f = this.#first(alt, 0, none);
      if (f.end) return null;
      for (const c of f.chars) chars.add(c);
    }
    let body = "";
    for (const c of chars) {
      const code = c.charCodeAt(0);
      if (code >= 128) return null;
      body += `\\x${code.toString(16).padStart(2, "0")}`;
    }
    return body;
  }

  /** The work bound over the whole pattern (see `#seq`) and the unbounded repeats' counts. */
  count(): { work: number; ambiguous: number; unbounded: number; leading: number } {
    const end: Follow = { chars: new Set(), end: true };
    let work = 0;
    this.#chosen = this.tree.length > 1;
    for (const alt of this.tree) work += this.#seq(alt, end).work;
    const { ambiguous, unbounded, leading } = this;
    return { work, ambiguous, unbounded, leading };
  }

  /**
   * A sequence followed by `after`: `ways`, how many ways it can end (the product of its
   * elements' choices), and `work`, a bound on the steps of exploring all of them. Read from the
   * right: an element with c ways to end that scans up to w characters costs w + c × the work of
   * what follows it.
   */
  #seq(nodes: Node[], after: Follow): { ways: number; work: number } {
    const costs = nodes.map((node, i) => {
      const cost = this.#node(node, this.#first(nodes, i + 1, after));
      if (cost.ways > 1 || this.ambiguous > 0) this.#chosen = true;
      return cost;
    });
    let ways = 1;
    for (const c of costs) ways *= c.ways;
    let work = 0;
    for (let i = costs.length - 1; i >= 0; i--) work = costs[i].work + costs[i].ways * work;
    return { ways, work };
  }

  /** One element's ways to end and the characters it may scan, followed by `follow`. */
  #node(node: Node, follow: Follow): { ways: number; work: number } {
    if (node.kind === "group") {
      let ways = 0;
      let work = 0;
      for (const alt of node.alts) {
        const r = this.#seq(alt, follow);
        ways += r.ways;
        work += r.work;
      }
      return { ways, work };
    }
    if (node.kind !== "repeat") return { ways: 1, work: 1 };
    if (node.child.kind === "group") {
      const inner = node.child.alts.map((alt) => this.#seq(alt, follow));
      const ways = inner.reduce((n, r) => n + r.ways, 0);
      const work = inner.reduce((n, r) => n + r.work, 0);
      return { ways: (node.max - node.min + 1) * ways, work: node.max * work };
    }
    const determined = !this.#overlaps(this.#set(node.child), follow.chars);
    if (node.max === Infinity) {
      this.unbounded++;
      if (!determined) this.ambiguous++;
      else if (!this.#chosen) this.leading++;
      return { ways: 1, work: 1 };
    }
    return { ways: determined ? 1 : node.max - node.min + 1, work: node.max };
  }

  /** What may start at `nodes[from]` and on, then `after`. */
  #first(nodes: Node[], from: number, after: Follow): Follow {
    const chars = new Set<string>();
    for (let i = from; i < nodes.length; i++) {
      const node = nodes[i];
      if (node.kind === "anchor") {
        // `^` and `$` take no character and stop a path that is inside a run of characters.
        if (node.start || this.#isEnd(node)) return { chars, end: false };
        continue;
      }
      const f = node.kind === "repeat" ? this.#nodeFirst(node.child, nodes, i, after) : this
        .#nodeFirst(node, nodes, i, after);
      for (const c of f.chars) chars.add(c);
      const skippable = node.kind === "repeat"
        ? node.min === 0 || f.end
        : node.kind === "group" && f.end;
      if (!skippable) return { chars, end: false };
    }
    for (const c of after.chars) chars.add(c);
    return { chars, end: after.end };
  }

  /** A node's first characters; `end` when it can match empty. */
  #nodeFirst(node: Node, nodes: Node[], i: number, after: Follow): Follow {
    if (node.kind === "char") return { chars: this.#set(node), end: false };
    if (node.kind === "group") {
      const chars = new Set<string>();
      let end = false;
      const none: Follow = { chars: new Set(), end: true };
      for (const alt of node.alts) {
        const f = this.#first(alt, 0, none);
        for (const c of f.chars) chars.add(c);
        end ||= f.end;
      }
      return { chars, end };
    }
    if (node.kind === "repeat") return this.#nodeFirst(node.child, nodes, i, after);
    return { chars: new Set(), end: true };
  }

  #isEnd(node: Node): boolean {
    return node.kind === "anchor" && !node.start && node.end === true;
  }

  #set(node: Node): Set<string> {
    const re = node.kind === "char" ? node.re ?? "" : "";
    let set = this.#sets.get(re);
    if (!set) {
      const test = new RegExp(`^(?:${re})$`, this.#flags);
      set = new Set(this.#reps.filter((c) => test.test(c)));
      this.#sets.set(re, set);
    }
    return set;
  }

  #overlaps(a: Set<string>, b: Set<string>): boolean {
    for (const c of a) if (b.has(c)) return true;
    return false;
  }
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
      const at = this.out.length;
      const atom = this.#atom();
      if (!atom) return null;
      if (atom.kind === "char") atom.re = this.out.slice(at);
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
      return { kind: "anchor", start: c === "^", end: c === "$" };
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
