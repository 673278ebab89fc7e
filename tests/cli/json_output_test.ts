// The JSON shapes for scripts: message boundaries around text deltas, one result object per turn.
import { expect } from "expect";
import { JsonTurnWriter } from "../../src/cli/json_output.ts";

function capture() {
  const w = { text: "", isTerminal: false, write: (t: string) => void (w.text += t) };
  return w;
}

const lines = (text: string) => text.trim().split("\n").map((l) => JSON.parse(l));

Deno.test("stream-json: text deltas framed by message_start/message_end, then the result", () => {
  const out = capture();
  let clock = 1000;
  const w = new JsonTurnWriter(out, "stream-json", () => clock);
  w.begin();
  w.event({ type: "text", text: "Let " });
  w.event({ type: "text", text: "me look." });
  w.event({ type: "usage", usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 4 } });
  w.event({
    type: "tool_start",
    callId: "c1",
    tool: "read",
    kind: "read",
    input: {},
    subjects: [],
  });
  w.event({ type: "text", text: "Done." });
  w.event({ type: "usage", usage: { inputTokens: 20, outputTokens: 1 } });
  w.event({ type: "turn_end", stopReason: "end_turn" });
  clock = 1250;
  w.end("end_turn", "conv-1");
  expect(lines(out.text).map((e) => e.type)).toEqual([
    "message_start",
    "text",
    "text",
    "message_end",
    "usage",
    "tool_start",
    "message_start",
    "text",
    "message_end",
    "usage",
    "turn_end",
    "result",
  ]);
  expect(lines(out.text)[3]).toEqual({
    type: "message_end",
    role: "assistant",
    text: "Let me look.",
  });
  expect(lines(out.text).at(-1)).toEqual({
    type: "result",
    is_error: false,
    stop_reason: "end_turn",
    exit_code: 0,
    result: "Done.",
    conversation_id: "conv-1",
    usage: { input_tokens: 30, output_tokens: 3, cache_read_tokens: 4 },
    duration_ms: 250,
  });
});

Deno.test("json: only the result; a cut-short turn is an error with its notice and exit code", () => {
  const out = capture();
  const w = new JsonTurnWriter(out, "json", () => 0);
  w.begin();
  w.event({ type: "text", text: "Working." });
  w.event({ type: "notice", level: "warn", code: "max_iterations", message: "Stopped after 1." });
  w.event({ type: "turn_end", stopReason: "max_iterations" });
  w.end("max_iterations", null);
  expect(lines(out.text)).toEqual([{
    type: "result",
    is_error: true,
    stop_reason: "max_iterations",
    exit_code: 3,
    result: "Working.",
    conversation_id: null,
    usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0 },
    duration_ms: 0,
    error: "Stopped after 1.",
  }]);
  // A second turn starts from zero.
  w.begin();
  w.event({ type: "text", text: "Again." });
  w.end("end_turn", "c");
  expect(lines(out.text)[1]).toMatchObject({ result: "Again.", is_error: false });
  expect(lines(out.text)[1].error).toBeUndefined();
});
