// Baseline for bench/acp_bench.ts: the smallest agent on the ACP SDK (initialize, session/new).
import * as acp from "@agentclientprotocol/sdk";
const conn = acp.agent({ name: "min" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {},
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: crypto.randomUUID() }))
  .connect(acp.ndJsonStream(Deno.stdout.writable, Deno.stdin.readable));
await conn.closed;
