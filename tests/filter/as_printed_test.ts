/**
 * Lines a rule keeps stay as the tool printed them: a test runner's assertion and count lines, a
 * linter's file headers and finding lines, a verbose success's result lines while they are few.
 * An agent quotes them (and looks for them) verbatim. Inputs are excerpts of real runs (vitest 2,
 * jest 29, node 20 --test, cargo test, ruby 3.1 minitest, rsync, eslint 9, yamllint 1.x); the deno
 * and go ones follow those runners' formats.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, text: string, failed = false) =>
  engine.filter(command, text, { failed }).text.split("\n");

/** The output lines of `command`, each one of `lines` unchanged (indentation included). */
function expectKept(out: string[], lines: string[]): void {
  for (const line of lines) expect(out).toContain(line);
}

Deno.test("test runners keep assertion and count lines as printed", () => {
  const cases: { command: string; input: string[]; kept: string[] }[] = [
    {
      command: "npx vitest run",
      input: [
        "",
        " RUN  v2.1.9 /tmp/p/vt",
        "",
        " ❯ cart.test.js (7 tests | 4 failed) 10ms",
        "   × cart > discount 0ms",
        "     → expected 89 to be 90 // Object.is equality",
        "",
        "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
        "",
        " FAIL  cart.test.js > cart > discount",
        "AssertionError: expected 89 to be 90 // Object.is equality",
        "",
        "- Expected",
        "+ Received",
        "",
        "- 90",
        "+ 89",
        "",
        " ❯ cart.test.js:6:52",
        '      5|   it("empty cart", () => { expect(total([])).toBe(0); });',
        '      6|   it("discount", () => { expect(discount(100, 10)).toBe(90); });',
        "       |                                                    ^",
        "",
        "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯",
        "",
        " Test Files  1 failed (1)",
        "      Tests  1 failed | 6 passed (7)",
        "   Start at  21:37:21",
        "   Duration  764ms (transform 42ms, setup 0ms, collect 26ms, tests 10ms)",
      ],
      kept: [
        "AssertionError: expected 89 to be 90 // Object.is equality",
        " Test Files  1 failed (1)",
        "      Tests  1 failed | 6 passed (7)",
      ],
    },
    {
      command: "npx jest",
      input: [
        "FAIL ./sum.test.js",
        "  ✓ adds (1 ms)",
        "  ✕ adds negatives (1 ms)",
        "",
        "  ● adds negatives",
        "",
        "    expect(received).toBe(expected) // Object.is equality",
        "",
        "    Expected: -3",
        "    Received: -2",
        "",
        '    > 3 | test("adds negatives", () => { expect(sum(-1, -2)).toBe(-3); });',
        "        |                                                    ^",
        "",
        "      at Object.toBe (sum.test.js:3:52)",
        "",
        "Test Suites: 1 failed, 1 total",
        "Tests:       1 failed, 1 passed, 2 total",
        "Snapshots:   0 total",
        "Time:        0.326 s",
      ],
      kept: [
        "    expect(received).toBe(expected) // Object.is equality",
        "    Expected: -3",
        "Test Suites: 1 failed, 1 total",
        "Tests:       1 failed, 1 passed, 2 total",
      ],
    },
    {
      command: "node --test",
      input: [
        "not ok 2 - fails",
        "  ---",
        "  duration_ms: 1.2",
        "  location: '/tmp/p/node.test.mjs:4:1'",
        "  failureType: 'testCodeFailure'",
        "  error: |-",
        "    Expected values to be strictly equal:",
        "    ",
        "    2 !== 3",
        "    ",
        "  ...",
        "1..2",
        "# tests 2",
        "# pass 1",
        "# fail 1",
        "# todo 0",
      ],
      kept: ["not ok 2 - fails", "    2 !== 3", "# tests 2", "# pass 1", "# fail 1"],
    },
    {
      command: "deno test",
      input: [
        "running 2 tests from ./parse_test.ts",
        "parses ... ok (1ms)",
        "rejects ... FAILED (2ms)",
        "",
        " ERRORS ",
        "",
        "rejects => ./parse_test.ts:6:6",
        "error: AssertionError: Values are not equal.",
        "",
        " FAILURES ",
        "",
        "rejects => ./parse_test.ts:6:6",
        "",
        "FAILED | 1 passed | 1 failed (19ms)",
        "",
        "error: Test failed",
      ],
      kept: ["FAILED | 1 passed | 1 failed (19ms)"],
    },
    {
      command: "cargo test",
      input: [
        "   Compiling ct v0.1.0 (/tmp/p/ct)",
        "    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.29s",
        "     Running unittests src/lib.rs (target/debug/deps/ct-c4066ebb79ee0019)",
        "",
        "running 2 tests",
        "test tests::big ... FAILED",
        "test tests::small ... ok",
        "",
        "failures:",
        "",
        "---- tests::big stdout ----",
        "",
        "thread 'tests::big' (32001) panicked at src/lib.rs:6:24:",
        "assertion `left == right` failed",
        "  left: 9",
        " right: 8",
        "",
        "failures:",
        "    tests::big",
        "",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.60s",
        "",
        "error: test failed, to rerun pass `--lib`",
      ],
      kept: [
        "assertion `left == right` failed",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.60s",
      ],
    },
    {
      command: "go test ./...",
      input: [
        "--- FAIL: TestClamp (0.00s)",
        "    clamp_test.go:14: Clamp(50, 0, 10) = 0, want 10",
        "FAIL",
        "FAIL\texample.com/p/clamp\t0.003s",
        "ok  \texample.com/p/strs\t0.002s\tcoverage: 100.0% of statements",
        "FAIL",
      ],
      kept: [
        "FAIL\texample.com/p/clamp\t0.003s",
        "ok  \texample.com/p/strs\t0.002s\tcoverage: 100.0% of statements",
      ],
    },
  ];
  for (const { command, input, kept } of cases) {
    expectKept(filter(command, input.join("\n"), true), kept);
  }
});

