/**
 * The permission glob of the spec: `*` matches any run of characters including `/`, `?` one
 * character, `[…]` a class (`[!…]` negated); matched over the whole string, case-insensitively.
 * Hand-written matcher with star backtracking: O(n·m) worst case, no regex engine involved.
 */

type Token =
  | { t: "lit"; c: string }
  | { t: "any" }
  | { t: "star" }
  | { t: "class"; negate: boolean; ranges: [string, string][] };

export interface CompiledGlob {
  source: string;
  test(input: string): boolean;
}

function tokenize(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") {
      if (out.at(-1)?.t !== "star") out.push({ t: "star" });
    } else if (c === "?") out.push({ t: "any" });
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) {
        out.push({ t: "lit", c });
        continue;
      }
      let body = pattern.slice(i + 1, end);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let j = 0; j < body.length; j++) {
        if (body[j + 1] === "-" && j + 2 < body.length) {
          ranges.push([body[j], body[j + 2]]);
          j += 2;
        } else ranges.push([body[j], body[j]]);
      }
      out.push({ t: "class", negate, ranges });
      i = end;
    } else if (c === "\\" && i + 1 < pattern.length) {
      out.push({ t: "lit", c: pattern[++i] });
    } else out.push({ t: "lit", c });
  }
  return out;
}

function matchOne(token: Token, ch: string): boolean {
  switch (token.t) {
    case "lit":
      return token.c === ch;
    case "any":
      return true;
    case "class": {
      const hit = token.ranges.some(([lo, hi]) => ch >= lo && ch <= hi);
      return hit !== token.negate;
    }
    case "star":
      return false;
  }
}

export function compileGlob(pattern: string): CompiledGlob {
  const tokens = tokenize(pattern.toLowerCase());
  return {
    source: pattern,
    test(raw: string): boolean {
      const s = raw.toLowerCase();
      let ti = 0, si = 0, starTi = -1, starSi = 0;
      while (si < s.length) {
        const tok = tokens[ti];
        if (tok && tok.t === "star") {
          starTi = ti++;
          starSi = si;
        } else if (tok && matchOne(tok, s[si])) {
          ti++;
          si++;
        } else if (starTi >= 0) {
          ti = starTi + 1;
          si = ++starSi;
        } else return false;
      }
      while (tokens[ti]?.t === "star") ti++;
      return ti === tokens.length;
    },
  };
}

/** Escapes glob metacharacters so an "always" rule matches exactly this text. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * True when every string `inner` matches, `outer` matches too (so a rule with `outer` placed
 * first shadows one with `inner`). Sound but not complete: `outer` must consume `inner`'s
 * tokens one by one (its `*` any run of them, its `?` and classes one character), so a true
 * answer is always right and a rare false one misses a shadow that needs set reasoning.
 */
export function globCovers(outer: string, inner: string): boolean {
  const o = tokenize(outer.toLowerCase());
  const n = tokenize(inner.toLowerCase());
  const memo = new Map<number, boolean>();
  const covers = (i: number, j: number): boolean => {
    const key = i * (n.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    const a = o[i];
    const b = n[j];
    if (!a) result = !b;
    else if (a.t === "star") result = covers(i + 1, j) || (!!b && covers(i, j + 1));
    else if (!b || b.t === "star") result = false;
    else if (a.t === "any") result = covers(i + 1, j + 1);
    else if (b.t === "lit") result = matchOne(a, b.c) && covers(i + 1, j + 1);
    else if (b.t === "any") result = false;
    else result = JSON.stringify(a) === JSON.stringify(b) && covers(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return covers(0, 0);
}
