/**
 * Failures printed in a form test_summary did not read, lost on real runs: pytest's plain Python
 * tracebacks (`--tb=native`, a doctest's unexpected exception) and doctest's `Expected:`/`Got:`
 * values, go's skipped tests with their reason and the `-shuffle` seed (plain, -v and -json),
 * vitest's snapshot counts and the line a jest code frame points at; rspec's exception forms
 * (NoMethodError, mocks, Diff blocks, aggregate_failures, a pending example that passed). Tested
 * through the built-in rules on real captures (bench/corpus, tests/fixtures) and on shapes of each
 * class.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

Deno.test("pytest --tb=native keeps the project's frames and the exception, folds the rest", async () => {
  const out = lines(
    filter(
      "python3 -m pytest -p no:cacheprovider --tb=native tests",
      await corpus("python/pytest_tb_native.txt"),
      true,
    ),
  );
  const head = out.findIndex((line) => / test_parse_no_space _+$/.test(line));
  expect(out.slice(head + 1, head + 10)).toEqual([
    "Traceback (most recent call last):",
    "  … 23 frames in _pytest, pluggy folded …",
    '  File "/tmp/r11me/cw/runners11/py/tests/test_pricing.py", line 11, in test_parse_no_space',
    '    parse_price("12.50EUR")',
    '  File "/tmp/r11me/cw/runners11/py/pkg/pricing.py", line 15, in parse_price',
    "    return split_price(text)",
    '  File "/tmp/r11me/cw/runners11/py/pkg/pricing.py", line 10, in split_price',
    '    amount, currency = text.split(" ")',
    "ValueError: not enough values to unpack (expected 2, got 1)",
  ]);
  // unittest's message goes on under the exception: the differing element is its point.
  expect(out).toContain("AssertionError: Tuples differ: ('3', 'USD') != ('3', 'EUR')");
  expect(out).toContain("First differing element 1:");
  expect(out).toContain(
    "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
  );
  // The frames of pytest's and pluggy's machinery and Python's position marks go.
  expect(out.some((line) => line.includes("site-packages"))).toBe(false);
  expect(out.some((line) => /^\s+[~^]+$/.test(line))).toBe(false);
});

Deno.test("pytest --doctest-modules keeps each failed example with what it expected and got", async () => {
  const out = lines(
    filter(
      "python3 -m pytest -p no:cacheprovider --doctest-modules pkg",
      await corpus("python/pytest_doctest_modules.txt"),
      true,
    ),
  );
  const head = out.findIndex((line) => / \[doctest\] pkg\.pricing\.split_price _+$/.test(line));
  expect(out.slice(head + 1, head + 8)).toEqual([
    '006     >>> sorted({"EUR": 1, "USD": 2}.items())',
    "Expected:",
    "    [('EUR', 1),",
    "     ('USD', 3)]",
    "Got:",
    "    [('EUR', 1), ('USD', 2)]",
    "/tmp/r11me/cw/runners11/py/pkg/pricing.py:6: DocTestFailure",
  ]);
  expect(out).toContain("UNEXPECTED EXCEPTION: ZeroDivisionError('division by zero')");
  expect(out).toContain("ZeroDivisionError: division by zero");
  // The docstring's lines before the failing example go.
  expect(out).not.toContain("002 Split a price into amount and currency.");
});

Deno.test("doctest values are kept up to a limit per Expected or Got", () => {
  const text = [
    "=================================== FAILURES ===================================",
    "___________________________ [doctest] pkg.rows.rows ____________________________",
    "004     >>> rows()",
    "Expected:",
    "    nothing",
    "Got:",
    ...Array.from({ length: 30 }, (_, i) => `    row ${i}`),
    "",
    "/src/pkg/rows.py:4: DocTestFailure",
    "============================== 1 failed in 0.05s ===============================",
  ].join("\n");
  const out = lines(filter("pytest --doctest-modules pkg", text, true));
  expect(out).toContain("    row 19");
  expect(out).not.toContain("    row 20");
  expect(out).toContain("/src/pkg/rows.py:4: DocTestFailure");
});

Deno.test("go test keeps the shuffle seed and a skipped test with its reason", async () => {
  for (
    const [command, path] of [
      ["go test -v -shuffle 2 ./...", "go/test_v_shuffle_skip.txt"],
      ["go test -json -shuffle 2 ./...", "go/test_json_shuffle_skip.txt"],
    ]
  ) {
    const out = lines(filter(command, await corpus(path), true));
    expect(out[0]).toBe("-test.shuffle 2");
    const skip = out.indexOf("--- SKIP: TestNetworkSmoke (0.00s)");
    expect(out[skip - 1]).toBe(
      "    order_test.go:22: NETWORK_TESTS not set; skipping smoke test against staging",
    );
    expect(out).toContain("--- FAIL: TestAddFirst (0.00s)");
    // The passing test still goes.
    expect(out.some((line) => line.includes("TestOK"))).toBe(false);
  }
  const json = filter(
    "go test -json -shuffle 2 ./...",
    await corpus("go/test_json_shuffle_skip.txt"),
    true,
  );
  expect(json).toContain("[json] 1 passed, 2 failed, 1 skipped: TestAddSecond, TestAddFirst");
});

Deno.test("go test keeps a skipped subtest's reason printed under it", () => {
  const text = [
    "--- FAIL: TestStore (0.00s)",
    "    --- SKIP: TestStore/postgres (0.00s)",
    "        store_test.go:40: PG_URL not set",
    "    --- FAIL: TestStore/memory (0.00s)",
    "        store_test.go:52: Get(1) = nil, want item",
    "FAIL",
    "FAIL\texample.com/store\t0.004s",
    "FAIL",
  ].join("\n");
  const out = lines(filter("go test ./...", text, true));
  expect(out).toContain("    --- SKIP: TestStore/postgres (0.00s)");
  expect(out).toContain("        store_test.go:40: PG_URL not set");
  expect(out).toContain("        store_test.go:52: Get(1) = nil, want item");
});

Deno.test("vitest keeps its count of failed snapshots", async () => {
  const out = lines(filter("vitest run", await corpus("node/vitest_snapshot_failed.txt"), true));
  expect(out.slice(-3)).toEqual([
    "  Snapshots  2 failed",
    " Test Files  1 failed (1)",
    "      Tests  2 failed | 1 passed (3)",
  ]);
});

Deno.test("jest keeps the line its code frame points at, not the frame's context", async () => {
  const out = lines(filter("jest", await corpus("node/jest_suite_failed_to_run.txt"), true));
  const head = out.indexOf("  ● Test suite failed to run");
  expect(out.slice(head + 1, head + 4)).toEqual([
    "    TypeError: Cannot destructure property 'api' of 'cfg.endpoints' as it is undefined.",
    "    > 3 | const { api } = cfg.endpoints;",
    "      at Object.api (api.test.js:3:9)",
  ]);
  expect(out).toContain("    > 3 |   expect(sum(1, 2)).toBe(4);");
  expect(out).not.toContain('      1 | const cfg = require("./config");');
});

Deno.test("pytest keeps an exception group's tracebacks, nested two deep, with each sub-exception", async () => {
  // pytest prints an ExceptionGroup (asyncio's TaskGroup, anyio, trio) as Python does, with
  // `  + Exception Group Traceback` heads and `| ` gutters, whatever --tb says.
  const out = lines(
    filter(
      "python3 -m pytest -p no:cacheprovider test_chain.py -k test_eg",
      await fixture("pytest/exception_group.in.txt"),
      true,
    ),
  );
  for (
    const kept of [
      '  |   File "/home/dev/proj/test_chain.py", line 23, in inner',
      '  |     raise ExceptionGroup("inner", [ValueError("v1"), TypeError("t1")])',
      '  |   File "/home/dev/proj/test_chain.py", line 27, in test_eg',
      "  | ExceptionGroup: outer (2 sub-exceptions)",
      "    | ValueError: v1",
      "      | TypeError: t1",
      "    | KeyError: 'k'",
      "During handling of the above exception, another exception occurred:",
    ]
  ) expect(out).toContain(kept);
  expect(out.some((line) => line.includes("site-packages"))).toBe(false);
});

Deno.test("pytest --tb=long and short: a chained exception keeps its separator and each block's last exception line", async () => {
  for (const tb of ["long", "short"]) {
    const raw = lines(await fixture(`pytest/chained_${tb}.in.txt`));
    const out = lines(filter(`pytest --tb=${tb} test_chain.py`, raw.join("\n"), true));
    const kept = (pattern: RegExp) => out.filter((line) => pattern.test(line));
    expect(kept(/^(The above|During handling)/)).toEqual([
      "The above exception was the direct cause of the following exception:",
      "During handling of the above exception, another exception occurred:",
    ]);
    // The cause before the separator, the exception after it.
    const cause = out.indexOf(
      "The above exception was the direct cause of the following exception:",
    );
    expect(out.slice(0, cause).some((l) => l.includes("JSONDecodeError: Expecting property name")))
      .toBe(true);
    expect(out.slice(cause).some((l) => /^E\s+RuntimeError: config unreadable$/.test(l))).toBe(
      true,
    );
    const context = out.indexOf(
      "During handling of the above exception, another exception occurred:",
    );
    expect(out.slice(cause, context).some((l) => /^E\s+KeyError: 'port'$/.test(l))).toBe(true);
    expect(out.slice(context).some((l) => /^E\s+LookupError: missing setting port$/.test(l)))
      .toBe(true);
  }
});

Deno.test("rspec: each exception form keeps its message, its diff or values and its first own frame", async () => {
  // rspec 3.12 runs (tests/fixtures/filters/rspec/): a NoMethodError with its frames, a hash
  // compared with a Diff block, a mock's unexpected arguments, aggregate_failures' `Got 3
  // failures`, a pending example that passed; in documentation format a raise_error mismatch
  // with its backtrace, KeyError, a custom error's two-line message, JSON::ParserError, mocks'
  // expected and received counts, a change matcher; an aggregate holding an error; match_array,
  // have_attributes, include with their Diff, a strict double's unexpected message.
  const cases: Record<string, string[]> = {
    exception_forms: [
      "     NoMethodError:",
      "       undefined method `fetch' for nil:NilClass",
      "     # ./lib/cart.rb:26:in `discount'",
      "       Diff:",
      '       -:skus => ["A", "B", "C"],',
      "       +:total => 30,",
      '       #<Double "mailer"> received :deliver with unexpected arguments',
      "              got: (:receipt, 110)",
      "     # ./lib/cart.rb:30:in `notify'",
      "     Got 3 failures:",
      "     5.3) Failure/Error: expect(item.qty).to eq(4)",
      "                 got: 3",
      "     Expected pending 'rounding is not implemented' to fail. No error was raised.",
      "     # ./spec/cart_spec.rb:42",
    ],
    exception_forms_doc: [
      "       expected ArgumentError, got #<Inventory::OutOfStock: B: wanted 3, have 1",
      "         # ./lib/inventory.rb:16:in `take'",
      '       key not found: "Z"',
      "     # ./lib/inventory.rb:15:in `fetch'",
      "     Inventory::OutOfStock:",
      "       restock before retrying",
      "       859: unexpected token at '{bad json'",
      '           expected: 2 times with arguments: (["B"])',
      "           received: 1 time",
      "       expected `inv.describe_all.lines.size` to have changed by 1, but was changed by 0",
    ],
    aggregate_error_doc: [
      "     Got 2 failures and 1 other error:",
      "     1.3) Failure/Error: @coupons.fetch(code) # @coupons is never set",
      "            undefined method `fetch' for nil:NilClass",
      "          # ./lib/cart.rb:26:in `discount'",
    ],
    matchers_pending: [
      "       the missing elements were:      [4, 5]",
      "       +:status => :open,",
      '       #<Double "gateway"> received unexpected message :refund with (7)',
      "       expected ArgumentError with message matching /bad id/, got #<ArgumentError: bad quantity: -1> with backtrace:",
      "       451: unexpected token at ']]]]]'",
      "       fixture file missing: orders.yml",
      "            got: 1.4000000000000001",
    ],
  };
  for (const [name, kept] of Object.entries(cases)) {
    const command = (await fixture(`rspec/${name}.cmd`)).split("\n")[0];
    const out = lines(filter(command, await fixture(`rspec/${name}.in.txt`), true));
    const missing = kept.filter((line) => !out.includes(line));
    expect({ name, missing }).toEqual({ name, missing: [] });
  }
});
