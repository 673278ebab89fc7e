/** group_by_rule inside the engine, and the built-in make-gcc line_pattern. */
import { expect } from "expect";
import { prng } from "../_support/random.ts";
import { parse as parseToml } from "smol-toml";
import { compilePattern, compileRule, FilterEngine, StrategyConfig } from "../../src/filter/mod.ts";
import { compileStrategy } from "../../src/filter/strategies/mod.ts";
import { compactLocations } from "../../src/filter/strategies/group_by_rule.ts";
import { ownPart } from "../../src/filter/strategies/_shared.ts";
import { builtinEngine, corpus, filter, fixture, lines } from "./_builtin.ts";

Deno.test("group_by_rule second in a chain falls back to its input: the first stage's output", () => {
  const rules = [
    compileRule({
      name: "noise",
      match: { prefix: "cmd" },
      strategy: { type: "strip_noise", patterns: ["^drop"] },
    }, "t"),
    compileRule(
      { name: "group", match: { prefix: "cmd" }, strategy: { type: "group_by_rule" } },
      "t",
    ),
  ];
  const engine = new FilterEngine(rules, { security: false, guard: false });
  const out = engine.filter(
    "cmd",
    "drop 1\nkeep \x1b[31mred\x1b[0m\n[stderr] err line\n\n\n\ndrop 2\nlast",
  );
  // The chain is Full: the first stage acted, the second passed its input on.
  expect({ text: out.text, confidence: out.stats.confidence }).toEqual({
    text: "keep red\nerr line\n\nlast",
    confidence: "full",
  });
});

Deno.test("the built-in make-gcc line_pattern (lazy repeats) captures what its greedy form captures", async () => {
  const toml = parseToml(
    await Deno.readTextFile(new URL("../../filters/make.toml", import.meta.url)),
  ) as { rules: { name: string; strategy: { line_pattern?: string } }[] };
  const lazy = toml.rules.find((r) => r.name === "make-gcc")!.strategy.line_pattern!;
  const greedy = lazy.replace("{1,400}?", "{1,400}").replace(".+?", ".+");
  expect(greedy).not.toEqual(lazy);
  const [a, b] = [compilePattern(lazy), compilePattern(greedy)];
  const random = prng(5);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const parts = [
    "f.c",
    "C:/src/a.c",
    "a:b.c",
    ":",
    "2",
    "10",
    ": warning: ",
    ": error: ",
    "unused variable ‘x’",
    " [-Wunused]",
    " [-Wformat=2]",
    " [x]",
    "[",
    "]",
    " ",
    "-W",
    "é",
  ];
  const lines = [
    "f1.c:2:21: warning: unused variable ‘unused_1’ [-Wunused-variable]",
    "a.c:1:2: warning: x [-Wa] y [-Wb]",
    "a.c:1:2: warning: array [5] out of bounds [-Warray-bounds=]",
    "C:/a.c:1:2: warning: m [-Wm]",
    ...Array.from({ length: 30_000 }, () => {
      const message = Array.from({ length: Math.floor(random() * 5) }, () => pick(parts)).join("");
      return `${pick(["f.c", "C:/src/a.c", "a:b.c", "d/e.c:1"])}:${pick(["2", "10", "", "x"])}:${
        pick(["3", "45"])
      }${pick([": warning: ", ": error: ", ":warning: "])}${message}${
        pick([" [-Wunused]", " [-Wformat=2]", " [x]", "", " [-W a]", " [-Wb] [-Wc]"])
      }${pick(["", "", " ", "é"])}`;
    }),
  ];
  const groups = (p: typeof a, line: string) => {
    const m = p.exec(line);
    return m && ["loc", "sev", "msg", "rule"].map((g) => m.group(g));
  };
  const differ = lines.filter((l) => JSON.stringify(groups(a, l)) !== JSON.stringify(groups(b, l)));
  expect(differ.slice(0, 5)).toEqual([]);
  expect(lines.filter((l) => groups(a, l) !== null).length).toBeGreaterThan(100);
});

