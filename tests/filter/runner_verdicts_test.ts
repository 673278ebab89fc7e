/**
 * What test_summary lost or showed twice on real runs: pytest's own `!!!` verdicts inside a
 * failure, a warning record past the trace limit of a long captured log, go's `# pkg [pkg.test]`
 * header over a test build's errors, and a go test's log line shown both as a closing line after
 * a package's counts and under its `--- FAIL`. Tested through the built-in rules on real captures
 * (bench/corpus, tests/fixtures/filters) and, for the repeat, as a property of every test run of
 * the corpus.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

const count = (list: string[], line: string) => list.filter((l) => l === line).length;

Deno.test("pytest keeps its `!!! Recursion detected` verdict inside a failure", async () => {
  const out = lines(
    filter(
      "python3 -m pytest test_rec.py",
      await fixture("pytest/recursion_detected.in.txt"),
      true,
    ),
  );
  expect(out).toContain("!!! Recursion detected (same locals & position)");
  expect(out).toContain("E   RecursionError: maximum recursion depth exceeded");
});

Deno.test("pytest keeps `!!!` banners and verdicts outside a failure block as printed", () => {
  const input = [
    "============================= test session starts ==============================",
    "collected 2 items",
    "",
    "t.py F",
    "FAILED t.py::test_a - assert 0",
    "!!! _pytest.outcomes.Exit: database is gone",
    "!!!!!!!!!!!!!!!!!!! _pytest.outcomes.Exit: bye !!!!!!!!!!!!!!!!!!!",
    "============================== 1 failed in 0.01s ===============================",
  ];
  const out = lines(filter("pytest t.py", input.join("\n"), true));
  expect(out).toContain("!!! _pytest.outcomes.Exit: database is gone");
  expect(out).toContain("!!!!!!!!!!!!!!!!!!! _pytest.outcomes.Exit: bye !!!!!!!!!!!!!!!!!!!");
});

Deno.test("a long captured log is cut by level: warnings and errors stay, info and debug are counted", async () => {
  const text = await corpus("python/pytest_captured_log_levels.txt");
  const out = lines(filter("python3 -m pytest --log-level=DEBUG tests", text, true));
  // The three alike warnings: the first with their count, and the last one written.
  expect(out).toContain("WARNING  mod:test_batch.py:10 record r48 is stale, skipping (x3)");
  expect(out).toContain("WARNING  mod:test_batch.py:10 record r148 is stale, skipping");
  expect(out).not.toContain("WARNING  mod:test_batch.py:10 record r98 is stale, skipping");
  expect(out).toContain("ERROR    mod:test_batch.py:12 batch failed after 160 records");
  expect(out).toContain("… 320 INFO and DEBUG log records …");
  expect(out.filter((line) => /^(INFO|DEBUG) /.test(line))).toEqual([]);
});

Deno.test("a warning record past a failure's trace limit stays", async () => {
  const text = await fixture("pytest/captured_stdout_then_log.in.txt");
  const out = lines(filter("python3 -m pytest test_sync.py", text, true));
  expect(out).toContain("WARNING  sync:test_sync.py:9 record r148 is stale, skipping");
  expect(out.length).toBeLessThan(lines(text).length / 2);
});

Deno.test("a short captured log stays as printed", () => {
  const input = [
    "=================================== FAILURES ===================================",
    "___________________________________ test_a ___________________________________",
    "E       assert 1 == 2",
    "t.py:3: AssertionError",
    "------------------------------ Captured log call -------------------------------",
    "INFO     mod:t.py:2 connecting",
    "DEBUG    mod:t.py:2 connected",
    "=========================== short test summary info ============================",
    "FAILED t.py::test_a - assert 1 == 2",
    "============================== 1 failed in 0.01s ===============================",
  ];
  const out = lines(filter("pytest t.py", input.join("\n"), true));
  expect(out).toContain("INFO     mod:t.py:2 connecting");
  expect(out).toContain("DEBUG    mod:t.py:2 connected");
});

Deno.test("go test keeps the `# pkg [pkg.test]` header over a test build's errors", async () => {
  const out = lines(
    filter("go test -v ./...", await corpus("go/go_test_v_build_failed.txt"), true),
  );
  expect(out).toContain("# example.com/shop/broken [example.com/shop/broken.test]");
  expect(out).toContain("broken/b_test.go:6:6: unused declared but not used");
});

Deno.test("go test shows a failing test's log line once, under its `--- FAIL`", async () => {
  const out = lines(
    filter("go test -v ./...", await corpus("go/go_test_v_build_failed.txt"), true),
  );
  const log = "    vat_test.go:8: VAT(50) = 69, want 60";
  expect(count(out, log)).toBe(1);
  expect(out.indexOf(log)).toBe(out.indexOf("--- FAIL: TestVAT (0.00s)") + 1);
});

// Every test run of the corpus: an input line is never shown more often than it was printed.
const RUNNERS =
  /^(?:\S+=\S+ )*(?:python3? -m pytest|pytest|go test|cargo (?:test|nextest)|npx (?:jest|vitest|mocha)|jest|vitest|mocha|deno test|node --test)\b/;
const root = new URL("../../bench/corpus/", import.meta.url);
for (const family of [...Deno.readDirSync(root)].filter((e) => e.isDirectory)) {
  for (const entry of Deno.readDirSync(new URL(`${family.name}/`, root))) {
    if (!entry.name.endsWith(".json")) continue;
    const base = `${family.name}/${entry.name.slice(0, -5)}`;
    const meta = JSON.parse(await corpus(`${base}.json`));
    if (!RUNNERS.test(meta.command)) continue;
    Deno.test(`${base}: no line shown more often than it was printed`, async () => {
      const input = lines(await corpus(`${base}.txt`));
      const printed = new Map<string, number>();
      for (const line of input) printed.set(line, (printed.get(line) ?? 0) + 1);
      const shown = new Map<string, number>();
      for (const line of lines(filter(meta.command, input.join("\n"), meta.exit_code !== 0))) {
        if (printed.has(line)) shown.set(line, (shown.get(line) ?? 0) + 1);
      }
      const over = [...shown].filter(([line, n]) => n > printed.get(line)! && line.trim() !== "");
      expect(over).toEqual([]);
    });
  }
}

Deno.test("deno test keeps a quoted source line that throws, over its caret", async () => {
  const out = lines(
    filter(
      "deno test stats_test.ts",
      await fixture("deno-test-frames/throw_source.in.txt"),
      true,
    ),
  );
  expect(out).toContain(
    "  if (got !== 9) throw new Error(`median: expected 9, got ${got}`);",
  );
  expect(out).toContain("  if (a !== b) throw new Error(`expected ${b}, got ${a}`);");
  expect(out.filter((line) => /^\s+\^\s*$/.test(line))).toEqual([]);
});

Deno.test("oxlint keeps its closing `Finished in … on N files` line", async () => {
  const out = lines(filter("npx oxlint src", await fixture("oxlint/finished_summary.in.txt")));
  expect(out).toContain("Finished in 79ms on 10 files with 96 rules using 2 threads.");
  expect(out).toContain("Found 30 warnings and 0 errors.");
});

Deno.test("pre-commit keeps a short list of passed hooks and folds a long one", async () => {
  const few = lines(
    filter(
      "pre-commit run --all-files",
      await fixture("pre-commit/local_hooks_few.in.txt"),
      true,
    ),
  );
  expect(few).toContain(
    "check yaml...............................................................Passed",
  );
  expect(few).toContain(
    "python compiles..........................................................Failed",
  );
  const many = lines(
    filter(
      "pre-commit run --all-files",
      await fixture("pre-commit/local_hooks_many.in.txt"),
      true,
    ),
  );
  expect(many).toContain("… 10 hooks passed or skipped …");
  expect(many).toContain(
    "python compiles..........................................................Failed",
  );
  expect(many).toContain("SyntaxError: invalid syntax");
  expect(many).toContain(
    "rust fmt.............................................(no files to check)Skipped",
  );
});

Deno.test("go build -gcflags=-m keeps what allocates and counts the free decisions", async () => {
  const text = await corpus("go/go_build_gcflags_m.txt");
  const out = lines(filter("go build -gcflags=-m ./...", text));
  expect(out).toContain("./esc.go:36:2: moved to heap: n");
  expect(out).toContain("./esc.go:26:15: make([]string, 0, len(items)) escapes to heap");
  expect(out).toContain("./esc.go:35:11: leaking param: xs");
  expect(out.filter((line) => line.endsWith(" does not escape"))).toEqual([]);
  expect(out.filter((line) => line.includes(": inlining call to "))).toEqual([]);
  expect(out.length).toBeLessThan(lines(text).length);
});
