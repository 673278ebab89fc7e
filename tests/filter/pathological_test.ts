/**
 * Every built-in rule, fed long pathological lines (100k characters of one symbol, of `:`, of
 * spaces, and short repeated shapes), finishes each within a generous time budget: no line may
 * make a built-in pattern superlinear.
 */
import { expect } from "expect";
import { BUILTIN_FILTERS_DIR, loadBuiltinRules } from "../../src/filter/mod.ts";

const LENGTH = 100_000;
const SHAPES = [
  ...["a", ":", " ", "-", "=", ".", "/", "#", "\t", "0", "\\", "x::", ":a", "a ", "= ", "::"],
  // Pieces of the rules' own shapes, repeated: each is a near miss on every split.
  ...["-- ", "_ ", "ok ", "= passed in 1s ", "test ", " ... ", "at ", ":1:2 ", "(1,2) ", "| "],
  ...["a:1: ", "error ", "--> ", "FAIL ", "✓ ", "[a] ", '{"a":', "0x", "a=1 "],
];
/** Per rule and input: far above the few milliseconds a linear pass takes, far below a quadratic one. */
const BUDGET_MS = 400;

Deno.test("every built-in rule stays fast on 100k-character pathological lines", async () => {
  const rules = await loadBuiltinRules(BUILTIN_FILTERS_DIR);
  expect(rules.length).toBeGreaterThan(20);
  const slow: string[] = [];
  for (const rule of rules) {
    for (const shape of SHAPES) {
      const line = shape.repeat(Math.ceil(LENGTH / shape.length)).slice(0, LENGTH);
      for (const failed of [false, true]) {
        let emitted = 0;
        const start = performance.now();
        const stage = rule.strategy.createStage({ emit: () => emitted++, failed });
        stage.push(line);
        stage.push(line + " FAILED");
        stage.push("x" + line);
        stage.finish();
        const ms = performance.now() - start;
        if (ms > BUDGET_MS) {
          slow.push(`${rule.name} on ${JSON.stringify(shape)}: ${ms.toFixed(0)} ms`);
        }
      }
    }
  }
  expect(slow).toEqual([]);
});
