/**
 * Line-anchored patterns tried by a line's first non-whitespace character: most lines of a long
 * output can start none of a list's shapes, and a pattern that cannot match them need not run.
 * What a pattern's line may start with is read from its source once (`startsOf`); a pattern read
 * as "anything" is always tried, so the answers are those of trying every pattern.
 */

/** Whether a character is whitespace as `\s` reads it (Unicode's spaces and line ends too). */
const SPACE = /^\s$/;

/** A line's first character that `\s` does not match, or "" when the line is blank. */
export function firstNonSpace(line: string): string {
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    if (code > 32 && code < 127) return line[i];
    if (code === 32 || (code >= 9 && code <= 13)) continue;
    if (!SPACE.test(line[i])) return line[i];
  }
  return "";
}

/** Characters an atom may match (a set of characters, or null: any). */
type Chars = Set<string> | null;

/** What a sequence's first non-whitespace character may be, and whether it may consume only whitespace. */
interface Start {
  chars: Chars;
  passes: boolean;
}

const DIGITS = "0123456789";
const WORD = `${DIGITS}abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_`;
/** The whitespace characters of `\s` (ECMAScript's WhiteSpace and LineTerminator). */
const SPACES =
  "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";
/** Classes read as sets; the others (`\S`, `\D`, `\W`, `.`) as any character. */
const CLASS_ESCAPES: Record<string, string> = { d: DIGITS, w: WORD, s: SPACES };
const CHAR_ESCAPES: Record<string, string> = { t: "\t", n: "\n", v: "\v", f: "\f", r: "\r" };
/** Ranges in a class longer than this are read as any character. */
const MAX_RANGE = 256;

/**
 * The characters a line that `source` matches may have as its first non-whitespace character,
 * or null when that cannot be told (the pattern is not anchored at `^` in every alternative, or
 * may start with something other than a set of characters known to hold no whitespace).
 */
export function startsOf(source: string): Set<string> | null {
  try {
    const reader = new Reader(source);
    const start = reader.alternation(true);
    if (reader.pos !== source.length || start.passes) return null;
    return start.chars;
  } catch {
    return null;
  }
}

class Reader {
  pos = 0;
  constructor(readonly src: string) {}

  /** Alternatives up to `)` or the end; at the top, each must begin with `^`. */
  alternation(top: boolean): Start {
    const chars = new Set<string>();
    let any = false;
    let passes = false;
    for (;;) {
      if (top && this.src[this.pos] !== "^") throw new Error("not anchored");
      const seq = this.sequence();
      if (seq.chars === null) any = true;
      else for (const c of seq.chars) chars.add(c);
      passes ||= seq.passes;
      if (this.src[this.pos] !== "|") break;
      this.pos++;
    }
    return { chars: any ? null : chars, passes };
  }

  /** A sequence of atoms: the first atom that must consume a non-whitespace character ends it. */
  sequence(): Start {
    const chars = new Set<string>();
    let open = true;
    while (this.pos < this.src.length && this.src[this.pos] !== "|" && this.src[this.pos] !== ")") {
      const atom = this.atom();
      const min = this.quantifier();
      if (!open) continue;
      if (atom.chars === null) return this.#rest(null);
      for (const c of atom.chars) chars.add(c);
      if (!(atom.passes || min === 0)) open = false;
    }
    return { chars, passes: open };
  }

  /** Reads to the end of the current sequence, answering `chars`. */
  #rest(chars: Chars): Start {
    while (this.pos < this.src.length && this.src[this.pos] !== "|" && this.src[this.pos] !== ")") {
      this.atom();
      this.quantifier();
    }
    return { chars, passes: false };
  }

  /** One atom: a group, a class, an escape, an anchor or a character. */
  atom(): Start {
    const c = this.src[this.pos++];
    if (c === "^" || c === "$") return { chars: new Set(), passes: true };
    if (c === "(") {
      if (this.src[this.pos] === "?") {
        if (this.src[this.pos + 1] === ":") this.pos += 2;
        else if (this.src[this.pos + 1] === "<" && /\w/.test(this.src[this.pos + 2])) {
          this.pos = this.src.indexOf(">", this.pos) + 1;
        } else throw new Error("lookaround");
      }
      const inner = this.alternation(false);
      if (this.src[this.pos++] !== ")") throw new Error("unclosed group");
      return inner;
    }
    if (c === "[") return this.#set(this.#classChars());
    if (c === ".") return { chars: null, passes: false };
    if (c === "\\") {
      const e = this.src[this.pos++];
      if (e === "b" || e === "B") return { chars: new Set(), passes: true };
      if (e in CLASS_ESCAPES) return this.#set(new Set(CLASS_ESCAPES[e]));
      if (e in CHAR_ESCAPES) return this.#set(new Set(CHAR_ESCAPES[e]));
      if (e === "S" || e === "D" || e === "W") return { chars: null, passes: false };
      if (/[\w]/.test(e)) throw new Error(`escape \\${e}`);
      return this.#set(new Set(e));
    }
    if ("*+?{".includes(c)) throw new Error("quantifier without atom");
    return this.#set(new Set(c));
  }

  /** A set of characters: whitespace only passes, no whitespace is a start, a mix is any. */
  #set(chars: Set<string> | null): Start {
    if (chars === null) return { chars: null, passes: false };
    let spaces = 0;
    for (const c of chars) if (SPACE.test(c)) spaces++;
    if (spaces === chars.size) return { chars: new Set(), passes: true };
    return spaces ? { chars: null, passes: false } : { chars, passes: false };
  }

  /** A class's characters after its `[`, or null (negated, or too wide). */
  #classChars(): Set<string> | null {
    let negated = false;
    if (this.src[this.pos] === "^") {
      negated = true;
      this.pos++;
    }
    const chars = new Set<string>();
    let wide = false;
    let first = true;
    while (this.pos < this.src.length && (this.src[this.pos] !== "]" || first)) {
      first = false;
      let c = this.src[this.pos++];
      if (c === "\\") {
        const e = this.src[this.pos++];
        if (e in CLASS_ESCAPES) {
          for (const x of CLASS_ESCAPES[e]) chars.add(x);
          continue;
        }
        if (e in CHAR_ESCAPES) c = CHAR_ESCAPES[e];
        else if (/[\w]/.test(e)) {
          wide = true;
          continue;
        } else c = e;
      }
      if (this.src[this.pos] === "-" && this.src[this.pos + 1] !== "]") {
        let to = this.src[this.pos + 1];
        this.pos += 2;
        if (to === "\\") {
          to = this.src[this.pos++];
          if (/\w/.test(to)) wide = true;
        }
        const from = c.charCodeAt(0);
        const end = to.charCodeAt(0);
        if (end - from > MAX_RANGE) wide = true;
        for (let k = from; k <= end && !wide; k++) chars.add(String.fromCharCode(k));
        continue;
      }
      chars.add(c);
    }
    if (this.src[this.pos++] !== "]") throw new Error("unclosed class");
    return negated || wide ? null : chars;
  }

  /** A quantifier after an atom (lazy or not): its least count (1 when there is none). */
  quantifier(): number {
    const c = this.src[this.pos];
    let min = 1;
    if (c === "*" || c === "?") {
      min = 0;
      this.pos++;
    } else if (c === "+") this.pos++;
    else if (c === "{") {
      const m = /^\{(\d+)(?:,\d*)?\}/.exec(this.src.slice(this.pos, this.pos + 24));
      if (!m) throw new Error("brace");
      min = Number(m[1]);
      this.pos += m[0].length;
    } else return 1;
    if (this.src[this.pos] === "?") this.pos++;
    return min;
  }
}

