/**
 * Every cut the strategies make (head/tail, per-rule location caps, per-diagnostic and per-trace
 * line caps, failures past max_failures, dedup's cap, the generic pass's head/tail and long-line
 * cut, group_paths' loose lines, json findings past max_items) keeps every line that carries a
 * failure, and the location lines right after one, wherever they sit: in the middle of the
 * cut, at its very end, or far past the cap.
 */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";
import { compactLocations } from "../../src/filter/strategies/group_by_rule.ts";
import { frameOwner } from "../../src/filter/generic_folds.ts";
import { filter } from "./_builtin.ts";

function run(strategy: Record<string, unknown> | null, input: string, failed = true) {
  const rules = strategy
    ? [compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test")]
    : [];
  return new FilterEngine(rules, { security: false, guard: false }).filter("cmd", input, { failed })
    .text;
}

/** `n` filler lines, with `lines` put in at the given indexes. */
function lines(n: number, filler: (i: number) => string, put: Record<number, string>): string[] {
  return Array.from({ length: n }, (_, i) => put[i] ?? filler(i));
}

/** Where a failure sits relative to a cut of input lines [from, to). */
const PLACES = (from: number, to: number) => ({
  middle: Math.floor((from + to) / 2),
  "very end": to - 2,
  "past the cap": from + 1,
});

/** The failure and its location, two lines apart (as rustc prints them). */
const failureAt = (i: number) => ({
  [i]: `error[E0308]: mismatched types in item ${i}`,
  [i + 1]: `  --> src/item_${i}.rs:${i}:5`,
});

Deno.test("head/tail cuts keep a failure and its location, wherever they are in the cut", () => {
  // truncate: head 3, tail 2 of 60 lines; the generic pass: its own head and tail of 3000 lines;
  // strip_annotated: head 5, tail 5 of the lines left after the noise.
  const kinds: [string, Record<string, unknown> | null, number, number, number][] = [
    ["truncate", { type: "truncate", max_lines: 10, head: 3, tail: 2 }, 60, 3, 58],
    ["generic pass", null, 3000, 100, 2900],
    [
      "strip_annotated",
      {
        type: "strip_annotated",
        patterns: ["^noise"],
        long_output_threshold: 20,
        keep_head: 5,
        keep_tail: 5,
      },
      80,
      5,
      75,
    ],
  ];
  for (const [kind, strategy, n, from, to] of kinds) {
    for (const [place, at] of Object.entries(PLACES(from, to))) {
      const input = lines(n, (i) => `plain line ${i} of ${kind}`, failureAt(at));
      // strip_annotated cuts only a successful run (a failed one passes whole).
      const out = run(strategy, input.join("\n"), kind !== "strip_annotated").split("\n");
      expect([kind, place, out.length < input.length]).toEqual([kind, place, true]);
      expect([kind, place, out.filter((l) => l.includes(`item_${at}.rs`) || l.startsWith("error"))])
        .toEqual([kind, place, [input[at], input[at + 1]]]);
    }
  }
});

Deno.test("a location far from any failure line is cut; one right after a failure stays", () => {
  const input = lines(60, (i) => `line ${i}`, {
    10: "  at src/far_away.ts:3:4",
    30: "FAIL something",
    31: "  detail",
    32: "  at src/near.ts:7:1",
  });
  const out = run({ type: "truncate", max_lines: 10, head: 3, tail: 2 }, input.join("\n"));
  expect(out).not.toContain("far_away");
  expect(out).toContain("FAIL something\n... (1 line omitted) ...\n  at src/near.ts:7:1");
});

Deno.test("group_by_rule counts a rule's findings past max_locations, every location listed", () => {
  const input = Array.from({ length: 30 }, (_, i) =>
    [
      `warning: unused variable: \`v${i}\``,
      `  --> src/${i % 3 === 0 ? "same" : `f${i}`}.rs:${i + 1}:5`,
      "   |",
      "",
    ].join("\n")).join("\n");
  const out = run({ type: "group_by_rule", max_locations: 5 }, input, false);
  // The first five as printed (in src/same.rs only the first: the others there are their
  // location and name), the others counted with their locations.
  for (const i of [0, 1, 2, 4, 5]) {
    expect(out).toContain(`  warning: unused variable: \`v${i}\`\n`);
  }
  expect(out).toContain("  … 9 more like this at src/same.rs:4:5 `v3`, src/same.rs:7:5 `v6`, ");
  expect(out).toContain("  … 16 more unused variable: `…` at src/f7.rs:8:5, src/f8.rs:9:5, ");
  for (let i = 5; i < 30; i++) {
    const file = i % 3 === 0 ? "same" : `f${i}`;
    expect(out).toContain(`src/${file}.rs:${i + 1}:5`);
  }
  expect(compactLocations(["a.rs:1:2", "b.rs:3", "a.rs:4:5", "Cargo.toml"])).toEqual([
    "  a.rs:1:2, b.rs:3, a.rs:4:5, Cargo.toml",
  ]);
  const wrapped = compactLocations(Array.from({ length: 40 }, (_, i) => `src/file_${i}.rs:1:1`));
  expect(wrapped.length).toBeGreaterThan(1);
  expect(wrapped.every((l) => l.length <= 102)).toBe(true);
  expect(wrapped.join(" ").match(/file_\d+/g)!.length).toBe(40);
});

Deno.test("group_by_rule keeps an error's failure lines and locations past max_error_lines", () => {
  const body = lines(60, (i) => `   | code frame ${i}`, {
    45: "note: required by this bound in `Foo`",
    46: "  --> src/deep.rs:45:9",
    59: "   = help: assertion failed at the very end",
  });
  const input = ["error[E0277]: the trait bound is not satisfied", "  --> src/a.rs:1:1", ...body]
    .join("\n");
  const out = run({ type: "group_by_rule", max_error_lines: 10 }, input);
  expect(out).toContain("  --> src/a.rs:1:1");
  expect(out).toContain("  --> src/deep.rs:45:9");
  expect(out).toContain("   = help: assertion failed at the very end");
  expect(out).toMatch(/\.\.\. \(\d+ more lines\)/);
});

Deno.test("test_summary keeps the failure lines of long traces and of failures past max_failures", () => {
  const test = (i: number, traceLines: number) =>
    [
      `---- tests::case_${i} stdout ----`,
      ...lines(traceLines, (k) => `  frame ${k} of case ${i}`, {
        [traceLines - 3]: `thread 'tests::case_${i}' panicked at src/lib.rs:${i}:9:`,
        [traceLines - 2]: `assertion \`left == right\` failed`,
      }),
      "",
    ].join("\n");
  const input = [
    "running 14 tests",
    ...Array.from({ length: 14 }, (_, i) => `test tests::case_${i} ... FAILED`),
    "",
    "failures:",
    "",
    ...Array.from({ length: 14 }, (_, i) => test(i, i === 0 ? 80 : 6)),
    "failures:",
    ...Array.from({ length: 14 }, (_, i) => `    tests::case_${i}`),
    "",
    "test result: FAILED. 0 passed; 14 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
  ].join("\n");
  const out = run(
    { type: "test_summary", max_failures: 10, truncate_stack_trace: 20 },
    input,
  );
  // Case 0's panic sits past its trace limit; cases 10-13 are past max_failures.
  for (let i = 0; i < 14; i++) {
    expect(out).toContain(`thread 'tests::case_${i}' panicked at src/lib.rs:${i}:9:`);
  }
  expect(out.split("\n").filter((l) => l === "assertion `left == right` failed").length).toBe(14);
  expect(out).not.toContain("frame 50 of case 0");
  expect(out).toContain("more failure traces cut to their failure lines");
});

Deno.test("dedup keeps failure lines past max_unique_patterns", () => {
  const input = lines(40, (i) => `event ${String.fromCharCode(97 + (i % 26))}${i}`, {
    20: "ERROR: disk full on sda",
    39: "panic: the very last line",
  });
  const out = run({ type: "dedup", max_unique_patterns: 5 }, input.join("\n"));
  expect(out).toContain("ERROR: disk full on sda");
  expect(out).toContain("panic: the very last line");
  expect(out).toContain("(5 unique lines of 40; capped at 5, 33 later lines not shown)");
});

Deno.test("the generic long-line cut keeps the text around every failure in the middle", () => {
  const filler = (n: number) => "x".repeat(n);
  const line = `${filler(600)} error: first ${filler(2000)} FAILED second ${filler(2000)} done`;
  const out = run(null, line);
  expect(out.length).toBeLessThan(line.length / 2);
  expect(out).toContain("error: first");
  expect(out).toContain("FAILED second");
  expect(out.endsWith("done")).toBe(true);
  // Signals close together share one window: no marker between them.
  const near = `${filler(600)} error one ${filler(50)} error two ${filler(2000)}`;
  expect(run(null, near)).toMatch(/error one x{50} error two/);
});

Deno.test("group_paths keeps every failure line that is not a path, past its cap of loose lines", () => {
  const input = [
    ...Array.from({ length: 300 }, (_, i) => `find: ‘/proc/${i}/fd’: Permission denied`),
    ...Array.from({ length: 50 }, (_, i) => `./src/f${i}.ts`),
    "find: ‘/root’: Permission denied at the very end",
    "some other message: not a path",
  ].join("\n");
  const out = run({ type: "group_paths", min_lines: 10 }, input);
  for (let i = 0; i < 300; i++) expect(out).toContain(`‘/proc/${i}/fd’`);
  expect(out).toContain("find: ‘/root’: Permission denied at the very end");
});

Deno.test("json findings past max_items stay when they name a failure or a location", () => {
  const results = [{
    filePath: "/p/a.js",
    messages: Array.from({ length: 30 }, (_, i) => ({
      ruleId: "no-unused-vars",
      severity: 2,
      message: `'v${i}' is defined but never used.`,
      line: i + 1,
      column: 7,
    })),
    errorCount: 30,
  }];
  const out = run(
    { type: "json", max_items: 5 },
    JSON.stringify(results),
  );
  for (let i = 0; i < 30; i++) expect(out).toContain(`'v${i}'`);
});

Deno.test("group_by_rule lists a rule's findings by message as printed, a message said again counted with its location", () => {
  const line = (loc: string, msg: string) => `${loc}: C0103: ${msg} (invalid-name)`;
  const input = [
    line("a.py:1:0", 'Argument name "s" doesn\'t conform to snake_case naming style'),
    line("a.py:2:0", 'Argument name "s" doesn\'t conform to snake_case naming style'),
    line("a.py:4:0", 'Argument name "s" doesn\'t conform to snake_case naming style'),
    line("b.py:3:4", 'Argument name "t" doesn\'t conform to snake_case naming style'),
    line("b.py:5:6", 'Variable name "f" doesn\'t conform to snake_case naming style'),
  ].join("\n");
  const s = {
    type: "group_by_rule",
    line_pattern:
      "^(?P<loc>[^\\s:]{1,300}:\\d{1,7}:\\d{1,7}): (?P<sev>C)\\d{4}: (?P<msg>[^\\n]{1,500}) \\((?P<rule>[\\w-]{1,60})\\)$",
  };
  // Five lines in, five out: our total would be a sixth, so it goes.
  expect(run(s, input, false)).toBe([
    "invalid-name (5):",
    `  ${line("a.py:1:0", 'Argument name "s" doesn\'t conform to snake_case naming style')}`,
    "  … 2 more saying this at a.py:2:0, a.py:4:0",
    `  ${line("b.py:3:4", 'Argument name "t" doesn\'t conform to snake_case naming style')}`,
    `  ${line("b.py:5:6", 'Variable name "f" doesn\'t conform to snake_case naming style')}`,
  ].join("\n"));
});

Deno.test("git status lists every conflicted path past max_files; other sections are capped", () => {
  const input = [
    "## main...origin/main",
    ...Array.from({ length: 8 }, (_, i) => `UU src/conflict_${i}.rs`),
    ...Array.from({ length: 8 }, (_, i) => `?? new_${i}.txt`),
  ].join("\n");
  const out = run({ type: "git_status", max_files: 3 }, input);
  for (let i = 0; i < 8; i++) expect(out).toContain(`UU src/conflict_${i}.rs`);
  expect(out).toContain("?? new_0.txt\n?? new_1.txt\n?? new_2.txt\n… and 5 more untracked");
  expect(out).not.toContain("?? new_3.txt");
});

Deno.test("a JSON document's elements past max_items stay when they name a failure", () => {
  const doc = Array.from({ length: 30 }, (_, i) => ({
    name: `job ${i}`,
    state: i === 25 ? "error: runner lost" : "queued",
  }));
  const out = run({ type: "json", max_items: 5 }, JSON.stringify(doc)).split("\n");
  expect(out).toContain(JSON.stringify(doc[25]));
  expect(out).not.toContain(JSON.stringify(doc[20]));
  expect(out).toContain("(24 more items not shown)");
});

Deno.test("a finding reported again at the same place is counted, not listed again", () => {
  expect(compactLocations(["a.c:2:21", "a.c:2:21", "a.c:3:1", "b.c:2:21", "b.c:2:21"])).toEqual([
    "  a.c:2:21 (x2), a.c:3:1, b.c:2:21 (x2)",
  ]);
  // A build repeated 300 times: the output stays the size of one build's.
  const once = Array.from(
    { length: 30 },
    (_, i) => `f${i}.c:2:21: warning: unused variable ‘u’ [-Wunused-variable]`,
  );
  const input = Array.from({ length: 300 }, () => once.join("\n")).join("\n");
  const s = {
    type: "group_by_rule",
    line_pattern:
      "^(?P<loc>[^\\s:]{1,300}:\\d{1,7}:\\d{1,7}): (?P<sev>warning): (?P<msg>.+?) \\[(?P<rule>-W[\\w=-]{1,80})\\]$",
    max_locations: 10,
  };
  const out = run(s, input, false);
  expect(out.length).toBeLessThan(2000);
  expect(out).toContain(`  ${once[0]} (x300)`);
  expect(out).toContain("  … 29 more saying this at f1.c:2:21 (x300), f2.c:2:21 (x300), ");
  expect(out).toContain("f29.c:2:21 (x300)");
});

Deno.test("a failure's trace cut past its limit keeps its first frames in the user's own code", async () => {
  // jest 29 (babel-jest) run in a project whose node_modules sits above its root, so jest shows
  // babel's frames: a syntax error in src/invoice.js imported by __tests__/invoice.test.js, a
  // trace of 49 frames in @babel/parser, @babel/core, gensync and jest's transformer, then the
  // test's own frame.
  const input = await Deno.readTextFile(
    new URL("../fixtures/generic/jest_babel_error_outside_root.txt", import.meta.url),
  );
  const out = filter("npx jest --ci", input, true);
  expect(out).toMatch(/more lines\)/);
  expect(out).toContain("      at Object.require (__tests__/invoice.test.js:1:1)");
  // The library frames past the cut stay cut.
  expect(out).not.toContain("ScriptTransformer.transformSource");
});

Deno.test("frameOwner: a frame of one line is the user's own when its file is in no library, runtime or package", () => {
  for (
    const line of [
      "      at Object.require (__tests__/invoice.test.js:1:1)",
      "    at loadConfig (/srv/app/src/config.js:11:16)",
      '  File "app/cart.py", line 3, in total',
      "\tfrom app/models/cart.rb:9:in 'total'",
      "\tat com.shop.Cart.total(Cart.java:12)",
      "#2 0x55d1c in parse_row src/csv.c:41",
    ]
  ) expect([line, frameOwner(line)]).toEqual([line, "own"]);
  for (
    const line of [
      "      at ScriptTransformer.transform (../node_modules/@jest/transform/build/ScriptTransformer.js:726:19)",
      "          at run.next (<anonymous>)",
      "    at node:internal/main/run_main_module:28:49",
      '  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode',
      "\tat java.base/java.lang.Thread.run(Thread.java:833)",
    ]
  ) expect([line, frameOwner(line)]).toEqual([line, "library"]);
  for (const line of ["expected 3 to equal 4", "    at async Promise.all (index 0)"]) {
    expect([line, frameOwner(line)]).toEqual([line, null]);
  }
});
