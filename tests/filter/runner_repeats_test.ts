/**
 * What a test run reports twice with the copies differing, and the lines of its report besides
 * tests, lost by test_summary on real runs: pytest's short summary `FAILED id - msg` when -v's
 * progress lines named the same tests (both copies now stay), vitest's second `expect.soft` failure under the same head,
 * node's one-line `expected:`/`actual:` values under a diff, pytest's SKIPPED/XFAIL reasons and
 * xdist's worker count. A copy that repeats the first (node's `failing tests:`, jest's summary,
 * deno's FAILURES) still folds. Tested through the built-in rules on real captures (bench/corpus)
 * and on shapes of each class.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, text: string, failed = true) =>
  engine.filter(command, text, { failed }).text.split("\n");
const corpus = (path: string) =>
  Deno.readTextFile(new URL(`../../bench/corpus/${path}`, import.meta.url));

Deno.test("pytest -v -rA keeps the short summary's lines beside -v's progress lines", async () => {
  const out = filter(
    "python3 -m pytest -v -rA tests",
    await corpus("python/pytest_verbose_ra.txt"),
  );
  for (
    const line of [
      "FAILED tests/test_calc.py::test_total[items2-6] - assert 7 == 6",
      "FAILED tests/test_calc.py::test_ratio - AssertionError: assert {'rate': 0.5, ...",
      "ERROR tests/test_calc.py::test_with_setup - RuntimeError: cannot open config....",
      "ERROR tests/test_calc.py::test_with_teardown - OSError: temp dir still in use",
      "SKIPPED [1] tests/test_calc.py:17: needs a database",
      "XFAIL tests/test_calc.py::test_rounding - rounding bug #12",
      "XPASS tests/test_calc.py::test_fixed - fixed upstream",
    ]
  ) expect(out).toContain(line);
  // Each copy of a failure says something the other does not (run order, message): both stay.
  const progress = out.filter((line) => / (FAILED|ERROR|PASSED) +\[ *\d+%\]$/.test(line));
  expect(progress).toHaveLength(5);
  // -rA's PASSED lines go: the counts line says how many passed.
  expect(out.filter((line) => line.startsWith("PASSED "))).toEqual([]);
  expect(out).not.toContain("collecting ... collected 51 items");
});

Deno.test("pytest -n 2 keeps xdist's worker and item count, and -rs's skip reasons", async () => {
  const out = filter(
    "python3 -m pytest -n 2 -rs tests",
    await corpus("python/pytest_xdist_workers.txt"),
  );
  expect(out).toContain("2 workers [51 items]");
  expect(out).toContain("SKIPPED [1] tests/test_calc.py:22: windows only");
  expect(out).toContain("SKIPPED [1] tests/test_calc.py:17: needs a database");
  expect(out.filter((line) => /^created: |^\[gw\d+\]/.test(line))).toEqual([]);
});

Deno.test("pytest keeps a unittest subTest's SUBFAILED short summary lines", () => {
  const input = [
    "______________________________ T.test_even (i=1) _______________________________",
    ">               self.assertEqual(i % 2, 0)",
    "E               AssertionError: 1 != 0",
    "test_sub.py:8: AssertionError",
    "=========================== short test summary info ============================",
    "SUBFAILED(i=1) test_sub.py::T::test_even - AssertionError: 1 != 0",
    "SUBFAILED(s='x') test_sub.py::T::test_parse - ValueError: invalid literal for...",
    "=============== 2 failed, 3 passed, 4 subtests passed in 0.81s ================",
  ].join("\n");
  const out = filter("pytest test_sub.py", input);
  expect(out).toContain("SUBFAILED(i=1) test_sub.py::T::test_even - AssertionError: 1 != 0");
  expect(out).toContain(
    "SUBFAILED(s='x') test_sub.py::T::test_parse - ValueError: invalid literal for...",
  );
});

Deno.test("pytest short summary outcome lines past twenty are counted", () => {
  const skipped = Array.from(
    { length: 25 },
    (_, i) => `SKIPPED [1] tests/t.py:${i + 1}: needs service ${i}`,
  );
  const input = [
    "tests/t.py::test_a FAILED                                                 [100%]",
    "=========================== short test summary info ============================",
    ...skipped,
    "FAILED tests/t.py::test_a - assert 1 == 2",
    "=================== 1 failed, 25 skipped in 0.10s ===================",
  ].join("\n");
  const out = filter("pytest -rs", input);
  expect(out.filter((line) => line.startsWith("SKIPPED "))).toEqual(skipped.slice(0, 20));
  expect(out).toContain("… 5 more skipped or xfailed tests …");
});

Deno.test("pytest's count of cut skip lines counts the tests each line groups", () => {
  // -rs groups skips of one reason at one place: `SKIPPED [3] …` is three tests.
  const skipped = Array.from(
    { length: 23 },
    (_, i) => `SKIPPED [${i < 20 ? 1 : 4}] tests/t.py:${i + 1}: needs service ${i}`,
  );
  const input = [
    "tests/t.py::test_a FAILED                                                 [100%]",
    "=========================== short test summary info ============================",
    ...skipped,
    "XFAIL tests/t.py::test_x - flaky on ci",
    "FAILED tests/t.py::test_a - assert 1 == 2",
    "=================== 1 failed, 32 skipped, 1 xfailed in 0.10s ===================",
  ].join("\n");
  const out = filter("pytest -rsx", input);
  expect(out).toContain("… 13 more skipped or xfailed tests …");
});

Deno.test("vitest keeps each expect.soft failure of one test, with its location", async () => {
  const out = filter("vitest run --reporter=verbose", await corpus("node/vitest_soft_verbose.txt"));
  for (
    const line of [
      "AssertionError: expected 6 to be 5 // Object.is equality",
      " ❯ test/cart.test.js:13:26",
      "AssertionError: expected 2 to be 3 // Object.is equality",
      " ❯ test/cart.test.js:14:26",
    ]
  ) expect(out).toContain(line);
  expect(out.filter((line) => line === " FAIL  test/cart.test.js > cart > totals and counts"))
    .toHaveLength(2);
});

Deno.test("node --test spec: one-line values stay; the failing-tests copy folds to its heads", async () => {
  const out = filter(
    "node --test --test-reporter=spec",
    await corpus("node/node_test_spec_repeats.txt"),
  );
  expect(out).toContain("      actual: { '*': 'a/b/d', home: '/' },");
  expect(out).toContain("      expected: { '*': 'a/b/c', home: '/' },");
  // Under `✖ failing tests:` each failure is the first copy dedented: its location and head stay.
  const at = out.indexOf("✖ failing tests:");
  expect(out.slice(at)).toEqual([
    "✖ failing tests:",
    "test at price.test.mjs:8:3",
    "✖ adds tax (4.760983ms)",
    "test at price.test.mjs:11:3",
    "✖ lists tags (6.170054ms)",
    "test at price.test.mjs:14:3",
    "✖ maps routes (0.472497ms)",
    "test at price.test.mjs:18:5",
    "✖ rounds down (6.078002ms)",
    "test at price.test.mjs:21:5",
    "✖ keeps zero (0.327004ms)",
  ]);
});

Deno.test("node --test: a one-line value the message quotes goes; an unquoted one stays", () => {
  const input = [
    "▶ pricing",
    "  ✖ adds tax (2.53422ms)",
    "    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
    "    + actual - expected",
    "    ",
    "    + 7",
    "    - 6",
    "    ",
    "        at TestContext.<anonymous> (file:///p/price.test.mjs:9:12) {",
    "      generatedMessage: true,",
    "      code: 'ERR_ASSERTION',",
    "      actual: 7,",
    "      expected: 6,",
    "      operator: 'strictEqual'",
    "    }",
    "  ✖ maps routes (0.472497ms)",
    "    AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
    "    + actual - expected",
    "    ",
    "      {",
    "    +   '*': 'a/b/d',",
    "    -   '*': 'a/b/c',",
    "        home: '/'",
    "      }",
    "        at TestContext.<anonymous> (file:///p/price.test.mjs:15:12) {",
    "      generatedMessage: true,",
    "      code: 'ERR_ASSERTION',",
    "      actual: { '*': 'a/b/d', home: '/' },",
    "      expected: { '*': 'a/b/c', home: '/' },",
    "      operator: 'deepStrictEqual'",
    "    }",
    "✖ pricing (50.284934ms)",
    "ℹ tests 2",
    "ℹ pass 0",
    "ℹ fail 2",
  ].join("\n");
  const out = filter("node --test --test-reporter=spec", input);
  expect(out).not.toContain("      actual: 7,");
  expect(out).not.toContain("      expected: 6,");
  expect(out).toContain("      actual: { '*': 'a/b/d', home: '/' },");
  expect(out).toContain("      expected: { '*': 'a/b/c', home: '/' },");
});

Deno.test("jest's summary of failing tests folds each failure that repeats to its head", () => {
  const failure = (n: number) => [
    `  ● case ${n}`,
    "",
    "    expect(received).toBe(expected) // Object.is equality",
    "",
    "    Expected: 1",
    `    Received: ${n}`,
    "",
    `      at Object.toBe (s${n}.test.js:1:36)`,
    "",
  ];
  const input = [
    "FAIL ./s2.test.js",
    ...failure(2),
    "FAIL ./s3.test.js",
    ...failure(3),
    "Summary of all failing tests",
    "FAIL ./s3.test.js",
    ...failure(3),
    "FAIL ./s2.test.js",
    ...failure(2).map((line) => line.replace("Received: 2", "Received: 20")),
    "Test Suites: 2 failed, 2 total",
    "Tests:       2 failed, 2 total",
  ].join("\n");
  const out = filter("jest --ci", input);
  // case 3's second copy says nothing new: its head stays alone. case 2's differs: it stays whole.
  expect(out.filter((line) => line === "    Received: 3")).toHaveLength(1);
  expect(out.filter((line) => line === "  ● case 3")).toHaveLength(2);
  expect(out).toContain("    Received: 20");
});

Deno.test("deno's re-listing of failures under FAILURES still goes whole", () => {
  const input = [
    "running 1 test from ./a_test.ts",
    "adds ... FAILED (1ms)",
    "",
    " ERRORS ",
    "",
    "adds => ./a_test.ts:1:6",
    "error: AssertionError: Values are not equal.",
    "    at file:///p/a_test.ts:2:3",
    "",
    " FAILURES ",
    "",
    "adds => ./a_test.ts:1:6",
    "",
    "FAILED | 0 passed | 1 failed (5ms)",
    "",
    "error: Test failed",
  ].join("\n");
  const out = filter("deno test", input);
  expect(out.filter((line) => line === "adds => ./a_test.ts:1:6")).toHaveLength(1);
  expect(out).toContain("error: AssertionError: Values are not equal.");
});
