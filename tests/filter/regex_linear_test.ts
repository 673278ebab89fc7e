/**
 * The linearity check, tried as an adversary would: random patterns built from repeats of
 * overlapping classes, alternations and anchors; every one the check lets run on V8 must stay
 * within a budget of thread CPU time on long lines built from the characters it names (a
 * quadratic one, `\d+x`, takes several times the budget on the line of digits; a loaded machine
 * adds waiting, not CPU time).
 */
import { fastestMs } from "../_support/timing.ts";
import { expect } from "expect";
import { v8Form } from "../../src/filter/regex.ts";

/** A small deterministic generator (mulberry32), so a failure names a reproducible pattern. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ATOMS = ["a", "b", ":", " ", ".", "\\s", "\\S", "\\d", "\\w", "[ab]", "[^a]", "x", "1"];
const QUANTIFIERS = ["", "", "*", "+", "?", "{0,5}", "{1,40}", "{0,300}", "{2}", "+?", "{1,900}"];
/** Line symbols: single characters and pairs the atoms above take, to build long lines. */
const FILLERS = ["a", "b", ":", " ", "1", "x", ".", "ab", "a:", "a ", "1:", "x "];
const LENGTH = 20_000;
const BUDGET_MS = 250;

function pattern(next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const atom = (): string => {
    if (next() < 0.15) return `(${pick(ATOMS)}${pick(QUANTIFIERS)}|${pick(ATOMS)})`;
    return pick(ATOMS);
  };
  let out = next() < 0.5 ? "^" : "";
  const n = 2 + Math.floor(next() * 4);
  for (let i = 0; i < n; i++) out += atom() + pick(QUANTIFIERS);
  if (next() < 0.3) out += "$";
  else if (next() < 0.5) out += "z";
  return out;
}

Deno.test("every random pattern the check accepts runs in linear time on adversarial lines", () => {
  const next = random(22);
  let accepted = 0;
  const slow: string[] = [];
  for (let k = 0; k < 3000 && accepted < 400; k++) {
    const source = pattern(next);
    const form = v8Form(source);
    if (!form) continue;
    accepted++;
    const re = new RegExp(form.body, form.flags);
    for (const filler of FILLERS) {
      const line = filler.repeat(LENGTH / filler.length);
      for (const text of [line, line + "!", "b" + line]) {
        const ms = fastestMs(() => re.test(text), BUDGET_MS);
        if (ms > BUDGET_MS) {
          slow.push(`${source} on ${JSON.stringify(filler)}: ${ms.toFixed(0)} ms`);
        }
      }
    }
  }
  // The generator must reach the interesting part: patterns the check accepts.
  expect(accepted).toBeGreaterThan(150);
  expect(slow).toEqual([]);
});

Deno.test("the check refuses the shapes that are polynomial on V8", () => {
  for (
    const source of [
      ".{0,1000}.{0,1000}z",
      "^a*a{0,999}a{0,999}b",
      "^\\S+::\\S.* (FAILED|ERROR)\\b",
      "^.*\\d+y",
      "\\d+x",
      "(a|ab)*c",
    ]
  ) {
    expect([source, v8Form(source)]).toEqual([source, null]);
  }
});
