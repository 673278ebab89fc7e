/**
 * MCP tools through the agent loop, in the runtime main.ts builds (real filter, overflow and
 * audit hooks, SQLite store), driven by the scripted provider: the model sees the tools, a 5 MB
 * result is offloaded and paged back, the audit records the server, a retryable failure of a
 * read-only tool is retried and a tool error of another is not.
 */
import { expect } from "expect";
import * as path from "node:path";
import { deps } from "../../main.ts";
import { AgentSession } from "../../src/agent/session.ts";
import { scriptedProvider } from "../_support/scripted.ts";
import { readAuditLog } from "../../src/store/audit.ts";
import { DENO } from "../cli/_run.ts";
import { FIXTURE } from "./_support.ts";

Deno.test("agent loop + MCP: tools offered, 5 MB result offloaded and read back, audit names the server", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph-mcp-agent-" }));
  const ws = path.join(dir, "ws");
  await Deno.mkdir(ws);
  const audit = path.join(dir, "audit.jsonl");
  const config = path.join(dir, "config.toml");
  await Deno.writeTextFile(
    config,
    [
      "[memory]",
      `sqlite_path = ${JSON.stringify(path.join(dir, "zeph.db"))}`,
      "[tools.audit]",
      `path = ${JSON.stringify(audit)}`,
      "[tools.retry]",
      "base_ms = 1",
      "max_ms = 1",
      "[[mcp.servers]]",
      'id = "fx"',
      `command = ${JSON.stringify(DENO)}`,
      `args = ["run", "-A", "--no-prompt", ${JSON.stringify(FIXTURE)}]`,
      'trust = "all"',
      "",
    ].join("\n"),
  );
  const runtime = await deps.buildRuntime({ cwd: ws, config, yes: false, json: false });
  try {
    const store = runtime.store!;
    const conversationId = store.createConversation();
    const provider = scriptedProvider(
      [
        { tool_calls: [{ id: "c1", name: "fx_big", input: { bytes: 5_000_000 } }] },
        { tool_calls: [{ id: "c2", name: "fx_fail", input: { reason: "rate limit hit" } }] },
        { text: "done" },
      ],
      "mcp.jsonl",
    );
    const session = new AgentSession({
      provider,
      registry: runtime.registry,
      cwd: runtime.sandbox.workspace,
      sandbox: runtime.sandbox,
      store,
      conversationId,
      random: () => 0,
      // fx_fail is neither read-only nor idempotent: the default would not retry it.
      isRetryableTool: (tool) => tool.mcp?.tool === "fail",
    });
    const stop = await session.prompt("go", { sink: () => {} });
    expect(stop).toBe("end_turn");
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["read", "fx_big", "fx_slow", "fx_a_b_2"]),
    );
    const results = (n: number) =>
      provider.requests[n].messages.at(-1)!.parts.flatMap((p) =>
        p.type === "tool_result" ? [p.text] : []
      );
    const [big] = results(1);
    expect(big.length).toBeLessThan(100_000);
    const id = /overflow:([0-9a-f-]{36})/.exec(big)![1];
    expect(store.overflowSlice(id, conversationId, { offset: 0, limit: 1 })).not.toBeNull();
    const [failed] = results(2);
    expect(failed).toContain("category: rate_limited");

    const { entries } = await readAuditLog(audit);
    expect(entries.map((e) => [e.tool, e.result, e.mcp_server_id, e.truncated])).toEqual([
      ["fx_big", "success", "fx", true],
      // rate_limited is retryable: tried 1 + [tools.retry] max_attempts (2) times.
      ["fx_fail", "error", "fx", false],
      ["fx_fail", "error", "fx", false],
      ["fx_fail", "error", "fx", false],
    ]);
  } finally {
    await runtime.close();
    await Deno.remove(dir, { recursive: true });
  }
});
