/**
 * Progress lines that carry a failure, and the step a failure happened in, lost on real runs:
 * pytest's progress row with `F`/`E` marks (the file the failures are in), node --test's dot
 * reporter's row with an `X` and its `Failed tests:` header, pytest-xdist's crashed-worker
 * notices, a failed go test's `=== RUN` line over many packages, cargo's `--show-output` (passing
 * tests' output under `successes:` is no failure; the failing test's own output stays), and a
 * Django test run whose setup (a data migration) fails: its last setup steps stay. Tested through
 * the built-in rules on captures of the real tools (tests/fixtures/filters).
 */
import { expect } from "expect";
import { filter, fixture, lines } from "./_builtin.ts";

Deno.test("pytest keeps a progress row with a failure mark, and the file row a continued one goes on", async () => {
  const out = lines(
    filter("python3 -m pytest tests", await fixture("pytest/progress_rows_failed.in.txt"), true),
  );
  expect(out).toContain(
    "tests/test_books.py ..FF                                                 [  3%]",
  );
  expect(out).toContain(
    "tests/test_err.py E.                                                     [  4%]",
  );
  // test_many.py's failure is on its second row: the file row over it stays.
  const continued = out.findIndex((line) => /^\.+F\.+ +\[ 99%\]$/.test(line));
  expect(continued).toBeGreaterThan(0);
  expect(out[continued - 1]).toMatch(/^tests\/test_many\.py \.+ \[ 46%\]$/);
  // A row of passing marks still goes.
  expect(out.some((line) => line.startsWith("tests/test_ok.py"))).toBe(false);
});

Deno.test("pytest's progress rows of a passing run still go", () => {
  const text = [
    "tests/test_a.py ....                                                     [ 50%]",
    "tests/test_b.py ....                                                     [100%]",
    "",
    "============================== 8 passed in 0.02s ===============================",
  ].join("\n");
  const out = lines(filter("pytest", text));
  expect(out.some((line) => line.startsWith("tests/"))).toBe(false);
  expect(out.some((line) => line.includes("8 passed in 0.02s"))).toBe(true);
});

Deno.test("pytest-xdist keeps a crashed worker's notices, with and without -v", async () => {
  const quiet = lines(
    filter(
      "python3 -m pytest -n 2 tests",
      await fixture("pytest/xdist_worker_crashed.in.txt"),
      true,
    ),
  );
  expect(quiet).toContain(
    "................................[gw0] node down: Not properly terminated",
  );
  expect(quiet).toContain("replacing crashed worker gw0");
  const verbose = lines(
    filter(
      "python3 -m pytest -n 2 -v tests",
      await fixture("pytest/xdist_v_worker_crashed.in.txt"),
      true,
    ),
  );
  expect(verbose).toContain("[gw1] node down: Not properly terminated");
  expect(verbose).toContain("replacing crashed worker gw1");
});

Deno.test("node --test's dot reporter keeps its rows with a failure and its Failed tests header", async () => {
  const out = lines(
    filter(
      "node --test --test-reporter=dot test/",
      await fixture("node-test/dot_reporter_failures.in.txt"),
      true,
    ),
  );
  expect(out).toContain("..X.................");
  expect(out).toContain(".....X");
  expect(out).toContain("Failed tests:");
  // The all-passing row goes.
  expect(out).not.toContain("....................");
  expect(out.indexOf("Failed tests:")).toBeLessThan(out.indexOf("✖ sum 23 adds (14.62733ms)"));
});

Deno.test("go test -v over many packages keeps a failed test's RUN line over its FAIL line", async () => {
  const out = lines(
    filter("go test -v ./...", await fixture("go-test/verbose_packages_failed.in.txt"), true),
  );
  const run = out.indexOf("=== RUN   TestRoundZeroStep");
  expect(run).toBeGreaterThanOrEqual(0);
  expect(out[run + 1]).toBe("--- FAIL: TestRoundZeroStep (0.00s)");
  expect(out).toContain("=== RUN   TestRoundNested/neg");
  // Passing tests' RUN lines go.
  expect(out).not.toContain("=== RUN   TestRoundOK");
  expect(out).not.toContain("=== RUN   TestRoundNested/pos");
});

Deno.test("cargo test --show-output: passing tests' output is no failure; the failing one stays whole", async () => {
  const out = lines(
    filter(
      "cargo test -- --test-threads=1 --show-output",
      await fixture("cargo-test/show_output_failed.in.txt"),
      true,
    ),
  );
  const head = out.indexOf("---- tests::band_120 stdout ----");
  expect(out.slice(head, head + 3)).toEqual([
    "---- tests::band_120 stdout ----",
    "case 120: kwh=120 band=mid",
    "thread 'tests::band_120' (18625) panicked at src/lib.rs:21:5:",
  ]);
  expect(out).not.toContain("---- tests::band_10 stdout ----");
  expect(out).toContain("… output of 12 passing tests not shown …");
  expect(out.some((line) => line.includes("more failure traces"))).toBe(false);
});

Deno.test("cargo test --show-output on a passing run keeps every test's output", async () => {
  const out = lines(
    filter(
      "cargo test -- --test-threads=1 --show-output",
      await fixture("cargo-test/show_output_passed.in.txt"),
    ),
  );
  expect(out).toContain("---- tests::band_90 stdout ----");
  expect(out).toContain("case 90: kwh=90 band=mid");
  expect(out.some((line) => line.startsWith("... ("))).toBe(false);
});

Deno.test("Django: a migration that fails keeps the setup's last steps before its traceback", async () => {
  const verbose = lines(
    filter(
      "python3 manage.py test -v 2",
      await fixture("django-test/migration_fails_v2.in.txt"),
      true,
    ),
  );
  expect(verbose.slice(0, 3)).toEqual([
    "Creating test database for alias 'default' ('file:memorydb_default?mode=memory&cache=shared')...",
    "  Applying shop.0001_initial... OK",
    "  Applying shop.0002_fill_names...Traceback (most recent call last):",
  ]);
  expect(verbose).not.toContain("  Applying sessions.0001_initial... OK");
  const quiet = lines(
    filter("python3 manage.py test", await fixture("django-test/migration_fails.in.txt"), true),
  );
  expect(quiet[0]).toBe("Creating test database for alias 'default'...");
});

Deno.test("Django: a failing test keeps no setup step", async () => {
  const out = lines(
    filter("python3 manage.py test -v 2", await fixture("django-test/test_error_v2.in.txt"), true),
  );
  expect(out.some((line) => /^(Creating test database|\s+Applying )/.test(line))).toBe(false);
  expect(out).toContain("ERROR: test_lookup (shop.tests.CustomerTests.test_lookup)");
});
