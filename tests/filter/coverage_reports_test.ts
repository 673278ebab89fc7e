/**
 * Coverage tables where most files are fully covered, printed where no test runner's rule read
 * them: by a command no rule matches (`coverage report`, `c8 report`), under c8 around
 * `node --test`, by `go tool cover -func`. Every row not fully covered, the header, the totals and
 * the threshold lines stay as printed; the fully covered rows fold into a count.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";
import { foldCoverageTables } from "../../src/filter/generic_coverage.ts";

Deno.test("coverage report with no rule: fully covered rows fold, the rest and the failure stay", async () => {
  const out = filter(
    "coverage report -m --fail-under=99",
    await corpus("python/coverage_report_fail_under.txt"),
    true,
  );
  expect(lines(out)).toEqual([
    "Name                    Stmts   Miss  Cover   Missing",
    "shop/__init__.py            0      0   100%",
    "shop/cart.py               13      3    77%   10, 12, 17",
    "shop/invoice.py            13      3    77%   10, 12, 17",
    "… 55 fully covered rows folded …",
    "shop/pricing.py            13      3    77%   10, 12, 17",
    "shop/refund.py             13      3    77%   10, 12, 17",
    "shop/tax.py                13      3    77%   10, 12, 17",
    "… 60 fully covered rows folded …",
    "TOTAL                     750     15    98%",
    "Coverage failure: total of 98 is less than fail-under=99",
  ]);
});

Deno.test("c8 around node --test: the runner's rule reads the run and the table under it", async () => {
  const out = filter(
    "c8 --check-coverage --branches 99 --functions 99 node --test",
    await corpus("node/c8_node_test_threshold.txt"),
    true,
  );
  const kept = lines(out);
  expect(kept.some((line) => line.startsWith("# Subtest:"))).toBe(false);
  expect(kept.slice(kept.indexOf("# tests 43"))).toEqual([
    "# tests 43",
    "# pass 43",
    "# fail 0",
    "File      | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s ",
    "All files |     100 |    97.24 |   96.62 |     100 |                   ",
    " cart.js  |     100 |    66.66 |   66.66 |     100 | 7-8               ",
    "… 40 fully covered rows folded …",
    " order.js |     100 |    66.66 |   66.66 |     100 | 7-8               ",
    " price.js |     100 |    66.66 |   66.66 |     100 | 7-8               ",
    "ERROR: Coverage for functions (96.62%) does not meet global threshold (99%)",
    "ERROR: Coverage for branches (97.24%) does not meet global threshold (99%)",
  ]);
});

Deno.test("go tool cover -func: functions not fully covered and the total stay", async () => {
  const out = filter("go tool cover -func=c.out", await corpus("go/cover_func.txt"));
  expect(lines(out)).toEqual([
    "example.com/shop/cart/cart.go:11:\tDiscount\t60.0%",
    "example.com/shop/cart/cart.go:21:\tUnused\t\t0.0%",
    "example.com/shop/tax/tax.go:11:\t\tDiscount\t60.0%",
    "example.com/shop/tax/tax.go:21:\t\tUnused\t\t0.0%",
    "total:\t\t\t\t\t(statements)\t88.0%",
    "(32 fully covered functions not shown)",
  ]);
});

Deno.test("foldCoverageTables: istanbul's rules go with its table; a markdown table's stay", () => {
  const rule = "-----------|---------|----------|---------|---------|-------------------";
  const full = (name: string) =>
    ` ${name.padEnd(9)} |     100 |      100 |     100 |     100 |                   `;
  const table = [
    "Coverage summary",
    rule,
    "File       | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s ",
    rule,
    "All files  |    92.5 |       80 |     100 |    92.5 |                   ",
    full("a.js"),
    full("b.js"),
    full("c.js"),
    " d.js      |      70 |       50 |     100 |      70 | 4-6               ",
    full("e.js"),
    rule,
    "| name | value |",
    "|------|-------|",
    "| a    | 1     |",
  ];
  expect(foldCoverageTables(table)).toEqual([
    "Coverage summary",
    "File       | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s ",
    "All files  |    92.5 |       80 |     100 |    92.5 |                   ",
    "… 3 fully covered rows folded …",
    " d.js      |      70 |       50 |     100 |      70 | 4-6               ",
    full("e.js"),
    "| name | value |",
    "|------|-------|",
    "| a    | 1     |",
  ]);
  const markdown = ["a  | b", "---|---", "1  | 2"];
  expect(foldCoverageTables(markdown)).toBe(markdown);
});

Deno.test("coverage report with no rule: forty rows not fully covered are no run to fold", () => {
  const partial = Array.from(
    { length: 40 },
    (_, i) => `shop/mod${i + 10}.py              13      3    ${i + 50}%   10, 12, 17`,
  );
  const full = Array.from(
    { length: 31 },
    (_, i) => `shop/full${i + 10}.py              6      0   100%`,
  );
  const rule = "-----------------------------------------------------";
  const raw = [
    "Name                    Stmts   Miss  Cover   Missing",
    rule,
    ...partial,
    ...full,
    rule,
    "TOTAL                     750     15    98%",
  ];
  expect(lines(filter("coverage report -m", raw.join("\n")))).toEqual([
    "Name                    Stmts   Miss  Cover   Missing",
    ...partial,
    "… 31 fully covered rows folded …",
    "TOTAL                     750     15    98%",
  ]);
});
