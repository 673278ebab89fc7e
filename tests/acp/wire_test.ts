import { expect } from "expect";
import * as path from "node:path";
import { connect, newSession, prompt, spawnAcp, validateTraffic, workspace } from "./_client.ts";

/** Writes raw lines to `zeph acp` and collects what it answers, one JSON message per line. */
async function raw(lines: string[], expected: number, extraEnv: Record<string, string> = {}) {
  const ws = await workspace([{ text: "hello" }]);
  const child = spawnAcp(ws, { env: extraEnv });
  const writer = child.stdin.getWriter();
  const out: Record<string, unknown>[] = [];
  const garbage: string[] = [];
  const reading = (async () => {
    let buf = "";
    for await (const t of child.stdout.pipeThrough(new TextDecoderStream())) {
      buf += t;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          out.push(JSON.parse(line));
        } catch {
          garbage.push(line);
        }
      }
    }
  })();
  for (const line of lines) await writer.write(new TextEncoder().encode(line + "\n"));
  for (let i = 0; i < 500 && out.length < expected; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await writer.close();
  const status = await child.status;
  await reading;
  const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  return { out, garbage, status, stderr };
}

const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: 1, clientCapabilities: {} },
});

Deno.test("acp wire: malformed input gets the JSON-RPC error of the spec and the agent keeps serving", async () => {
  const huge = JSON.stringify({
    jsonrpc: "2.0",
    id: 9,
    method: "initialize",
    params: { protocolVersion: 1, pad: "x".repeat(17 * 1024 * 1024) },
  });
  const { out, garbage, status } = await raw([
    init,
    "this is not json",
    "[1, 2]",
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/bogus", params: {} }),
    JSON.stringify({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { prompt: "hi" } }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 4,
      method: "session/prompt",
      params: { sessionId: "no-such-session", prompt: [{ type: "text", text: "hi" }] },
    }),
    huge,
    JSON.stringify({ jsonrpc: "2.0", id: 5, method: "session/list", params: {} }),
  ], 8);
  expect(garbage).toEqual([]);
  expect(status.code).toBe(0);
  const byId = (id: unknown) => out.find((m) => m.id === id) as { error?: { code: number } };
  const nullIdErrors = out.filter((m) => m.id === null).map((
    m,
  ) => (m.error as { code: number; message: string }));
  expect(byId(1)).toMatchObject({ result: { protocolVersion: 1 } });
  expect(nullIdErrors.map((e) => e.code).sort()).toEqual([-32700, -32600, -32600].sort());
  expect(nullIdErrors.some((e) => /exceeds the \d+ byte limit/.test(e.message))).toBe(true);
  expect(byId(2).error?.code).toBe(-32601);
  expect(byId(3).error?.code).toBe(-32602);
  expect(byId(4).error?.code).toBe(-32002);
  // Still serving after all of it.
  expect(byId(5)).toMatchObject({ result: { sessions: [] } });
});

Deno.test("acp wire: stdout carries only protocol messages, even with debug logging on", async () => {
  const { out, garbage } = await raw([init], 1, { ZEPH_LOG: "debug", RUST_LOG: "debug" });
  expect(garbage).toEqual([]);
  expect(out[0]).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
});

Deno.test("acp: session/load replays the stored history as updates before its response", async () => {
  const ws = await workspace([
    { text: "Listing.", tool_calls: [{ id: "l1", name: "list_directory", input: { path: "." } }] },
    { text: "One file." },
  ]);
  await Deno.writeTextFile(path.join(ws.dir, "f.txt"), "x");
  const first = await connect({ ws });
  let sessionId: string;
  try {
    sessionId = await newSession(first, ws.dir);
    expect(await prompt(first, sessionId, "what is here?")).toBe("end_turn");
  } finally {
    await first.close();
  }
  const second = await connect({ ws });
  try {
    const { methods } = await import("@agentclientprotocol/sdk");
    await second.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: ws.dir,
      mcpServers: [],
    });
    const kinds = second.updates.filter((u) => u.sessionId === sessionId).map((u) =>
      u.update.sessionUpdate
    );
    expect(kinds).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "agent_message_chunk",
    ]);
    const loadReq = second.traffic.toAgent.find((m) => m.method === "session/load")!;
    const respAt = second.traffic.fromAgent.findIndex((m) => m.id === loadReq.id && "result" in m);
    const lastUpdate = second.traffic.fromAgent.findLastIndex((m) => m.method === "session/update");
    expect(lastUpdate).toBeLessThan(respAt);
    // Unknown ids are refused with session-not-found.
    await expect(
      second.agent.request(methods.agent.session.load, {
        sessionId: "00000000-0000-4000-8000-000000000000",
        cwd: ws.dir,
        mcpServers: [],
      }),
    ).rejects.toMatchObject({ code: -32002 });
    expect(validateTraffic(second.traffic)).toEqual([]);
  } finally {
    await second.close();
  }
});
