/**
 * `pnpm -r test` over packages whose test script is `node --test` (bench/corpus): the TAP each
 * package prints under pnpm's prefix is read as TAP.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";

Deno.test("pnpm -r test: passing TAP results fold, the failing test keeps its diagnostics and project frame", async () => {
  const input = lines(await corpus("node/pnpm_recursive_node_test.txt"));
  const out = lines(filter("pnpm -r test", input.join("\n"), true));
  // No passing result, subtest header or runner frame is left.
  expect(out.filter((l) => /: {1,41}ok \d+ - | # Subtest: |\(node:internal\//.test(l))).toEqual([]);
  const failing = input.indexOf("packages/tax test: not ok 9 - tax sums rates exactly");
  const diagnostics = input.slice(failing, input.indexOf("packages/tax test:   ...", failing))
    .filter((l) => !/\(node:(internal\/|async_hooks)/.test(l));
  const at = out.indexOf(diagnostics[0]);
  expect(out.slice(at, at + diagnostics.length)).toEqual(diagnostics);
  for (
    const l of [
      "packages/tax test: # tests 9",
      "packages/tax test: # fail 1",
      "packages/tax test: Failed",
    ]
  ) {
    expect(out).toContain(l);
  }
});
