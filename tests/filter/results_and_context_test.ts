/**
 * Two classes of signals the built-in rules lost on real outputs: the lines that carry a passing
 * run's result (a coverage report, the runner's closing timing line) and the context of a
 * failure (a runtime report's heads, the directory make was in). Each is tested through the
 * built-in rules on real captures of several tools and on shapes of the class.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

/** One row of an istanbul text table. */
const row = ([name, pct, uncovered]: [string, string, string]) =>
  `${name.padEnd(13)}|${` ${pct.padStart(7)} |`.repeat(4)} ${uncovered.padEnd(18)}`;

/** An istanbul text table (jest, vitest, c8, nyc) of the given rows. */
function istanbul(rows: [string, string, string][]): string {
  const rule = "-------------|---------|----------|---------|---------|-------------------";
  return [
    rule,
    "File         | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s ",
    rule,
    ...rows.map(row),
    rule,
  ].join("\n");
}

Deno.test("a coverage table keeps its header, total and partly covered rows; full rows fold", async () => {
  for (
    const [command, path] of [
      ["npx jest --coverage", "node/jest_coverage.txt"],
      ["npx vitest run --coverage", "node/vitest_coverage.txt"],
    ]
  ) {
    const input = await corpus(path);
    const out = lines(filter(command, input));
    const table = lines(input).filter((line) => line.includes(" | "));
    for (const row of table) {
      const full = / 100 \|.* 100 \|.* 100 \|.* 100 \|\s*$/.test(row);
      // Kept lines stay as printed; every fully covered row is counted in the fold.
      if (full) expect(out).not.toContain(row);
      else expect(out).toContain(row);
    }
    const full = table.filter((row) => / 100 \|.* 100 \|.* 100 \|.* 100 \|\s*$/.test(row));
    expect(out).toContain(`… ${full.length} fully covered rows folded …`);
    expect(out.some((line) => /^-+\|/.test(line))).toBe(false);
  }
});

Deno.test("c8 and nyc tables around mocha are read as the test run's", async () => {
  for (const name of ["c8_mocha_coverage", "nyc_mocha_coverage"]) {
    const command = (await fixture(`jest-vitest/${name}.cmd`)).split("\n")[0];
    const out = lines(filter(command, await fixture(`jest-vitest/${name}.in.txt`)));
    expect(out.some((line) => line.startsWith("All files      |"))).toBe(true);
    expect(out.some((line) => /^ {2}math\.js +\| .*\| 3-[67] +$/.test(line))).toBe(true);
    expect(out).toContain("… 2 fully covered rows folded …");
  }
});

Deno.test("a failed run's result is its failures: its coverage and timing go, its trace stays", () => {
  const input = [
    "FAIL test/a.test.js",
    "  ● adds",
    "",
    "    expect(received).toBe(expected) // Object.is equality",
    "",
    "      at Object.<anonymous> (test/a.test.js:3:30)",
    "",
    istanbul([
      ["All files", " 90.9", ""],
      [" a.js", "  100", ""],
      [" b.js", "  100", ""],
      [" c.js", " 66.6", "4-5"],
    ]),
    "Tests:       1 failed, 3 passed, 4 total",
    "Time:        1.2 s",
  ].join("\n");
  expect(lines(filter("npx jest --coverage", input, true))).toEqual([
    "FAIL test/a.test.js",
    "  ● adds",
    "    expect(received).toBe(expected) // Object.is equality",
    "      at Object.<anonymous> (test/a.test.js:3:30)",
    "Tests:       1 failed, 3 passed, 4 total",
  ]);
  // The same table on a passing run stays.
  const passed = input.split("\n").slice(7).join("\n").replace("1 failed, 3 passed", "4 passed");
  const out = lines(filter("npx jest --coverage", passed));
  expect(out).toContain(row(["All files", " 90.9", ""]));
  expect(out).toContain(row([" c.js", " 66.6", "4-5"]));
  expect(out).toContain("… 2 fully covered rows folded …");
  expect(out).toContain("Time:        1.2 s");
});

Deno.test("one fully covered row stays as printed: a fold line would say no less", () => {
  const input = [
    istanbul([["All files", " 75.0", ""], [" a.js", "  100", ""], [" b.js", " 50.0", "2"]]),
    "Tests:       2 passed, 2 total",
  ].join("\n");
  const out = lines(filter("npx jest --coverage", input));
  expect(out).toContain(row([" a.js", "  100", ""]));
  expect(out.some((line) => line.includes("folded"))).toBe(false);
});

