/**
 * Code frames, runtime stack frames and timings that the build/test rules drop (issue 22): the
 * strip_noise `frame_marks` mechanism, then each rule on the class of output it reads — what goes
 * and, above all, the failure lines that must stay.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";

function run(strategy: Record<string, unknown>, input: string) {
  const rule = compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test");
  const engine = new FilterEngine([rule], { security: false });
  return engine.filter("cmd", input, { failed: true }).text;
}

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, input: string, failed = true) =>
  engine.filter(command, input, { failed }).text;

Deno.test("frame_marks: a mark line goes with the source line above it", () => {
  const s = { type: "strip_noise", patterns: ["^noise$"], frame_marks: ["^\\s*\\^+$"] };
  expect(run(s, "error: boom\n  let x = y;\n          ^\n  at a.ts:1:11")).toBe(
    "error: boom\n  at a.ts:1:11",
  );
  // Only the line right above: a line dropped as noise in between ends the frame.
  expect(run(s, "  let x = y;\nnoise\n   ^\nend")).toBe("  let x = y;\nend");
  // A line naming a location is the diagnostic, not a copy of the source: it stays.
  expect(run(s, "a.ts:3:5: unexpected token\n    ^\nend")).toBe(
    "a.ts:3:5: unexpected token\nend",
  );
  // A mark on the first line, and a source line that ends the output.
  expect(run(s, "  ^\nlast line")).toBe("last line");
  expect(run(s, "first\nlast")).toBe("first\nlast");
  expect(() =>
    compileRule(
      { name: "t", match: { prefix: "cmd" }, strategy: { ...s, frame_marks: ["("] } },
      "test",
    )
  )
    .toThrow(/strategy\.frame_marks/);
});
