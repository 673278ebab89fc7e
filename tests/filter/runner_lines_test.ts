/**
 * Lines of a test run or a file listing that a rule read as noise and lost on real runs:
 * pytest-xdist's `-v` result lines (status before the id), a collection error's message, node
 * --test's TAP comments of a test's own output that read as a failure, cargo's closing `failures:`
 * list, and tsc --explainFiles' reasons under the project's own files when the libraries are a
 * system package's; ExUnit's `code:` line (the failing assertion as written) in every failure
 * block, and `mix test --trace`'s row per test, which folds around the failures. Tested through
 * the built-in rules on real captures (tests/fixtures/filters).
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

Deno.test("pytest-xdist -v keeps its failed result lines, status before the id", async () => {
  const out = lines(
    filter("python3 -m pytest -v -n 2 tests", await fixture("pytest/xdist_verbose.in.txt"), true),
  );
  expect(out).toContain("[gw0] [ 57%] FAILED tests/test_a.py::test_bad ");
  expect(out).toContain("[gw1] [100%] FAILED tests/test_c.py::test_c3 ");
  // Passing, skipped and xfailed results go, as with the id first.
  expect(out.some((line) => /PASSED|SKIPPED|XFAIL/.test(line))).toBe(false);
});

Deno.test("pytest-xdist -v: both orders of the status read alike", () => {
  const text = [
    "tests/t.py::test_c ",
    "[gw1] [ 33%] PASSED tests/t.py::test_c ",
    "tests/t.py::test_a ",
    "[gw0] [ 66%] ERROR tests/t.py::test_a ",
    "[gw1] [100%] XPASS tests/t.py::test_b ",
    "=== 1 passed, 1 error, 1 xpassed in 0.20s ===",
  ].join("\n");
  const out = lines(filter("pytest -v -n 2", text, true));
  expect(out).toContain("[gw0] [ 66%] ERROR tests/t.py::test_a ");
  expect(out).toContain("[gw1] [100%] XPASS tests/t.py::test_b ");
  expect(out.some((line) => line.includes("test_c"))).toBe(false);
});

Deno.test("pytest-xdist -v with console_output_style=classic: no progress, the failed lines stay", () => {
  // pytest 9, pytest-xdist 3.8 `-v -n 2 -o console_output_style=classic`: `[gw0] FAILED id`.
  const text = [
    "2 workers [41 items]",
    "",
    "[gw0] PASSED test_a.py::test_n[0] ",
    "[gw1] PASSED test_a.py::test_n[1] ",
    "[gw0] FAILED test_a.py::test_n[5] ",
    "[gw1] ERROR test_a.py::test_db ",
    "[gw0] SKIPPED test_a.py::test_n[7] ",
    "=== 1 failed, 2 passed, 1 skipped, 1 error in 0.50s ===",
  ].join("\n");
  const out = lines(filter("pytest -v -n 2 test_a.py", text, true));
  expect(out).toContain("[gw0] FAILED test_a.py::test_n[5] ");
  expect(out).toContain("[gw1] ERROR test_a.py::test_db ");
  expect(out.some((line) => /PASSED|SKIPPED/.test(line))).toBe(false);
});

Deno.test("pytest keeps a collection error's message lines over its traceback", async () => {
  const out = lines(
    filter("python3 -m pytest tests", await fixture("pytest/collect_import_error.in.txt"), true),
  );
  const head = out.findIndex((line) => / ERROR collecting tests\/test_b\.py _+$/.test(line));
  expect(out.slice(head + 1, head + 3)).toEqual([
    "ImportError while importing test module '/tmp/r13/py/tests/test_b.py'.",
    "Hint: make sure your test modules/packages have valid Python names.",
  ]);
  expect(out).toContain("E   ModuleNotFoundError: No module named 'missing_mod_xyz'");
  expect(out).not.toContain("Traceback:");
});

Deno.test("node --test TAP keeps the last of a run of a test's output lines that read as a failure", async () => {
  const out = lines(
    filter(
      "node --test --test-reporter=tap",
      await fixture("node-test/tap_retry_output.in.txt"),
      true,
    ),
  );
  expect(out).toContain("# \\# attempt 3 failed: ECONNREFUSED 127.0.0.1:8080");
  expect(out).toContain("# attempt 1 failed: timeout");
  // The run's first attempt is counted, not shown: its last few say what kept failing.
  expect(out).not.toContain("# \\# attempt 1 failed: ECONNREFUSED 127.0.0.1:8080");
  expect(out).toContain("not ok 1 - fetches prices with retry");
});

Deno.test("cargo test keeps the closing failures: list of names", async () => {
  const out = lines(filter("cargo test", await fixture("cargo-test/printed_output.in.txt"), true));
  const at = out.lastIndexOf("failures:");
  expect(out.slice(at, at + 3)).toEqual([
    "failures:",
    "    tests::live_prices",
    "    tests::stale_cache",
  ]);
  // The `failures:` head over the failure blocks, with no list under it, goes.
  expect(out.filter((line) => line === "failures:").length).toBe(1);
});

Deno.test("tsc --explainFiles keeps the project's reasons when its libraries are a system package's", async () => {
  const out = lines(
    filter("tsc --explainFiles", await fixture("tsc-files/explain_system_lib.in.txt"), true),
  );
  const own = out.indexOf("src/handlers.ts");
  expect(out.slice(own, own + 5)).toEqual([
    "src/handlers.ts",
    "  Matched by include pattern 'src' in 'tsconfig.json'",
    "  Imported via \"./handlers\" from file 'src/index.ts'",
    "src/index.ts",
    "  Matched by include pattern 'src' in 'tsconfig.json'",
  ]);
  // A library's reason that names no other library file stays; the lib chain goes, counted.
  expect(out).toContain("  Default library for target 'es2020'");
  expect(out.some((line) => line.startsWith("  Library referenced via"))).toBe(false);
});

Deno.test("cargo build keeps the Compiling line of the crate that could not compile", async () => {
  const out = lines(
    filter(
      "cargo build --release",
      await fixture("cargo-build-tidy/workspace_one_error.in.txt"),
      true,
    ),
  );
  const failed = out.indexOf("error: could not compile `search` (lib) due to 2 previous errors");
  expect(out[failed - 1]).toBe("   Compiling search v0.1.0 (/tmp/r13/ws/search)");
  // The crates that compiled say nothing beside the errors.
  expect(out.some((line) => /Compiling (core|app) /.test(line))).toBe(false);
});

Deno.test("cargo test keeps the Compiling line of a test target that could not compile", () => {
  const text = [
    "   Compiling core v0.1.0 (/w/core)",
    "   Compiling search v0.1.0 (/w/search)",
    "error[E0425]: cannot find value `x` in this scope",
    " --> search/src/lib.rs:3:5",
    "",
    "error: could not compile `search` (lib test) due to 1 previous error",
  ].join("\n");
  const out = lines(filter("cargo test", text, true));
  expect(out).toContain("   Compiling search v0.1.0 (/w/search)");
  expect(out).not.toContain("   Compiling core v0.1.0 (/w/core)");
});

Deno.test("cargo test --nocapture: a passing test's printed output goes, a failing one's stays", async () => {
  const out = lines(
    filter("cargo test -- --nocapture", await fixture("cargo-test/nocapture.in.txt"), true),
  );
  expect(out.some((line) => line.includes("parsing"))).toBe(false);
  const failed = out.indexOf("test tests::live_prices ... fetching");
  expect(out.slice(failed, failed + 4)).toEqual([
    "test tests::live_prices ... fetching",
    "got 3 rows",
    "thread 'tests::live_prices' (7110) panicked at src/lib.rs:6:70:",
    "assertion `left == right` failed",
  ]);
  expect(out).toContain("test tests::stale_cache ... cache miss");
  expect(out).toContain("cache stale");
  expect(out).toContain(
    "test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.55s",
  );
});

Deno.test("tsc --explainFiles reads a reason indented deeper as a reason too", async () => {
  const raw = (await fixture("tsc-files/explain_system_lib.in.txt")).replace(
    /^ {2}(?=\S)/gm,
    "   ",
  );
  const out = lines(filter("tsc --explainFiles", raw, true));
  expect(out).toContain("   Imported via \"./handlers\" from file 'src/index.ts'");
  expect(out).toContain("   Default library for target 'es2020'");
  expect(out.some((line) => line.startsWith("   Library referenced via"))).toBe(false);
});

Deno.test("cargo test keeps a project frame of a panic's backtrace as printed, its at line under it", async () => {
  // The test calls a helper that panics: the test's own frame is not the panic's location.
  const raw = (await fixture("cargo-test/nocapture.in.txt")).replace(
    /at \.\/src\/lib\.rs:6:70$/m,
    "at ./src/lib.rs:48:9",
  );
  const out = lines(filter("cargo test -- --nocapture", raw, true));
  const frame = out.indexOf("   4: crs::tests::live_prices");
  expect(out[frame + 1]).toBe("             at ./src/lib.rs:48:9");
});

Deno.test("vitest --reporter=junit: passing test cases fold to a count, a failing one stays with its failure", async () => {
  const raw = await corpus("node/vitest_junit.txt");
  const out = lines(filter("npx vitest run --reporter=junit", raw, true));
  expect(out.filter((line) => line.includes("computes case"))).toEqual([]);
  expect(out.filter((line) => line.includes("lines of passing test cases folded")).length).toBe(3);
  const failing = out.findIndex((line) => line.includes('name="module 1 &gt; rounds prices 1"'));
  expect(out[failing + 1]).toBe(
    '            <failure message="expected 0.30000000000000004 to be 0.3 // Object.is equality" type="AssertionError">',
  );
  expect(out).toContain(" ❯ test/m1.test.js:4:51");
  expect(out.filter((line) => line.includes("<testsuite name=")).length).toBe(3);
});

Deno.test("tsc --explainFiles keeps every kept reason when many errors come before the listing", async () => {
  const errors = Array.from(
    { length: 120 },
    (_, i) =>
      `src/index.ts(${i + 3},7): error TS2322: Type 'string' is not assignable to type 'number'.`,
  );
  const raw = [...errors, await fixture("tsc-files/explain_system_lib.in.txt")].join("\n");
  const out = lines(filter("tsc --explainFiles", raw, true));
  const lib = out.indexOf("../../../usr/share/nodejs/typescript/lib/lib.es2020.full.d.ts");
  expect(out[lib + 1]).toBe("  Default library for target 'es2020'");
  expect(out).toContain("  Imported via \"./handlers\" from file 'src/index.ts'");
});

Deno.test("cargo test --nocapture with several threads keeps the lines no passing test owns", async () => {
  // Four tests on four threads: what they print interleaves and no `test a ... ` line names it.
  const out = lines(
    filter(
      "cargo test -- --nocapture --test-threads=4",
      await fixture("cargo-test/nocapture_threads.in.txt"),
      true,
    ),
  );
  for (
    const line of [
      "beta: about to check the total",
      "assertion `left == right` failed: total is wrong",
      "  left: 4",
      " right: 5",
      "delta: connection refused by 127.0.0.1:5432",
      "delta could not connect",
      "             at ./src/lib.rs:24:9",
    ]
  ) expect(out).toContain(line);
  // The panic's message stays right under it.
  const panic = out.indexOf("thread 'tests::delta_fails' (27513) panicked at src/lib.rs:24:9:");
  expect(out[panic + 1]).toBe("delta could not connect");
  // A run whose every test passed owns all it printed: it goes.
  const passed = filter(
    "cargo test -- --nocapture --test-threads=4 _passes",
    await fixture("cargo-test/nocapture_threads_passed.in.txt"),
  );
  expect(passed).not.toContain("alpha: step");
});

Deno.test("ExUnit keeps each failure's code: line, the assertion as written", async () => {
  for (const name of ["test_code_lines", "test_failing", "match_and_case_clause"]) {
    const input = lines(await fixture(`mix/${name}.in.txt`));
    const out = lines(filter("mix test --seed 0", input.join("\n"), true));
    const code = input.filter((line) => /^\s+code: /.test(line));
    expect(code.length).toBeGreaterThan(0);
    for (const line of code) expect(out).toContain(line);
  }
});

Deno.test("mix test --trace folds the rows of its tests; the failures' blocks stay", async () => {
  const input = await fixture("mix/test_trace_failures.in.txt");
  const out = lines(filter("mix test --trace --seed 0", input, true));
  // 154 rows, each drawn over its start with a CR: a long run of them is one count.
  expect(out).toContain("… 151 test rows folded …");
  expect(out.filter((line) => /^ {2}\* test /.test(line)).length).toBeLessThan(5);
  for (
    const line of [
      "  1) test remove never goes negative (InventoryTest)",
      '     code:  assert {:error, :insufficient} = Inventory.remove(inv, "a", 2)',
      '     right: %{"a" => -1}',
      "  4) test remove of unknown sku (InventoryTest)",
      "154 tests, 4 failures",
    ]
  ) expect(out).toContain(line);
});
