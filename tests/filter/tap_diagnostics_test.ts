/**
 * The TAP rule (filters/tap.toml) keeps what a failing test printed under its `not ok` line:
 * bats and perl's `diag` print it as `# text`, the shape of tape's test headers, which fold with
 * the passing results around them. Captured from bats 1.x (`bats t.bats`, a test echoing its
 * error before failing) and tape's layout; tape's headers between passing results still fold.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, lines: string[], failed: boolean) =>
  engine.filter(command, lines.join("\n"), { failed }).text.split("\n");

Deno.test("tap: a failing bats test's own output under its not ok line stays as printed", () => {
  const input = [
    "1..3",
    "ok 1 addition works",
    "not ok 2 db connects",
    "# (in test file bt/t.bats, line 8)",
    "#   `false' failed",
    "# Error: connection refused by server",
    "# retrying with backup host",
    "not ok 3 run output",
    "# (in test file bt/t.bats, line 13)",
    '#   `[ "$status" -eq 0 ]\' failed',
    "# status was 1 and output was wrong",
  ];
  const out = filter("bats bt/t.bats", input, true);
  expect(input.filter((line) => line.startsWith("#") && !out.includes(line))).toEqual([]);
  expect(out.some((line) => line.includes("passing test lines"))).toBe(false);
});

Deno.test("tap: tape's test headers between passing results still fold, a failure's YAML stays", () => {
  const input = [
    "TAP version 13",
    ...Array.from(
      { length: 8 },
      (_, i) => [`# adds case ${"abcdefgh"[i]}`, `ok ${i + 1} should be equal`],
    )
      .flat(),
    "# subtracts",
    "not ok 9 should be equal",
    "  ---",
    "    operator: equal",
    "    expected: 2",
    "    actual:   1",
    "  ...",
    ...Array.from(
      { length: 8 },
      (_, i) => [`# divides case ${"abcdefgh"[i]}`, `ok ${i + 10} should be equal`],
    )
      .flat(),
    "",
    "1..17",
    "# tests 17",
    "# pass  16",
    "# fail  1",
  ];
  const out = filter("tape test.js", input, true);
  expect(out).toEqual([
    "… 16 passing test lines folded …",
    "# subtracts",
    "not ok 9 should be equal",
    "  ---",
    "    operator: equal",
    "    expected: 2",
    "    actual:   1",
    "  ...",
    "… 16 passing test lines folded …",
    "1..17",
    "# tests 17",
    "# pass  16",
    "# fail  1",
  ]);
});
