/** `zeph filter --explain`: which rule and stage removed or added which lines. */
import { expect } from "expect";
import { compileRule, explainFilter, FilterEngine } from "../../src/filter/mod.ts";

Deno.test("explain names each stage with the lines it removed and added", () => {
  const rules = [
    compileRule({
      name: "noise",
      match: { prefix: "tool" },
      strategy: { type: "strip_noise", patterns: ["^progress"] },
    }, "t"),
    compileRule({
      name: "logs",
      match: { prefix: "tool" },
      strategy: { type: "dedup", normalize_patterns: [] },
    }, "t"),
  ];
  const engine = new FilterEngine(rules, { security: false });
  const raw = "progress 1\nsame\n\n\n\nsame\nprogress 2\nsame\nerror: boom";
  expect(explainFilter(engine, "tool run", raw, { failed: true })).toEqual([
    "sanitize: 9 lines in, 7 out, 2 removed, 0 added (confidence full)",
    "  - ",
    "  - ",
    "rule noise (strip_noise): 7 lines in, 5 out, 2 removed, 0 added (confidence full)",
    "  - progress 1",
    "  - progress 2",
    "rule logs (dedup): 5 lines in, 4 out, 3 removed, 2 added (confidence full)",
    "  - same",
    "  - same",
    "  - same",
    "  + same (x3)",
    "  + (3 unique lines of 5)",
  ]);
});

Deno.test("explain shows the generic pass for a command no rule matches", () => {
  const engine = new FilterEngine([], { security: false });
  const lines = explainFilter(engine, "mytool", "a\na\na\nb");
  expect(lines.slice(1)).toEqual([
    "generic: 4 lines in, 2 out, 3 removed, 1 added (confidence partial)",
    "  - a",
    "  - a",
    "  - a",
    "  + a (x3)",
  ]);
  const off = new FilterEngine([], { security: false, generic: false });
  expect(explainFilter(off, "mytool", "a")[0]).toBe(
    'no rule matches "mytool" and the generic pass is off',
  );
});