Deno.test("continuation_pattern keeps a one-line diagnostic's follow-up lines under its location", () => {
  const rule = compileRule({
    name: "lint",
    match: { prefix: "lint" },
    strategy: {
      type: "group_by_rule",
      group_errors: true,
      line_pattern: "^(?P<loc>\\S+:\\d+): (?P<rule>R\\d+) (?P<msg>.+)$",
      continuation_pattern: "^\\s{2,}\\S",
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, guard: false });
  const input = [
    "a.x:1: R1 first problem, described at some length so that grouping pays",
    "  because of this",
    "    and that",
    "b.x:2: R2 other problem",
    "a.x:3: R1 first problem, described at some length so that grouping pays",
    "  detail of the second R1",
    "Found 3 problems in 2 files",
    "  indented summary detail",
  ].join("\n");
  // A finding with lines continuing it is never counted away: kept whole with them, the
  // grouping saves nothing here and the findings stay as printed, in their order.
  expect(engine.filter("lint", input, { failed: true }).text).toBe(input);
  // Without continuation lines, the findings saying R1's message again are counted under it
  // (a third one: two in a group of three lines would make the output grow).
  const short = [
    ...input.split("\n").filter((line) => !line.startsWith("  ") && !line.startsWith("Found")),
    "a.x:5: R1 first problem, described at some length so that grouping pays",
    "Found 4 problems in 2 files",
  ].join("\n");
  expect(engine.filter("lint", short, { failed: true }).text.split("\n")).toEqual([
    "R1 (3):",
    "  a.x:1: R1 first problem, described at some length so that grouping pays",
    "  … 2 more saying this at a.x:3, a.x:5",
    "b.x:2: R2 other problem",
    "Found 4 problems in 2 files",
  ]);
  // Without the field the follow-up lines are not the diagnostic's: they trail the groups.
  const plain = compileRule({
    name: "lint",
    match: { prefix: "lint" },
    strategy: {
      type: "group_by_rule",
      group_errors: true,
      line_pattern: "^(?P<loc>\\S+:\\d+): (?P<rule>R\\d+) (?P<msg>.+)$",
    },
  }, "t");
  const text = new FilterEngine([plain], { security: false, guard: false }).filter("lint", input, {
    failed: true,
  })
    .text;
  expect(text).not.toContain("  a.x:1\n    because of this");
});

Deno.test("when grouping saves nothing the findings stay as printed, without the noise lines", () => {
  const rule = compileRule({
    name: "lint",
    match: { prefix: "lint" },
    strategy: {
      type: "group_by_rule",
      group_errors: true,
      noise_patterns: ["^\\s*$", "^For more information"],
      line_pattern: "^(?P<loc>\\S+:\\d+) (?P<rule>R\\d+) (?P<msg>.+)$",
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, guard: false });
  // Three findings under three rules: a group line each would only add to them.
  const input = "f:1 R1 one\n\nf:2 R2 two\nFor more information: see the wiki\n\nf:3 R3 three\n";
  const out = engine.filter("lint", input, { failed: true });
  expect(out.text).toBe("f:1 R1 one\nf:2 R2 two\nf:3 R3 three");
  expect(out.stats.confidence).toBe("full");
});

Deno.test("compactLocations shows every location as printed, tsc's and shellcheck's forms included", () => {
  expect(compactLocations([
    "a.ts(1,2)",
    "a.ts(3,4)",
    "b.ts(5,6)",
    "s.sh line 3:",
    "s.sh line 9:",
    "t.sh line 4:",
    "c.rs:7:1",
  ])).toEqual([
    "  a.ts(1,2), a.ts(3,4), b.ts(5,6), s.sh line 3:, s.sh line 9:, t.sh line 4:, c.rs:7:1",
  ]);
});

function lintEngine(strategy: Record<string, unknown>): FilterEngine {
  const rule = compileRule({
    name: "lint",
    match: { prefix: "lint" },
    strategy: {
      type: "group_by_rule",
      group_errors: true,
      line_pattern: "^(?P<loc>\\S+:\\d+): (?P<rule>R\\d+) (?P<msg>.+)$",
      ...strategy,
    },
  }, "t");
  return new FilterEngine([rule], { security: false, guard: false });
}

Deno.test("group_by_rule shows every location as printed, absolute paths whole", () => {
  // Locations read from a line of their own (`  --> path:line`), and from a diagnostic's head.
  const findings = [1, 2, 3].flatMap((n) => [
    "warning[R1]: the same problem with a long enough message",
    `  --> /home/dev/app/src/f${n}.ts:${n}:1`,
  ]);
  const own = lintEngine({ line_pattern: undefined }).filter("lint", findings.join("\n")).text;
  expect(own.split("\n")).toEqual([
    "R1 (3):",
    "  warning[R1]: the same problem with a long enough message",
    "    --> /home/dev/app/src/f1.ts:1:1",
    "    --> /home/dev/app/src/f2.ts:2:1",
    "    --> /home/dev/app/src/f3.ts:3:1",
    "(3 diagnostics in 1 groups)",
  ]);
  const heads = lintEngine({}).filter(
    "lint",
    [1, 2, 3].map((n) => `/home/dev/app/src/f${n}.ts:${n}: R1 the same problem, long enough`)
      .join("\n"),
  ).text;
  // Our total would be a fourth line for three: it goes.
  expect(heads.split("\n")).toEqual([
    "R1 (3):",
    "  /home/dev/app/src/f1.ts:1: R1 the same problem, long enough",
    "  … 2 more saying this at /home/dev/app/src/f2.ts:2, /home/dev/app/src/f3.ts:3",
  ]);
});

Deno.test("group_by_rule drop_context drops the lines around diagnostics but keeps failure lines", () => {
  const input = [
    "a.sh:1: R1 quote this variable to prevent word splitting",
    "  echo $x",
    'Did you mean: echo "$x"',
    "a.sh:4: R1 quote this variable to prevent word splitting",
    "  cp $f /dst",
    "b.sh: openBinaryFile: does not exist (No such file or directory)",
  ].join("\n");
  const dropped = lintEngine({ drop_context: true }).filter("lint", input, { failed: true }).text;
  expect(dropped.split("\n")).toEqual([
    "R1 (2):",
    "  a.sh:1: R1 quote this variable to prevent word splitting",
    "  … 1 more saying this at a.sh:4",
    "(2 diagnostics in 1 groups)",
    "b.sh: openBinaryFile: does not exist (No such file or directory)",
  ]);
  const kept = lintEngine({}).filter("lint", input, { failed: true }).text;
  expect(kept).toContain("  cp $f /dst");
});

Deno.test("group_by_rule end_pattern ends the diagnostic before it and keeps the line", () => {
  const strategy = {
    line_pattern: undefined,
    message_pattern: "^  ! (?P<rule>\\w+\\(\\w+\\)): (?P<msg>.+)$",
    location_pattern: "^\\s*,-\\[(\\S+)\\]",
    noise_patterns: ["^\\s*$"],
  };
  const input = [
    "  ! eslint(eqeqeq): Expected === and instead saw ==",
    "   ,-[a.ts:4:12]",
    " 4 |   if (a == b) {}",
    "  ! eslint(eqeqeq): Expected === and instead saw ==",
    "   ,-[b.ts:2:5]",
    " 2 |   a == c",
    "Found 2 warnings and 0 errors.",
  ].join("\n");
  const ended =
    lintEngine({ ...strategy, end_pattern: "^Found \\d+ warnings?" }).filter("lint", input)
      .text;
  expect(ended.split("\n")).toEqual([
    "Found 2 warnings and 0 errors.",
    "eslint(eqeqeq) (2):",
    "  ! eslint(eqeqeq): Expected === and instead saw ==",
    "     ,-[a.ts:4:12]",
    "     ,-[b.ts:2:5]",
  ]);
  // Without it the summary is taken for part of the last diagnostic's frame, and goes with it.
  expect(lintEngine(strategy).filter("lint", input).text).not.toContain("Found 2");
});

Deno.test("group_by_rule frame_pattern drops a quoted code line and its marks, failure words and all", () => {
  const input = [
    'a.rb:3:5: R1 prefer single quotes in "error"',
    '    raise ArgumentError, "error"',
    "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    'a.rb:9:7: R1 prefer single quotes in "error"',
    '      fail "x"',
    "      ^^^^^^^^",
    "a.rb:12:1: R2 a finding whose next line is a mark, not a code line",
    "^",
    "2 files inspected, 3 offenses detected",
  ].join("\n");
  const strategy = { frame_pattern: "^\\s*\\^+$" };
  const lines = lintEngine(strategy).filter("lint", input, { failed: true }).text.split("\n");
  expect(lines).toEqual([
    // Lines carrying a failure word are never counted away: the grouping saves nothing.
    'a.rb:3:5: R1 prefer single quotes in "error"',
    'a.rb:9:7: R1 prefer single quotes in "error"',
    "a.rb:12:1: R2 a finding whose next line is a mark, not a code line",
    "^",
    "2 files inspected, 3 offenses detected",
  ]);
  // Without it the code lines stay, and the ones that name an error lead the output.
  const plain = lintEngine({ drop_context: false }).filter("lint", input, { failed: true }).text;
  expect(plain).toContain('    raise ArgumentError, "error"');
});

Deno.test("group_by_rule: a start line's `loc` is the location, the message comes from `message_line_pattern` with the lines indented under it", () => {
  const rule = compileRule({
    name: "two-line",
    match: { prefix: "lint" },
    strategy: {
      type: "group_by_rule",
      group_errors: true,
      noise_patterns: [],
      message_pattern: "^(?P<loc>\\S+:\\d+:\\d+) (?P<rule>\\w+/\\w+)$",
      message_line_pattern: "^\\s{2}(?P<msg>[!×] \\S.*)$",
      end_pattern: "^\\S",
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, guard: false });
  const input = [
    "a.js:1:2 style/noVar",
    "  ! Use let or const.",
    "b.js:3:4 style/noVar",
    "  ! Use let or const.",
    "b.js:9:1 correctness/noInner",
    "  × Declare it at the root.",
    "    To avoid confusion.",
    "  i a note that is not the message",
    "c.js format",
    "  × File content differs",
    "Found 3 errors.",
  ];
  expect(engine.filter("lint", input.join("\n")).text).toBe([
    "Found 3 errors.",
    "style/noVar (2):",
    "  a.js:1:2 style/noVar",
    "  ! Use let or const.",
    "  … 1 more saying this at b.js:3:4",
    "b.js:9:1 correctness/noInner",
    "  × Declare it at the root. To avoid confusion.",
    "c.js format",
    "  × File content differs",
  ].join("\n"));
});

Deno.test("group_by_rule keeps a diagnostic's related information with it, without source echoes", () => {
  // rustc's shape: each warning names its location on a `-->` line; the first has a `note:`
  // with a location of its own (related information), under a code frame.
  const warning = (n: number, note: boolean) => [
    "warning[R1]: the same problem with a long enough message",
    `  --> src/f${n}.rs:${n}:1`,
    "   |",
    `${n}  |     let x = 1;`,
    "   |         ^",
    ...(note ? ["note: the value is declared here", "  --> src/decl.rs:9:5", "   |"] : []),
    "",
  ];
  const text = lintEngine({ line_pattern: undefined }).filter(
    "lint",
    [...warning(1, true), ...warning(2, false), ...warning(3, false)].join("\n"),
  ).text;
  expect(text.split("\n")).toEqual([
    "R1 (3):",
    "  warning[R1]: the same problem with a long enough message",
    "    --> src/f1.rs:1:1",
    "    note: the value is declared here",
    "      --> src/decl.rs:9:5",
    "    --> src/f2.rs:2:1",
    "    --> src/f3.rs:3:1",
    "(3 diagnostics in 1 groups)",
  ]);
  // deno's shape, alone: the related block's source line and its `~~` marks go, its explanation
  // and location stay under the diagnostic's location, and one finding needs no total line.
  const alone = lintEngine({
    line_pattern: undefined,
    message_pattern: "^(?P<rule>R\\d) \\[ERROR\\]: \\S",
    location_pattern: "^\\s+at (\\S+:\\d+:\\d+)",
    end_pattern: "^Found \\d+ errors?\\.$",
  }).filter(
    "lint",
    [
      "R1 [ERROR]: Type 'string' is not assignable to type 'number'.",
      'export const u: U = { id: "1" };',
      "                      ~~",
      "    at file:///p/b.ts:2:23",
      "",
      "    The expected type comes from property 'id' which is declared here on type 'U'",
      "    interface U { id: number }",
      "                  ~~",
      "        at file:///p/b.ts:1:15",
      "",
      "Found 1 error.",
    ].join("\n"),
  ).text;
  expect(alone.split("\n")).toEqual([
    "Found 1 error.",
    "R1 [ERROR]: Type 'string' is not assignable to type 'number'.",
    "    at file:///p/b.ts:2:23",
    "    The expected type comes from property 'id' which is declared here on type 'U'",
    "        at file:///p/b.ts:1:15",
  ]);
});

Deno.test("group_by_rule keeps the lines elaborating a message before its location line", () => {
  const engine = lintEngine({
    line_pattern: undefined,
    message_pattern: "^(?P<rule>TS\\d) \\[ERROR\\]: \\S",
    location_pattern: "^\\s+at (\\S+:\\d+:\\d+)",
  });
  const diagnostic = (n: number) => [
    "TS1 [ERROR]: Type '(x: string) => string' is not assignable to type '(x: number) => string'.",
    "  Types of parameters 'x' and 'x' are incompatible.",
    "    Type 'number' is not assignable to type 'string'.",
    "export const fn: (x: number) => string = (x: string) => x;",
    "             ~~",
    `    at file:///p/d.ts:${n}:14`,
    "",
  ];
  // Alone: as printed, without the source line and its marks.
  expect(engine.filter("lint", diagnostic(3).join("\n")).text.split("\n")).toEqual([
    "TS1 [ERROR]: Type '(x: string) => string' is not assignable to type '(x: number) => string'.",
    "    Types of parameters 'x' and 'x' are incompatible.",
    "      Type 'number' is not assignable to type 'string'.",
    "    at file:///p/d.ts:3:14",
  ]);
  // Grouped: each as printed under the header (an error is never counted away), its
  // elaboration before its location line.
  const start =
    "  TS1 [ERROR]: Type '(x: string) => string' is not assignable to type '(x: number) => string'.";
  const elaboration = [
    "    Types of parameters 'x' and 'x' are incompatible.",
    "      Type 'number' is not assignable to type 'string'.",
  ];
  expect(engine.filter("lint", [...diagnostic(3), ...diagnostic(4)].join("\n")).text.split("\n"))
    .toEqual([
      "TS1 (2):",
      start,
      ...elaboration,
      "      at file:///p/d.ts:3:14",
      start,
      ...elaboration,
      "      at file:///p/d.ts:4:14",
      "(2 diagnostics in 1 groups)",
    ]);
});

Deno.test("group_by_rule head_patterns: lines heading the line after them stay right before it", () => {
  // An include chain heads the header's error after it; grouping the warnings must not move it
  // away from that error, whether the error leads (a failure) or trails with the rest.
  const rule = compileRule({
    name: "cc",
    match: { prefix: "build" },
    strategy: {
      type: "group_by_rule",
      line_pattern:
        "^(?P<loc>\\S+:\\d+:\\d+): (?P<sev>warning): (?P<msg>.+) \\[(?P<rule>-W\\S+)\\]$",
      noise_patterns: [],
      grouped_noise_patterns: [],
      head_patterns: ["^In file included from ", "^\\s+from \\S+[,:]$"],
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false });
  const input = [
    "cc -c a.c",
    "In file included from b.h:3,",
    "                 from a.c:1:",
    "b.h:4:5: warning: unused variable ‘x’ [-Wunused-variable]",
    "b.h:5:9: error: ‘t’ has no member named ‘y’",
    "cc -c c.c",
    "In file included from c.c:2:",
    "b.h:4:5: warning: unused variable ‘x’ [-Wunused-variable]",
    "d.h:1:1: note: declared here",
    "make: *** [Makefile:6: a.o] Error 1",
  ];
  const out = engine.filter("build", input.join("\n"), { failed: true }).text.split("\n");
  const at = (line: string) => out.indexOf(line);
  expect(at("b.h:5:9: error: ‘t’ has no member named ‘y’")).toBe(
    at("In file included from b.h:3,") + 2,
  );
  expect(at("                 from a.c:1:")).toBe(at("In file included from b.h:3,") + 1);
  expect(at("d.h:1:1: note: declared here")).toBe(at("In file included from c.c:2:") + 1);
  // The other lines keep their order: the loose failure lines lead, the rest trails.
  expect(at("make: *** [Makefile:6: a.o] Error 1")).toBeGreaterThan(
    at("b.h:5:9: error: ‘t’ has no member named ‘y’"),
  );
});

Deno.test("make with gcc keeps each include chain right before the diagnostic it heads", async () => {
  const { loadFilterEngine } = await import("../../src/filter/mod.ts");
  const { defaultConfig } = await import("../../src/config/schema.ts");
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const text = await Deno.readTextFile(
    new URL("../../bench/corpus/make/make_include_chain.txt", import.meta.url),
  );
  const input = text.split("\n");
  const out = engine.filter("make -k", text, { failed: true }).text.split("\n");
  // Every chain line stays, followed by the chain's next line or by the first error gcc printed
  // after the chain (its warnings grouped away, its function header kept), or, when that error
  // was printed for an earlier source, by the line saying so with its location.
  for (const [i, line] of input.entries()) {
    if (!line.startsWith("In file included from ")) continue;
    let end = i + 1;
    while (/^\s+from /.test(input[end])) end++;
    const chain = input.slice(i, end);
    const error = input.slice(end).find((l) => l.includes(": error: "))!;
    const start = out.findIndex((_, k) =>
      out.slice(k, k + chain.length).join("\n") === chain.join("\n")
    );
    expect({ chain, at: start >= 0 }).toEqual({ chain, at: true });
    const header = /^\S+: In function /.test(out[start + chain.length]) ? 1 : 0;
    const next = out[start + chain.length + header];
    const location = error.slice(0, error.indexOf(": error: "));
    if (next !== error) expect(next).toMatch(/^… \d+ diagnostics?.* again, as shown above: /);
    expect(next.includes(location)).toBe(true);
  }
});

Deno.test("make with gcc: an include chain that headed only warnings heads no later file's error", async () => {
  const { loadFilterEngine } = await import("../../src/filter/mod.ts");
  const { defaultConfig } = await import("../../src/config/schema.ts");
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  // make -k, gcc 12: a.c's header has only a warning; b.c, compiled next, fails.
  const input = [
    "gcc -Wall -Wextra -c a.c -o a.o",
    "In file included from a.c:1:",
    "util.h: In function ‘helper’:",
    "util.h:1:32: warning: unused variable ‘unused’ [-Wunused-variable]",
    "    1 | static int helper(int x) { int unused; return x; }",
    "      |                                ^~~~~~",
    "a.c: In function ‘a’:",
    "a.c:2:19: warning: unused variable ‘y’ [-Wunused-variable]",
    "    2 | int a(void) { int y; return helper(1); }",
    "      |                   ^",
    "gcc -Wall -Wextra -c b.c -o b.o",
    "b.c: In function ‘b’:",
    "b.c:1:22: error: ‘undefined_thing’ undeclared (first use in this function)",
    "    1 | int b(void) { return undefined_thing; }",
    "      |                      ^~~~~~~~~~~~~~~",
    "make: *** [Makefile:3: b.o] Error 1",
    "make: Target 'all' not remade because of errors.",
  ];
  const out = engine.filter("make -k", input.join("\n"), { failed: true }).text.split("\n");
  expect(out).toContain(
    "b.c:1:22: error: ‘undefined_thing’ undeclared (first use in this function)",
  );
  expect(out).toContain("In file included from a.c:1:");
  const error = out.indexOf(
    "b.c:1:22: error: ‘undefined_thing’ undeclared (first use in this function)",
  );
  expect(out[error - 1]).not.toBe("In file included from a.c:1:");
});

Deno.test("group_by_rule: more lines outside the groups than a call takes arguments are placed, not given up on", () => {
  const rule = compileRule({
    name: "lint",
    match: { prefix: "mylint" },
    strategy: {
      type: "group_by_rule",
      line_pattern: "^(?P<loc>\\S+:\\d+:\\d+): (?P<sev>warning) (?P<rule>R\\d+): (?P<msg>.+)$",
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, generic: false });
  // Three findings of one message: grouped, they are no more lines than printed.
  const lines = [1, 2, 3].map((n) => `a.py:${n}:1: warning R1: bad thing`);
  for (let i = 0; i < 300_000; i++) lines.push(`note ${i}`);
  const out = engine.filter("mylint .", lines.join("\n"));
  // A spread of 300,000 lines into one call threw a RangeError and the engine showed the input
  // as it came ("fallback").
  expect(out.stats.confidence).not.toBe("fallback");
  const text = out.text.split("\n");
  expect(text).toContain("note 299999");
  expect(text).toContain("  a.py:1:1: warning R1: bad thing");
});

/** The lines a group_by_rule stage with rustc's defaults emits, and its confidence. */
function rustcStage(lines: string[]): { lines: string[]; confidence: string } {
  const out: string[] = [];
  const strategy = compileStrategy(StrategyConfig.parse({ type: "group_by_rule" }), "v8");
  const stage = strategy.createStage({ emit: (line) => void out.push(line), failed: true });
  for (const line of lines) stage.push(line);
  return { confidence: stage.finish(), lines: out };
}

Deno.test("group_by_rule: a diagnostic of more failure lines than a call takes arguments is grouped, not given up on", () => {
  const warnings = Deno.readTextFileSync(
    new URL("../fixtures/filters/cargo-build/warnings.in.txt", import.meta.url),
  ).split("\n");
  const notes: string[] = [];
  for (let i = 0; i < 200_000; i++) notes.push(`   = note: error: candidate #${i} is defined here`);
  const input = [
    ...warnings,
    "error[E0599]: no method named `foo` found",
    "  --> src/main.rs:3:5",
    ...notes,
    "error: linking with `cc` failed: exit status: 1",
    ...notes,
    "error: could not compile `app` due to 2 previous errors",
  ];
  // Each diagnostic's kept lines were spread into one call: 200,000 arguments threw a
  // RangeError and the engine showed the input as it came.
  const out = rustcStage(input);
  expect(out.confidence).toBe("full");
  expect(out.lines.length).toBeLessThan(input.length);
  // Every line of both errors stays: each is a failure line.
  expect(out.lines.filter((line) => line.startsWith("   = note: error: ")).length).toBe(400_000);
});

Deno.test("group_by_rule: findings saying a shown message but for its quoted names are their location and names, the first of each file whole", () => {
  const rule = compileRule({
    name: "lint",
    match: { prefix: "lint" },
    strategy: {
      type: "group_by_rule",
      noise_patterns: [],
      line_pattern:
        "^(?P<loc>\\S+:\\d+:\\d+): (?P<sev>warning|error): (?P<msg>.+?) \\[(?P<rule>[\\w-]+)\\]$",
      continuation_pattern: "^\\S+:\\d+:\\d+: note: ",
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, guard: false });
  const input = [
    "a.c:3:7: warning: parameter name 'x' is too short [identifier-length]",
    "a.c:3:14: warning: parameter name 'y' is too short [identifier-length]",
    "a.c:9:2: warning: parameter name 'x' is too short [identifier-length]",
    "b.c:1:5: warning: parameter name 'q' is too short [identifier-length]",
    "b.c:2:5: warning: parameter name 'r' is too short [identifier-length]",
    "a.c:4:1: warning: parameter name 'z' is too short [identifier-length]",
    "a.c:4:1: note: declared here",
    "a.c:5:1: error: parameter name 'e' is too short [identifier-length]",
    "a.c:6:1: warning: variable name 'v' is too short [identifier-length]",
  ].join("\n");
  // An error of one line needs no blank line under it, and our total would make nine lines ten.
  expect(engine.filter("lint", input, { failed: true }).text.split("\n")).toEqual([
    "a.c:5:1: error: parameter name 'e' is too short [identifier-length]",
    "identifier-length (7):",
    "  a.c:3:7: warning: parameter name 'x' is too short [identifier-length]",
    "  … 1 more saying this at a.c:9:2",
    // b.c's first of the shape is shown whole; a finding with a note stays whole with it.
    "  b.c:1:5: warning: parameter name 'q' is too short [identifier-length]",
    "  a.c:4:1: warning: parameter name 'z' is too short [identifier-length]",
    "  a.c:4:1: note: declared here",
    "  … 2 more like this at a.c:3:14 'y', b.c:2:5 'r'",
    // Another shape (other words than the quoted names) is no repeat.
    "  a.c:6:1: warning: variable name 'v' is too short [identifier-length]",
  ]);
});

Deno.test("group_by_rule per_file: a message's first finding in each file is shown as printed, its repeats in a file fold", () => {
  const strategy = {
    type: "group_by_rule",
    noise_patterns: [],
    line_pattern:
      "^(?P<loc>\\S+:\\d+:\\d+): (?P<sev>warning): (?P<msg>.+?) \\[(?P<rule>[\\w-]+)\\]$",
  };
  const input = [
    "a.c:1:1: warning: statement should be inside braces [braces]",
    "b.c:2:1: warning: statement should be inside braces [braces]",
    "a.c:3:1: warning: statement should be inside braces [braces]",
    "b.c:4:1: warning: statement should be inside braces [braces]",
  ].join("\n");
  const run = (perFile: boolean) =>
    new FilterEngine([
      compileRule({
        name: "lint",
        match: { prefix: "lint" },
        strategy: { ...strategy, per_file: perFile },
      }, "t"),
    ], { security: false, guard: false }).filter("lint", input, { failed: true }).text.split("\n");
  // Our total would be a fifth line for four: it goes.
  expect(run(true)).toEqual([
    "braces (4):",
    "  a.c:1:1: warning: statement should be inside braces [braces]",
    "  b.c:2:1: warning: statement should be inside braces [braces]",
    "  … 2 more saying this at a.c:3:1, b.c:4:1",
  ]);
  expect(run(false)).toEqual([
    "braces (4):",
    "  a.c:1:1: warning: statement should be inside braces [braces]",
    "  … 3 more saying this at b.c:2:1, a.c:3:1, b.c:4:1",
    "(4 diagnostics in 1 groups)",
  ]);
});

/** sqlfluff 1.4.5 `lint --dialect ansi sql` (a real run, cut to two files): no severity printed. */
const SQLFLUFF = [
  "== [sql/orders.sql] FAIL",
  "L:   1 | P:   1 | L036 | Select targets should be on a new line unless there is",
  "                       | only one select target.",
  "L:   2 | P:  13 | L011 | Implicit/explicit aliasing of table.",
  "L:   3 | P:  19 | L011 | Implicit/explicit aliasing of table.",
  "L:   4 | P:  19 | L010 | Keywords must be consistently upper case.",
  "L:   5 | P:   1 | L010 | Keywords must be consistently upper case.",
  "== [sql/report.sql] FAIL",
  "L:   1 | P:   1 | L036 | Select targets should be on a new line unless there is",
  "                       | only one select target.",
  "L:   2 | P:  15 | L011 | Implicit/explicit aliasing of table.",
  "All Finished!",
].join("\n");

Deno.test("group_by_rule: a line_pattern without a sev group groups its findings, each with its file", () => {
  const rule = compileRule({
    name: "sqlfluff",
    match: { prefix: "sqlfluff" },
    strategy: {
      type: "group_by_rule",
      noise_patterns: ["^All Finished!$"],
      file_pattern: "^== \\[(\\S+)\\] FAIL$",
      line_pattern: "^L:\\s+(?P<loc>\\d+ \\| P:\\s+\\d+) \\| (?P<rule>\\w+) \\| (?P<msg>.+)$",
      continuation_pattern: "^\\s+\\| ",
    },
  }, "t");
  const out = new FilterEngine([rule], { security: false, generic: false })
    .filter("sqlfluff lint sql", SQLFLUFF, { failed: true }).text.split("\n");
  // Grouped by rule, not kept one by one as errors (set apart by blank lines, their files gone).
  expect(out.filter((line) => /L011.*\(3\)$/.test(line)).length).toBe(1);
  expect(out).not.toContain("");
  // Every finding's file is said with its position.
  const text = out.join("\n");
  for (
    const at of [
      "sql/orders.sql:1 | P:   1",
      "sql/orders.sql:2 | P:  13",
      "sql/orders.sql:3 | P:  19",
      "sql/orders.sql:4 | P:  19",
      "sql/orders.sql:5 | P:   1",
      "sql/report.sql:1 | P:   1",
      "sql/report.sql:2 | P:  15",
    ]
  ) expect(text).toContain(at);
});

Deno.test("group_by_rule: errors under a file line keep that file line above them", () => {
  const rule = compileRule({
    name: "stylish",
    match: { prefix: "mylint" },
    strategy: {
      type: "group_by_rule",
      noise_patterns: ["^\\s*$"],
      file_pattern: "^(\\S+\\.js)$",
      line_pattern:
        "^\\s+(?P<loc>\\d+:\\d+)\\s+(?P<sev>error|warning)\\s+(?P<msg>.+?)\\s{2,}(?P<rule>\\S+)$",
    },
  }, "t");
  const input = [
    "",
    "/work/app/src/a.js",
    "  1:1  error  Unexpected var, use let or const instead  no-var",
    "  2:5  error  Missing semicolon                         semi",
    "",
    "/work/app/src/b.js",
    "  3:1  error  Unexpected var, use let or const instead  no-var",
    "",
    "✖ 3 problems (3 errors, 0 warnings)",
  ].join("\n");
  const out = new FilterEngine([rule], { security: false, generic: false })
    .filter("mylint src", input, { failed: true }).text.split("\n");
  const at = (line: string) => out.indexOf(line);
  // Each error stays as printed, below its file's line: the position alone names no file.
  expect(at("/work/app/src/a.js")).toBeGreaterThanOrEqual(0);
  expect(at("/work/app/src/a.js")).toBeLessThan(at(input.split("\n")[2]));
  expect(at(input.split("\n")[2])).toBeLessThan(at(input.split("\n")[3]));
  expect(at("/work/app/src/b.js")).toBeGreaterThan(at(input.split("\n")[3]));
  expect(at("/work/app/src/b.js")).toBeLessThan(at(input.split("\n")[6]));
  expect(out).toContain("✖ 3 problems (3 errors, 0 warnings)");
});

Deno.test("group_by_rule: messages of one shape are gathered in time linear in their number", async () => {
  // clang-tidy on a large tree: every short name its own message of one shape. CPU time of
  // 4 times the findings is below 10 times as much (a quadratic gathering takes 16).
  const { cpuMs } = await import("../../bench/_fuzz_inputs.ts");
  const { defaultConfig } = await import("../../src/config/schema.ts");
  const { loadFilterEngine } = await import("../../src/filter/mod.ts");
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const findings = (n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        `src/f${i % 50}.c:${
          i + 1
        }:5: warning: variable name 'v${i}' is too short, expected at least 3 characters [readability-identifier-length]`,
    ).join("\n");
  const cpu = (text: string) => {
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = cpuMs();
      engine.filter("clang-tidy src/*.c", text, { failed: false });
      best = Math.min(best, cpuMs() - start);
    }
    return best;
  };
  const small = findings(5_000);
  const large = findings(20_000);
  cpu(small);
  const ratio = () => cpu(large) / Math.max(cpu(small), 5);
  // A busy machine slows one run, a superlinear path every run: measured again before failing.
  expect(Math.min(ratio(), ratio())).toBeLessThan(10);
});

Deno.test("group_by_rule folds only findings equal but for their location: a mark beside the message stays", async () => {
  const { loadFilterEngine } = await import("../../src/filter/mod.ts");
  const { defaultConfig } = await import("../../src/config/schema.ts");
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  // rubocop -a: one cop's message, two offences still `[Correctable]`, one `[Corrected]`.
  const text = await Deno.readTextFile(
    new URL("../fixtures/group_by_rule/rubocop_autocorrect_marks.txt", import.meta.url),
  );
  const out = engine.filter("bundle exec rubocop -a", text, { failed: true }).text.split("\n");
  expect(out).toContain(
    "  app/refund.rb:20:17: C: [Corrected] Style/SymbolProc: Pass &:upcase as an argument to map instead of a block.",
  );
  expect(out).toContain(
    "  app/refund.rb:12:17: C: [Correctable] Style/SymbolProc: Pass &:upcase as an argument to map instead of a block.",
  );
  // Findings that differ only in their location still fold.
  expect(out).toContain("  … 1 more saying this at app/refund.rb:16:17");
  expect(out).toContain("  … 2 more saying this at app/refund.rb:7:9, app/order.rb:2:11");
});

Deno.test("in a compound command's output the other commands' lines pass in their places", async () => {
  // `ruff check . ; mypy .`: ruff's report, its count and advice come first, as printed; mypy's
  // findings after them are grouped.
  const ruffFirst = await fixture("mypy-by-code/ruff_then_mypy.in.txt");
  const out = lines(filter("ruff check . ; mypy .", ruffFirst, true));
  const ruffCount = out.indexOf("Found 10 errors.");
  expect(ruffCount).toBeGreaterThan(out.indexOf("help: Remove assignment to unused variable `x`"));
  expect(out.indexOf(" --> util.py:1:8")).toBeGreaterThan(out.indexOf(" --> app.py:1:1"));
  expect(out.indexOf("util.py:10: error: No return value expected  [return-value]"))
    .toBeGreaterThan(ruffCount);
  // Alone, mypy's grouping lets its other lines lead: in a shared output nothing of ruff's does.
  expect(out.slice(0, 2)).toEqual([
    "I001 [*] Import block is un-sorted or un-formatted",
    " --> app.py:1:1",
  ]);
  // `mypy . ; ruff …`: mypy's findings first, then ruff's, each in its own place.
  const mypyFirst = await fixture("mypy-by-code/mypy_then_ruff_concise.in.txt");
  const both = lines(filter("mypy . ; ruff check --output-format concise .", mypyFirst, true));
  expect(both.indexOf("Found 7 errors in 2 files (checked 2 source files)")).toBeLessThan(
    both.indexOf("app.py:1:1: I001 [*] Import block is un-sorted or un-formatted"),
  );
  expect(both.indexOf("util.py:10: error: No return value expected  [return-value]"))
    .toBeLessThan(both.indexOf("app.py:1:8: F401 [*] `os` imported but unused"));
});

Deno.test("ownPart: the lines before a tool's first own line and after its last own block are the others'", () => {
  const owns = (l: string) => l.startsWith("E ");
  const input = ["a", "E 1", "  under 1", "b", "E 2", "  under 2", "c", ""];
  expect(ownPart(input, { before: true, after: false }, owns)).toEqual({
    before: ["a"],
    own: input.slice(1),
    after: [],
  });
  expect(ownPart(input, { before: false, after: true }, owns)).toEqual({
    before: [],
    own: input.slice(0, 6),
    after: ["c", ""],
  });
  expect(ownPart(input, undefined, owns).own).toBe(input);
  expect(ownPart(["x", "y"], { before: true, after: false }, owns).before).toEqual(["x", "y"]);
});

Deno.test("a line that is only a path naming 'error' stays with the other paths, not above the findings", async () => {
  // tsc 5 --listFiles: src/errors.ts and src/error-handler.ts are files it read, not failures.
  const listed = await fixture("tsc-files/list_files_error_names.in.txt");
  const out = lines(filter("npx tsc --noEmit --listFiles -p .", listed, true));
  const findings = out.indexOf("(3 diagnostics in 2 groups)");
  expect(out.indexOf("/tmp/lo6/js/ts/src/errors.ts")).toBeGreaterThan(findings);
  expect(out.indexOf("/tmp/lo6/js/ts/src/error-handler.ts")).toBeGreaterThan(findings);
  expect(out.indexOf("/tmp/lo6/js/ts/src/main.ts")).toBeGreaterThan(findings);
});

Deno.test("in a compound command's output a clean verbose build's echoed commands are still its own", () => {
  const rules = [
    compileRule({
      name: "conf",
      match: { prefix: "conf" },
      strategy: { type: "strip_noise", patterns: ["^-- Detecting "] },
    }, "t"),
    compileRule({
      name: "build",
      match: { prefix: "build" },
      strategy: {
        type: "group_by_rule",
        line_pattern:
          "^(?P<loc>\\S+:\\d+:\\d+): (?P<sev>warning|error): (?P<msg>.+) \\[(?P<rule>\\S+)\\]$",
        command_patterns: ["^/usr/bin/cc "],
      },
    }, "t"),
  ];
  const engine = new FilterEngine(rules, { security: false, generic: false });
  const input = [
    "-- Detecting C compiler ABI info",
    "-- Build files have been written to: /p/build",
    ...Array.from({ length: 6 }, (_, i) => `/usr/bin/cc -O2 -o src/f${i}.o -c /p/src/f${i}.c`),
    "[100%] Built target app",
  ];
  const out =
    engine.filter("conf -S . -B build && build -C build VERBOSE=1", input.join("\n")).text;
  expect(out.split("\n")).toEqual([
    "-- Build files have been written to: /p/build",
    "[100%] Built target app",
  ]);
});

Deno.test("group_by_rule: nothing grouped and nothing dropped leaves the lines in their order", () => {
  const rule = compileRule({
    name: "mypy",
    match: { prefix: "cmd" },
    strategy: {
      type: "group_by_rule",
      group_errors: true,
      noise_patterns: [],
      line_pattern:
        "^(?P<loc>[^\\s:]{1,300}:\\d{1,7}): (?P<sev>error|warning): (?P<msg>[^\\n]{1,500})  \\[(?P<rule>[\\w-]{1,60})\\]$",
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, guard: false });
  // mypy --pretty wraps a long message: its head alone reads as a loose error line.
  const input = [
    'a.py:1: error: Argument 1 to "add" has incompatible type "str"; expected',
    '"int"  [arg-type]',
    '    add("1", 2)',
    'a.py:2: error: "Repo" has no attribute "missing"  [attr-defined]',
    "    r.missing()",
    "Found 2 errors in 1 file (checked 1 source file)",
  ].join("\n");
  expect(engine.filter("cmd", input, { failed: true }).text).toBe(input);
});

/**
 * The findings an output names, as `location message` pairs: a finding line as printed, or a
 * location of a `… N more saying this at` line paired with the message of the finding line shown
 * above it.
 */
function namedFindings(text: string, finding: RegExp): string[] {
  const named: string[] = [];
  let message = "";
  for (const line of lines(text)) {
    const m = finding.exec(line.trim());
    if (m) {
      message = m.groups!.msg;
      named.push(`${m.groups!.loc} ${message}`);
      continue;
    }
    const more = /^ {2}… \d+ more saying this at (.+)$/.exec(line);
    if (more) { for (const place of more[1].split(", ")) named.push(`${place} ${message}`); }
  }
  return named.sort();
}

Deno.test("group_by_rule: an error flood of one message keeps each finding, by its location and that message said once per file", async () => {
  const cases = [
    {
      path: "lint/mypy_strict_untyped_flood",
      finding: /^(?<loc>[^\s:]+:\d+): (?<msg>error: .+)$/,
      whole: 5,
    },
    {
      path: "node/tsc_pretty_false_flood",
      finding: /^(?<loc>[^\s(]+\(\d+,\d+\)): (?<msg>error TS\d+: .+)$/,
      whole: 17,
    },
  ];
  for (const { path, finding, whole } of cases) {
    const input = await corpus(`${path}.txt`);
    const { command } = JSON.parse(await corpus(`${path}.json`));
    const out = filter(command, input, true);
    // Every finding of the input is named, by its location and its message, none twice.
    expect(namedFindings(out, finding)).toEqual(namedFindings(input, finding));
    // Each message is shown whole in each file it is found in, and the last finding too.
    const shown = lines(out).filter((line) => finding.test(line.trim()));
    expect(shown.length).toEqual(whole);
    expect(shown.map((line) => line.trim())).toContain(
      lines(input.trimEnd()).findLast((line) => finding.test(line)),
    );
    expect(out.length).toBeLessThan(input.length / 2);
  }
});

/**
 * The findings a file-layout output names, as `file position rule` (eslint's stylish, yamllint):
 * a finding line under its file line as printed, or a place of a fold line (`… 9 more errors as
 * above: 1:56, 12:14 rule; …`). A fold `at the same places as in the file before` names the
 * findings the file before folded again, under its own file, and one `at the places of the file
 * before but 3:36 rule …` those with the kinds it lists at their places; a file line that says
 * `… 7 warnings as in the file before` (`but 3:36 rule 'name'`) does so with every finding of
 * the file before, shown or folded.
 */
/** A fold's items (`1:5, 2:7 rule 'a'; 9 ERROR "x; y"`): split at `; ` outside double quotes. */
function splitItems(items: string): string[] {
  const out = [""];
  let quoted = false;
  for (let i = 0; i < items.length; i++) {
    if (items[i] === '"') quoted = !quoted;
    if (!quoted && items.startsWith("; ", i)) {
      out.push("");
      i++;
    } else out[out.length - 1] += items[i];
  }
  return out;
}

function layoutFindings(text: string, finding: RegExp, file: RegExp): string[] {
  const named: string[] = [];
  let current = "";
  // The current file's findings and the file before's: each position, rule, what says it (the
  // line as printed, or a fold's kind) and whether a fold said it.
  type Said = { position: string; rule: string; label: string; folded: boolean };
  let mine: Said[] = [];
  let theirs: Said[] = [];
  const kinds = (items: string) =>
    new Map(
      splitItems(items).map((item) => {
        const [, positions, what] = /^((?:\d+(?::\d+)?, )*\d+(?::\d+)?) (.+)$/.exec(item)!;
        return [what, positions.split(", ")];
      }),
    );
  // Whether a finding is of the kind `what` (`no-unused-vars 'b'`): said by it, or a line of
  // its rule printing the names it quotes.
  const ofKind = (said: Said, what: string) => {
    const [rule, ...rest] = what.split(" ");
    const names = rest.join(" ").match(/'[^']*'|"[^"]*"|`[^`]*`/g) ?? [];
    return said.label === what ||
      (said.rule === rule && names.every((name) => said.label.includes(name.slice(1, -1))));
  };
  const name = (said: Said) => {
    named.push(`${current} ${said.position} ${said.rule}`);
    mine.push(said);
  };
  // The file before's findings named again under this file, those of a kind `moved` lists at
  // the places it lists for it.
  const again = (before: Said[], moved: Map<string, string[]>) => {
    const at = new Map([...moved.keys()].map((what) => [what, 0]));
    for (const said of before) {
      const what = [...moved.keys()].find((what) => ofKind(said, what));
      const position = what === undefined ? said.position : moved.get(what)![at.get(what)!];
      if (what !== undefined) at.set(what, at.get(what)! + 1);
      name({ ...said, position, folded: true });
    }
  };
  // The generic pass's reference to a block of lines shown above (`… the 7 lines from "7:3
  // error …" again, as shown above …`) stands for those lines; its fold of blocks alike (`… 3
  // blocks like the one above; the lines that differ:`, then per block its file and the
  // finding that differs) for the file's block above with that file and that finding.
  const expanded: string[] = [];
  let alikeBlocks = 0;
  let block: string[] = [];
  for (const line of lines(text)) {
    const ref = /^\s*… the (\d+) lines from "(.+?)…?" again, as shown above …$/.exec(line);
    const blocks = /^\s*… (\d+) blocks like the one above; the lines that differ:$/.exec(line);
    if (ref) {
      const from = expanded.findIndex((l) => l.trim().startsWith(ref[2]));
      expanded.push(...expanded.slice(from, from + Number(ref[1])));
    } else if (blocks) {
      alikeBlocks = Number(blocks[1]);
      block = expanded.slice(expanded.findLastIndex((l) => file.test(l)));
    } else if (alikeBlocks > 0) {
      alikeBlocks--;
      const [, head, rest] = /^(\S+)(?: (.*))?$/.exec(line)!;
      // The first block's own line: its lines are above already.
      if (head === block[0]) continue;
      const differs = rest !== undefined && finding.test(`  ${rest}`);
      const tail = (l: string) => l.trim().replace(/^\S+\s+/, "");
      expanded.push(head);
      for (const l of block.slice(1)) {
        expanded.push(differs && tail(l) === tail(rest!) ? `  ${rest}` : l);
      }
    } else expanded.push(line);
  }
  for (const line of expanded) {
    const alike = /^(\S+) {2}… \d+ \w+ as in the file before(?: but (.+))?$/.exec(line);
    const head = alike && file.test(alike[1]) ? alike[1] : file.test(line) ? line : null;
    if (head !== null) {
      current = head;
      theirs = mine;
      mine = [];
      if (alike) again(theirs, alike[2] === undefined ? new Map() : kinds(alike[2]));
      continue;
    }
    const m = finding.exec(line);
    if (m) {
      name({ position: m.groups!.loc, rule: m.groups!.rule, label: line, folded: false });
      continue;
    }
    const fold =
      /^ {2}… \d+ more \w+ as above(?:: (.+)|, at the same places as in the file before|, at the places of the file before but (.+))$/
        .exec(line);
    if (!fold) continue;
    if (fold[1] === undefined) {
      const moved = fold[2] === undefined ? new Map<string, string[]>() : kinds(fold[2]);
      again(theirs.filter((said) => said.folded), moved);
      continue;
    }
    for (const [what, positions] of kinds(fold[1])) {
      for (const position of positions) {
        name({ position, rule: what.split(" ")[0], label: what, folded: true });
      }
    }
  }
  return named.sort();
}

Deno.test("group_by_rule file_layout: findings of kinds shown above fold into one line per file, each by its position and rule", async () => {
  const stylish = /^\s+(?<loc>\d+:\d+)\s+(?:error|warning)\s+.+?\s{2,}(?<rule>[@\w/-]+)$/;
  const yamllint = /^\s+(?<loc>\d+:\d+)\s+(?:error|warning)\s+.+?\s+\((?<rule>[\w-]+)\)$/;
  // Captures in bench/corpus and tests/fixtures/filters: floods of one file's findings in
  // others, and runs of files whose findings are all the file before's (eslint 8 warnings only,
  // yamllint over charts of two shapes).
  const cases = [
    {
      read: () => corpus("node/eslint_type_aware_flood.txt"),
      command: "eslint src",
      failed: true,
      finding: stylish,
      file: /^\/\S+\.ts$/,
      runs: false,
    },
    {
      read: () => corpus("lint/yamllint_template_flood.txt"),
      command: "yamllint deploy",
      failed: true,
      finding: yamllint,
      file: /^\S+\.yaml$/,
    },
    {
      read: () => fixture("eslint/warnings_alike.in.txt"),
      command: "npx eslint src",
      failed: false,
      finding: stylish,
      file: /^\/\S+\.js$/,
    },
    {
      read: () => fixture("yamllint/charts_alike.in.txt"),
      command: "yamllint charts",
      failed: true,
      finding: yamllint,
      file: /^\S+\.yml$/,
    },
  ];
  for (const { read, command, failed, finding, file, runs = true } of cases) {
    const input = await read();
    const out = filter(command, input, failed);
    // Every finding of the input is named under its file, by its position and its rule.
    expect(layoutFindings(out, finding, file)).toEqual(layoutFindings(input, finding, file));
    expect(out.length).toBeLessThan(input.length * 2 / 3);
    // A file whose findings are all of kinds shown three times above and are the file before's,
    // positions aside, is one line: nothing of it stands under its file line.
    const alike = alikeFiles(input, finding, file);
    const after = (path: string) => {
      const at = lines(out).findIndex((line) => line === path || line.startsWith(`${path} `));
      return at < 0 ? "(not shown)" : lines(out)[at + 1] ?? "";
    };
    if (runs) expect(alike.length).toBeGreaterThan(0);
    expect(alike.filter((path) => /^\s/.test(after(path)))).toEqual([]);
  }
});

/**
 * The files of a file-layout output whose findings (each line but its position) are the file
 * before's and all past three of their kind: what file_layout folds on the file line.
 */
function alikeFiles(text: string, finding: RegExp, file: RegExp): string[] {
  const seen = new Map<string, number>();
  const files: { path: string; kinds: string[]; repeats: boolean }[] = [];
  for (const line of lines(text)) {
    if (file.test(line)) files.push({ path: line, kinds: [], repeats: true });
    else if (finding.test(line) && files.length) {
      const kind = line.trim().replace(/^\S+\s+/, "");
      const n = (seen.get(kind) ?? 0) + 1;
      seen.set(kind, n);
      files.at(-1)!.kinds.push(kind);
      if (n <= 3) files.at(-1)!.repeats = false;
    }
  }
  const same = (a: string[], b: string[]) => [...a].sort().join("\n") === [...b].sort().join("\n");
  return files.filter((f, i) =>
    i > 0 && f.repeats && f.kinds.length >= 2 && same(f.kinds, files[i - 1].kinds)
  ).map((f) => f.path);
}

Deno.test("group_by_rule file_layout: a rule saying several messages has each fold place say which; a file folding the places of the file before says so, on its file line when all its findings fold", () => {
  const rule = compileRule({
    name: "lint",
    match: { prefix: "lint" },
    strategy: {
      type: "group_by_rule",
      group_errors: true,
      file_layout: true,
      max_repeats: 1,
      file_pattern: "^(\\S+\\.js)$",
      line_pattern:
        "^\\s+(?P<loc>\\d+:\\d+)\\s+(?P<sev>error|warning)\\s+(?P<msg>\\S.*?)\\s{2,}(?P<rule>[\\w-]+)$",
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, guard: false });
  const file = (name: string, b = "2:5") => [
    name,
    "  1:5   error    'a' is defined but never used  no-unused-vars",
    `  ${b}   error    'b' is defined but never used  no-unused-vars`,
    "  3:1   warning  Unexpected console statement   no-console",
    "  4:9   error    wrong indentation: expected 4 but found 2  indent",
    "  5:9   error    wrong indentation: expected 6 but found 4  indent",
  ];
  const debug = "  6:1   error    Unexpected 'debugger' statement  no-debugger";
  const undef = "  7:3   error    'x' is not defined  no-undef";
  const input = [
    ...file("a.js"),
    ...file("b.js"),
    debug,
    ...file("c.js"),
    debug,
    ...file("d.js", "2:7"),
    debug,
    ...file("e.js"),
    debug,
    undef,
    "",
    "✖ 28 problems (24 errors, 4 warnings)",
  ];
  expect(engine.filter("lint", input.join("\n"), { failed: true }).text.split("\n")).toEqual([
    ...file("a.js"),
    "b.js",
    debug,
    "  … 5 more findings as above: 1:5 no-unused-vars 'a'; 2:5 no-unused-vars 'b'; 3:1 no-console; " +
    '4:9 indent "wrong indentation: expected 4 but found 2"; 5:9 indent "wrong indentation: expected 6 but found 4"',
    // All of its findings fold and are the file before's, shown or folded: one line.
    "c.js  … 6 findings as in the file before",
    // One kind elsewhere: said alone.
    "d.js  … 6 findings as in the file before but 2:7 no-unused-vars 'b'",
    // A finding of its own stays; the folded ones are said by the file before's.
    "e.js",
    undef,
    "  … 6 more findings as above, at the places of the file before but 2:5 no-unused-vars 'b'",
    "✖ 28 problems (24 errors, 4 warnings)",
  ]);
});

/**
 * phpcs's full report with each wrapped message read into its row (`  4 | ERROR | [ ] Method
 * name` and its `    |         |     "…"` rows: one line), and the continuation rows that stand
 * under no row of theirs (a fold that parted them).
 */
function joinedRows(text: string): { lines: string[]; orphans: string[] } {
  const joined: string[] = [];
  const orphans: string[] = [];
  let row = false;
  for (const line of lines(text)) {
    const more = /^\s*\| +\| +(\S.*)$/.exec(line);
    if (more && row) joined[joined.length - 1] += ` ${more[1]}`;
    else if (more) orphans.push(line);
    else {
      joined.push(line);
      row = /^\s*\d+ \| (?:ERROR|WARNING) +\| /.test(line);
    }
  }
  return { lines: joined, orphans };
}

Deno.test("group_by_rule file_layout: phpcs's wrapped rows are one finding each, shown whole or folded whole", async () => {
  // phpcs 3.7 (Debian) PSR12 over a dozen files alike, and over two projects at a report width
  // of 70 (more rows wrapped).
  const finding = /^\s*(?<loc>\d+) \| (?<rule>ERROR|WARNING) +\| \[[x ]\] .+$/;
  const file = /^FILE: \S+$/;
  for (const name of ["psr12_wrapped_many_files", "psr12_narrow_report"]) {
    const input = await fixture(`phpcs/${name}.in.txt`);
    const command = (await fixture(`phpcs/${name}.cmd`)).split("\n")[0];
    const out = filter(command, input, true);
    // The rule's own output: the generic pass after it may say a block again by a reference.
    const ruled = builtinEngine.trace(command, input, { failed: true })
      .find((t) => t.name === "phpcs")!.output.join("\n");
    const before = joinedRows(input);
    const after = joinedRows(ruled);
    // No wrapped row left without its finding, and every finding named under its file once.
    expect([name, after.orphans, joinedRows(out).orphans]).toEqual([name, [], []]);
    expect(layoutFindings(after.lines.join("\n"), finding, file)).toEqual(
      layoutFindings(before.lines.join("\n"), finding, file),
    );
    // A finding shown is shown with all its rows, as printed, one after the other.
    for (const row of after.lines.filter((line) => finding.test(line))) {
      expect(before.lines).toContain(row);
    }
    expect(out.length).toBeLessThan(input.length * 2 / 3);
  }
});

Deno.test("a line number printed apart from its file (`lineno`): every finding keeps its place, each check its first line, errors as printed", async () => {
  // puppet-lint 3.0 on several manifests (`path - WARNING: … on line N (check: c)`) and on one
  // (`WARNING: … on line N (check: c)`, with --with-context's quoted line and caret).
  const cases = [
    { file: "puppet-lint/base_profiles", command: "puppet-lint site/profile/manifests/base" },
    {
      file: "puppet-lint-file/one_manifest",
      command: "puppet-lint --with-context site/profile/manifests/app/api.pp",
    },
  ];
  for (const { file, command } of cases) {
    const input = lines(await fixture(`${file}.in.txt`));
    const out = filter(command, input.join("\n"), true);
    const shown = lines(out).map((line) => line.trim());
    const findings = input.flatMap((line) => {
      const m = /^(?:(\S+) - )?(WARNING|ERROR): (.+) on line (\d+) \(check: (\w+)\)$/.exec(line);
      return m ? [{ line, path: m[1], kind: m[2], check: m[5], at: m[4] }] : [];
    });
    expect(findings.length).toBeGreaterThan(15);
    // Each finding is shown as printed or named by its place (`a.pp:8`, one file: `line 8`).
    const place = (f: (typeof findings)[number]) => f.path ? `${f.path}:${f.at}` : `line ${f.at}`;
    const said = (f: (typeof findings)[number]) =>
      shown.includes(f.line) ||
      new RegExp(`[ ,]${place(f).replace(/\./g, "\\.")}(,| |$)`, "m").test(out);
    expect(findings.filter((f) => !said(f)).map((f) => f.line)).toEqual([]);
    // Errors stay as printed; each check keeps a line of its own as printed.
    const errors = findings.filter((f) => f.kind === "ERROR").map((f) => f.line);
    expect(errors.filter((line) => !shown.includes(line))).toEqual([]);
    const checks = new Set(findings.map((f) => f.check));
    const shownChecks = new Set(
      findings.filter((f) => shown.includes(f.line)).map((f) => f.check),
    );
    expect([...checks].filter((c) => !shownChecks.has(c))).toEqual([]);
    // The folds happened.
    expect(lines(out).length).toBeLessThan(input.length / 2);
  }
});

Deno.test("file_layout without group_errors: every error stays as printed, repeated warnings still fold", async () => {
  // spectral 6 (its rule leaves errors ungrouped): one example error in six schemas of one file;
  // yamllint's charts (its built-in rule, group_errors turned off here): errors said many times
  // in each file.
  const toml = parseToml(
    await Deno.readTextFile(new URL("../../filters/lint.toml", import.meta.url)),
  ) as { rules: { name: string; strategy: Record<string, unknown> }[] };
  const yamllint = toml.rules.find((r) => r.name === "yamllint")!.strategy;
  const run = (strategy: Record<string, unknown>, text: string) =>
    new FilterEngine([
      compileRule({ name: "layout", match: { prefix: "lint" }, strategy }, "t", { engine: "v8" }),
    ], { security: false }).filter("lint", text, { failed: true }).text;
  const error = /^ *\d+:\d+ +error /;
  const charts = await fixture("yamllint/charts_alike.in.txt");
  const cases = [
    {
      text: await fixture("spectral/library_api.in.txt"),
      filtered: (text: string) => filter("npx spectral lint openapi.yaml", text, true),
    },
    { text: charts, filtered: (text: string) => run({ ...yamllint, group_errors: false }, text) },
  ];
  for (const { text, filtered } of cases) {
    const errors = lines(text).filter((line) => error.test(line));
    expect(errors.length).toBeGreaterThan(10);
    const shown = lines(filtered(text));
    expect(errors.filter((line) => !shown.includes(line))).toEqual([]);
    // Warnings fold: fewer lines than printed.
    expect(shown.length).toBeLessThan(lines(text).length);
  }
  // With group_errors, yamllint's repeated errors fold (what the cases above would lose).
  const grouped = lines(run(yamllint, charts));
  const errors = lines(charts).filter((line) => error.test(line));
  expect(errors.filter((line) => !grouped.includes(line)).length).toBeGreaterThan(0);
});
