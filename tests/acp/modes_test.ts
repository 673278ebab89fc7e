// Modes over ACP, end to end over real stdio with the SDK client: availableModes and
// currentModeId in session/new and session/load, session/set_mode (an unknown id is an error),
// current_mode_update on every change, and the model's switch_mode through a permission request.
// Every message the agent sends is validated against the protocol schema.
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

const MODES = [
  { id: "code", name: "Code", description: "Reads, edits, runs commands and fetches: every tool" },
  {
    id: "ask",
    name: "Ask",
    description: "Answers questions: reads files and the web, changes nothing",
  },
  {
    id: "architect",
    name: "Architect",
    description: "Plans and designs: reads everything, edits only Markdown files",
  },
];

function modeUpdates(s: Session): string[] {
  return s.updates
    .map((u) => u.update)
    .filter((u) => u.sessionUpdate === "current_mode_update")
    .map((u) => (u as acp.CurrentModeUpdate).currentModeId);
}

function finals(s: Session): acp.ToolCallUpdate[] {
  return s.updates
    .map((u) => u.update)
    .filter((u) => u.sessionUpdate === "tool_call_update") as acp.ToolCallUpdate[];
}

Deno.test("acp modes: session/new lists the modes; set_mode switches and is confirmed; the next prompt obeys it", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "b1", name: "bash", input: { command: "touch made_by_bash" } }] },
    { text: "Not in this mode." },
  ], '[agent]\ndefault_mode = "code"\n');
  const s = await connect({ ws });
  try {
    const created = await s.agent.request(acp.methods.agent.session.new, {
      cwd: ws.dir,
      mcpServers: [],
    });
    expect(created.modes).toEqual({ currentModeId: "code", availableModes: MODES });
    const sessionId = created.sessionId;
    expect(await s.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "ask" }))
      .toEqual({});
    expect(await prompt(s, sessionId, "make a file")).toBe("end_turn");
    expect(modeUpdates(s)).toEqual(["ask"]);
    const [refused] = finals(s);
    expect(refused.status).toBe("failed");
    expect(JSON.stringify(refused.content)).toContain(
      'Tool \\"bash\\" is not available in mode \\"ask\\". Available tools: read, find_path, grep, ' +
        "list_directory, web_scrape, fetch, read_overflow, update_plan, switch_mode",
    );
    await expect(Deno.stat(path.join(ws.dir, "made_by_bash"))).rejects.toThrow();
    expect(s.traffic.garbage).toEqual([]);
    expect(validateTraffic(s.traffic)).toEqual([]);
  } finally {
    await s.close();
  }
});

Deno.test("acp modes: set_mode with an unknown id is an invalid-params error naming the modes", async () => {
  const ws = await workspace([{ text: "hi" }]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    const error = await s.agent.request(acp.methods.agent.session.setMode, {
      sessionId,
      modeId: "yolo",
    }).then(() => null, (e) => e as acp.RequestError);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain('Unknown mode "yolo"; modes: code, ask, architect');
    expect(modeUpdates(s)).toEqual([]);
    expect(validateTraffic(s.traffic)).toEqual([]);
  } finally {
    await s.close();
  }
});

Deno.test("acp modes: switch_mode asks through session/request_permission, then sends current_mode_update and the new tools", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "s1", name: "switch_mode", input: { mode_slug: "code" } }] },
    { tool_calls: [{ id: "w1", name: "write", input: { path: "a.md", content: "x\n" } }] },
    { text: "Done." },
  ], '[agent]\ndefault_mode = "ask"\n');
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "write a.md")).toBe("end_turn");
    const asked = s.permissionRequests.map((r) => [r.toolCall.kind, r.toolCall.rawInput]);
    expect(asked[0]).toEqual(["switch_mode", { mode_slug: "code" }]);
    expect(modeUpdates(s)).toEqual(["code"]);
    expect(finals(s).map((f) => f.status)).toEqual(["completed", "completed"]);
    expect(await Deno.readTextFile(path.join(ws.dir, "a.md"))).toBe("x\n");
    // The mode update precedes the write's tool call: the switch happened first.
    const order = s.updates.map((u) => u.update.sessionUpdate);
    expect(order.indexOf("current_mode_update")).toBeLessThan(order.lastIndexOf("tool_call"));
    expect(validateTraffic(s.traffic)).toEqual([]);
  } finally {
    await s.close();
  }
});

Deno.test("acp modes: session/load answers with the modes; a user mode from config is listed", async () => {
  const ws = await workspace(
    [{ text: "hi" }],
    '[agent]\ndefault_mode = "docs"\n\n[modes.docs]\nname = "Docs"\ngroups = ["read", "edit"]\n' +
      "file_regex = '\\.md$'\n",
  );
  const s = await connect({ ws });
  try {
    const created = await s.agent.request(acp.methods.agent.session.new, {
      cwd: ws.dir,
      mcpServers: [],
    });
    expect(created.modes?.currentModeId).toBe("docs");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual([
      "code",
      "ask",
      "architect",
      "docs",
    ]);
    expect(await prompt(s, created.sessionId, "hello")).toBe("end_turn");
    const loaded = await s.agent.request(acp.methods.agent.session.load, {
      sessionId: created.sessionId,
      cwd: ws.dir,
      mcpServers: [],
    });
    expect(loaded.modes).toEqual(created.modes);
    expect(validateTraffic(s.traffic)).toEqual([]);
  } finally {
    await s.close();
  }
});

Deno.test("acp modes: the mode is kept with the conversation, so a reconnecting client (acpx) keeps it", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "b1", name: "bash", input: { command: "touch made_by_bash" } }] },
    { text: "Not in this mode." },
  ]);
  const first = await connect({ ws });
  let sessionId = "";
  try {
    sessionId = await newSession(first, ws.dir);
    await first.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "ask" });
  } finally {
    await first.close();
  }
  // A new agent process, as acpx starts for each command.
  const second = await connect({ ws });
  try {
    const loaded = await second.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: ws.dir,
      mcpServers: [],
    });
    expect(loaded.modes?.currentModeId).toBe("ask");
    expect(await prompt(second, sessionId, "make a file")).toBe("end_turn");
    expect(JSON.stringify(finals(second)[0].content)).toContain("not available in mode");
    await expect(Deno.stat(path.join(ws.dir, "made_by_bash"))).rejects.toThrow();
    expect(validateTraffic(second.traffic)).toEqual([]);
  } finally {
    await second.close();
  }
});
