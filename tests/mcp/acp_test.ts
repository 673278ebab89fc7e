/**
 * MCP over ACP, end to end over real stdio: the editor passes servers in `session/new` (stdio and
 * Streamable HTTP), zeph advertises mcpCapabilities, the session's calls show as tool_call /
 * tool_call_update with a permission request, another session does not see the tools, and the
 * servers stop with the connection.
 */
import * as acp from "@agentclientprotocol/sdk";
import { expect } from "expect";
import { processGroupMembers } from "../../src/exec/mod.ts";
import { connect, prompt, untilUpdate, validateTraffic, workspace } from "../acp/_client.ts";
import { EVERYTHING, FIXTURE, startEverythingHttp } from "./_support.ts";

Deno.test("acp: mcpServers of session/new are started for the session; calls are tool_calls", async () => {
  const http = await startEverythingHttp();
  const ws = await workspace([
    {
      tool_calls: [
        { id: "c1", name: "fixture_spawn", input: {} },
        { id: "c2", name: "every_echo", input: { message: "from acp" } },
      ],
    },
    { text: "done" },
    { text: "other session" },
  ]);
  const s = await connect({
    ws,
    permission: (p) => p.options.find((o) => o.kind === "allow_once")!.optionId,
  });
  let serverPid = 0;
  try {
    const init = s.traffic.fromAgent[0] as { result: acp.InitializeResponse };
    expect(init.result.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
    const { sessionId } = await s.agent.request(acp.methods.agent.session.new, {
      cwd: ws.dir,
      mcpServers: [
        {
          name: "fixture",
          command: Deno.execPath(),
          args: ["run", "-A", "--no-prompt", FIXTURE],
          env: [{ name: "DENO_DIR", value: Deno.env.get("DENO_DIR") ?? "" }],
        },
        { type: "http", name: "every", url: http.url, headers: [] },
      ],
    });
    expect(await prompt(s, sessionId, "use the tools")).toBe("end_turn");
    const calls = s.updates.filter((u) => u.update.sessionUpdate === "tool_call")
      .map((u) => u.update as acp.ToolCall);
    expect(calls.map((c) => [c.kind, c.rawInput])).toEqual([
      ["other", {}],
      ["read", { message: "from acp" }],
    ]);
    const finals = s.updates.filter((u) => u.update.sessionUpdate === "tool_call_update")
      .map((u) => u.update as acp.ToolCallUpdate);
    expect(finals.map((f) => f.status)).toEqual(["completed", "completed"]);
    expect(JSON.stringify(finals[1].content)).toContain("Echo: from acp");
    serverPid = JSON.parse(
      (finals[0].content![0] as { content: { text: string } }).content.text,
    ).server;
    expect(s.permissionRequests.length).toBe(2);

    // Another session has no editor servers: the tools are not offered to it.
    const other = await s.agent.request(acp.methods.agent.session.new, {
      cwd: ws.dir,
      mcpServers: [],
    });
    expect(await prompt(s, other.sessionId, "hi")).toBe("end_turn");
    expect(validateTraffic(s.traffic)).toEqual([]);
  } finally {
    await s.close();
    await http.stop();
  }
  // The stdio server (and the child it spawned) ended with the connection.
  expect(serverPid).toBeGreaterThan(0);
  expect(processGroupMembers(serverPid)).toEqual([]);
});

Deno.test("acp: a failing editor server is reported on stderr; the session goes on", async () => {
  const ws = await workspace([{ text: "still here" }]);
  const s = await connect({ ws });
  try {
    const { sessionId } = await s.agent.request(acp.methods.agent.session.new, {
      cwd: ws.dir,
      mcpServers: [{
        name: "broken",
        command: Deno.execPath(),
        args: ["run", "-A", FIXTURE, "exit-at-start"],
        env: [],
      }, {
        name: "every",
        command: Deno.execPath(),
        args: ["run", "-A", "--no-prompt", EVERYTHING],
        env: [],
      }],
    });
    expect(await prompt(s, sessionId, "hi")).toBe("end_turn");
    expect(s.stderr()).toContain('MCP server "broken" (editor) cannot start');
    expect(s.stderr()).toContain("cannot open the database");
  } finally {
    await s.close();
  }
});

Deno.test("acp: session/cancel during an MCP call sends notifications/cancelled to the server", async () => {
  const dir = await Deno.makeTempDir();
  const cancelFile = `${dir}/cancelled`;
  const ws = await workspace([
    { tool_calls: [{ id: "c1", name: "fx_slow", input: { ms: 20_000 } }] },
    { text: "unreached" },
  ]);
  const s = await connect({
    ws,
    permission: (p) => p.options.find((o) => o.kind === "allow_once")!.optionId,
  });
  try {
    const { sessionId } = await s.agent.request(acp.methods.agent.session.new, {
      cwd: ws.dir,
      mcpServers: [{
        name: "fx",
        command: Deno.execPath(),
        args: ["run", "-A", "--no-prompt", FIXTURE],
        env: [{ name: "FIXTURE_CANCEL_FILE", value: cancelFile }],
      }],
    });
    const turn = prompt(s, sessionId, "wait");
    await untilUpdate(s, "tool_call");
    await new Promise((r) => setTimeout(r, 300));
    await s.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect(await turn).toBe("cancelled");
    const finals = s.updates.filter((u) => u.update.sessionUpdate === "tool_call_update")
      .map((u) => (u.update as acp.ToolCallUpdate).status);
    expect(finals).toEqual(["failed"]);
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      try {
        expect(await Deno.readTextFile(cancelFile)).toBe("cancelled");
        break;
      } catch (error) {
        if (Date.now() + 50 >= deadline) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    await s.close();
    await Deno.remove(dir, { recursive: true });
  }
});
