import { expect } from "expect";
import { renderPlan } from "../../src/cli/plan_view.ts";
import type { PlanEntry } from "../../src/store/mod.ts";

const PLAN: PlanEntry[] = [
  { content: "Find the failing test", status: "completed", priority: "medium" },
  { content: "Fix the parser", status: "in_progress", priority: "high" },
  { content: "Run the tests", status: "pending", priority: "low" },
];

Deno.test("renderPlan: ASCII marks without colour, Unicode marks on a terminal", () => {
  expect(renderPlan(PLAN, { unicode: false, color: false })).toBe(
    "Plan (1/3 done)\n" +
      "  [x] Find the failing test\n" +
      "  [~] Fix the parser (high)\n" +
      "  [ ] Run the tests (low)\n",
  );
  expect(renderPlan(PLAN, { unicode: true, color: false })).toBe(
    "Plan (1/3 done)\n" +
      "  ☑ Find the failing test\n" +
      "  ◐ Fix the parser (high)\n" +
      "  ☐ Run the tests (low)\n",
  );
  expect(renderPlan([], { unicode: true, color: false })).toBe("Plan: (cleared)\n");
});

Deno.test("renderPlan: colour only when asked (NO_COLOR leaves it off), same text underneath", () => {
  const painted = renderPlan(PLAN, { unicode: true, color: true });
  expect(painted).toContain("\x1b[1;33m  ◐ Fix the parser (high)\x1b[0m");
  // deno-lint-ignore no-control-regex
  expect(painted.replace(/\x1b\[[0-9;]*m/g, "")).toBe(
    renderPlan(PLAN, { unicode: true, color: false }),
  );
  expect(renderPlan(PLAN, { unicode: true, color: false })).not.toContain("\x1b");
});

Deno.test("renderPlan: long entries wrap under their text within 80 columns (or the terminal's width); control characters are flattened", () => {
  const long: PlanEntry = {
    content: "Refactor the permission policy so that every rule is compiled once " +
      "and matched against normalised subjects " + "x".repeat(120) + "\n\u001b[2Kdone",
    status: "pending",
    priority: "medium",
  };
  for (const width of [200, 80, 40]) {
    const lines = renderPlan([long], { unicode: false, color: false, width }).trimEnd().split("\n");
    expect(lines.every((l) => [...l].length <= Math.min(width, 80))).toBe(true);
    expect(lines.slice(2).every((l) => l.startsWith("      "))).toBe(true);
    expect(lines.join(" ").replace(/\s+/g, "")).toBe(
      ("Plan(0/1done)[]" + long.content.replace("\n\u001b", " ")).replace(/\s+/g, ""),
    );
  }
});
