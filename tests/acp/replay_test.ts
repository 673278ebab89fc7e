// session/load of a long conversation streams its replay without holding up other requests.
import { expect } from "expect";
import * as path from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { openStore } from "../../src/store/mod.ts";
import type { Message } from "../../src/provider/mod.ts";
import { connect, untilUpdate, workspace } from "./_client.ts";

Deno.test("acp: an initialize sent while session/load replays a long conversation is answered before the replay ends", async () => {
  const ws = await workspace([{ text: "unused" }]);
  const store = openStore(path.join(ws.home, ".local", "share", "zeph", "zeph.db"));
  const sessionId = store.createConversation({ title: "long", cwd: ws.dir });
  const messages: Message[] = [];
  for (let i = 0; i < 1500; i++) {
    messages.push({
      role: "user",
      parts: [{ type: "text", text: `question ${i} ${"q".repeat(2000)}` }],
    });
    messages.push({
      role: "assistant",
      parts: [{ type: "text", text: `answer ${i} ${"a".repeat(2000)}` }],
    });
  }
  store.appendMessages(sessionId, messages);
  store.close();

  const s = await connect({ ws });
  try {
    const load = s.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: ws.dir,
      mcpServers: [],
    });
    await untilUpdate(s, "user_message_chunk");
    const init = await s.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    await load;
    const replayed = s.updates.filter((u) => u.sessionId === sessionId).length;
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(replayed).toBe(3000);
    // Order on the wire, not a timing: the initialize answer comes before most of the replay.
    const wire = s.traffic.fromAgent;
    const initId = s.traffic.toAgent.findLast((m) => m.method === "initialize")!.id;
    const initAt = wire.findIndex((m) => m.id === initId && "result" in m);
    const updatesAfter = wire.slice(initAt).filter((m) => m.method === "session/update").length;
    expect(initAt).toBeGreaterThan(0);
    // Sent once the replay had begun, answered with most of it still to come.
    expect(updatesAfter).toBeGreaterThan(1500);
  } finally {
    await s.close();
  }
});
