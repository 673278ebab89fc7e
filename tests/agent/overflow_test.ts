// The loop with the real SQLite store, overflow hook and read_overflow tool: a big output is
// offloaded, the model pages it back by id; another conversation cannot read it; the transcript
// is persisted as it happens.
import { expect } from "expect";
import { checkProtocol } from "../../src/provider/script.ts";
import type { ChatRequest, ChatResponse, Provider } from "../../src/provider/types.ts";
import { readOverflowTool } from "../../src/tools/read_overflow.ts";
import { bigOutputTool, storeWorkspace } from "../_support/scripted.ts";

const BIG = Array.from({ length: 12_000 }, (_, i) => `line ${i} ${"x".repeat(i % 7)}`).join("\n");

/** A model whose turns are functions of the request (so it can quote the overflow id back). */
class FnProvider implements Provider {
  readonly name = "fn";
  readonly model = "fn";
  readonly supportsToolUse = true;
  requests: ChatRequest[] = [];
  constructor(private turns: ((r: ChatRequest) => Partial<ChatResponse>)[]) {}
  chat(request: ChatRequest): Promise<ChatResponse> {
    checkProtocol(request.messages, this.requests.length + 1);
    this.requests.push(request);
    const turn = this.turns.shift();
    if (!turn) throw new Error("unscripted turn");
    return Promise.resolve({ text: "", toolCalls: [], stopReason: "end_turn", ...turn(request) });
  }
}

function lastResults(r: ChatRequest): string[] {
  return r.messages.at(-1)!.parts.flatMap((p) => p.type === "tool_result" ? [p.text] : []);
}

function overflowId(text: string): string {
  const m = /overflow:([0-9a-f-]{36})/.exec(text);
  if (!m) throw new Error(`no overflow id in: ${text.slice(0, 200)}`);
  return m[1];
}

Deno.test("overflow round trip: a big output is offloaded and paged back by the model", async () => {
  await using ws = await storeWorkspace([bigOutputTool(BIG), readOverflowTool]);
  const { store } = ws;
  const pages: string[] = [];
  let id = "";
  const half = Math.ceil(BIG.length / 2);
  const provider = new FnProvider([
    () => ({ toolCalls: [{ id: "b1", name: "big", input: {} }] }),
    (r) => {
      id = overflowId(lastResults(r)[0]);
      return {
        toolCalls: [{ id: "r1", name: "read_overflow", input: { id, offset: 0, limit: half } }],
      };
    },
    (r) => {
      pages.push(lastResults(r)[0]);
      return {
        toolCalls: [{
          id: "r2",
          name: "read_overflow",
          input: { id: `overflow:${id}`, offset: half, limit: half },
        }],
      };
    },
    (r) => {
      pages.push(lastResults(r)[0]);
      return { text: "read it all" };
    },
  ]);
  const session = ws.session(provider);
  expect(await session.prompt("show me", { sink: () => {} })).toBe("end_turn");
  const firstResult = lastResults(provider.requests[1])[0];
  expect(firstResult.length).toBeLessThan(BIG.length);
  expect(firstResult.startsWith(BIG.slice(0, 1000))).toBe(true);
  // Each page is the stored text itself (plus the tool's paging note, if any, at the end).
  expect(pages[0].startsWith(BIG.slice(0, half))).toBe(true);
  expect(pages[1].startsWith(BIG.slice(half))).toBe(true);
  expect(BIG.slice(0, half) + BIG.slice(half)).toBe(BIG);

  // The transcript was persisted as it happened, message by message.
  expect(store.loadMessages(session.conversationId!)).toEqual(session.messages);
  expect(session.messages.length).toBe(8);

  // Another conversation cannot read the entry: same answer as for an id that never existed.
  const other = new FnProvider([
    () => ({
      toolCalls: [
        { id: "x1", name: "read_overflow", input: { id } },
        { id: "x2", name: "read_overflow", input: { id: crypto.randomUUID() } },
      ],
    }),
    () => ({ text: "not found" }),
  ]);
  const second = ws.session(other);
  expect(await second.prompt("peek", { sink: () => {} })).toBe("end_turn");
  expect(second.conversationId).not.toBe(session.conversationId);
  const [stolen, missing] = lastResults(other.requests[1]);
  expect(stolen).toContain("category: permanent_failure");
  expect(stolen.replace(id, "<id>")).toBe(missing.replace(/[0-9a-f-]{36}/, "<id>"));
});
