// A wrapper that reads what a strategy emits (`_directory.ts`; `_scopes.ts` alike) sees every line,
// also when the strategy hands its lines on as a whole array (`emitLines`) and the context it was
// given could take arrays.
import { expect } from "expect";
import { sayingDirectoryOnce } from "../../../src/filter/strategies/_directory.ts";
import { type CompiledStrategy, emitLines, type StageContext } from "../../../src/filter/types.ts";

/** A strategy that holds its input and emits it in `finish` through `emitLines`. */
const holding: CompiledStrategy = {
  type: "holding",
  createStage(ctx) {
    const held: string[] = [];
    return {
      push: (line) => void held.push(line),
      finish() {
        emitLines(ctx, held);
        return "full";
      },
    };
  },
};

/** Runs `strategy` with a context that takes arrays, as the engine gives the last rule. */
function run(strategy: CompiledStrategy, input: string[], failed: boolean): string[] {
  const out: string[] = [];
  const ctx: StageContext = {
    emit: (line) => void out.push(line),
    emitAll: (lines) => void out.push(...lines),
    failed,
  };
  const stage = strategy.createStage(ctx);
  for (const line of input) stage.push(line);
  stage.finish();
  return out;
}

Deno.test("directory wrapper: the directory said once covers lines handed on as an array", () => {
  const input = [
    "/home/me/app/test/a_test.rb:12: failed",
    "/home/me/app/test/b_test.rb:3: failed",
    "/home/me/app/test/c_test.rb:9: failed",
  ];
  const out = run(sayingDirectoryOnce(holding), input, true);
  expect(out[0]).toContain("/home/me/app/test/");
  expect(out.slice(1)).toEqual([
    "a_test.rb:12: failed",
    "b_test.rb:3: failed",
    "c_test.rb:9: failed",
  ]);
});