const minitest = (tests: string[]) =>
  [
    "Run options: -v --seed 4242",
    "",
    "# Running:",
    "",
    ...tests.map((name) => `StackTest#${name} = 0.00 s = .`),
    "",
    "Finished in 0.000953s, 4198.3291 runs/s, 4198.3291 assertions/s.",
    "",
    `${tests.length} runs, ${tests.length} assertions, 0 failures, 0 errors, 0 skips`,
  ].join("\n");

Deno.test("a verbose success keeps its few result lines as printed and counts many", () => {
  const few = ["test_empty_pop", "test_pop", "test_size", "test_push"];
  expect(filter("ruby -Itest test/stack_test.rb -v", minitest(few))).toEqual([
    "Run options: -v --seed 4242",
    ...few.map((name) => `StackTest#${name} = 0.00 s = .`),
    "4 runs, 4 assertions, 0 failures, 0 errors, 0 skips",
  ]);
  const many = Array.from({ length: 40 }, (_, i) => `test_case_${i}`);
  expect(filter("rake test", minitest(many))).toEqual([
    "Run options: -v --seed 4242",
    "… 40 passing test lines folded …",
    "40 runs, 40 assertions, 0 failures, 0 errors, 0 skips",
  ]);
  const rsync = (paths: string[]) =>
    [
      "sending incremental file list",
      "created directory dst",
      "./",
      ...paths,
      "",
      "sent 365 bytes  received 133 bytes  996.00 bytes/sec",
      "total size is 8  speedup is 0.02",
    ].join("\n");
  const paths = ["a/", "a/f1.txt", "a/f2.txt", "b/", "b/g.txt"];
  expect(filter("rsync -av src/ dst/", rsync(paths))).toEqual([
    "sending incremental file list",
    "created directory dst",
    ...paths,
    "sent 365 bytes  received 133 bytes  996.00 bytes/sec",
    "total size is 8  speedup is 0.02",
  ]);
  const tree = Array.from({ length: 30 }, (_, i) => `b/h${i}.txt`);
  expect(filter("rsync -av src/ dst/", rsync(tree))).toEqual([
    "sending incremental file list",
    "created directory dst",
    "… 30 transferred paths folded …",
    "sent 365 bytes  received 133 bytes  996.00 bytes/sec",
    "total size is 8  speedup is 0.02",
  ]);
});

