import { expect } from "expect";
import { RE2JS } from "re2js";
import {
  compilePattern,
  MAX_PATTERN_LENGTH,
  PatternError,
  type PatternMatch,
  requiredLiterals,
  v8Form,
} from "../../src/filter/regex.ts";

Deno.test("user patterns run on re2js; built-in ones on V8, only when provably linear", () => {
  const reason = (p: string) => {
    try {
      return compilePattern(p, "v8").engine;
    } catch (error) {
      return (error as PatternError).reason;
    }
  };
  const table: [string, string][] = [
    ["^\\s*Compiling ", "v8"], // anchored, one unbounded repeat
    ["AKIA[0-9A-Z]{16}", "v8"], // no unbounded repeat
    ["(?i)permission denied", "v8"],
    ["^(npm|yarn|pnpm)\\s+(install|ci)", "v8"],
    ["(a+)+$", "a repeat over a group"],
    ["(a|a)*b", "a repeat over a group"],
    ["\\d+ passed", "an unbounded repeat, not anchored"],
    ["^\\s*-->\\s*(.+:\\d+)", "more than one unbounded repeat"],
    ["^(a?){2}x", "a repeat over a group"],
    ["x{1000}y{600}z{600}", "bounded repeats wider than 2,000 characters in all"],
    // Adjacent repeats that can take the same characters multiply their choices.
    [
      ".{0,1000}.{0,1000}z",
      "its repeats and alternatives may take more than 500 steps to match at one position",
    ],
    [
      "^a*a{0,999}a{0,999}b",
      "its repeats and alternatives may take more than 500 steps to match at one position",
    ],
    // A repeat followed by what it cannot take has one split: determined, so these are linear.
    ["^\\s*--> (\\S{1,400}:\\d{1,7}:\\d{1,7})", "v8"],
    ["^\\s*(\\S+)$", "v8"],
    ["^.*\\d+y", "more than one unbounded repeat"],
    ["[[:alpha:]]+", "it uses syntax outside the V8-compatible subset"],
    ["\\pL", "it uses syntax outside the V8-compatible subset"],
    ["(?i)é", "(?i) with non-ASCII characters"],
  ];
  expect(table.map(([p]) => [p, reason(p)])).toEqual(
    table.map((
      [p, r],
    ) => [p, r === "v8" ? r : `a built-in pattern must run on V8 in linear time: ${r}`]),
  );
  expect(table.map(([p]) => compilePattern(p).engine)).toEqual(table.map(() => "re2"));
  expect(v8Form("^(?P<a>x)\\s(y|[(])\\(.")).toEqual({
    body: "^(?<a>x)[\\t\\n\\f\\r ](y|[(])\\([^\\n]",
    bare: "^(?:x)[\\t\\n\\f\\r ](?:y|[(])\\([^\\n]",
    flags: "",
    anchored: true,
    starts: null,
  });
  expect(v8Form("(?i)a|^b")).toEqual({
    body: "a|^b",
    bare: "a|^b",
    flags: "i",
    anchored: false,
    starts: null,
  });
  // The characters a match can start with: after `\b`, through optional parts, either case.
  const starts = (source: string) => {
    const body = v8Form(source)!.starts;
    return body === null ? null : [
      ...new Set(body.match(/\\x../g)!.map((x) => String.fromCharCode(parseInt(x.slice(2), 16)))),
    ].sort().join("");
  };
  expect(starts("\\bport[=: ]")).toBe("p");
  expect(starts("x?[0-9]y|\\[z")).toBe("0123456789[x");
  expect(starts("(?i)ab")).toBe("Aa");
  expect(starts("a|$")).toBe("a");
  expect(starts("a?b?")).toBeNull();
  expect(starts("é")).toBeNull();
  expect(starts("[^a]")).toBeNull();
  expect(v8Form("(a+)+$")).toBeNull();
});

Deno.test("a catastrophic user pattern finishes and answers correctly", () => {
  const pattern = compilePattern("(a+)+$");
  const attack = "a".repeat(50_000) + "!";
  expect(pattern.test(attack)).toBe(false);
  expect(pattern.test("aaa")).toBe(true);
  const nested = compilePattern("^(\\w+\\s?)*$");
  expect(nested.test("word ".repeat(20_000) + "!")).toBe(false);
});

Deno.test("compilePattern rejects bad patterns with a reason", () => {
  const reason = (p: string) => {
    try {
      compilePattern(p);
      return "accepted";
    } catch (error) {
      expect(error).toBeInstanceOf(PatternError);
      return (error as PatternError).reason;
    }
  };
  expect(reason("(a)\\1")).toContain("invalid RE2 regex");
  expect(reason("(?=x)")).toContain("invalid or unsupported Perl syntax");
  expect(reason("(unclosed")).toContain("missing closing )");
  expect(reason("")).toBe("the pattern is empty");
  expect(reason("a".repeat(MAX_PATTERN_LENGTH + 1))).toBe(
    `the pattern is ${MAX_PATTERN_LENGTH + 1} characters long; the limit is 512`,
  );
  expect(reason("a".repeat(MAX_PATTERN_LENGTH))).toBe("accepted");
  expect(() => compilePattern("(a)\\1", "v8")).toThrow("invalid RE2 regex");
});

