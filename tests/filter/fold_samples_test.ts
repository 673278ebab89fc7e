/** The fold_samples strategy: a benchmark's rows of one run after another fold to its median row. */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";

const ROW =
  "^(?P<name>Benchmark[^\\s]{1,300})\\s{1,40}\\d{1,20}\\t\\s{0,40}(?P<metrics>\\d[^\\n]{0,1000})$";

function run(input: string[], extra: Record<string, unknown> = {}, failed = false) {
  const strategy = { type: "fold_samples", row: ROW, ...extra };
  const rule = compileRule({ name: "t", match: { prefix: "bench" }, strategy }, "test");
  const out = new FilterEngine([rule], { security: false }).filter("bench", input.join("\n"), {
    failed,
  });
  return { text: out.text.split("\n"), confidence: out.stats.confidence };
}

const row = (name: string, ns: string, bytes = "16") =>
  `${name}   \t    2000\t        ${ns} ns/op\t      ${bytes} B/op\t       1 allocs/op`;

Deno.test("fold_samples keeps the median run's row as printed and the spread of what varies", () => {
  expect(run([
    "pkg: example.com/a",
    row("BenchmarkA-2", "55.55"),
    row("BenchmarkA-2", "95.95"),
    row("BenchmarkA-2", "9.5"),
    row("BenchmarkA-2", "79.96", "32"),
    row("BenchmarkB-2", "7.1"),
    row("BenchmarkB-2", "7.3"),
    "PASS",
  ])).toEqual({
    text: [
      "pkg: example.com/a",
      // Even runs: the lower of the two middle ones; numbers compare as numbers (9.5 < 55.55).
      row("BenchmarkA-2", "55.55"),
      "  … 4 runs, the median above: 9.5 to 95.95 ns/op, 16 to 32 B/op",
      // Two runs are fewer than min_runs: as printed.
      row("BenchmarkB-2", "7.1"),
      row("BenchmarkB-2", "7.3"),
      "PASS",
    ],
    confidence: "full",
  });
  const alike = run([row("BenchmarkC", "1.0"), row("BenchmarkC", "1.0"), row("BenchmarkC", "1.0")]);
  expect(alike.text).toEqual([row("BenchmarkC", "1.0"), "  … 3 runs, the median above, all alike"]);
});

Deno.test("fold_samples: a failure between rows splits the run; keep_last_before keeps the last row", () => {
  const input = [
    row("BenchmarkA-2", "3.0"),
    row("BenchmarkA-2", "1.0"),
    row("BenchmarkA-2", "2.0"),
    "BenchmarkA-2   \t--- FAIL: BenchmarkA-2",
    "    a_test.go:9: run 4: miss rate 0.4",
    row("BenchmarkA-2", "5.0"),
    row("BenchmarkA-2", "6.0"),
    row("BenchmarkA-2", "4.0"),
    "FAIL\texample.com/a\t0.1s",
  ];
  const folded = [
    row("BenchmarkA-2", "2.0"),
    "  … 3 runs, the median above: 1.0 to 3.0 ns/op",
    "BenchmarkA-2   \t--- FAIL: BenchmarkA-2",
    "    a_test.go:9: run 4: miss rate 0.4",
    row("BenchmarkA-2", "5.0"),
    "  … 3 runs, the median above: 4.0 to 6.0 ns/op",
  ];
  expect(run(input, {}, true).text).toEqual([...folded, "FAIL\texample.com/a\t0.1s"]);
  expect(run(input, { keep_last_before: "^FAIL(\\t|$)" }, true).text).toEqual([
    ...folded,
    // What the binary printed last before its package's FAIL.
    row("BenchmarkA-2", "4.0"),
    "FAIL\texample.com/a\t0.1s",
  ]);
  // Rows whose metrics are no `value unit` pairs stay as printed; nothing folded is a Fallback.
  const odd = [1, 2, 3].map((n) => `BenchmarkD \t 10\t ${n} ns/op x`);
  expect(run(odd)).toEqual({ text: odd, confidence: "fallback" });
});
