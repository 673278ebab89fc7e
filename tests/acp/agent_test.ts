import * as acp from "@agentclientprotocol/sdk";
import { expect } from "expect";
import * as path from "node:path";
import { probeBwrap } from "../../src/exec/mod.ts";
import {
  agentText,
  connect,
  newSession,
  prompt,
  type Session,
  untilUpdate,
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
    const text = agentText(s);
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

function finalUpdates(s: Session) {
  return s.updates
    .map((u) => u.update)
    .filter((u) => u.sessionUpdate === "tool_call_update" && "status" in u && u.status);
}

Deno.test("acp: bash runs in the editor terminal; the terminal is embedded before wait and released after the final update", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "t1", name: "bash", input: { command: "echo hi-from-terminal" } }] },
    { text: "done" },
  ]);
  const s = await connect({ ws, terminal: true });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "run it")).toBe("end_turn");
    expect(s.terminals.size).toBe(1);
    const term = [...s.terminals.values()][0];
    // The editor runs on this machine: the command gets the same OS sandbox as a local one.
    const sandboxed = probeBwrap().available;
    expect([term.command, ...term.args].slice(-3)).toEqual(["bash", "-c", "echo hi-from-terminal"]);
    expect(term.command).toBe(sandboxed ? "bwrap" : "bash");
    if (sandboxed) expect(term.args).toContain("--unshare-net");
    expect(term.released).toBe(true);
    const ev = s.events.filter((e) => !e.startsWith("update:agent_message"));
    const create = ev.indexOf("terminal/create");
    const embed = ev.indexOf("update:tool_call_update", create);
    const wait = ev.indexOf("terminal/wait_for_exit");
    const release = ev.indexOf("terminal/release");
    const finalAt = ev.lastIndexOf("update:tool_call_update");
    expect(create).toBeGreaterThan(ev.indexOf("update:tool_call"));
    expect(embed).toBeGreaterThan(create);
    expect(wait).toBeGreaterThan(embed);
    expect(release).toBeGreaterThan(finalAt);
    const finals = finalUpdates(s);
    expect(finals.length).toBe(1);
    const final = finals[0] as acp.ToolCallUpdate;
    expect(final.status).toBe("completed");
    expect(final.content?.[0]).toEqual({ type: "terminal", terminalId: term.id });
    expect(JSON.stringify(final.content)).toContain("hi-from-terminal");
    expect(final.rawOutput).toMatchObject({ exit_code: 0, sandboxed });
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: read and write go through fs/* (unsaved buffers seen, writes reviewable), sandbox still local", async () => {
  const ws = await workspace([
    {
      tool_calls: [
        { id: "r1", name: "read", input: { path: "a.txt" } },
        { id: "w1", name: "write", input: { path: "b.txt", content: "new text\n" } },
        { id: "w2", name: "write", input: { path: "../outside.txt", content: "escape\n" } },
      ],
    },
    { text: "ok" },
  ]);
  await Deno.writeTextFile(path.join(ws.dir, "a.txt"), "disk text\n");
  const buffers = new Map([[path.join(ws.dir, "a.txt"), "unsaved buffer text\n"]]);
  const s = await connect({ ws, fs: true, buffers });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "edit")).toBe("end_turn");
    const finals = finalUpdates(s) as acp.ToolCallUpdate[];
    expect(finals.map((f) => f.status)).toEqual(["completed", "completed", "failed"]);
    expect(JSON.stringify(finals[0].content)).toContain("unsaved buffer text");
    expect(JSON.stringify(finals[0].content)).not.toContain("disk text");
    // write asks the editor for the old text (the diff's oldText), so both were read there.
    expect(s.reads).toEqual([path.join(ws.dir, "a.txt"), path.join(ws.dir, "b.txt")]);
    // The write went to the editor, which decides; nothing reached the disk behind its back.
    expect(s.writes).toEqual([{ path: path.join(ws.dir, "b.txt"), content: "new text\n" }]);
    await expect(Deno.stat(path.join(ws.dir, "b.txt"))).rejects.toThrow();
    expect(finals[1].content?.[0]).toMatchObject({
      type: "diff",
      path: path.join(ws.dir, "b.txt"),
      oldText: null,
      newText: "new text\n",
    });
    // The escape attempt is refused locally before any editor request.
    expect(JSON.stringify(finals[2].content)).toContain("policy_blocked");
    await expect(Deno.stat(path.join(ws.dir, "..", "outside.txt"))).rejects.toThrow();
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

const ASK_BASH = `
[[tools.permissions.bash]]
pattern = "*"
action = "ask"
`;

Deno.test("acp: ask becomes session/request_permission; reject fails the call, allow_always is keyed by the command", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "p1", name: "bash", input: { command: "echo one > one.txt" } }] },
    { tool_calls: [{ id: "p2", name: "bash", input: { command: "echo two" } }] },
    { tool_calls: [{ id: "p3", name: "bash", input: { command: "echo three" } }] },
    { tool_calls: [{ id: "p4", name: "bash", input: { command: "echo two" } }] },
    { text: "finished" },
  ], ASK_BASH);
  const answers = ["reject_once", "allow_always", "allow_once"];
  const s = await connect({ ws, permission: () => answers.shift() ?? "reject_once" });
  try {
    const sessionId = await newSession(s, ws.dir);
    // The rejection of p1 ends the turn (the reason may come with the next prompt).
    expect(await prompt(s, sessionId, "go")).toBe("end_turn");
    expect(s.permissionRequests.length).toBe(1);
    expect(await prompt(s, sessionId, "go on")).toBe("end_turn");
    // p1 rejected, p2 allowed always, p3 asked again (a different command), p4 not asked.
    expect(s.permissionRequests.length).toBe(3);
    const asked = s.permissionRequests.map((r) => r.toolCall.title);
    expect(asked[0]).toContain("echo one > one.txt");
    expect(asked[1]).toContain("echo two");
    expect(asked[2]).toContain("echo three");
    expect(s.permissionRequests[0].options.map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
      "reject_always",
    ]);
    const finals = finalUpdates(s) as acp.ToolCallUpdate[];
    expect(finals.map((f) => f.status)).toEqual(["failed", "completed", "completed", "completed"]);
    expect(JSON.stringify(finals[0].content)).toContain("rejected");
    await expect(Deno.stat(path.join(ws.dir, "one.txt"))).rejects.toThrow();
    // The permission request reuses the id of the announced tool call.
    const announced = s.updates
      .map((u) => u.update)
      .filter((u) => u.sessionUpdate === "tool_call")
      .map((u) => (u as acp.ToolCall).toolCallId);
    expect(announced[0]).toBe(s.permissionRequests[0].toolCall.toolCallId);
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: a cancelled permission request counts as a rejection", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "c1", name: "bash", input: { command: "touch made.txt" } }] },
    { text: "ok" },
  ], ASK_BASH);
  const s = await connect({ ws, permission: () => "cancelled" });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "go")).toBe("end_turn");
    const finals = finalUpdates(s) as acp.ToolCallUpdate[];
    expect(finals.map((f) => f.status)).toEqual(["failed"]);
    expect(JSON.stringify(finals[0].content)).toContain("cancelled");
    await expect(Deno.stat(path.join(ws.dir, "made.txt"))).rejects.toThrow();
  } finally {
    await s.close();
  }
});

Deno.test("acp: session/cancel mid-tool answers cancelled, ends the call with one final update, and the session keeps working", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "s1", name: "bash", input: { command: "sleep 30" } }] },
    { text: "after the cancel" },
  ]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    const started = Date.now();
    const pending = prompt(s, sessionId, "sleep");
    await untilUpdate(s, "tool_call");
    await s.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect(await pending).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(20_000);
    const finals = finalUpdates(s) as acp.ToolCallUpdate[];
    expect(finals.length).toBe(1);
    expect(finals[0].status).toBe("failed");
    const promptReq = s.traffic.toAgent.find((m) => m.method === "session/prompt")!;
    const respAt = responseIndex(s, promptReq.id);
    const updatesAfter = s.traffic.fromAgent.slice(respAt + 1).filter((m) =>
      m.method === "session/update"
    );
    expect(updatesAfter).toEqual([]);
    expect(await prompt(s, sessionId, "again")).toBe("end_turn");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: session/load of a session with a running turn cancels it first and replays it whole", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "s1", name: "bash", input: { command: "sleep 30" } }] },
    { text: "after the reload" },
  ]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    const pending = prompt(s, sessionId, "sleep");
    await untilUpdate(s, "tool_call");
    const before = s.updates.length;
    await s.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: ws.dir,
      mcpServers: [],
    });
    // The running turn ended (cancelled) before the load answered, and its transcript, with
    // the cancelled call and its one result, is what the load replayed.
    expect(await pending).toBe("cancelled");
    const replayed = s.updates.slice(before).filter((u) => u.sessionId === sessionId)
      .map((u) => u.update.sessionUpdate);
    expect(replayed.filter((k) => k !== "available_commands_update").slice(-3)).toEqual([
      "user_message_chunk",
      "tool_call",
      "tool_call_update",
    ]);
    expect(await prompt(s, sessionId, "again")).toBe("end_turn");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: hitting the iteration cap answers max_turn_requests", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "i1", name: "list_directory", input: { path: "." } }] },
    { tool_calls: [{ id: "i2", name: "find_path", input: { pattern: "*" } }] },
    { text: "never reached" },
  ], "[agent]\nmax_tool_iterations = 1\n");
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "loop")).toBe("max_turn_requests");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: a backend that cannot start answers the request with a clear error and keeps serving", async () => {
  const ws = await workspace([{ text: "x" }], '[tools.shell]\ntimeout = "soon"\n');
  const s = await connect({ ws });
  try {
    await expect(newSession(s, ws.dir)).rejects.toThrow(/tools\.shell\.timeout/);
    // Still alive: a relative cwd is refused with invalid params, not a crash.
    await expect(newSession(s, "relative/dir")).rejects.toThrow(/absolute/);
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: two sessions prompt concurrently without mixing their updates", async () => {
  const ws = await workspace([{ text: "first answer" }, { text: "second answer" }]);
  const s = await connect({ ws });
  try {
    const a = await newSession(s, ws.dir);
    const b = await newSession(s, ws.dir);
    expect(a).not.toBe(b);
    const [ra, rb] = await Promise.all([prompt(s, a, "one"), prompt(s, b, "two")]);
    expect([ra, rb]).toEqual(["end_turn", "end_turn"]);
    expect([agentText(s, a), agentText(s, b)].sort()).toEqual(["first answer", "second answer"]);
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: without an editor terminal, local bash output is forwarded live before the final update", async () => {
  const ws = await workspace([
    {
      tool_calls: [{
        id: "o1",
        name: "bash",
        input: { command: "echo first; sleep 0.6; echo second" },
      }],
    },
    { text: "done" },
  ]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "run")).toBe("end_turn");
    const updates = s.updates.map((u) => u.update).filter((u) =>
      u.sessionUpdate === "tool_call_update"
    ) as (acp.ToolCallUpdate & { sessionUpdate: string })[];
    const live = updates.filter((u) => !u.status);
    const final = updates.filter((u) => u.status);
    expect(final.length).toBe(1);
    expect(live.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(live[0].content)).toContain("first");
    expect(JSON.stringify(live[0].content)).not.toContain("second");
    expect(updates.indexOf(final[0])).toBe(updates.length - 1);
    expect(JSON.stringify(final[0].content)).toContain("second");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: prompts that arrive while one runs are serialised; only the newest one runs", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "q1", name: "bash", input: { command: "sleep 30" } }] },
    { text: "second step" },
    { text: "third step" },
  ]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    const a = prompt(s, sessionId, "first");
    await untilUpdate(s, "tool_call");
    // B supersedes A, then C supersedes B before B got to run: one turn at a time.
    const b = prompt(s, sessionId, "second");
    const c = prompt(s, sessionId, "third");
    expect(await Promise.all([a, b, c])).toEqual(["cancelled", "cancelled", "end_turn"]);
    const text = agentText(s);
    expect(text).toBe("second step");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: session/cancel for a prompt still waiting on the previous one cancels it", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "w1", name: "bash", input: { command: "sleep 30" } }] },
    { text: "answer to again" },
  ]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    const a = prompt(s, sessionId, "first");
    await untilUpdate(s, "tool_call");
    const b = prompt(s, sessionId, "second");
    await s.agent.notify(acp.methods.agent.session.cancel, { sessionId });
    expect(await Promise.all([a, b])).toEqual(["cancelled", "cancelled"]);
    expect(await prompt(s, sessionId, "again")).toBe("end_turn");
    const text = agentText(s);
    expect(text).toBe("answer to again");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: a prompt whose provider cannot be built fails with a JSON-RPC error and builds no tool runtime", async () => {
  const ws = await workspace(
    [{ text: "never" }],
    '[[tools.permissions.bsh]]\npattern = "*"\naction = "allow"\n',
  );
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    await Deno.remove(ws.script); // the provider now fails to start, on every prompt
    for (const text of ["one", "two"]) {
      await expect(prompt(s, sessionId, text)).rejects.toMatchObject({
        code: -32603,
        message: expect.stringMatching(/Cannot read script/),
      });
    }
    expect(agentText(s)).toBe("");
    // Each failed prompt used to build (and leak) a whole tool runtime: worker executor,
    // signal and unload listeners, filter rules — visible as its start-up warnings.
    expect(s.stderr().match(/tools\.permissions\.bsh/g)).toBe(null);
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: secrets in a tool's output are redacted in the updates the editor gets", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "c1", name: "bash", input: { command: "cat env.txt" } }] },
    { text: "Done." },
  ]);
  await Deno.writeTextFile(
    path.join(ws.dir, "env.txt"),
    "DATABASE_URL=postgres://admin:hunter2secret@db.internal/app\n",
  );
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "show env.txt")).toBe("end_turn");
    const done = s.updates.find((u) =>
      u.update.sessionUpdate === "tool_call_update" &&
      (u.update as acp.ToolCallUpdate).status === "completed"
    )!.update as acp.ToolCallUpdate;
    const shown = JSON.stringify([done.content, done.rawOutput]);
    expect(shown).toContain("postgres://admin:[REDACTED]@db.internal/app");
    expect(shown).not.toContain("hunter2secret");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: a provider failure fails session/prompt with a JSON-RPC error naming it, not end_turn", async () => {
  const ws = await workspace([
    { text: "partial " },
    { error: { status: 401, message: "invalid x-api-key" } },
  ]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "one")).toBe("end_turn");
    let error: { code?: number; message?: string } = {};
    await prompt(s, sessionId, "two").catch((e) => error = e);
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/^script: .*invalid x-api-key/);
    // The failure is the request's error, not a message in the turn's text.
    expect(agentText(s)).toBe("partial ");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: a missing --script is reported at session/new", async () => {
  const ws = await workspace([{ text: "never" }]);
  await Deno.remove(ws.script);
  const s = await connect({ ws });
  try {
    await expect(newSession(s, ws.dir)).rejects.toThrow(
      /Cannot start the zeph agent: Cannot read script/,
    );
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: --provider script without --script is reported at session/new", async () => {
  const ws = await workspace([{ text: "never" }]);
  const s = await connect({ ws, noScript: true });
  try {
    await expect(newSession(s, ws.dir)).rejects.toThrow(
      /Cannot start the zeph agent: .*needs a script: pass --script FILE/,
    );
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: writes the editor performs are recorded; /undo restores them through the editor, never over a later edit", async () => {
  const ws = await workspace([
    {
      tool_calls: [
        {
          id: "e1",
          name: "edit",
          input: { path: "a.txt", old_string: "buffer", new_string: "zeph" },
        },
        { id: "w1", name: "write", input: { path: "b.txt", content: "zeph's b\n" } },
      ],
    },
    { text: "ok" },
  ]);
  await Deno.writeTextFile(path.join(ws.dir, "a.txt"), "disk text\n");
  await Deno.writeTextFile(path.join(ws.dir, "b.txt"), "disk b\n");
  const a = path.join(ws.dir, "a.txt");
  const b = path.join(ws.dir, "b.txt");
  const buffers = new Map([[a, "unsaved buffer text\n"]]);
  const s = await connect({ ws, fs: true, buffers });
  try {
    const sessionId = await newSession(s, ws.dir);
    await untilUpdate(s, "available_commands_update");
    const commands = s.updates.find((u) => u.update.sessionUpdate === "available_commands_update")!
      .update as acp.AvailableCommandsUpdate;
    expect(commands.availableCommands.map((c) => c.name)).toContain("undo");

    expect(await prompt(s, sessionId, "change them")).toBe("end_turn");
    expect(s.writes).toEqual([
      { path: a, content: "unsaved zeph text\n" },
      { path: b, content: "zeph's b\n" },
    ]);
    // The user edits a.txt in the editor after zeph did: b.txt is restored, a.txt refused.
    buffers.set(a, "the user's edit\n");
    const before = agentText(s, sessionId).length;
    expect(await prompt(s, sessionId, "/undo 2")).toBe("end_turn");
    const reply = agentText(s, sessionId).slice(before).replace(/\d\d:\d\d/, "HH:MM");
    expect(reply).toBe(
      'Restored: write "b.txt"\n' +
        'Refused: "a.txt" changed since zeph edited it at HH:MM; not restored\n' +
        "1 change is still recorded (zeph undo --list).",
    );
    // Restored through the editor (its buffer had "disk b" then), the disk untouched.
    expect(s.writes.slice(2)).toEqual([{ path: b, content: "disk b\n" }]);
    expect(buffers.get(a)).toBe("the user's edit\n");
    expect(await Deno.readTextFile(a)).toBe("disk text\n");
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});
