import { expect } from "expect";
import { harness, ofType } from "../agent/_harness.ts";
import { MemoryStore } from "../../src/store/mod.ts";
import { updatePlanTool } from "../../src/tools/update_plan.ts";

const call = (id: string, input: unknown) => ({ id, name: "update_plan", input });
const PLAN = [
  { content: "Find the failing test", status: "completed" },
  { content: "Fix the parser", status: "in_progress", priority: "high" },
  { content: "Run the tests", status: "pending" },
];
const STORED = [
  { content: "Find the failing test", status: "completed", priority: "medium" },
  { content: "Fix the parser", status: "in_progress", priority: "high" },
  { content: "Run the tests", status: "pending", priority: "medium" },
];

Deno.test("update_plan: the model reads the plan back; the loop emits it and stores it with the conversation", async () => {
  const store = new MemoryStore();
  await using h = await harness({
    tools: [updatePlanTool],
    turns: [{ tool_calls: [call("p1", { entries: PLAN })] }, { text: "Planned." }],
    session: { store },
  });
  expect(await h.session.prompt("fix it", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(h.provider.requests[1].messages.at(-1)!.parts).toEqual([{
    type: "tool_result",
    callId: "p1",
    isError: false,
    text: "Plan updated: 3 entries (1 completed, 1 in progress, 1 pending).\n" +
      "[x] Find the failing test\n[~] Fix the parser (high)\n[ ] Run the tests",
  }]);
  expect(ofType(h.events, "plan")).toEqual([{ type: "plan", entries: STORED }]);
  expect(h.session.plan).toEqual(STORED);
  expect(store.loadPlan(h.session.conversationId!)).toEqual(STORED);
  h.session.clear();
  expect(h.session.plan).toEqual([]);
});

Deno.test("update_plan: a second in_progress entry, an empty entry, unknown fields are refused; nothing is stored", async () => {
  const store = new MemoryStore();
  const twoActive = [
    { content: "A", status: "in_progress" },
    { content: "B", status: "in_progress" },
  ];
  await using h = await harness({
    tools: [updatePlanTool],
    turns: [
      {
        tool_calls: [
          call("p1", { entries: twoActive }),
          call("p2", { entries: [{ content: "  ", status: "pending" }] }),
          call("p3", { entries: [{ content: "A", status: "done" }] }),
        ],
      },
      { text: "ok" },
    ],
    session: { store },
  });
  expect(await h.session.prompt("plan", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  const texts = h.provider.requests[1].messages.at(-1)!.parts.map((p) =>
    p.type === "tool_result" ? p.text.split("\n").slice(0, 3).join("\n") : ""
  );
  expect(texts[0]).toBe(
    "[tool_error]\ncategory: invalid_parameters\n" +
      'error: Cannot update the plan: 2 entries are in_progress ("A", "B"); at most one may be',
  );
  expect(texts[1]).toContain("entries.0.content");
  expect(texts[2]).toContain("entries.0.status");
  expect(ofType(h.events, "plan")).toEqual([]);
  expect(store.loadPlan(h.session.conversationId!)).toEqual([]);
});

Deno.test("update_plan: an empty list clears the plan; a resumed session starts from the stored plan", async () => {
  const store = new MemoryStore();
  const id = store.createConversation();
  store.savePlan(id, STORED as never);
  await using h = await harness({
    tools: [updatePlanTool],
    turns: [{ tool_calls: [call("p1", { entries: [] })] }, { text: "Cleared." }],
    session: { store, conversationId: id, plan: store.loadPlan(id) },
  });
  expect(h.session.plan).toEqual(STORED);
  expect(await h.session.prompt("drop the plan", { sink: (e) => h.events.push(e) })).toBe(
    "end_turn",
  );
  expect(ofType(h.events, "plan")).toEqual([{ type: "plan", entries: [] }]);
  expect(store.loadPlan(id)).toEqual([]);
  const result = h.provider.requests[1].messages.at(-1)!.parts[0];
  expect(result).toMatchObject({ text: "Plan cleared.", isError: false });
});