Deno.test("strip_noise results: each run of result lines is judged apart; noise wins; short runs stay", () => {
  const rule = compileRule({
    name: "t",
    match: { prefix: "cmd" },
    strategy: {
      type: "strip_noise",
      patterns: ["^\\s*$", "^ok skip"],
      results: ["^ok "],
      max_results: 2,
      results_fold: "… {n} ok lines …",
    },
  }, "test");
  const run = (text: string) =>
    new FilterEngine([rule], { security: false }).filter("cmd", text, { failed: false }).text;
  expect(run("ok a\nok b\nheader\nok cc\nok dd\nok ee\nok skip f\nend")).toBe(
    "ok a\nok b\nheader\n… 3 ok lines …\nend",
  );
  // A run no longer than its fold line stays as printed.
  expect(run("ok c\nok d\nok e\nend")).toBe("ok c\nok d\nok e\nend");
  // A run is held only up to max_results lines, the rest are counted.
  const long = Array.from({ length: 100_000 }, (_, i) => `ok ${i}`).join("\n");
  expect(run(long)).toBe("… 100000 ok lines …");
});

Deno.test("strip_noise results: results_trusted folds results naming a failure; results_on_failure = false keeps a failed run's", () => {
  const engineWith = (extra: Record<string, unknown>) =>
    new FilterEngine([
      compileRule({
        name: "t",
        match: { prefix: "cmd" },
        strategy: {
          type: "strip_noise",
          patterns: ["^\\s*$"],
          results: ["^ok \\d+ "],
          max_results: 1,
          results_fold: "… {n} passing lines …",
          ...extra,
        },
      }, "test"),
    ], { security: false });
  const text = [
    "ok 1 reports an error for a missing file",
    "ok 2 fails cleanly on bad input",
    "ok 3 parses the configuration",
    "not ok 4 broken",
    "done",
  ].join("\n");
  const run = (extra: Record<string, unknown>, failed: boolean) =>
    engineWith(extra).filter("cmd", text, { failed }).text;
  // By default a result naming a failure stays and splits the run.
  expect(run({}, true)).toBe(text);
  expect(run({ results_trusted: true }, true)).toBe("… 3 passing lines …\nnot ok 4 broken\ndone");
  // Only a run that passed folds them with results_on_failure = false.
  expect(run({ results_trusted: true, results_on_failure: false }, true)).toBe(text);
  expect(run({ results_trusted: true, results_on_failure: false }, false)).toBe(
    "… 3 passing lines …\nnot ok 4 broken\ndone",
  );
});

Deno.test("strip_noise results_outline: a failing line keeps the groups it is nested under; results_until ends the results", () => {
  const engineWith = (extra: Record<string, unknown>) =>
    new FilterEngine([
      compileRule({
        name: "t",
        match: { prefix: "cmd" },
        strategy: {
          type: "strip_noise",
          patterns: ["^\\s*$"],
          results: ["^ {2,40}[a-z][^:(]{0,200}$"],
          max_results: 1,
          results_fold: "… {n} passing …",
          results_outline: true,
          results_until: "^Failures:$",
          ...extra,
        },
      }, "test"),
    ], { security: false });
  const engine = engineWith({});
  const text = [
    "Top",
    "  alpha",
    "    a one",
    "    a two",
    "  beta",
    "    when empty",
    "      b one",
    "      b two",
    "      b fails (FAILED - 1)",
    "      b three",
    "    when full",
    "      c one",
    "      c two",
    "Failures:",
    "  1) Top beta when empty b fails",
    "       expected true",
    "       got false",
  ].join("\n");
  const folded = [
    "Top",
    "  … 3 passing …",
    "  beta",
    "    when empty",
    "      … 2 passing …",
    "      b fails (FAILED - 1)",
    "      … 4 passing …",
    "Failures:",
    "  1) Top beta when empty b fails",
    "       expected true",
    "       got false",
  ].join("\n");
  expect(engine.filter("cmd", text, { failed: true }).text).toBe(folded);
  // The failure's explanation is result-shaped: only results_until keeps it.
  expect(
    engineWith({ results_until: undefined }).filter("cmd", text, { failed: true }).text,
  ).toBe(folded.replace("       expected true\n       got false", "       … 2 passing …"));
  // Without a failing line nothing is nested under: the run folds whole.
  const passed = text.split("\n").filter((line) => !line.includes("FAILED")).slice(0, 12);
  expect(engine.filter("cmd", passed.join("\n"), { failed: false }).text).toBe(
    "Top\n  … 11 passing …",
  );
});

