/**
 * What a run printed as its result stays, through the built-in rules: benchmark results, every
 * failing subtest's messages, a runner's closing status, every failed-test line, and the one-line
 * linter and debug formats that fold without losing a finding.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, text: string, failed = false) =>
  engine.filter(command, text, { failed }).text;

const BENCH = [
  "goos: linux",
  "goarch: arm64",
  "pkg: example.org/store/cache",
  "BenchmarkGet-8           \t52341234\t        22.91 ns/op",
  "BenchmarkGet-8           \t51000000\t        23.40 ns/op",
  "BenchmarkSet/small-8     \t 9000000\t       131.0 ns/op\t      48 B/op\t       1 allocs/op",
  "BenchmarkSet/large-8     \t   12000\t     98311 ns/op\t   65600 B/op\t       3 allocs/op",
  "PASS",
  "ok  \texample.org/store/cache\t6.210s",
  "goos: linux",
  "goarch: arm64",
  "pkg: example.org/store/index",
  "BenchmarkLookup-8        \t 3000000\t       402.5 ns/op",
  "PASS",
  "ok  \texample.org/store/index\t1.933s",
];

Deno.test("go test -bench keeps every benchmark result, PASS, and the headers once", () => {
  for (
    const command of [
      "go test -bench .",
      "go test -bench=. -benchmem ./...",
      "go test -run=^$ -bench . -count 2 ./...",
    ]
  ) {
    const out = filter(command, BENCH.join("\n")).split("\n");
    for (const line of BENCH.filter((l) => /^(Benchmark|ok |pkg: )/.test(l))) {
      expect(out).toContain(line);
    }
    expect(out.filter((l) => l === "goos: linux")).toHaveLength(1);
    expect(out.filter((l) => l === "goarch: arm64")).toHaveLength(1);
    expect(out).toContain("PASS");
  }
  // A test run without benchmarks still says its result in the package line alone.
  expect(filter("go test ./...", "PASS\nok  \texample.org/store\t0.010s")).toBe(
    "ok  \texample.org/store\t0.010s",
  );
});

Deno.test("go test -v keeps the messages of every failing subtest, with its FAIL line", () => {
  const input = [
    "=== RUN   TestRoute",
    "=== RUN   TestRoute/home",
    "=== RUN   TestRoute/users",
    "    router_test.go:41: Match(/users) = 404, want 200",
    "=== RUN   TestRoute/admin",
    "    router_test.go:41: Match(/admin) = 404, want 403",
    "    router_test.go:44: handler = <nil>",
    "=== RUN   TestRoute/static",
    "    router_test.go:12: serving from ./public",
    "--- FAIL: TestRoute (0.00s)",
    "    --- PASS: TestRoute/home (0.00s)",
    "    --- FAIL: TestRoute/users (0.00s)",
    "    --- FAIL: TestRoute/admin (0.00s)",
    "    --- PASS: TestRoute/static (0.00s)",
    "=== RUN   TestParse",
    "=== PAUSE TestParse",
    "=== RUN   TestQuery",
    "=== PAUSE TestQuery",
    "=== CONT  TestParse",
    "=== CONT  TestQuery",
    "    query_test.go:9: Query(a=1&a=2) = [1], want [1 2]",
    "=== CONT  TestParse",
    "    parse_test.go:20: Parse(%zz) did not fail",
    "--- FAIL: TestQuery (0.00s)",
    "--- FAIL: TestParse (0.00s)",
    "FAIL",
    "FAIL\texample.org/router\t0.012s",
    "FAIL",
  ];
  const out = filter("go test -v ./...", input.join("\n"), true).split("\n");
  for (
    const line of [
      "    router_test.go:41: Match(/users) = 404, want 200",
      "    router_test.go:41: Match(/admin) = 404, want 403",
      "    router_test.go:44: handler = <nil>",
      "    --- FAIL: TestRoute/users (0.00s)",
      "    --- FAIL: TestRoute/admin (0.00s)",
      "    query_test.go:9: Query(a=1&a=2) = [1], want [1 2]",
      "    parse_test.go:20: Parse(%zz) did not fail",
      "FAIL\texample.org/router\t0.012s",
    ]
  ) expect(out).toContain(line);
  // Each message goes with its own test, after its FAIL line.
  expect(out.indexOf("    router_test.go:41: Match(/users) = 404, want 200")).toBe(
    out.indexOf("    --- FAIL: TestRoute/users (0.00s)") + 1,
  );
  expect(out.indexOf("    parse_test.go:20: Parse(%zz) did not fail")).toBe(
    out.indexOf("--- FAIL: TestParse (0.00s)") + 1,
  );
  // A passing subtest's log and the passing lines go.
  expect(out.join("\n")).not.toContain("serving from ./public");
  expect(out.join("\n")).not.toContain("--- PASS");
});

Deno.test("deno's closing status stays; its empty backtrace after it goes", () => {
  const test = [
    "running 2 tests from ./a_test.ts",
    "adds ... ok (1ms)",
    "splits ... FAILED (2ms)",
    "",
    " ERRORS ",
    "",
    "splits => ./a_test.ts:4:6",
    "error: AssertionError: Values are not equal.",
    "    at file:///w/a_test.ts:5:3",
    "",
    " FAILURES ",
    "",
    "splits => ./a_test.ts:4:6",
    "",
    "FAILED | 1 passed | 1 failed (9ms)",
    "",
    "error: Test failed",
    "",
    "Stack backtrace:",
    "   0: <unknown>",
  ];
  for (const input of [test, test.slice(0, -3)]) {
    const out = filter("deno test", input.join("\n"), true).split("\n");
    expect(out).toContain("error: Test failed");
    expect(out).toContain("FAILED | 1 passed | 1 failed (9ms)");
    expect(out).not.toContain("Stack backtrace:");
  }
  const check = [
    "Check a.ts",
    "TS2322 [ERROR]: Type 'string' is not assignable to type 'number'.",
    "const n: number = 'x';",
    "      ^",
    "    at file:///w/a.ts:1:7",
    "",
    "TS2322 [ERROR]: Type 'number' is not assignable to type 'string'.",
    "const s: string = 1;",
    "      ^",
    "    at file:///w/a.ts:2:7",
    "",
    "Found 2 errors.",
    "",
    "error: Type checking failed.",
    "",
    "Stack backtrace:",
    "   0: <unknown>",
  ];
  for (const input of [check, check.slice(0, -3)]) {
    const out = filter("deno check a.ts", input.join("\n"), true).split("\n");
    expect(out).toContain("error: Type checking failed.");
    expect(out).not.toContain("   0: <unknown>");
  }
});

Deno.test("every failed-test line stays, also when a failure block names the test again", () => {
  const cargo = [
    "running 3 tests",
    "test src/lib.rs - Money::add (line 12) ... ok",
    "test src/lib.rs - Money::split (line 40) ... FAILED",
    "test src/lib.rs - parse (line 7) ... FAILED",
    "",
    "failures:",
    "",
    "---- src/lib.rs - Money::split (line 40) stdout ----",
    "thread 'main' panicked at src/lib.rs:44:1:",
    "assertion failed: parts.len() == 3",
    "---- src/lib.rs - parse (line 7) stdout ----",
    "error[E0425]: cannot find value `x` in this scope",
    "Couldn't compile the test.",
    "",
    "failures:",
    "    src/lib.rs - Money::split (line 40)",
    "    src/lib.rs - parse (line 7)",
    "",
    "test result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.31s",
  ];
  const out = filter("cargo test --doc", cargo.join("\n"), true).split("\n");
  expect(out).toContain("test src/lib.rs - Money::split (line 40) ... FAILED");
  expect(out).toContain("test src/lib.rs - parse (line 7) ... FAILED");
  expect(out).toContain("---- src/lib.rs - Money::split (line 40) stdout ----");
  const nextest = [
    "    Starting 2 tests across 1 binary",
    "        PASS [   0.004s] money tests::adds",
    "        FAIL [   0.006s] money tests::splits",
    "──── STDOUT:             money tests::splits",
    "",
    "running 1 test",
    "test tests::splits ... FAILED",
    "",
    "──── STDERR:             money tests::splits",
    "thread 'tests::splits' panicked at src/lib.rs:30:9:",
    "assertion `left == right` failed",
    "  left: 2",
    " right: 3",
    "",
    "     Summary [   0.010s] 2 tests run: 1 passed, 1 failed, 0 skipped",
    "        FAIL [   0.006s] money tests::splits",
    "error: test run failed",
  ];
  const next = filter("cargo nextest run", nextest.join("\n"), true).split("\n");
  expect(next).toContain("        FAIL [   0.006s] money tests::splits");
  expect(next).toContain("  left: 2");
});

Deno.test("shellcheck -f gcc: warnings and notes grouped by code with locations, errors whole", () => {
  const findings: string[] = [];
  for (let i = 1; i <= 30; i++) {
    findings.push(
      `bin/run${
        i % 3
      }.sh:${i}:7: note: Double quote to prevent globbing and word splitting. [SC2086]`,
    );
  }
  findings.push(
    "bin/run1.sh:40:1: warning: x appears unused. Verify use (or export if used externally). [SC2034]",
  );
  findings.push(
    "bin/run2.sh:9:3: error: Couldn't parse this if expression. Fix to allow more checks. [SC1073]",
  );
  findings.push(
    "bin/run2.sh:9:3: error: Expected 'then'. Fix any mentioned problems and try again. [SC1050]",
  );
  const out = filter("shellcheck -f gcc bin/*.sh", findings.join("\n"), true);
  const lines = out.split("\n");
  expect(lines.length).toBeLessThan(findings.length / 2);
  expect(out).toContain("Double quote to prevent globbing and word splitting");
  expect(out).toContain("SC2086");
  for (let i = 1; i <= 30; i++) expect(out).toMatch(new RegExp(`bin/run${i % 3}\\.sh:${i}:7\\b`));
  expect(lines).toContain(findings[30]);
  expect(lines).toContain(findings[31]);
  expect(lines).toContain(findings[32]);
});

Deno.test("shellcheck -f gcc: each script's first finding of a message stays as printed, as clang-tidy's grouping keeps it", () => {
  // Captured: shellcheck 0.9.0 -f gcc on four scripts with the same problems; the same warning
  // in another script is a place to fix there, not a repeat to count.
  const scripts = ["backup", "cleanup", "deploy", "warm-cache"];
  const findings = scripts.flatMap((name) => [
    `bin/${name}.sh:4:1: warning: Use 'cd ... || exit' or 'cd ... || return' in case cd fails. [SC2164]`,
    `bin/${name}.sh:4:4: note: Double quote to prevent globbing and word splitting. [SC2086]`,
    `bin/${name}.sh:5:8: warning: Use "\${var:?}" to ensure this never expands to /* . [SC2115]`,
    `bin/${name}.sh:6:8: warning: Use "\${var:?}" to ensure this never expands to /* . [SC2115]`,
    `bin/${name}.sh:6:8: note: Double quote to prevent globbing and word splitting. [SC2086]`,
    `bin/${name}.sh:7:10: error: Iterating over ls output is fragile. Use globs. [SC2045]`,
    `bin/${name}.sh:8:8: note: Double quote to prevent globbing and word splitting. [SC2086]`,
    `bin/${name}.sh:11:8: warning: Use "\${var:?}" to ensure this never expands to /* . [SC2115]`,
    `bin/${name}.sh:15:1: note: read without -r will mangle backslashes. [SC2162]`,
  ]);
  const out = filter("shellcheck -f gcc bin/*.sh", findings.join("\n"), true);
  for (const name of scripts) {
    for (const line of findings.filter((f) => f.startsWith(`bin/${name}.sh:`))) {
      const code = line.slice(line.lastIndexOf("["));
      const first = findings.find((f) => f.startsWith(`bin/${name}.sh:`) && f.endsWith(code));
      // Each script's first finding of each code as printed; its later ones by their location.
      if (line === first) expect(out).toContain(line);
      else expect(out).toContain(line.slice(0, line.indexOf(": ")));
    }
  }
  expect(out.split("\n").length).toBeLessThan(findings.length);
});

Deno.test("valgrind -v: the --PID-- debug lines fold to a count, the ==PID== report stays", () => {
  const input = [
    "==4242== Memcheck, a memory error detector",
    "==4242== Command: ./app",
    "--4242-- Valgrind options:",
    "--4242--    -v",
    "--4242-- Reading syms from /srv/app/app",
    "--4242-- REDIR: 0x4023aa0 (ld-linux-x86-64.so.2:strlen) redirected to 0x580bb0e2 (???)",
    "--4242-- REDIR: 0x4022280 (ld-linux-x86-64.so.2:index) redirected to 0x580bb0fc (???)",
    "--4242--   Considering /usr/lib/debug/.build-id/7e/bc65.debug ..",
    "==4242== Conditional jump or move depends on uninitialised value(s)",
    "==4242==    at 0x109171: parse (parse.c:12)",
    "==4242==    by 0x1091C2: main (main.c:8)",
    "==4242== ",
    "--4242-- Discarding syms at 0x4a5e5c0-0x4a7f5f9 in /usr/lib/x86_64-linux-gnu/libgcc_s.so.1",
    "==4242== HEAP SUMMARY:",
    "==4242==     in use at exit: 0 bytes in 0 blocks",
    "==4242== All heap blocks were freed -- no leaks are possible",
    "==4242== ERROR SUMMARY: 1 errors from 1 contexts (suppressed: 0 from 0)",
  ];
  const out = filter("valgrind -v ./app", input.join("\n"), true);
  expect(out).not.toContain("--4242--");
  expect(out).toMatch(/\b7\b.*--PID--|--PID--.*\b7\b/);
  for (
    const line of input.slice(8, 11).concat(input.slice(13).filter((l) => /SUMMARY|freed/.test(l)))
  ) {
    expect(out.split("\n")).toContain(line);
  }
});

Deno.test("go test -v: the test running when the binary exited (os.Exit, no --- FAIL) stays named", () => {
  // go 1.22: TestExits calls os.Exit(3); go prints no result line for it.
  const input = [
    "=== RUN   TestA",
    "--- PASS: TestA (0.00s)",
    "=== RUN   TestB",
    "--- PASS: TestB (0.00s)",
    "=== RUN   TestExits",
    "    x_test.go:5: about to exit",
    "FAIL\texample.com/gox\t0.002s",
    "FAIL",
  ];
  const out = filter("go test -v ./...", input.join("\n"), true).split("\n");
  expect(out).toContain("=== RUN   TestExits");
  expect(out).not.toContain("=== RUN   TestA");
  // Silent before it exits: its run line is still what names it.
  const silent = [...input.slice(0, 5), ...input.slice(6)];
  expect(filter("go test -v ./...", silent.join("\n"), true).split("\n")).toContain(
    "=== RUN   TestExits",
  );
});

Deno.test("go test -v: the test a run died in is named where the run ends, for every ending", async () => {
  // go 1.19 runs (tests/fixtures/filters/go-test/run_dies_*): a panic in a test's goroutine, a
  // `-timeout`, an os.Exit inside a test, a fatal `concurrent map writes`, and a timeout in a
  // subtest with a parallel test paused.
  const cases = [
    {
      name: "panic",
      running: "=== RUN   TestBackground",
      end: "panic: assignment to entry in nil map",
    },
    { name: "timeout", running: "=== RUN   TestHangs", end: "panic: test timed out after 2s" },
    { name: "exit", running: "=== RUN   TestExits", end: "FAIL\texample.com/mend3/exit\t0.004s" },
    { name: "maps", running: "=== RUN   TestRace", end: "fatal error: concurrent map writes" },
    {
      name: "subtest_paused",
      running: "=== RUN   TestSeq/inner",
      end: "panic: test timed out after 2s",
    },
  ];
  const dir = new URL("../fixtures/filters/go-test/", import.meta.url);
  for (const { name, running, end } of cases) {
    const input = await Deno.readTextFile(new URL(`run_dies_${name}.in.txt`, dir));
    const out = filter("go test -v ./...", input, true).split("\n");
    const inLines = input.split("\n");
    // What the test printed after its run line, up to the end, stays between the two.
    const printed = inLines.slice(inLines.indexOf(running) + 1, inLines.indexOf(end))
      .filter((l) => l.trim() !== "" && !l.startsWith("=== "));
    expect(out.slice(out.indexOf(running), out.indexOf(end) + 1)).toEqual([
      running,
      ...printed,
      end,
    ]);
    // Tests that passed, and one paused that never ran again, are not named.
    expect(out.filter((l) => l.startsWith("=== "))).toEqual([running]);
  }
  // Without -v no test is named: the panic's frames say where it came from.
  const plain = await Deno.readTextFile(new URL("run_dies_panic_plain.in.txt", dir));
  expect(filter("go test ./...", plain, true).split("\n")[0]).toBe(
    "panic: assignment to entry in nil map",
  );
});

Deno.test("go test -v: a test's last lines before its result stay however much it printed first", async () => {
  // go 1.19 runs (tests/fixtures/filters/go-test/): a test printing 1100 lines to stdout before
  // its t.Errorf; one logging 2500 t.Logf lines before its t.Fatalf and one printing 1500 lines
  // before its t.Errorf; a test printing 3000 lines before it calls os.Exit.
  const cases = [
    { name: "prints_before_assertion", kept: ["    a_test.go:16: Sum() = 3, want 4"] },
    {
      name: "log_before_assertion",
      kept: [
        "    b_test.go:17: balance after replay = 7, want 10",
        "    b_test.go:26: imported 1500 records, want 1501",
      ],
    },
    { name: "run_dies_exit_long", kept: ["migration 3000: checksum mismatch, aborting"] },
  ];
  const dir = new URL("../fixtures/filters/go-test/", import.meta.url);
  for (const { name, kept } of cases) {
    const input = await Deno.readTextFile(new URL(`${name}.in.txt`, dir));
    const out = filter("go test -v .", input, true).split("\n");
    for (const line of kept) expect(out).toContain(line);
    // The lines before them are cut to each failure's trace limit, the rest counted.
    expect(out.length).toBeLessThan(100);
    expect(out.some((line) => /^\.\.\. \(\d+ more lines/.test(line))).toBe(true);
  }
});

Deno.test("go test -v: a `panic:` line a test prints and outlives names no test as the one the run died in", async () => {
  // go 1.19 runs (tests/fixtures/filters/go-test/): tests that recover a panic and print it (to
  // stdout, to stderr), a test whose child process panics (its output copied), all passing; and a
  // failing package where a recovered panic comes before a failed test and a run that dies; a
  // test that recovers a panic and then dies of another.
  const dir = new URL("../fixtures/filters/go-test/", import.meta.url);
  for (const name of ["passing_prints_panic", "passing_recovers_panic", "passing_child_panics"]) {
    const input = await Deno.readTextFile(new URL(`${name}.in.txt`, dir));
    const out = filter("go test -v .", input).split("\n");
    expect(out.filter((l) => l.startsWith("=== RUN"))).toEqual(
      name === "passing_child_panics" ? ["=== RUN   TestCrashExitCode"] : [],
    );
    expect(out[out.length - 1]).toMatch(/^ok {2}\t/);
  }
  const input = await Deno.readTextFile(new URL("recovered_panic_then_dies.in.txt", dir));
  const out = filter("go test -v .", input, true).split("\n");
  expect(out.filter((l) => l.startsWith("=== RUN"))).toEqual([
    "=== RUN   TestRound",
    "=== RUN   TestWorker",
  ]);
  expect(out.slice(out.indexOf("=== RUN   TestWorker"))[1]).toBe(
    "panic: assignment to entry in nil map",
  );
  // A test that outlives its own recovered panic and then dies is named once, over both.
  const same = await Deno.readTextFile(new URL("recovered_panic_then_dies_same_test.in.txt", dir));
  const sameOut = filter("go test -v .", same, true).split("\n");
  expect(sameOut.filter((l) => l.startsWith("=== RUN"))).toEqual(["=== RUN   TestPool"]);
  expect(sameOut).toContain("panic: assignment to entry in nil map");
});

Deno.test("deno test: a failed step's indented `... FAILED` line stays under its test", () => {
  // deno 2.9's output of a test whose second step throws (NO_COLOR).
  const input = [
    "Check a_test.ts",
    "running 2 tests from ./a_test.ts",
    "outer ...",
    "  first ... ok (0ms)",
    "  second ... FAILED (0ms)",
    "outer ... FAILED (due to 1 failed step) (2ms)",
    "plain ... ok (77µs)",
    "",
    " ERRORS ",
    "",
    "outer ... second => ./a_test.ts:3:11",
    "error: Error: Values are not equal: 2 vs 3",
    '    if (1 + 1 !== 3) throw new Error("Values are not equal: 2 vs 3");',
    "                           ^",
    "    at file:///tmp/dstep/a_test.ts:4:28",
    "    at innerWrapped (ext:cli/40_test.js:300:11)",
    "    at file:///tmp/dstep/a_test.ts:3:11",
    "",
    " FAILURES ",
    "",
    "outer ... second => ./a_test.ts:3:11",
    "",
    "FAILED | 1 passed (1 step) | 1 failed (1 step) (9ms)",
    "",
    "error: Test failed",
  ];
  const out = filter("deno test a_test.ts", input.join("\n"), true).split("\n");
  expect(out).toContain("  second ... FAILED (0ms)");
  expect(out).toContain("outer ... FAILED (due to 1 failed step) (2ms)");
  expect(out).not.toContain("  first ... ok (0ms)");
  expect(out.indexOf("  second ... FAILED (0ms)")).toBeLessThan(
    out.indexOf("outer ... FAILED (due to 1 failed step) (2ms)"),
  );
});

/** go test of a package whose failing test prints (fmt.Printf) before it logs its failure. */
const GO_PRINTS = {
  plain: [
    "counting items",
    "small cart",
    "adding apple x2 at 3",
    "adding pear x1 at 5",
    "adding fig x3 at 7",
    "--- FAIL: TestTotalLarge (0.00s)",
    "    cart_test.go:27: cart has 3 items",
    "    cart_test.go:29: Total = 31, want 32",
    "empty cart",
    "FAIL",
    "FAIL\texample.com/shop/cart\t0.004s",
    "ok  \texample.com/shop/tax\t0.004s",
    "FAIL",
  ].join("\n"),
  verbose: [
    "=== RUN   TestCount",
    "counting items",
    "--- PASS: TestCount (0.00s)",
    "=== RUN   TestTotalSmall",
    "small cart",
    "--- PASS: TestTotalSmall (0.00s)",
    "=== RUN   TestTotalLarge",
    "adding apple x2 at 3",
    "adding pear x1 at 5",
    "adding fig x3 at 7",
    "    cart_test.go:27: cart has 3 items",
    "    cart_test.go:29: Total = 31, want 32",
    "--- FAIL: TestTotalLarge (0.00s)",
    "=== RUN   TestTotalEmpty",
    "empty cart",
    "--- PASS: TestTotalEmpty (0.00s)",
    "FAIL",
    "FAIL\texample.com/shop/cart\t0.020s",
    "=== RUN   TestRate",
    "--- PASS: TestRate (0.00s)",
    "PASS",
    "ok  \texample.com/shop/tax\t0.010s",
    "FAIL",
  ].join("\n"),
};