Deno.test("pytest-cov's table keeps its header, TOTAL and the rows with missing lines", async () => {
  const out = lines(
    filter(
      "python3 -m pytest --cov=pkg --cov-report=term-missing tests",
      await fixture("pytest/coverage.in.txt"),
    ),
  );
  expect(out).toContain("Name              Stmts   Miss  Cover   Missing");
  expect(out).toContain("pkg/calc.py          12      6    50%   7, 12-16");
  expect(out).toContain("pkg/conf.py           7      2    71%   4, 9");
  expect(out).toContain("TOTAL                21      8    62%");
});

Deno.test("one-line coverage totals stay: go's and simplecov's", async () => {
  const go = lines(
    filter("go test -v -cover ./counter/", await fixture("go-test/cover_verbose.in.txt")),
  );
  expect(go).toContain("coverage: 100.0% of statements");
  const rspec = [
    "....",
    "",
    "Finished in 0.0123 seconds (files took 0.2 seconds to load)",
    "4 examples, 0 failures",
    "",
    "Coverage report generated for RSpec to /src/app/coverage.",
    "40 / 52 LOC (76.92%) covered.",
  ].join("\n");
  expect(lines(filter("bundle exec rspec", rspec))).toContain("40 / 52 LOC (76.92%) covered.");
  expect(filter("bundle exec rspec", rspec.replace("0 failures", "1 failure"), true)).not
    .toContain("LOC");
});

Deno.test("a passing run keeps its closing timing line; a failed one its failures", async () => {
  const passed = lines(filter("rspec", await fixture("rspec/passing.in.txt")));
  expect(passed).toEqual([
    "Finished in 0.04718 seconds (files took 0.46542 seconds to load)",
    "5 examples, 0 failures",
  ]);
  const jest = lines(filter("npx jest --coverage", await corpus("node/jest_coverage.txt")));
  expect(jest).toContain("Time:        9.289 s");
  const vitest = lines(
    filter("npx vitest run --coverage", await corpus("node/vitest_coverage.txt")),
  );
  expect(vitest.some((line) => /^ {3}Duration {2}3\.62s /.test(line))).toBe(true);
  const failed = [
    "F.",
    "",
    "Failures:",
    "",
    "  1) Stack#pop returns the last item",
    "     Failure/Error: expect(s.pop).to eq(2)",
    "       expected: 2",
    "            got: 1",
    "     # ./spec/stack_spec.rb:9:in `block (3 levels) in <top (required)>'",
    "",
    "Finished in 0.0201 seconds (files took 0.1 seconds to load)",
    "2 examples, 1 failure",
  ].join("\n");
  expect(filter("rspec", failed, true)).not.toContain("Finished in");
});

Deno.test("go's race report keeps its heads with the frames under them", async () => {
  const out = lines(filter("go test -race ./...", await corpus("go/test_race.txt"), true));
  const heads = [
    "WARNING: DATA RACE",
    "Read at 0x00c0000b2198 by goroutine 9:",
    "Previous write at 0x00c0000b2198 by goroutine 15:",
    "Goroutine 9 (running) created at:",
    "Goroutine 15 (finished) created at:",
  ];
  for (const head of heads) expect(out).toContain(head);
  // Each head comes before its own frames, in the order printed.
  const at = heads.map((head) => out.indexOf(head));
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(out[at[1] + 1]).toBe("  example.com/gorace/counter.(*Counter).Inc()");
});

Deno.test("a sanitizer's and the race detector's heads stay in a failing test's log", () => {
  const input = [
    "=== RUN   TestCgo",
    "==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000070 at pc 0x1",
    "READ of size 4 at 0x602000000070 thread T0",
    "    #0 0x5567f65dd335 in main /src/uaf.c:16",
    "freed by thread T0 here:",
    "    #1 0x5567f65dd2af in free_list /src/uaf.c:10",
    "previously allocated by thread T0 here:",
    "    #1 0x5567f65dd1f1 in push /src/uaf.c:6",
    "SUMMARY: AddressSanitizer: heap-use-after-free /src/uaf.c:16 in main",
    "--- FAIL: TestCgo (0.01s)",
    "FAIL\texample.com/cgo\t0.020s",
  ].join("\n");
  const out = lines(filter("go test -v ./...", input, true));
  for (const line of input.split("\n").slice(1)) expect(out).toContain(line);
});