Deno.test("strip_noise results_after and results_not_under: no result before the outline's first group or in an error block", () => {
  const engineWith = (extra: Record<string, unknown>) =>
    new FilterEngine([
      compileRule({
        name: "t",
        match: { prefix: "cmd" },
        strategy: {
          type: "strip_noise",
          patterns: ["^\\s*$"],
          results: ["^ {2,40}[a-z][^:(]{0,200}$"],
          max_results: 1,
          results_fold: "… {n} passing …",
          results_outline: true,
          results_after: "^[A-Z][^:]{0,200}$",
          results_not_under: ["^Error in ", "^[A-Z]\\w{0,100}:$"],
          ...extra,
        },
      }, "test"),
    ], { security: false });
  const text = [
    // Before the outline: an error whose message is indented, then a line the outline cannot
    // begin under.
    "Error in hook",
    "  pool not drained",
    "  two jobs left",
    "Run options: seed 42",
    "  include focused",
    "  exclude slow ones",
    "Top",
    "  adds one item",
    "  adds two items",
    // Amid the outline: an error block, then the outline goes on after its frame line.
    "Error in hook",
    "IOError:",
    "  log unwritable",
    "  mode read only",
    "# ./a_spec.rb:4",
    "  removes one item",
    "  removes two items",
  ].join("\n");
  const engine = engineWith({});
  expect(engine.filter("cmd", text, { failed: true }).text).toBe([
    ...text.split("\n").slice(0, 7),
    "  … 2 passing …",
    ...text.split("\n").slice(9, 14),
    "  … 2 passing …",
  ].join("\n"));
  // Without them the error's message and the lines before the outline fold as results.
  expect(
    engineWith({ results_after: undefined, results_not_under: [] })
      .filter("cmd", text, { failed: true }).text,
  ).toBe([
    "Error in hook",
    "  … 2 passing …",
    "Run options: seed 42",
    "  … 2 passing …",
    "Top",
    "  … 2 passing …",
    "Error in hook",
    "IOError:",
    "  … 2 passing …",
    "# ./a_spec.rb:4",
    "  … 2 passing …",
  ].join("\n"));
});

Deno.test("eslint and yamllint keep each file line and finding line as printed; repeats fold", () => {
  const eslint = [
    "",
    "/tmp/p/lintproj/src/lib/math.js",
    "   4:17  error    Expected '===' and instead saw '=='         eqeqeq",
    "   5:10  error    'totl' is not defined                       no-undef",
    "  11:7   warning  Unexpected console statement                no-console",
    "",
    "/tmp/p/lintproj/src/ui/view.js",
    "  2:9   error    'unused' is assigned a value but never used  no-unused-vars",
    "  4:9   error    Expected '===' and instead saw '=='          eqeqeq",
    "  4:15  warning  Unexpected console statement                 no-console",
    "  5:9   error    Expected '===' and instead saw '=='          eqeqeq",
    "  5:15  warning  Unexpected console statement                 no-console",
    "  6:9   error    Expected '===' and instead saw '=='          eqeqeq",
    "  7:9   error    Expected '===' and instead saw '=='          eqeqeq",
    "  9:10  error    'undefinedThing' is not defined              no-undef",
    "",
    "✖ 11 problems (9 errors, 2 warnings)",
    "  1 error and 0 warnings potentially fixable with the `--fix` option.",
    "",
  ];
  expect(filter("npx eslint src", eslint.join("\n"), true)).toEqual([
    ...eslint.slice(1, 5),
    ...eslint.slice(6, 12),
    eslint[14],
    "  … 2 more errors as above: 6:9, 7:9 eqeqeq",
    ...eslint.slice(16, 18),
  ]);
  const yamllint = [
    "one.yaml",
    '  1:1       warning  missing document start "---"  (document-start)',
    "  2:5       error    too many spaces after colon  (colons)",
    "",
    "two.yml",
    "  2:5       error    trailing spaces  (trailing-spaces)",
    "  3:5       error    trailing spaces  (trailing-spaces)",
    "  4:5       error    trailing spaces  (trailing-spaces)",
    "  5:5       error    trailing spaces  (trailing-spaces)",
    "  6:5       error    trailing spaces  (trailing-spaces)",
  ];
  expect(filter("yamllint one.yaml two.yml", yamllint.join("\n"), true)).toEqual([
    ...yamllint.slice(0, 3),
    ...yamllint.slice(4, 8),
    "  … 2 more errors as above: 5:5, 6:5 trailing-spaces",
  ]);
});

Deno.test("group_by_rule file_layout needs the finding and file patterns", () => {
  const strategy = { type: "group_by_rule", file_layout: true, line_pattern: "^ (?P<loc>\\d+)" };
  expect(() => compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test")).toThrow(
    /file_layout: needs line_pattern and file_pattern/,
  );
});