Deno.test("go test: what a failing test printed before its --- FAIL line stays, with or without -v", () => {
  const head = "--- FAIL: TestTotalLarge (0.00s)";
  const printed = ["adding apple x2 at 3", "adding pear x1 at 5", "adding fig x3 at 7"];
  const logged = [
    "    cart_test.go:27: cart has 3 items",
    "    cart_test.go:29: Total = 31, want 32",
  ];
  // Without -v, no line says which test printed what: the lines since the package started stand
  // over the failure as printed (a passing test's too), its log lines under it.
  expect(filter("go test ./...", GO_PRINTS.plain, true).split("\n")).toEqual([
    "counting items",
    "small cart",
    ...printed,
    head,
    ...logged,
    "empty cart",
    "FAIL\texample.com/shop/cart\t0.004s",
    "ok  \texample.com/shop/tax\t0.004s",
  ]);
  // Under -v they are the test's own, held under its name: under its result in the order
  // printed; a passing test's prints go with it.
  expect(filter("go test -v ./...", GO_PRINTS.verbose, true).split("\n")).toEqual([
    "=== RUN   TestTotalLarge",
    head,
    ...printed,
    ...logged,
    "FAIL\texample.com/shop/cart\t0.020s",
    "ok  \texample.com/shop/tax\t0.010s",
  ]);
});

Deno.test("go test: a failing test's prints without -v are held up to a cap, the rest counted", async () => {
  // Two subtests log a record each through `log.Printf`: 92 lines before the failure.
  const input = await Deno.readTextFile(
    new URL("../fixtures/filters/go-test/prints_before_failure.in.txt", import.meta.url),
  );
  const out = filter("go test ./...", input, true).split("\n");
  // The first and last lines stay, the failing subtest's last prints right above its result.
  expect(out).toContain("batch of 10 records");
  expect(out.slice(-6)).toEqual([
    "2026/11/28 20:39:29 applying record 78 (value 78)",
    "2026/11/28 20:39:29 applying record 79 (value 79)",
    "--- FAIL: TestApplyBatches (0.00s)",
    "    --- FAIL: TestApplyBatches/size=80 (0.00s)",
    "        sync_test.go:23: Apply applied 78 of 80 records",
    "FAIL\texample.com/syncer/sync\t0.007s",
  ]);
  // What is not shown is counted: every printed line is shown, said again by a fold, or counted.
  expect(out).toContain("... (52 lines omitted) ...");
  expect(out.length).toBeLessThan(50);
});
