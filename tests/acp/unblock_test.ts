// The anomaly detector over ACP: the critical notice reaches the editor, the blocked tool is
// refused, the `unblock` command is advertised and lifts the block.
import * as acp from "@agentclientprotocol/sdk";
import { expect } from "expect";
import * as path from "node:path";
import { agentText, connect, newSession, prompt, validateTraffic, workspace } from "./_client.ts";

const read = (id: string, p: string) => ({ id, name: "read", input: { path: p } });

Deno.test("acp: a tool failing past [tools.anomaly] is blocked, reported, and /unblock lifts it", async () => {
  const ws = await workspace(
    [
      { tool_calls: [read("c1", "missing1.txt"), read("c2", "missing2.txt")] },
      { tool_calls: [read("c3", "a.txt")] },
      { text: "stopping" },
      { tool_calls: [read("c4", "a.txt")] },
      { text: "done" },
    ],
    "[tools.anomaly]\nwindow_size = 2\nfailure_threshold = 0.5\n",
  );
  await Deno.writeTextFile(path.join(ws.dir, "a.txt"), "hello\n");
  const s = await connect({ ws });
  try {
    const sessionId = await newSession(s, ws.dir);
    for (
      let i = 0;
      i < 50 && !s.updates.some((u) => u.update.sessionUpdate === "available_commands_update");
      i++
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const commands = s.updates.find((u) => u.update.sessionUpdate === "available_commands_update")!
      .update as acp.AvailableCommandsUpdate;
    expect(commands.availableCommands.map((c) => c.name)).toContain("unblock");

    expect(await prompt(s, sessionId, "read them")).toBe("end_turn");
    const text = agentText(s, sessionId);
    expect(text).toContain(
      '[anomaly] Tool "read" failed 2 of its last 2 calls (100% > failure_threshold 0.5). It is ' +
        "blocked for this session",
    );
    const finals = s.updates.map((u) => u.update).filter((u) =>
      u.sessionUpdate === "tool_call_update" && "status" in u && u.status
    ) as (acp.ToolCallUpdate & { sessionUpdate: string })[];
    expect(finals.map((u) => u.status)).toEqual(["failed", "failed", "failed"]);
    expect(JSON.stringify(finals[2].content)).toContain("it is blocked for this session");

    expect(await prompt(s, sessionId, "/unblock read")).toBe("end_turn");
    expect(agentText(s, sessionId)).toContain("read is unblocked: the model sees it again.");
    expect(await prompt(s, sessionId, "read a.txt")).toBe("end_turn");
    const last = s.updates.map((u) => u.update).filter((u) =>
      u.sessionUpdate === "tool_call_update" && "status" in u && u.status
    ).at(-1) as acp.ToolCallUpdate;
    expect([last.status, JSON.stringify(last.content).includes("hello")]).toEqual([
      "completed",
      true,
    ]);
    expect(s.traffic.garbage).toEqual([]);
    expect(validateTraffic(s.traffic)).toEqual([]);
  } finally {
    await s.close();
  }
});
