import { expect } from "expect";
import {
  ContextBudget,
  DoomLoopDetector,
  estimateMessageTokens,
  estimateRequestTokens,
  estimateTokens,
  stableJson,
  ToolQuota,
} from "../../src/agent/limits.ts";
import type { Message } from "../../src/provider/types.ts";

Deno.test("token estimate: chars / 4 rounded up, plus structural overheads", () => {
  expect([
    estimateTokens(""),
    estimateTokens("abc"),
    estimateTokens("abcd"),
    estimateTokens("abcde"),
  ])
    .toEqual([0, 1, 1, 2]);
  const message: Message = {
    role: "assistant",
    parts: [
      { type: "text", text: "x".repeat(40) }, // 10
      { type: "tool_call", id: "c1", name: "read", input: { path: "a" } }, // 20 + ceil(18/4)=5
    ],
  };
  expect(estimateMessageTokens(message)).toBe(4 + 10 + 25);
  const result: Message = {
    role: "user",
    parts: [{ type: "tool_result", callId: "c1", text: "y".repeat(38), isError: false }],
  };
  expect(estimateMessageTokens(result)).toBe(4 + 15 + 10);
  expect(estimateRequestTokens({
    system: "s".repeat(8),
    tools: [{ name: "read", description: "d", inputSchema: {} }], // "readd{}" = 7 chars → 2
    messages: [message, result],
  })).toBe(2 + 2 + 39 + 29);
});

Deno.test("ContextBudget: the ratio limit, and measured usage when larger", () => {
  const budget = new ContextBudget(1000, 0.8);
  expect(budget.limit).toBe(800);
  expect([budget.exceeded(799), budget.exceeded(800)]).toEqual([false, true]);
  const m = (text: string): Message => ({ role: "user", parts: [{ type: "text", text }] });
  const request = { system: "", tools: [], messages: [m("hi")] };
  expect(budget.estimate(request)).toBe(5);
  budget.recordUsage(700, 1);
  const later = { system: "", tools: [], messages: [m("hi"), m("a"), m("x".repeat(400))] };
  // 700 measured for [hi + its answer], then the third message estimated (4 + 100).
  expect(budget.estimate(later)).toBe(804);
  budget.reset();
  expect(budget.estimate(later)).toBe(5 + 5 + 104);
});

Deno.test("DoomLoopDetector: N identical iterations in a row", () => {
  const doom = new DoomLoopDetector(3);
  const same = [{ tool: "bash", text: "error" }];
  expect([doom.record(same), doom.record(same)]).toEqual([false, false]);
  expect(doom.record([{ tool: "bash", text: "other" }])).toBe(false);
  expect([doom.record(same), doom.record(same), doom.record(same)]).toEqual([false, false, true]);
  doom.reset();
  expect(doom.record(same)).toBe(false);
});

Deno.test("stableJson: object keys sorted at every level, arrays kept in order", () => {
  expect(stableJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 2 } })).toBe(
    '{"a":{"c":2,"d":[1,{"y":2,"z":1}]},"b":1}',
  );
});

Deno.test("ToolQuota: counted per batch, refused once reached, 0 = unlimited", () => {
  const q = new ToolQuota(3);
  expect([q.admit(2), q.used]).toEqual([true, 2]);
  expect([q.admit(5), q.used]).toEqual([true, 7]);
  expect([q.admit(1), q.used]).toEqual([false, 7]);
  q.reset();
  expect([q.admit(1), q.used]).toEqual([true, 1]);
  const unlimited = new ToolQuota(0);
  for (let i = 0; i < 100; i++) unlimited.admit(10);
  expect(unlimited.admit(1)).toBe(true);
});
