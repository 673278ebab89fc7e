/**
 * Passing-test lines of runners no rule knows (src/filter/generic_tests.ts), on real outputs of
 * python unittest -v, perl prove (plain and -v), ruby minitest -v, a googletest binary and bats
 * (TAP), each with one failing test among passing ones: the passing lines fold into a count, every
 * failing line, the failure's section and the summary stay. A passing output folds only long runs.
 * Checkers run item by item (php -l and perl -c over a project's files, sha256sum -c of a list with
 * a changed and a missing file) fold their items that passed the same way.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { FAILURE_SIGNAL } from "../../src/filter/strategies/mod.ts";
import {
  foldPassingTests,
  isPassedCheck,
  isPassingTest,
  MIN_RUN_PASSED,
} from "../../src/filter/generic_tests.ts";
import { threadCpuMs } from "../_support/timing.ts";

const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));
const engine = new FilterEngine([], { security: false });
const FOLD = /^\s*… \d+ passing test lines folded …$/;

const CASES: { file: string; failing: string[]; summary: string; folds: boolean }[] = [
  {
    file: "unittest_v.txt",
    failing: ["test_mod (test_calc.CalcTests.test_mod) ... FAIL", "AssertionError: 8 != 9"],
    summary: "FAILED (failures=2, errors=1)",
    folds: true,
  },
  {
    file: "prove.txt",
    failing: ["t/bad.t .. ", "Failed 1/2 subtests "],
    summary: "Result: FAIL",
    folds: true,
  },
  {
    file: "prove_v.txt",
    failing: ["t/bad.t .. ", "not ok 2 - one is two", "ok 1 - a"],
    summary: "Result: FAIL",
    folds: true,
  },
  {
    file: "minitest_v.txt",
    failing: ["CalcTest#test_bad = 0.00 s = F", "Expected: 3"],
    summary: "7 runs, 7 assertions, 1 failures, 0 errors, 0 skips",
    folds: true,
  },
  {
    file: "gtest.txt",
    failing: ["[ RUN      ] Math.Div", "gt.cpp:5: Failure", "[  FAILED  ] Math.Div (0 ms)"],
    summary: "[  PASSED  ] 5 tests.",
    folds: true,
  },
  // Runs of two short TAP lines are no shorter folded: nothing changes.
  { file: "bats_tap.txt", failing: ["not ok 3 multiplies"], summary: "ok 5 echoes", folds: false },
];

for (const { file, failing, summary, folds } of CASES) {
  Deno.test(`passing tests of ${file} fold; failures, their sections and the summary stay`, () => {
    const input = read(file);
    const out = engine.filter("./run-tests --all", input, { failed: true }).text.split("\n");
    for (const line of [...failing, summary]) expect(out).toContain(line);
    // Every failure-looking line stays.
    for (const line of input.split("\n").filter((l) => FAILURE_SIGNAL.test(l))) {
      expect(out).toContain(line);
    }
    const passing = (lines: string[]) => lines.filter(isPassingTest).length;
    if (folds) {
      expect(out.some((l) => FOLD.test(l))).toBe(true);
      expect(passing(out)).toBeLessThan(passing(input.split("\n")) / 2);
    } else expect(out.join("\n")).toBe(input.trimEnd());
  });
}

Deno.test("passing tests: an output without a failure folds only long runs of passing lines", () => {
  const lines = read("unittest_v.txt").split("\n").filter((l) => l.endsWith(" ... ok"));
  expect(lines.length).toBeGreaterThanOrEqual(MIN_RUN_PASSED);
  // A run that passed: a long run folds, a run shorter than MIN_RUN_PASSED stays as printed.
  expect(foldPassingTests(lines, false)).toEqual([`… ${lines.length} passing test lines folded …`]);
  const short = lines.slice(0, MIN_RUN_PASSED - 1);
  expect(foldPassingTests([...short, "Ran 4 tests in 0.001s", "OK"], false)).toEqual([
    ...short,
    "Ran 4 tests in 0.001s",
    "OK",
  ]);
  // A failed command folds any run, and so does a failing line among them.
  expect(foldPassingTests(short, true)).toEqual([`… ${short.length} passing test lines folded …`]);
  expect(foldPassingTests([...short, "test_z (m.T.test_z) ... FAIL"], false)).toHaveLength(2);
});

Deno.test("passing tests: a failing prove file keeps its name and lines; a passing one folds", () => {
  const file = (name: string, verdicts: string[]) => [`t/${name}.t .. `, "1..6", ...verdicts];
  const oks = (n: number) => Array.from({ length: n }, (_, i) => `ok ${i + 1} - case number ${i}`);
  const input = [
    ...file("good", [...oks(6), "ok"]),
    ...file("bad", [...oks(5), "not ok 6 - case number 5"]),
    "Failed 1/6 subtests ",
  ];
  expect(foldPassingTests(input, true)).toEqual([
    "… 9 passing test lines folded …",
    "t/bad.t .. ",
    "… 6 passing test lines folded …",
    "not ok 6 - case number 5",
    "Failed 1/6 subtests ",
  ]);
});

Deno.test("passing tests: the shapes runners share are read; look-alikes are not", () => {
  for (
    const line of [
      "test_a (pkg.mod.T.test_a) ... ok",
      // A passing test named after a failure is a pass.
      "test_error_path (pkg.mod.T.test_error_path) ... ok",
      "t/basic.t ......... ok",
      "tests/test_a.py::test_one PASSED                                [ 50%]",
      "  ✓ adds numbers (2ms)",
      "    ✔ nested case",
      "ok 12 - parses empty input",
      "    --- PASS: TestParse/empty (0.00s)",
      "[       OK ] Math.Add (0 ms)",
      "CalcTest#test_ok = 0.00 s = .",
      "1/3 Test #1: unit_basic .......................   Passed    0.01 sec",
      "  Passed Calc.Adds [1 ms]",
      "..........",
    ]
  ) expect([line, isPassingTest(line)]).toEqual([line, true]);
  for (
    const line of [
      "test_a (pkg.mod.T.test_a) ... FAIL",
      "not ok 3 - multiplies",
      "[  PASSED  ] 5 tests.",
      "checking for gcc... ok",
      "--- FAIL: TestParse (0.00s)",
      "CalcTest#test_bad = 0.00 s = F",
      "",
    ]
  ) expect([line, isPassingTest(line)]).toEqual([line, false]);
});

Deno.test("passing tests: long and pathological lines stay linear", () => {
  const long = [".".repeat(100_000), ":".repeat(100_000), " ".repeat(100_000) + "ok"];
  const started = threadCpuMs();
  expect(foldPassingTests([...long, "not ok 1 - x"], true)).toHaveLength(4);
  expect(threadCpuMs() - started).toBeLessThan(500);
});

Deno.test("a prove file of more passing lines than a call takes arguments folds, not throws", () => {
  const lines = ["t/a.t .. "];
  for (let i = 1; i <= 200_000; i++) lines.push(`ok ${i} - case ${i}`);
  lines.push("ok", "t/b.t .. ", "not ok 1 - broken", "Result: FAIL");
  // The file's lines were spread into one call: 200,000 arguments threw a RangeError.
  expect(foldPassingTests(lines, true)).toEqual([
    "… 200002 passing test lines folded …",
    "t/b.t .. ",
    "not ok 1 - broken",
    "Result: FAIL",
  ]);
});

const CHECK_FOLD = /^… \d+ lines of items that passed the check folded …$/;

const CHECKS: {
  file: string;
  command: string;
  kept: string[];
  passed: number;
  failed?: boolean;
}[] = [
  {
    file: "checks_php_l.txt",
    command:
      `rc=0; for f in $(find src -name '*.php' | sort); do php -l "$f" || rc=1; done; exit $rc`,
    kept: [
      'PHP Parse error:  syntax error, unexpected token "}", expecting ";" in src/B/c1.php on line 2',
      "Errors parsing src/B/c1.php",
      "Errors parsing src/B/c3.php",
    ],
    passed: 20,
  },
  {
    file: "checks_perl_c.txt",
    command: `for f in *.pl; do perl -c "$f"; done`,
    kept: ['syntax error at bad1.pl line 2, near "= ;"', "bad2.pl had compilation errors."],
    passed: 13,
  },
  {
    file: "checks_sha256sum_c.txt",
    command: "sha256sum -c SHA256SUMS",
    kept: [
      "sha256sum: asset_12.bin: No such file or directory",
      "asset_12.bin: FAILED open or read",
      "asset_7.bin: FAILED",
      "sha256sum: WARNING: 1 computed checksum did NOT match",
    ],
    passed: 13,
  },
  // mysqlcheck over tables named by month and week (digits in every name), two MyISAM tables
  // damaged: it exits 0. Checked, then analyzed (`Table is already up to date`).
  {
    file: "checks_mysqlcheck.txt",
    command: "mysqlcheck --databases telemetry cms",
    kept: [
      "telemetry.events_2022_09",
      "error    : Can't read indexpage from filepos: 1024",
      "telemetry.events_2023_04",
      "error    : Size of datafile is:        20         Should be: 40",
      "error    : Corrupt",
    ],
    passed: 101,
    failed: false,
  },
  {
    file: "checks_mysqlcheck_analyze.txt",
    command: "mysqlcheck --analyze --databases telemetry cms",
    kept: [
      "telemetry.events_2023_04",
      "Error    : Table './telemetry/events_2023_04' is marked as crashed and should be repaired",
      "Warning  : Number of rows changed from 2 to 1",
      "status   : Table is already up to date",
    ],
    passed: 101,
    failed: false,
  },
];

for (const { file, command, kept, passed, failed = true } of CHECKS) {
  Deno.test(`passed checks of ${file} fold; each item that failed and the warnings stay`, () => {
    const input = read(file).trimEnd().split("\n");
    expect(input.filter(isPassedCheck)).toHaveLength(passed);
    const out = engine.filter(command, input.join("\n"), { failed }).text.split("\n");
    for (const line of kept) expect(out).toContain(line);
    // Every line that is no passed check stays, in order.
    expect(out.filter((l) => !CHECK_FOLD.test(l) && !isPassedCheck(l))).toEqual(
      input.filter((l) => !isPassedCheck(l)),
    );
    expect(out.filter(isPassedCheck).length).toBeLessThan(passed / 2);
    expect(out.some((l) => CHECK_FOLD.test(l))).toBe(true);
  });
}

Deno.test("passed checks: the verdict is the whole line; a failed item or other text is none", () => {
  for (
    const line of [
      "No syntax errors detected in src/a.php",
      "No errors found in config/site.yaml",
      "s1.pl syntax OK",
      "Syntax OK",
      "asset_1.bin: OK",
      "feed.xml validates",
      "telemetry.events_2022_01                           OK",
      "cms.pages                                          Table is already up to date",
    ]
  ) expect([line, isPassedCheck(line)]).toEqual([line, true]);
  for (
    const line of [
      "Errors parsing src/b.php",
      "No syntax errors detected in src/a.php, 2 warnings",
      "bad1.pl had compilation errors.",
      "asset_7.bin: FAILED",
      "asset_12.bin: FAILED open or read",
      "feed.xml fails to validate",
      "checking for gcc... ok",
      "OK",
      "telemetry.events_2022_09",
      "status   : OK",
      "scheduler            Healthy   ok",
      "telemetry.events_2022_01 OK",
    ]
  ) expect([line, isPassedCheck(line)]).toEqual([line, false]);
});

Deno.test("passed checks: a run that passed folds only a long run, a failed one any run", () => {
  // The output's last line stays as printed: it shows where the run ended.
  const oks = Array.from({ length: MIN_RUN_PASSED + 1 }, (_, i) => `asset_${i}.bin: OK`);
  expect(foldPassingTests(oks, false)).toEqual([
    `… ${MIN_RUN_PASSED} lines of items that passed the check folded …`,
    oks[MIN_RUN_PASSED],
  ]);
  const short = oks.slice(0, MIN_RUN_PASSED - 1);
  expect(foldPassingTests([...short, "done"], false)).toEqual([...short, "done"]);
  expect(foldPassingTests([...short, "asset_9.bin: FAILED"], true)).toEqual([
    `… ${short.length} lines of items that passed the check folded …`,
    "asset_9.bin: FAILED",
  ]);
});