/**
 * `source` with its capturing groups made non-capturing: only whether a pattern matches is asked,
 * and a match's captures are copied out on every call.
 */
export function withoutCaptures(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      out += c + source[++i];
      continue;
    }
    if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(" && source[i + 1] !== "?") {
      out += "(?:";
      continue;
    } else if (c === "(" && source[i + 2] === "<" && /\w/.test(source[i + 3] ?? "")) {
      out += "(?:";
      i = source.indexOf(">", i);
      continue;
    }
    out += c;
  }
  return out;
}

/** Characters no pattern names that are remembered as such (a line may start with any). */
const MAX_UNNAMED = 512;

/**
 * Lists of patterns, each list one pattern per shape: `which(line)` is the index of the first list
 * with a pattern matching the line, or -1 (the answer of trying each pattern in turn). A pattern
 * anchored at `^` is tried only on lines whose first non-whitespace character it may start with;
 * a list's patterns run as one alternation.
 */
export class StartIndex {
  /** Each pattern's source and its starts (null: any). */
  #lists: { source: string; starts: Set<string> | null }[][];
  /** Every character some pattern names as its start. */
  #named = new Set<string>();
  /** Per first character, the patterns it may start (those of no start for the others). */
  #byStart = new Map<string, Tries>();
  /** The patterns of no start: what a character no pattern names may start. */
  #unnamed: Tries | null = null;

  constructor(lists: RegExp[][]) {
    this.#lists = lists.map((list) =>
      list.map((re) => {
        // Joined into one alternation: flags and back-references would change what it matches.
        if (re.flags !== "" || /\\[1-9k]/.test(re.source)) {
          throw new Error(`Cannot index /${re.source}/${re.flags}: flags or back-references`);
        }
        const starts = startsOf(re.source);
        for (const c of starts ?? []) this.#named.add(c);
        return { source: withoutCaptures(re.source), starts };
      })
    );
  }

  /** `first`: the line's `firstNonSpace`, when the caller has it. */
  which(line: string, first: string = firstNonSpace(line)): number {
    const tries = this.#byStart.get(first) ?? this.#triesFor(first);
    // Most lines match nothing: one alternation of every list says so in one call.
    if (tries.all === null || !tries.all.test(line)) return -1;
    const { lists } = tries;
    if (tries.only >= 0) return tries.only;
    for (let i = 0; i < lists.length; i++) {
      const re = lists[i];
      if (re !== null && re.test(line)) return i;
    }
    return -1;
  }

  #triesFor(first: string): Tries {
    const named = this.#named.has(first);
    if (!named && this.#unnamed) {
      if (this.#byStart.size < MAX_UNNAMED) this.#byStart.set(first, this.#unnamed);
      return this.#unnamed;
    }
    const sources = this.#lists.map((list) =>
      list.filter((p) => p.starts === null || (named && p.starts.has(first)))
        .map((p) => `(?:${p.source})`).join("|")
    );
    const tried = sources.filter((source) => source !== "");
    const tries: Tries = {
      all: tried.length ? new RegExp(tried.join("|")) : null,
      lists: sources.map((source) => source === "" ? null : new RegExp(source)),
      only: tried.length === 1 ? sources.findIndex((source) => source !== "") : -1,
    };
    if (!named) this.#unnamed = tries;
    if (named || this.#byStart.size < MAX_UNNAMED) this.#byStart.set(first, tries);
    return tries;
  }
}

/** The patterns a line of one first character is tried on. */
interface Tries {
  /** Every list's, as one alternation (null: none). */
  all: RegExp | null;
  /** Each list's (null: none of it). */
  lists: (RegExp | null)[];
  /** The one list with patterns to try, or -1 when there are several. */
  only: number;
}
