/**
 * Finds a substring that every match of an RE2 pattern must contain, so grep can skip files and
 * lines with a native `indexOf` before running the (slower, pure JS) linear-time regex. It is
 * conservative: alternation, flag groups or `\Q` mean "no literal", and anything optional is
 * dropped from the run it belongs to.
 */

const META = new Set([..."\\^$.|?*+()[]{}"]);

export interface RequiredLiteral {
  text: string;
  /** The whole pattern is this literal: a line holding it is a match, no regex needed. */
  whole: boolean;
}

export function skipClass(p: string, i: number): number {
  // i is at "["; returns the index after the closing "]".
  let j = i + 1;
  if (p[j] === "^") j++;
  if (p[j] === "]") j++;
  while (j < p.length && p[j] !== "]") j += p[j] === "\\" ? 2 : 1;
  return j + 1;
}

export function skipGroup(p: string, i: number): number {
  // i is at "("; returns the index after the matching ")".
  let depth = 0;
  let j = i;
  while (j < p.length) {
    const c = p[j];
    if (c === "\\") j += 2;
    else if (c === "[") j = skipClass(p, j);
    else {
      if (c === "(") depth++;
      if (c === ")" && --depth === 0) return j + 1;
      j++;
    }
  }
  return j;
}

/** A `{n}`, `{n,}` or `{n,m}` repetition at i, with its minimum, or null (then `{` is literal). */
function repetition(
  p: string,
  i: number,
): { end: number; min: number; exact: boolean } | null {
  const m = /^\{(\d+)(,\d*)?\}/.exec(p.slice(i));
  return m ? { end: i + m[0].length, min: Number(m[1]), exact: m[2] === undefined } : null;
}

/** Longest run of one repeated character the required literal spells out. */
const MAX_SPELLED_REPEAT = 256;

export function requiredLiteral(pattern: string): RequiredLiteral | null {
  if (pattern.includes("(?") || pattern.includes("\\Q")) return null;
  if (![...pattern].some((c) => META.has(c))) {
    return pattern ? { text: pattern, whole: true } : null;
  }
  const runs: string[] = [];
  let run = "";
  let lastLen = 0; // length of the last literal atom in `run` (1 or 2 UTF-16 units)
  const flush = () => {
    if (run) runs.push(run);
    run = "";
    lastLen = 0;
  };
  const dropLast = () => {
    run = run.slice(0, run.length - lastLen);
    flush();
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === "|") return null;
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[A-Za-z0-9]/.test(next)) {
        flush(); // \d, \w, \b, \n, \x41, \p{L}… are not plain characters here
        i += 2;
        continue;
      }
      run += next;
      lastLen = next.length;
      i += 2;
      continue;
    }
    if (c === "[") {
      flush();
      i = skipClass(pattern, i);
      continue;
    }
    if (c === "(") {
      flush();
      i = skipGroup(pattern, i);
      continue;
    }
    if (c === "*" || c === "?") {
      dropLast();
      i++;
      continue;
    }
    if (c === "+") {
      flush();
      i++;
      continue;
    }
    if (c === "{") {
      const rep = repetition(pattern, i);
      if (rep) {
        if (rep.min === 0) dropLast();
        else if (lastLen > 0) {
          // `x{50}y` requires fifty x then y: spelling the copies out gives the prefilter a
          // literal as rare as the match, where "x" alone passes nearly every line.
          const atom = run.slice(run.length - lastLen);
          run += atom.repeat(Math.min(rep.min, MAX_SPELLED_REPEAT) - 1);
          if (!rep.exact || rep.min > MAX_SPELLED_REPEAT) flush();
        } else flush();
        i = rep.end;
        continue;
      }
    }
    if (c === "." || c === "^" || c === "$" || c === ")") {
      flush();
      i++;
      continue;
    }
    const cp = pattern.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    run += ch;
    lastLen = ch.length;
    i += ch.length;
  }
  flush();
  const best = runs.reduce((a, b) => (b.length > a.length ? b : a), "");
  return best ? { text: best, whole: false } : null;
}
