// ACP end to end over real stdio: plan updates (live and replayed by session/load), the
// repetition question as a permission request, and a rejection whose reason comes with the
// next prompt. Every message the agent sends is validated against the protocol schema.
import * as acp from "@agentclientprotocol/sdk";
import { expect } from "expect";
import * as path from "node:path";
import { openStore } from "../../src/store/mod.ts";
import {
  connect,
  newSession,
  prompt,
  type Session,
  validateTraffic,
  workspace,
} from "./_client.ts";

function assertCleanWire(s: Session) {
  expect(s.traffic.garbage).toEqual([]);
  expect(validateTraffic(s.traffic)).toEqual([]);
}

function updatesOf(s: Session, kind: string): acp.SessionUpdate[] {
  return s.updates.map((u) => u.update).filter((u) => u.sessionUpdate === kind);
}

const PLAN = [
  { content: "Read the code", status: "completed" },
  { content: "Fix the bug", status: "in_progress", priority: "high" },
];
const SENT = [
  { content: "Read the code", status: "completed", priority: "medium" },
  { content: "Fix the bug", status: "in_progress", priority: "high" },
];

Deno.test("acp: update_plan sends a plan update with the whole list; session/load replays the stored plan", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "p1", name: "update_plan", input: { entries: PLAN } }] },
    { text: "planned" },
  ]);
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "plan it")).toBe("end_turn");
    expect(updatesOf(s, "plan")).toEqual([{ sessionUpdate: "plan", entries: SENT }]);
    expect(s.permissionRequests).toEqual([]);
    const before = s.updates.length;
    await s.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: ws.dir,
      mcpServers: [],
    });
    const replayed = s.updates.slice(before).map((u) => u.update);
    expect(replayed.at(-1)).toEqual({ sessionUpdate: "plan", entries: SENT });
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: an always-allowed command runs three times in a row; the fourth asks to go on, and yes runs it", async () => {
  // `date +%N` is read-only (allowed unasked) and prints something new each time, as a polled
  // build does, so the doom-loop limit (identical results) stays out of the way.
  const poll = { name: "bash", input: { command: "date +%N" } };
  const ws = await workspace([
    ...[1, 2, 3, 4, 5].map((n) => ({ tool_calls: [{ id: `d${n}`, ...poll }] })),
    { text: "polled" },
  ]);
  const answers = ["allow_once"];
  const s = await connect({ ws, permission: () => answers.shift() ?? "reject_once" });
  try {
    const sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "poll")).toBe("end_turn");
    expect(s.permissionRequests.length).toBe(1);
    const req = s.permissionRequests[0];
    expect(req.toolCall.title).toBe("Run again? date +%N — the same call 4 times in a row");
    expect(req.options.map((o) => [o.optionId, o.name, o.kind])).toEqual([
      ["allow_once", "Run it again", "allow_once"],
      ["allow_always", "Don't ask again this turn", "allow_always"],
      ["reject_once", "Stop", "reject_once"],
    ]);
    const finals = updatesOf(s, "tool_call_update").filter((u) => "status" in u && u.status);
    expect(finals.map((u) => (u as acp.ToolCallUpdate).status)).toEqual([
      "completed",
      "completed",
      "completed",
      "completed",
      "completed",
    ]);
    assertCleanWire(s);
  } finally {
    await s.close();
  }
});

Deno.test("acp: a rejection ends the turn; the model gets the rejected call and the user's next prompt together", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "r1", name: "bash", input: { command: "touch made.txt" } }] },
    { text: "never asked for" },
  ], '[[tools.permissions.bash]]\npattern = "*"\naction = "ask"\n');
  // The script's second turn answers the second prompt: the first turn ends at the rejection.
  const s = await connect({ ws, permission: () => "reject_once" });
  let sessionId = "";
  try {
    sessionId = await newSession(s, ws.dir);
    expect(await prompt(s, sessionId, "make the file")).toBe("end_turn");
    expect(s.permissionRequests.length).toBe(1);
    const failed = updatesOf(s, "tool_call_update").filter((u) => "status" in u && u.status);
    expect(failed.map((u) => (u as acp.ToolCallUpdate).status)).toEqual(["failed"]);
    expect(await prompt(s, sessionId, "no files in the root, use tmp/")).toBe("end_turn");
    await expect(Deno.stat(path.join(ws.dir, "made.txt"))).rejects.toThrow();
    assertCleanWire(s);
  } finally {
    await s.close();
  }
  // What the model was sent with the second prompt is the stored transcript up to it.
  const store = openStore(path.join(ws.home, ".local", "share", "zeph", "zeph.db"));
  try {
    const messages = store.loadMessages(sessionId);
    expect(messages.slice(1, 4)).toEqual([
      {
        role: "assistant",
        parts: [{
          type: "tool_call",
          id: "r1",
          name: "bash",
          input: { command: "touch made.txt" },
        }],
      },
      {
        role: "user",
        parts: [{
          type: "tool_result",
          callId: "r1",
          isError: true,
          text: expect.stringContaining(
            'error: Cannot run bash "touch made.txt": the user rejected it; ' +
              "their next message may say why\n",
          ),
        }],
      },
      { role: "user", parts: [{ type: "text", text: "no files in the root, use tmp/" }] },
    ]);
  } finally {
    store.close();
  }
});
