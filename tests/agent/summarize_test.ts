// `[tools] summarize_output` through the real loop, store and overflow hook: the model reads its
// own summary of a long output (with the overflow reference), the full output is stored, and a
// failed summary request falls back to the head + tail cut and says so.
import { expect } from "expect";
import { MAX_SUMMARY_INPUT_CHARS } from "../../src/agent/summarize.ts";
import type { Config } from "../../src/config/schema.ts";
import { bigOutputTool, scriptedProvider, storeWorkspace } from "../_support/scripted.ts";

const BIG = Array.from({ length: 5_000 }, (_, i) => `test ${i} ok`).join("\n") +
  "\nFAILED tests/auth_test.ts: expected 200, got 500";

async function run(
  output: string,
  turns: Record<string, unknown>[],
  configure: (c: Config) => void,
) {
  const ws = await storeWorkspace([bigOutputTool(output)], configure);
  const provider = scriptedProvider(turns, "summarize.jsonl");
  const session = ws.session(provider, { random: () => 0 });
  const stop = await session.prompt("run the tests", { sink: () => {} });
  const result = (i: number) => {
    const part = provider.requests[i].messages.at(-1)!.parts[0];
    return part.type === "tool_result" ? part.text : "";
  };
  return {
    stop,
    provider,
    result,
    stored: (id: string) => ws.store.loadOverflow(id, session.conversationId!),
    [Symbol.asyncDispose]: () => ws[Symbol.asyncDispose](),
  };
}

const callBig = { tool_calls: [{ id: "b1", name: "big", input: {} }] };
const overflowIdOf = (text: string) => /overflow:([0-9a-f-]{36})/.exec(text)?.[1] ?? "";

Deno.test("summarize_output: the model reads a summary and the overflow reference; the full output is stored", async () => {
  await using r = await run(BIG, [
    callBig,
    { text: "5000 tests passed; 1 failed: tests/auth_test.ts expected 200, got 500" },
    { text: "One test fails." },
  ], (c) => (c.tools.summarize_output = true));
  // Over the overflow threshold, under the summary input limit: sent whole.
  expect(BIG.length > 50_000 && BIG.length < MAX_SUMMARY_INPUT_CHARS).toBe(true);
  expect(r.stop).toBe("end_turn");
  expect(r.provider.requests.length).toBe(3);
  // Request 1 is the summary request: no tools, the instruction, the whole output.
  const ask = r.provider.requests[1];
  expect(ask.tools).toEqual([]);
  expect(ask.system).toContain("Summarise the tool output below");
  expect(ask.messages).toEqual([{
    role: "user",
    parts: [{ type: "text", text: `Output of the big tool:\n\n${BIG}` }],
  }]);
  const text = r.result(2);
  const id = overflowIdOf(text);
  expect(text).toBe(
    `[Summary of the full output (${BIG.length} chars), written by the model]\n` +
      "5000 tests passed; 1 failed: tests/auth_test.ts expected 200, got 500\n\n" +
      `[Full output stored as overflow:${id} (${BIG.length} bytes). ` +
      `Use read_overflow with id "${id}" (and offset/limit) to read it.]`,
  );
  expect(r.stored(id)).toBe(BIG);
});

Deno.test("summarize_output: a failed summary request falls back to the head + tail cut and says why", async () => {
  await using r = await run(BIG, [
    callBig,
    { error: { status: 400, message: "context too long" } },
    { text: "ok" },
  ], (c) => (c.tools.summarize_output = true));
  expect(r.stop).toBe("end_turn");
  const text = r.result(2);
  expect(text.startsWith(BIG.slice(0, 20_000))).toBe(true);
  expect(text).toContain(`[Full output stored as overflow:${overflowIdOf(text)}`);
  expect(text).toMatch(
    /\[summarize_output: the summary request failed \(.*context too long.*\); the first and last part are shown instead\.\]$/,
  );
  expect(r.stored(overflowIdOf(text))).toBe(BIG);
});

Deno.test("summarize_output off (the default), or an output under the threshold: no summary request", async () => {
  await using off = await run(BIG, [callBig, { text: "ok" }], () => {});
  expect(off.provider.requests.length).toBe(2);
  expect(off.result(1)).not.toContain("[Summary of the full output");
  expect(off.result(1)).toContain("[Full output stored as overflow:");

  await using small = await run("short", [callBig, { text: "ok" }], (c) => {
    c.tools.summarize_output = true;
  });
  expect(small.provider.requests.length).toBe(2);
  expect(small.result(1)).toBe("short");
});

Deno.test("summarize_output: an output larger than the summary input limit is sent as head and tail", async () => {
  const huge = "h".repeat(MAX_SUMMARY_INPUT_CHARS) + "MIDDLE" + "t".repeat(MAX_SUMMARY_INPUT_CHARS);
  await using r = await run(huge, [callBig, { text: "summary" }, { text: "ok" }], (c) => {
    c.tools.summarize_output = true;
    c.tools.overflow.max_overflow_bytes = 0;
  });
  const part = r.provider.requests[1].messages[0].parts[0];
  const sent = part.type === "text" ? part.text : "";
  expect(sent).not.toContain("MIDDLE");
  expect(sent).toContain(`[… ${huge.length - MAX_SUMMARY_INPUT_CHARS} characters left out …]`);
  expect(sent.length).toBeLessThan(MAX_SUMMARY_INPUT_CHARS + 200);
  expect(r.result(2)).toContain("summary");
});
