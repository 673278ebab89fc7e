/**
 * `line_start.ts`: what an anchored pattern's line may start with, read from its source, and
 * `StartIndex`, which tries a line only on the patterns its first non-whitespace character can
 * start: its answers are those of trying every pattern of every list in turn.
 */
import { expect } from "expect";
import {
  firstNonSpace,
  StartIndex,
  startsOf,
  withoutCaptures,
} from "../../src/filter/line_start.ts";

const chars = (set: Set<string> | null) => set === null ? null : [...set].sort().join("");

Deno.test("startsOf reads the first non-whitespace character an anchored pattern allows", () => {
  const cases: [string, string | null][] = [
    ["^test result: ", "t"],
    ["^\\s*Summary \\[", "S"],
    ["^ ?FAIL\\s+\\S", "F"],
    ["^\\s{0,40}(✕|×) ", "×✕"],
    ["^(ok|FAIL|\\?)\\s+", "?Fo"],
    ["^[ℹ#] (tests|pass) \\d+$", "#ℹ"],
    ["^\\s*\\d+\\) \\S", "0123456789"],
    ["^_{3,} .+ _{3,}$", "_"],
    ["^(?:ERROR: )?Coverage failure", "CE"],
    ["^(?<name>ab|c)d", "ac"],
    ["^\\s*[-=:]{2,}\\|", "-:="],
    ["^\\s*(?:-{3,}|_{3,})? coverage", "-_c"],
    // Anything may start these: not anchored, a class with whitespace in it, a negated class,
    // `.` or `\S`, a pattern that matches whitespace alone, a lookahead.
    ["test result: ", null],
    ["^test|FAIL", null],
    ["^[\\s|]+x", null],
    ["^:?[^\\s:]+::", null],
    ["^\\S.* => ", null],
    ["^.x", null],
    ["^\\s*$", null],
    ["^(?=a)a", null],
  ];
  for (const [source, want] of cases) {
    expect([source, chars(startsOf(source))]).toEqual([source, want]);
  }
});

Deno.test("firstNonSpace skips every character \\s matches", () => {
  expect(firstNonSpace("  \t x")).toBe("x");
  expect(firstNonSpace("\u00a0\u3000\ufeff●")).toBe("●");
  expect(firstNonSpace(" \t ")).toBe("");
  expect(firstNonSpace("")).toBe("");
});

Deno.test("withoutCaptures makes groups non-capturing and leaves escapes and classes", () => {
  expect(withoutCaptures("^(ok|FAIL|\\?)\\s+")).toBe("^(?:ok|FAIL|\\?)\\s+");
  expect(withoutCaptures("\\(x\\)[(]{1}(?:y)(?<n>z)(?=q)(?!r)")).toBe(
    "\\(x\\)[(]{1}(?:y)(?:z)(?=q)(?!r)",
  );
});

Deno.test("StartIndex answers as trying each list's patterns in turn", () => {
  const lists = [
    [/^test result: /, /^\s*Summary \[.*\btests? run:/, /^\d+ passed\b/],
    [/^---- \S.* std(out|err) ----$/, /^\s*--- FAIL: /, /^\s{0,2}(✖|×) /],
    [/^:?[^\s:]+(?::[^\s:]+){0,16}::\S.* FAILED\b/, /^test \S.* \.\.\. FAILED$/],
    [/^test \S.* \.\.\. (ok|ignored)\b/, /^\s*ok \d+ /, /panicked at/],
    [/^\s*1\.\.\d+$/, /^=+ .* =+$/],
  ];
  const index = new StartIndex(lists);
  const lines = [
    "test result: ok. 3 passed",
    "test a::b ... ok",
    "test a::b ... FAILED",
    "t.py::test_b FAILED",
    "   Summary [ 0.1s] 3 tests run: 3 passed",
    "12 passed in 0.1s",
    "---- a::b stdout ----",
    "  --- FAIL: TestX (0.00s)",
    "   × fails",
    "  × fails",
    "    ok 3 - x",
    "thread 'main' panicked at src/lib.rs:3:5",
    "  1..4",
    "=== 1 failed ===",
    "",
    "   ",
    "\u00a0test result: x",
    "nothing here",
    "● bullet",
  ];
  for (const line of lines) {
    const want = lists.findIndex((list) => list.some((re) => re.test(line)));
    expect([line, index.which(line)]).toEqual([line, want]);
    expect([line, index.which(line, firstNonSpace(line))]).toEqual([line, want]);
  }
});

Deno.test("StartIndex refuses flags and back-references, which one alternation would change", () => {
  expect(() => new StartIndex([[/^a/i]])).toThrow(/flags/);
  expect(() => new StartIndex([[/^(a)\1/]])).toThrow(/back-references/);
});
