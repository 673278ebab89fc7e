import * as acp from "@agentclientprotocol/sdk";
import { expect } from "expect";
import * as path from "node:path";
import {
  connect,
  newSession,
  prompt,
  type Session,
  validateTraffic,
  workspace,
} from "./_client.ts";

/** Kinds of updates for one session, in arrival order. */
function kinds(s: Session): string[] {
  return s.updates.map((u) => u.update.sessionUpdate);
}

/** The index of the prompt response in the agent's stdout. */
function responseIndex(s: Session, requestId: unknown): number {
  return s.traffic.fromAgent.findIndex((m) => m.id === requestId && "result" in m);
}

function assertCleanWire(s: Session) {
  expect(s.traffic.garbage).toEqual([]);
  expect(validateTraffic(s.traffic)).toEqual([]);
}

Deno.test("acp: initialize is the first stdout line; a prompt streams text and a tool call before its response", async () => {
  const ws = await workspace([
    { text: "Reading it.", tool_calls: [{ id: "c1", name: "read", input: { path: "a.txt" } }] },
    { text: "It says hello." },
  ]);
  await Deno.writeTextFile(path.join(ws.dir, "a.txt"), "hello\n");
  const s = await connect({ ws });
  try {
    expect(s.traffic.fromAgent[0]).toMatchObject({ id: 0, result: { protocolVersion: 1 } });
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "what does a.txt say?")).toBe("end_turn");
    const calls = s.updates.filter((u) => u.update.sessionUpdate === "tool_call");
    const finals = s.updates.filter((u) => u.update.sessionUpdate === "tool_call_update");
    expect(calls.length).toBe(1);
    expect(finals.length).toBe(1);
    const call = calls[0].update as acp.ToolCall & { sessionUpdate: string };
    const done = finals[0].update as acp.ToolCallUpdate & { sessionUpdate: string };
    expect(call).toMatchObject({
      title: "Read a.txt",
      kind: "read",
      status: "in_progress",
      rawInput: { path: "a.txt" },
      locations: [{ path: path.join(ws.dir, "a.txt") }],
    });
    expect(call.toolCallId).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.toolCallId).toBe(call.toolCallId);
    expect(done.status).toBe("completed");
    expect(JSON.stringify(done.content)).toContain("hello");
    // Every update of the turn precedes the prompt response.
    const promptReq = s.traffic.toAgent.find((m) => m.method === "session/prompt")!;
    const respAt = responseIndex(s, promptReq.id);
    const lastUpdateAt = s.traffic.fromAgent.findLastIndex((m) => m.method === "session/update");
    expect(lastUpdateAt).toBeLessThan(respAt);
    const text = s.updates
      .filter((u) => u.update.sessionUpdate === "agent_message_chunk")
      .map((u) => ((u.update as { content: { text: string } }).content.text))
      .join("");
    expect(text).toContain("It says hello.");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: available_commands_update comes after the session/new response", async () => {
  const ws = await workspace([{ text: "unused" }]);
  const s = await connect({ ws });
  try {
    await newSession(s, ws.dir);
    // Give the deferred notification time to arrive.
    for (let i = 0; i < 50 && !kinds(s).includes("available_commands_update"); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const newReq = s.traffic.toAgent.find((m) => m.method === "session/new")!;
    const respAt = responseIndex(s, newReq.id);
    const updAt = s.traffic.fromAgent.findIndex((m) =>
      m.method === "session/update" &&
      (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate ===
        "available_commands_update"
    );
    expect(respAt).toBeGreaterThan(0);
    expect(updAt).toBeGreaterThan(respAt);
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});
