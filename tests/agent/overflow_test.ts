// The loop with the real SQLite store, overflow hook and read_overflow tool: a big output is
// offloaded, the model pages it back by id; another conversation cannot read it; the transcript
// is persisted as it happens.
import { expect } from "expect";
import * as path from "node:path";
import { z } from "zod";
import { AgentSession } from "../../src/agent/session.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { checkProtocol } from "../../src/provider/script.ts";
import type { ChatRequest, ChatResponse, Provider } from "../../src/provider/types.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { openStore } from "../../src/store/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { readOverflowTool } from "../../src/tools/read_overflow.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { overflowHook } from "../_support/hooks.ts";

const BIG = Array.from({ length: 12_000 }, (_, i) => `line ${i} ${"x".repeat(i % 7)}`).join("\n");

const bigTool = defineTool({
  name: "big",
  description: "Prints a lot.",
  params: z.object({}).strict(),
  mutates: false,
  kind: "execute",
  group: "command",
  invocation: { type: "call" },
  subjects: () => [],
  execute: () => Promise.resolve({ text: BIG }),
});

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
  const dir = await Deno.makeTempDir({ prefix: "zeph-agent-overflow-" });
  const store = openStore(path.join(dir, "zeph.db"));
  try {
    const config = defaultConfig();
    const sandbox = await Sandbox.create(dir);
    const registry = new ToolRegistry({
      tools: [bigTool, readOverflowTool],
      executor: new LocalExecutor(),
      policy: new PermissionPolicy(),
      config,
      deps: { overflow: store },
    });
    registry.addOutputHook(overflowHook(store, config));
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
    const session = new AgentSession({
      provider,
      registry,
      cwd: sandbox.workspace,
      sandbox,
      store,
    });
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
    const second = new AgentSession({
      provider: other,
      registry,
      cwd: sandbox.workspace,
      sandbox,
      store,
    });
    expect(await second.prompt("peek", { sink: () => {} })).toBe("end_turn");
    expect(second.conversationId).not.toBe(session.conversationId);
    const [stolen, missing] = lastResults(other.requests[1]);
    expect(stolen).toContain("category: permanent_failure");
    expect(stolen.replace(id, "<id>")).toBe(missing.replace(/[0-9a-f-]{36}/, "<id>"));
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