Deno.test("both engines agree on matches, groups, replacement and counts", () => {
  const native = compilePattern("^(?P<loc>[a-z]+):(\\d{1,4})", "v8");
  const re2 = compilePattern("(?P<loc>[a-z]+):(\\d+)");
  expect([native.engine, re2.engine]).toEqual(["v8", "re2"]);
  for (const p of [native, re2]) {
    const m = p.exec("main:42 rest")!;
    expect([m.group(0), m.group(1), m.group("loc"), m.group(2)]).toEqual([
      "main:42",
      "main",
      "main",
      "42",
    ]);
    expect(p.exec("no match here")).toBeNull();
  }
  const ids = [compilePattern("id=\\d{1,5}", "v8"), compilePattern("id=\\d+")];
  expect(ids.map((p) => p.countLines("id=1 id=2\nnone\nid=3\n"))).toEqual([2, 2]);
});

Deno.test("named groups keep their names and numbers on V8, with parentheses in classes and escapes around", () => {
  // Oracle: re2js on the same source.
  const sources = [
    "^(?P<a>x)(y)(?P<b>z)$",
    "^[(?<]{1,3}(?P<a>\\(?<b>)(?:c)(?P<c>d|(e))$",
    "^(((?P<deep>q)))(?P<after>r)?",
  ];
  const inputs = ["xyz", "(?<(<b>cd", "<(<b>ce", "qr", "q", "xz"];
  const names = ["a", "b", "c", "deep", "after", "missing"];
  let matched = 0;
  for (const source of sources) {
    const pattern = compilePattern(source, "v8");
    const oracle = compilePattern(source, "re2");
    for (const input of inputs) {
      const groups = (m: PatternMatch | null) =>
        m && [...[0, 1, 2, 3, 4, 5].map((i) => m.group(i)), ...names.map((n) => m.group(n))];
      const got = groups(pattern.exec(input));
      const want = groups(oracle.exec(input));
      const m = got;
      expect({ source, input, got }).toEqual({ source, input, got: want });
      if (m) matched++;
    }
  }
  expect(matched).toBeGreaterThanOrEqual(4);
});

Deno.test("V8 gives RE2's answers for \\s, \\S and . (V8's own differ on \\v, U+00A0, U+3000, \\r, U+2028)", () => {
  const sources = ["^a\\sb", "^a\\Sb", "^a.b", "^a[\\s]b", "^a[^\\s]b", "^a[x\\s]b", "^a\\s{1,3}b"];
  const middles = ["\t", "\n", "\v", "\f", "\r", " ", "\u00a0", "\u3000", "\u2028", "\ufeff", "x"];
  for (const source of sources) {
    const pattern = compilePattern(source, "v8");
    const re2 = RE2JS.compile(source);
    for (const middle of middles) {
      const line = `a${middle}b`;
      expect({ source, middle, got: pattern.test(line) })
        .toEqual({ source, middle, got: re2.matcher(line).find() });
    }
  }
  // `\S` among other class members has no V8 form: re2js runs the pattern.
  expect(compilePattern("^a[x\\S]b").engine).toBe("re2");
  expect(compilePattern("^a[x\\S]b").test("a\u00a0b")).toBe(true);
});

Deno.test("requiredLiterals: the texts one of which every match holds, or null", () => {
  const table: [string, string[] | null][] = [
    ["^cargo\\s+(\\+\\S+\\s+)?clippy\\b", ["clippy"]],
    ["^((npx|pnpm)\\s+(exec\\s+)?)?(\\S*/)?eslint\\b", ["eslint"]],
    ["^(npm|yarn|bun)\\s+(install|ci)\\b", ["npm", "yarn", "bun"]],
    // A group of one alternative is read inline; anchors and `\\b` take no character.
    ["^(git)\\b log", ["git log"]],
    ["^go(\\b)tool", ["gotool"]],
    // A repeat of a character holds it at least once: `xa+y` holds `xa` and `ay`.
    ["xa+y", ["xa"]],
    ["^a+bcd", ["abcd"]],
    ["x(ab)+y", ["ab"]],
    ["(ab|cd)+e", ["ab", "cd"]],
    ["\\.\\-x", [".-x"]],
    // Each top-level alternative's texts.
    ["^ls(\\s|$)|^dir\\b", ["ls", "dir"]],
    // None known: an optional part, an empty alternative, a class, `(?i)`.
    ["^(abc)?\\s", null],
    ["^(ab|)c?", null],
    ["^[a-z]+\\d", null],
    ["(?i)^make\\b", null],
    ["^x|[0-9]", null],
  ];
  expect(table.map(([source]) => [source, requiredLiterals(source)])).toEqual(table);
});

Deno.test("requiredLiterals: no text a pattern matches lacks all of its texts", () => {
  // Every string of up to six characters over the patterns' alphabet: a match without one of
  // the texts would make a matcher refuse a command its regex takes.
  const sources = [
    "xa+y",
    "a+b+",
    "^ab?a",
    "x?ya",
    "(ab|b)+a",
    "^(a|xb)\\s?(ay|y)",
    "(^|\\s)(ab|ba)\\b",
    "^a(b|)x+",
    "a(xy)+b|ya",
    "(a(b|x)y)+",
    "^(\\S* )?ab\\b",
  ];
  const alphabet = ["a", "b", "x", "y", " "];
  const strings = [""];
  for (let length = 1, from = 0; length <= 6; length++) {
    const to = strings.length;
    for (let i = from; i < to; i++) for (const c of alphabet) strings.push(strings[i] + c);
    from = to;
  }
  let matched = 0;
  for (const source of sources) {
    const literals = requiredLiterals(source);
    expect({ source, literals: literals !== null }).toEqual({ source, literals: true });
    const re2 = RE2JS.compile(source);
    for (const text of strings) {
      if (!re2.matcher(text).find()) continue;
      matched++;
      const held = literals!.some((literal) => text.includes(literal));
      expect({ source, text, held }).toEqual({ source, text, held: true });
    }
  }
  expect(matched).toBeGreaterThan(1000);
});
