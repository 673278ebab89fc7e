/**
 * Every built-in rule, fed long pathological lines (100k characters of one symbol, of `:`, of
 * spaces, and short repeated shapes), finishes each within a generous time budget: no line may
 * make a built-in pattern superlinear.
 */
import { fastestMs } from "../_support/timing.ts";
import { expect } from "expect";
import { BUILTIN_FILTERS_DIR, loadBuiltinRules } from "../../src/filter/mod.ts";

const LENGTH = 100_000;
const SHAPES = [
  ...["a", ":", " ", "-", "=", ".", "/", "#", "\t", "0", "\\", "x::", ":a", "a ", "= ", "::"],
  // Pieces of the rules' own shapes, repeated: each is a near miss on every split.
  ...["-- ", "_ ", "ok ", "= passed in 1s ", "test ", " ... ", "at ", ":1:2 ", "(1,2) ", "| "],
  ...["a:1: ", "error ", "--> ", "FAIL ", "✓ ", "[a] ", '{"a":', "0x", "a=1 "],
  // Toolchain shapes: BuildKit steps with their timing, nextest lines, carets, stat and XCTest.
  ...["=> a  ", " 0.1s", "^~", "FAIL [ 0.1s] ", "Size: 1 ", "Uid: ( 1/ a) ", "Test Case '"],
  // The native, network, packaging and database rules' shapes: valgrind's prefix and frames,
  // curl's headers, openssl's hex, apt's lines, cmake's progress, ctest's results, psql's errors.
  ...[
    "==1== ",
    "by 0x1: a (",
    "< a: ",
    "* ",
    " 0a:",
    "Inst a (",
    "Get:1 ",
    "[ 1%] ",
    "1/2 Test #1: ",
  ],
  ...["psql:a:1: ", "(in /usr/", "E: "],
  // Paths: one path of 50k directories, and many short ones.
  ...["/a", "/a/b "],
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
        const ms = fastestMs(() => {
          const stage = rule.strategy.createStage({ emit: () => {}, failed });
          stage.push(line);
          stage.push(line + " FAILED");
          stage.push("x" + line);
          stage.finish();
        }, BUDGET_MS);
        if (ms > BUDGET_MS) {
          slow.push(`${rule.name} on ${JSON.stringify(shape)}: ${ms.toFixed(0)} ms`);
        }
      }
    }
  }
  expect(slow).toEqual([]);
});

Deno.test("every built-in rule takes an 8 MiB line of letters, of `a:`, of `/a` or of spaces without overflowing V8's regex stack", async () => {
  // A repeated group costs V8 a backtracking entry per turn: one turn per character runs out of
  // stack on a line of a few million characters (a minified bundle, a base64 blob).
  const rules = await loadBuiltinRules(BUILTIN_FILTERS_DIR);
  const failures: string[] = [];
  // `/a`: one path of millions of directories (a minitest line, common_directory); spaces: one
  // indentation of millions of units (tree-leaves).
  for (const shape of ["a", "a:", "/a", " "]) {
    const line = shape.repeat((8 << 20) / shape.length);
    for (const rule of rules) {
      try {
        const stage = rule.strategy.createStage({ emit: () => {}, failed: true });
        stage.push(line);
        stage.finish();
      } catch (error) {
        failures.push(`${rule.name} on ${JSON.stringify(shape)}: ${error}`);
      }
    }
  }
  expect(failures).toEqual([]);
});
