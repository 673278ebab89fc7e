/**
 * What a build tool echoes besides its diagnostics (issue 22): the strip_noise `blocks` and
 * `recall` mechanisms, then the rules on the class of output they read — go's `-x` command echo,
 * `go build -v`'s package list, `go test ./...`'s per-package lines — with the failure lines and
 * the failing step that must stay.
 */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";
import { corpus, filter, lines } from "./_builtin.ts";

function run(strategy: Record<string, unknown>, input: string, failed = true) {
  const rule = compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test");
  const engine = new FilterEngine([rule], { security: false });
  return engine.filter("cmd", input, { failed }).text;
}

Deno.test("blocks: a passage goes whole from its start line through its end line", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    blocks: [{ start: "^cat >\\S+ << 'EOF'$", end: "^EOF$" }],
    summary: "({n} gone)",
  };
  expect(run(s, "a\ncat >x << 'EOF'\nerror: not mine\n{\nEOF\nb\nnoise\nc")).toBe(
    "a\nb\nc\n(5 gone)",
  );
  // The end is read after the start only, and a block the output ends inside is read as lines.
  expect(run(s, "a\ncat >x << 'EOF'\nkept\nnoise\nnoise\nnoise")).toBe(
    "a\ncat >x << 'EOF'\nkept\n(3 gone)",
  );
  expect(() =>
    compileRule(
      {
        name: "t",
        match: { prefix: "cmd" },
        strategy: { ...s, blocks: [{ start: "(", end: "x" }] },
      },
      "test",
    )
  ).toThrow(/strategy\.blocks\.0\.start/);
});

Deno.test("recall: a dropped step comes back before the later line naming the same thing", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^step "],
    recall: [{ line: "^step -p (?P<name>\\S+)", by: "^# (?P<name>\\S+)$" }],
  };
  const input = ["step -p a", "step -p b", "step -p c", "# b", "b.go:1:2: undefined: x", "# d"];
  expect(lines(run(s, input.join("\n")))).toEqual([
    "step -p b",
    "# b",
    "b.go:1:2: undefined: x",
    "# d",
  ]);
});

Deno.test("go build -x: the echo and its heredocs go, the failing compile step and errors stay", async () => {
  const out = filter("go build -x ./...", await corpus("go/build_x.txt"), true);
  expect(lines(out)).toEqual([
    expect.stringMatching(/\/compile -o \$WORK\/b\d+\/_pkg_\.a .* -p example\.com\/shop\/ledger /),
    "# example.com/shop/ledger",
    "ledger/ledger.go:12:42: undefined: total",
    "(239 lines of go's -x command echo not shown)",
  ]);
});

Deno.test("go test -x: the echo goes and go-test reads the run as without -x", async () => {
  const out = filter("go test -x ./cart ./stock ./tax", await corpus("go/test_x.txt"), true);
  expect(out).not.toMatch(/\$WORK|vet\.cfg|packagefile|^EOF$/m);
  for (
    const line of [
      'stock/stock_test.go:11:44: cannot use "three" (untyped string constant) as int value in variable declaration',
      "FAIL\texample.com/shop/stock [build failed]",
      "--- FAIL: TestJoin (0.00s)",
      '    tax_test.go:7: Join = "a,b"',
    ]
  ) expect(lines(out)).toContain(line);
  expect(out).toMatch(/^FAIL\texample\.com\/shop\/tax\t[\d.]+s$/m);
  expect(lines(out).length).toBeLessThan(10);
});

Deno.test("go build -v: the package list goes, the package that failed and its errors stay", async () => {
  const out = filter("go build -a -v ./...", await corpus("go/build_v.txt"), true);
  expect(lines(out)).toEqual([
    "# example.com/shop/ledger",
    "ledger/ledger.go:12:42: undefined: total",
    "(64 package paths go -v listed not shown)",
  ]);
});

Deno.test("go test ./...: a long run of passing and test-less packages folds, failures stay", async () => {
  const out = filter("go test -count=1 ./...", await corpus("go/test_packages.txt"), true);
  expect(lines(out)).toEqual([
    "… 20 packages passed or have no test files (ok, ?) …",
    "# example.com/shop/stock [example.com/shop/stock.test]",
    'stock/stock_test.go:11:44: cannot use "three" (untyped string constant) as int value in variable declaration',
    expect.stringMatching(/^ok {2}\texample\.com\/shop\/shipping\t[\d.]+s$/),
    "FAIL\texample.com/shop/stock [build failed]",
    "--- FAIL: TestJoin (0.00s)",
    '    tax_test.go:7: Join = "a,b"',
    expect.stringMatching(/^FAIL\texample\.com\/shop\/tax\t[\d.]+s$/),
    "?   \texample.com/shop/vendor\t[no test files]",
  ]);
  // Four packages or fewer stay as printed, and a coverage line is never folded.
  const short = ["ok  \ta/x\t0.01s", "?   \ta/y\t[no test files]", "ok  \ta/z\t(cached)"];
  expect(filter("go test ./...", short.join("\n"))).toBe(short.join("\n"));
  const covered = [...short, "ok  \ta/w\t0.01s\tcoverage: 80.0% of statements", ...short];
  expect(lines(filter("go test -cover ./...", covered.join("\n")))).toContain(
    "ok  \ta/w\t0.01s\tcoverage: 80.0% of statements",
  );
});

Deno.test("verdicts: a test's lines are held until its verdict and go with a passing one", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    verdicts: {
      line: "^(?P<id>\\d+): ",
      verdict: "^Test #(?P<id>\\d+): ",
      passed: " Passed$",
      summary: "({n} passing lines)",
    },
  };
  const input = [
    "1: running a",
    "2: running b",
    "1: a ok",
    "2: b.c:3: expected 4, got 3",
    "Test #1: a Passed",
    "noise",
    "3: running c",
    "Test #2: b ***Failed",
  ];
  // A failing test's lines come whole before its verdict; one the run ended inside stays too.
  expect(lines(run(s, input.join("\n")))).toEqual([
    "Test #1: a Passed",
    "2: running b",
    "2: b.c:3: expected 4, got 3",
    "Test #2: b ***Failed",
    "3: running c",
    "(2 passing lines)",
  ]);
});

Deno.test("ctest -V: passing tests' verbose output goes, failing tests stay whole, in parallel too", async () => {
  for (
    const [name, command] of [["ctest_verbose", "ctest -V"], [
      "ctest_verbose_parallel",
      "ctest -V -j2",
    ]]
  ) {
    const input = await corpus(`native/${name}.txt`);
    const out = lines(filter(command, input, true));
    // Each failing test's every line stays, in its order.
    for (const id of ["6", "9"]) {
      const own = lines(input).filter((line) =>
        line.startsWith(`${id}: `) || line === `test ${id}`
      );
      expect(out.filter((line) => own.includes(line))).toEqual(own);
    }
    expect(out.some((line) => /^(1|2|3|4|5|7|8|10): /.test(line))).toBe(false);
    expect(out).toContain("80% tests passed, 2 tests failed out of 10");
    expect(out).toContain("\t  9 - hull (Failed)");
    expect(out.at(-1)).toBe("(72 lines of passing tests' verbose output not shown)");
  }
});