Deno.test("make keeps Entering/Leaving only for the directory where the error happened", async () => {
  const out = lines(filter("make", await corpus("make/subdir_error.txt"), true));
  expect(out).toContain("make[1]: Entering directory '/tmp/fixb4/mk/app'");
  expect(out).toContain("make[1]: Leaving directory '/tmp/fixb4/mk/app'");
  expect(out.filter((line) => line.includes(" directory '"))).toHaveLength(2);
  // In the order printed: the directory, the failing file's command, its errors, the way out.
  const enter = out.indexOf("make[1]: Entering directory '/tmp/fixb4/mk/app'");
  expect(out[enter + 1]).toBe("cc -Wall -O0 -c config.c -o config.o");
  expect(out.indexOf("make[1]: *** [Makefile:6: config.o] Error 1")).toBeLessThan(
    out.indexOf("make[1]: Leaving directory '/tmp/fixb4/mk/app'"),
  );
});

Deno.test("nested make scopes around an error all stay; a clean build shows none", () => {
  const input = [
    "make[1]: Entering directory '/src/lib'",
    "cc -c a.c -o a.o",
    "make[1]: Leaving directory '/src/lib'",
    "make[1]: Entering directory '/src/app'",
    "make[2]: Entering directory '/src/app/net'",
    "cc -c ok.c -o ok.o",
    "make[2]: Leaving directory '/src/app/net'",
    "make[2]: Entering directory '/src/app/ui'",
    "cc -c view.c -o view.o",
    "view.c:3:1: error: expected ';' before '}' token",
    "make[2]: *** [Makefile:4: view.o] Error 1",
    "make[2]: Leaving directory '/src/app/ui'",
    "make[1]: *** [Makefile:3: all] Error 2",
    "make[1]: Leaving directory '/src/app'",
    "make: *** [Makefile:2: all] Error 2",
  ];
  const out = lines(filter("make", input.join("\n"), true));
  expect(out).toEqual([
    "cc -c a.c -o a.o",
    "make[1]: Entering directory '/src/app'",
    "cc -c ok.c -o ok.o",
    "make[2]: Entering directory '/src/app/ui'",
    "cc -c view.c -o view.o",
    "view.c:3:1: error: expected ';' before '}' token",
    "make[2]: *** [Makefile:4: view.o] Error 1",
    "make[2]: Leaving directory '/src/app/ui'",
    "make[1]: *** [Makefile:3: all] Error 2",
    "make[1]: Leaving directory '/src/app'",
    "make: *** [Makefile:2: all] Error 2",
  ]);
  const clean = input.slice(0, 3).join("\n");
  expect(filter("make", clean)).toBe("cc -c a.c -o a.o");
});

Deno.test("a passing run's tree keeps the suite names over its passing tests", async () => {
  const input = await fixture("jest-vitest/mocha_passing.in.txt");
  expect(lines(filter("npx mocha mtest", input))).toEqual([
    "  math",
    "    clamp",
    "  parse",
    "  7 passing (11ms)",
  ]);
  // A failed run's result is its failures: the names of suites that passed go.
  const failed = input.replace(
    "  7 passing (11ms)",
    "  6 passing (11ms)\n  1 failing\n\n  1) math\n       adds:\n     AssertionError: 4 == 3\n      at Context.<anonymous> (mtest/math.spec.js:5:30)",
  );
  const out = lines(filter("npx mocha mtest", failed, true));
  expect(out).not.toContain("  parse");
  expect(out).toContain("     AssertionError: 4 == 3");
});

Deno.test("a failed run's tree keeps the suite names over each failing test, the first suite's too", async () => {
  // mocha (real capture): `  Cart` heads `1) computes the total`, then the nested `discounts`
  // heads `2) rejects an expired coupon`; no failure was open when `  Cart` was printed.
  const input = await fixture("jest-vitest/mocha_failing.in.txt");
  const out = lines(filter("npx mocha", input, true));
  const tree = out.slice(0, out.indexOf("  4 passing (32ms)"));
  expect(tree.slice(0, 4)).toEqual([
    "  Cart",
    "    1) computes the total",
    "    discounts",
    "      2) rejects an expired coupon",
  ]);
  // Each name once: the failure report's `  1) Cart` heads are no tree lines.
  expect(out.filter((line) => line === "  Cart")).toHaveLength(1);
});
