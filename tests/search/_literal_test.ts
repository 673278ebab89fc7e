import { expect } from "expect";
import { RE2JS } from "re2js";
import { requiredLiteral } from "../../src/search/_literal.ts";

// [pattern, expected literal (null = none), whole]
const CASES: [string, string | null, boolean][] = [
  ["hello", "hello", true],
  ["needle_[0-9]+_1\\b", "needle_", false],
  ["foo.bar", "foo", false],
  ["ab*cdef", "cdef", false],
  ["abc?de", "ab", false],
  ["x{0,3}yz", "yz", false],
  ["colou?r", "colo", false],
  ["a|b", null, false],
  ["(foo|bar)baz", "baz", false],
  ["(?i)hello", null, false],
  ["\\Qa.b\\E", null, false],
  ["\\.config", ".config", false],
  ["\\d+ items", " items", false],
  ["[abc]+xyz", "xyz", false],
  ["^import ", "import ", false],
  ["", null, false],
  ["a{2}bc", "aabc", false],
  // A repeated character is spelled out: exact counts join the run, ranges end it.
  ["x{50}y", `${"x".repeat(50)}y`, false],
  ["ab{3,}c", "abbb", false],
  ["ab{2,5}", "abb", false],
  ["[a-z]{5}q", "q", false],
  ["é{3}z", "éééz", false],
  ["x{300}y", "x".repeat(256), false],
  ["日本+語", "日本", false],
];

Deno.test("requiredLiteral: table", () => {
  const got = CASES.map(([p]) => {
    const lit = requiredLiteral(p);
    return [p, lit?.text ?? null, lit?.whole ?? false];
  });
  expect(got).toEqual(CASES);
});

Deno.test("requiredLiteral: every match of the pattern contains the literal", () => {
  const samples = [
    "hello world",
    "needle_12_1 x",
    "foo-bar",
    "acdef",
    "abbbcdef",
    "abde",
    "abcde",
    "yz",
    "xxxyz",
    "color",
    "colour",
    "barbaz",
    "a .config",
    "12 items",
    "cxyz",
    "import x",
    "aabc",
    "日本語",
    "日本本語",
    `${"x".repeat(60)}y`,
    `${"x".repeat(300)}y`,
    "abbbbbc",
    "abbbbbbb",
    "hellowq",
    "éééééz",
  ];
  for (const [pattern] of CASES) {
    const lit = requiredLiteral(pattern);
    if (!lit || pattern === "") continue;
    const re = RE2JS.compile(pattern);
    for (const s of samples) {
      const m = re.matcher(s);
      if (m.find()) {
        expect({ pattern, s, has: m.group()!.includes(lit.text) }).toEqual({
          pattern,
          s,
          has: true,
        });
      }
    }
  }
});
