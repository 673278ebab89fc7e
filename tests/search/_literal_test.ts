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
  ["a{2}bc", "bc", false],
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
