/**
 * What a test run says per location and after its counts, lost by test_summary on real runs: each
 * location of a warning raised at several places (pytest's warnings summary), the list a closing
 * status line introduces (cargo's `error: 2 targets failed:` and the targets under it) and the
 * run's last lines after its counts (jest's `Ran all test suites matching /tests/i.`). Tested
 * through the built-in rules on real captures (bench/corpus) and on shapes of each class.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

Deno.test("pytest keeps each location of a warning raised at several places", async () => {
  const out = lines(
    filter("python3 -m pytest tests", await corpus("python/pytest_warnings_locations.txt"), true),
  );
  const root = "/tmp/zeph-corpus/runclose/py/tests";
  const deprecation = "DeprecationWarning: safety stock defaults to zero; pass safety= explicitly";
  const rounded = "UserWarning: float quantities are rounded down";
  for (
    const where of [
      `test_orders.py:5: ${deprecation}`,
      `test_stock.py:9: ${deprecation}`,
      `test_stock.py:13: ${deprecation}`,
      `test_orders.py:9: ${rounded}`,
      `test_stock.py:17: ${rounded}`,
      `test_stock.py:21: ${rounded}`,
    ]
  ) expect(out).toContain(`  ${root}/${where}`);
  // The source line under each warning still goes; the test over it stays.
  expect(out).not.toContain("    assert units(3.7) == 3");
  expect(out).toContain("tests/test_stock.py::test_units_float");
});

Deno.test("a warning repeated at one location stays once, with its count", () => {
  const entry = (test: string, where: string) =>
    `${test}\n  ${where}: ResourceWarning: unclosed file\n    do_it()\n`;
  const text = [
    "============ warnings summary ============",
    entry("t/test_io.py::test_read", "/p/io.py:8"),
    entry("t/test_io.py::test_write", "/p/io.py:8"),
    entry("t/test_io.py::test_seek", "/p/io.py:12"),
    "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
    "3 passed, 3 warnings in 0.31s",
  ].join("\n");
  expect(lines(filter("pytest", text))).toEqual([
    "t/test_io.py::test_read",
    "  /p/io.py:8: ResourceWarning: unclosed file (2 times)",
    "t/test_io.py::test_seek",
    "  /p/io.py:12: ResourceWarning: unclosed file",
    "3 passed, 3 warnings in 0.31s",
  ]);
});

Deno.test("one warning raised at many places keeps its first locations and counts the rest", () => {
  const text = [
    "============ warnings summary ============",
    ...Array.from(
      { length: 40 },
      (_, k) =>
        `tests/test_bulk_${k}.py::test_total\n  /p/tests/test_bulk_${k}.py:5: DeprecationWarning: total rounding is deprecated\n    cart.total()\n`,
    ),
    "  /p/io.py:8: ResourceWarning: unclosed file",
    ...[19, 24, 30].map((n) =>
      `  /venv/lib/python3.11/site-packages/lib/types.py:${n}: DeprecationWarning: Typed is old`
    ),
    "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
    "46 passed, 44 warnings in 0.56s",
  ].join("\n");
  const warning = (k: number) =>
    `  /p/tests/test_bulk_${k}.py:5: DeprecationWarning: total rounding is deprecated`;
  const test = (k: number) => `tests/test_bulk_${k}.py::test_total`;
  expect(lines(filter("pytest", text))).toEqual([
    test(0),
    `${warning(0)} (and at 35 more locations)`,
    ...[1, 2, 3, 4].flatMap((k) => [test(k), warning(k)]),
    "  /p/io.py:8: ResourceWarning: unclosed file",
    // An installed package's warning is not the project's to fix: its first place is enough.
    "  /venv/lib/python3.11/site-packages/lib/types.py:19: DeprecationWarning: Typed is old (and at 2 more locations)",
    "46 passed, 44 warnings in 0.56s",
  ]);
});

Deno.test("cargo keeps the failed targets listed under `error: N targets failed:`", async () => {
  const command = "cargo test --workspace --no-fail-fast";
  const out = lines(
    filter(command, await corpus("cargo/cargo_workspace_targets_failed.txt"), true),
  );
  expect(out.slice(-3)).toEqual([
    "error: 2 targets failed:",
    "    `-p ledger-core --test rounding`",
    "    `-p ledger-fx --lib`",
  ]);
});

Deno.test("a closing list longer than the run's tail keeps its indented lines", () => {
  const targets = Array.from({ length: 8 }, (_, i) => `    \`-p crate-${i} --lib\``);
  const text = [
    "running 1 test",
    "test a ... FAILED",
    "",
    "failures:",
    "",
    "---- a stdout ----",
    "thread 'a' panicked at src/lib.rs:3:5:",
    "boom",
    "",
    "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    "",
    "error: 8 targets failed:",
    ...targets,
  ].join("\n");
  const out = lines(filter("cargo test --workspace --no-fail-fast", text, true));
  expect(out.slice(-9)).toEqual(["error: 8 targets failed:", ...targets]);
});

Deno.test("jest run from npm test keeps the line after its counts", async () => {
  const out = lines(
    filter("npm test -- tests", await corpus("node/jest_npm_test_pattern.txt"), true),
  );
  expect(out[out.length - 1]).toBe("Ran all test suites matching /tests/i.");
  expect(out).toContain("Tests:       1 failed, 2 passed, 3 total");
});

Deno.test("a passing jest run keeps its closing line; a long tail after the counts is not one", () => {
  const counts = [
    "PASS tests/a.test.js",
    "",
    "Test Suites: 1 passed, 1 total",
    "Tests:       2 passed, 2 total",
    "Snapshots:   0 total",
    "Time:        0.5 s",
  ];
  expect(lines(filter("npx jest", [...counts, "Ran all test suites."].join("\n")))).toEqual([
    "Test Suites: 1 passed, 1 total",
    "Tests:       2 passed, 2 total",
    "Snapshots:   0 total",
    "Time:        0.5 s",
    "Ran all test suites.",
  ]);
  // A tail of many lines is more output, not the run's closing line: it goes as before.
  const chatter = Array.from({ length: 12 }, (_, i) => `watcher: idle ${i}`);
  const out = lines(filter("npx jest", [...counts, ...chatter].join("\n")));
  expect(out.some((line) => line.startsWith("watcher:"))).toBe(false);
});

Deno.test("node --test's duration after its counts is not a closing line", () => {
  const text = [
    "TAP version 13",
    "ok 1 - adds",
    "1..1",
    "# tests 1",
    "# suites 0",
    "# pass 1",
    "# fail 0",
    "# cancelled 0",
    "# skipped 0",
    "# todo 0",
    "# duration_ms 61.2",
  ].join("\n");
  expect(filter("node --test", text)).not.toContain("duration_ms");
});

Deno.test("a long Traceback after the counts keeps its innermost frames and its exception", () => {
  // An atexit handler failing after pytest's counts: Python prints the innermost frame last, and
  // the exception under the frames, at column 0.
  const frames = Array.from({ length: 12 }, (_, i) => [
    `  File "/app/.venv/lib/python3.12/site-packages/cleanup/step${i}.py", line ${10 + i}, in run`,
    `    return step${i + 1}.run(path)`,
  ]).flat();
  const text = [
    "============================= test session starts ==============================",
    "collected 3 items",
    "",
    "tests/test_a.py ...                                                      [100%]",
    "",
    "============================== 3 passed in 0.05s ===============================",
    "Exception ignored in atexit callback: <function cleanup at 0x7f3a2c1b8e00>",
    "Traceback (most recent call last):",
    ...frames,
    '  File "/app/tests/conftest.py", line 31, in remove_cache',
    "    shutil.rmtree(CACHE)",
    "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/pytest-cache-x'",
  ].join("\n");
  const out = lines(filter("python -m pytest", text));
  expect(out).toContain("Traceback (most recent call last):");
  expect(out.slice(-3)).toEqual([
    '  File "/app/tests/conftest.py", line 31, in remove_cache',
    "    shutil.rmtree(CACHE)",
    "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/pytest-cache-x'",
  ]);
});

Deno.test("phpunit --testdox keeps its closing verdict after the summary of non-successful tests goes", async () => {
  for (
    const [name, verdict, counts] of [
      ["testdox_failures", "FAILURES!", "Tests: 5, Assertions: 5, Failures: 3."],
      [
        "testdox",
        "ERRORS!",
        "Tests: 41, Assertions: 36, Errors: 2, Failures: 3, Skipped: 1, Incomplete: 1, Risky: 1.",
      ],
    ]
  ) {
    const out = lines(filter("phpunit --testdox", await fixture(`phpunit/${name}.in.txt`), true));
    expect(out.slice(-2)).toEqual([verdict, counts]);
    // The summary, a copy of the failures above it, still goes.
    expect(out).not.toContain("Summary of non-successful tests:");
  }
});
