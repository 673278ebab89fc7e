/**
 * The composition root as it runs: `deps.buildRuntime` wires the real filter, overflow and
 * audit hooks onto the registry, so one bash call through it is filtered, offloaded into the
 * conversation's store, readable with read_overflow and audited with its secrets redacted.
 */
import * as path from "node:path";
import { expect } from "expect";
import { deps } from "../main.ts";
import { readAuditLog } from "../src/store/audit.ts";

const TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";

Deno.test("main.ts: a bash call through the built runtime is filtered, offloaded and audited", async () => {
  const dir = await Deno.makeTempDir();
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
      "enabled = true",
      `path = ${JSON.stringify(audit)}`,
      "[tools.overflow]",
      "threshold = 2000",
      "",
    ].join("\n"),
  );
  const runtime = await deps.buildRuntime({ cwd: ws, config, yes: true, json: false });
  try {
    const store = runtime.store!;
    expect(store).not.toBe(null);
    const conversationId = store.createConversation();
    const scope = runtime.scope({ conversationId, callerId: "caller-1" });
    const bash = await runtime.registry.dispatch(
      { id: "c1", name: "bash", input: { command: `echo ${TOKEN}; seq 1 3000` } },
      scope,
    );
    expect(bash.ok).toBe(true);
    expect(bash.filterStats?.rawLines).toBe(3001);
    expect(bash.overflowId).toBeDefined();
    expect(bash.text).toContain(`[Full output stored as overflow:${bash.overflowId}`);
    expect(bash.text).toContain("[security]");

    const read = await runtime.registry.dispatch(
      { id: "c2", name: "read_overflow", input: { id: bash.overflowId, offset: 0, limit: 60 } },
      scope,
    );
    expect(read.ok).toBe(true);
    expect(read.text).toContain(TOKEN);

    const { entries } = await readAuditLog(audit);
    expect(entries.map((e) => [e.tool, e.result, e.caller_id])).toEqual([
      ["bash", "success", "caller-1"],
      ["read_overflow", "success", "caller-1"],
    ]);
    expect(entries[0].truncated).toBe(true);
    expect(entries[0].subject).toContain("[REDACTED]");
    expect(entries[0].subject).not.toContain(TOKEN);
  } finally {
    await runtime.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts: a runtime for named built-in tools registers only them; other ids register all", async () => {
  const ws = await Deno.makeTempDir();
  await Deno.writeTextFile(path.join(ws, "x"), "one\ntwo\n");
  const globals = { cwd: ws, yes: false, json: false };
  const env = { XDG_DATA_HOME: path.join(ws, ".data") };
  const names = async (tools?: string[]) => {
    const runtime = await deps.buildRuntime(globals, tools ? { tools } : {});
    try {
      const read = await runtime.registry.dispatch(
        { id: "c1", name: "read", input: { path: "x" } },
        runtime.scope(),
      );
      expect(read.text).toBe("   1\tone\n   2\ttwo");
      return runtime.registry.all().map((t) => t.name);
    } finally {
      await runtime.close();
    }
  };
  const saved = Deno.env.get("XDG_DATA_HOME");
  Deno.env.set("XDG_DATA_HOME", env.XDG_DATA_HOME);
  try {
    const all = await names();
    expect(all.length).toBeGreaterThan(10);
    expect(await names(["read"])).toEqual(["read"]);
    expect(await names(["read", "grep"])).toEqual(["read", "grep"]);
    expect(await names(["read", "reed"])).toEqual(all);
  } finally {
    if (saved === undefined) Deno.env.delete("XDG_DATA_HOME");
    else Deno.env.set("XDG_DATA_HOME", saved);
  }
});
