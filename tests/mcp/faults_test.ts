/**
 * Faults of real MCP servers (tests/mcp/_server.ts on the SDK): timeouts and cancels, isError,
 * a crash or garbage mid-call, servers that fail to start, hang or print garbage, colliding
 * names, list_changed, the environment a server gets, no orphans, permission decisions.
 */
import { expect } from "expect";
import * as path from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { processGroupMembers } from "../../src/exec/mod.ts";
import { eventually, fixtureEntry, type McpHarness, startHarness } from "./_support.ts";

const call = (h: McpHarness, name: string, input: unknown, extra = {}) =>
  h.registry.dispatch({ id: `c-${name}`, name, input }, h.scope(extra));

Deno.test("a slow call times out after [[mcp.servers]] timeout; a cancel reaches the server", async () => {
  const dir = await Deno.makeTempDir();
  const cancelFile = path.join(dir, "cancelled");
  const h = await startHarness([
    fixtureEntry("fx", "ok", { timeout: 1, env: { FIXTURE_CANCEL_FILE: cancelFile } }),
  ]);
  try {
    const started = performance.now();
    const slow = await call(h, "fx_slow", { ms: 5000 });
    expect([slow.ok, slow.category, slow.retryable, slow.outcome]).toEqual([
      false,
      "timeout",
      true,
      "timeout",
    ]);
    expect(slow.text).toContain('MCP tool "slow" of server "fx" did not answer within 1 s');
    expect(performance.now() - started).toBeLessThan(4000);
    // The SDK sent notifications/cancelled: the server saw its signal abort.
    await eventually(() => exists(cancelFile));
    await Deno.remove(cancelFile);

    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const cancelled = await call(h, "fx_slow", { ms: 900 }, { signal: abort.signal });
    expect([cancelled.ok, cancelled.category]).toEqual([false, "cancelled"]);
    await eventually(() => exists(cancelFile));
    // The server is still there.
    expect((await call(h, "fx_slow", { ms: 0 })).text).toBe("slept 0 ms");
  } finally {
    await h.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("isError results map to McpErrorCode categories: only retryable ones say so", async () => {
  const h = await startHarness([fixtureEntry("fx")]);
  try {
    const cases = [
      ["the repository has no branch 'x'", "invalid_parameters", false],
      ["Rate limit exceeded, slow down", "rate_limited", true],
      ["401 Unauthorized: bad token", "policy_blocked", false],
      ["Service temporarily unavailable", "network_error", true],
      ["issue 42 not found", "permanent_failure", false],
    ] as const;
    const got = [];
    for (const [reason] of cases) {
      const r = await call(h, "fx_fail", { reason });
      got.push([reason, r.category, r.retryable]);
      expect(r.text).toContain(`reported an error: ${reason}`);
    }
    expect(got).toEqual(cases.map((c) => [...c]));
  } finally {
    await h.close();
  }
});

Deno.test("a crash mid-call fails the call, is reported once with the stderr tail, and its tools go", async () => {
  const h = await startHarness([fixtureEntry("fx"), fixtureEntry("other")]);
  try {
    expect(h.registry.get("fx_crash")).toBeDefined();
    const r = await call(h, "fx_crash", {});
    expect([r.ok, r.category, r.retryable]).toEqual([false, "network_error", true]);
    await eventually(() => h.warnings.length > 0);
    await eventually(() => h.registry.get("fx_slow") === undefined);
    expect(h.warnings.length).toBe(1);
    expect(h.warnings[0]).toMatch(/^MCP server "fx" \(config\) the server exited \(1\)/);
    expect(h.warnings[0]).toContain("segfault in crash()");
    expect(h.warnings[0]).toContain("its tools are not available");
    expect(h.manager.status().map((s) => [s.id, s.state, s.tools.length > 0])).toEqual([
      ["fx", "failed", false],
      ["other", "ready", true],
    ]);
    // The session goes on: the other server still answers.
    expect((await call(h, "other_slow", { ms: 0 })).ok).toBe(true);
    const gone = await call(h, "fx_slow", { ms: 0 });
    expect(gone.category).toBe("tool_not_found");
  } finally {
    await h.close();
  }
});

Deno.test("garbage on stdout mid-call ends the server: reported once, its tools gone", async () => {
  const h = await startHarness([fixtureEntry("fx")]);
  try {
    const r = await call(h, "fx_garbage", {});
    expect(r.ok).toBe(false);
    await eventually(() => h.manager.status()[0].state === "failed");
    expect(h.warnings).toEqual([
      expect.stringContaining(
        'the server wrote a line on stdout that is not JSON-RPC: "this is not json"',
      ),
    ]);
    expect(h.registry.all().filter((t) => t.mcp)).toEqual([]);
  } finally {
    await h.close();
  }
});

Deno.test("servers that exit, print garbage or hang at start are reported; the others start", async () => {
  const started = performance.now();
  const h = await startHarness([
    fixtureEntry("exits", "exit-at-start"),
    fixtureEntry("noisy", "garbage-at-start"),
    fixtureEntry("hangs", "hang"),
    fixtureEntry("good"),
    { ...fixtureEntry("missing"), command: "/nonexistent/mcp-server" },
  ], { startupMs: 4000 });
  try {
    // In parallel: the whole start took about one startup timeout, not several.
    expect(performance.now() - started).toBeLessThan(8000);
    const byId = Object.fromEntries(h.manager.status().map((s) => [s.id, s.state]));
    expect(byId).toEqual({
      exits: "failed",
      noisy: "failed",
      hangs: "failed",
      good: "ready",
      missing: "failed",
    });
    const text = h.warnings.sort().join("\n");
    expect(h.warnings.length).toBe(4);
    expect(text).toContain("cannot open the database /nonexistent/db");
    expect(text).toContain('"Welcome to the fixture server! (not JSON-RPC)"');
    expect(text).toContain('"hangs" (config) cannot start: did not answer within 4 s');
    expect(text).toContain(
      'MCP server "missing" (config) cannot start: command "/nonexistent/mcp-server" not found ' +
        "(check the path, or that it is on PATH); its tools are not available.",
    );
    expect(h.registry.get("good_slow")).toBeDefined();
  } finally {
    await h.close();
  }
});

Deno.test("ids are provider-safe and collisions (with each other and built-ins) get a suffix", async () => {
  const h = await startHarness([fixtureEntry("web")]);
  try {
    const tools = h.manager.status()[0].tools;
    const idOf = (name: string) => tools.find((t) => t.name === name)?.id;
    expect([idOf("a.b"), idOf("a_b"), idOf("scrape")]).toEqual([
      "web_a_b",
      "web_a_b_2",
      "web_scrape_2",
    ]);
    // The built-in keeps its id; the MCP tool is flagged as such.
    expect(h.registry.get("web_scrape")!.mcp).toBeUndefined();
    expect(h.registry.get("web_scrape_2")!.mcp?.tool).toBe("scrape");
    expect((await call(h, "web_scrape_2", {})).text).toBe("mcp scrape");
  } finally {
    await h.close();
  }
});

Deno.test("a tool added at run time appears after notifications/tools/list_changed", async () => {
  const h = await startHarness([fixtureEntry("fx", "ok", { deny_tools: ["hidden"] })]);
  try {
    expect(h.registry.get("fx_late")).toBeUndefined();
    expect((await call(h, "fx_add_tool", { name: "late" })).text).toBe("added late");
    await eventually(() => h.registry.get("fx_late") !== undefined);
    expect((await call(h, "fx_late", {})).text).toBe("late ran");
    // deny_tools holds for tools that arrive later too.
    await call(h, "fx_add_tool", { name: "hidden" });
    await call(h, "fx_add_tool", { name: "later" });
    await eventually(() => h.registry.get("fx_later") !== undefined);
    expect(h.registry.get("fx_hidden")).toBeUndefined();
  } finally {
    await h.close();
  }
});

Deno.test("a stdio server gets PATH/HOME/LANG and its configured env, ${VAR}s expanded, no API keys", async () => {
  const env = {
    PATH: Deno.env.get("PATH")!,
    HOME: "/home/tester",
    LANG: "C.UTF-8",
    ANTHROPIC_API_KEY: "sk-ant-secret",
    OPENAI_API_KEY: "sk-secret",
    FIXTURE_TOKEN: "t0ken",
    DENO_DIR: Deno.env.get("DENO_DIR") ?? "",
  };
  const h = await startHarness([
    fixtureEntry("fx", "ok", {
      env: { TOKEN: "${FIXTURE_TOKEN}", DENO_DIR: env.DENO_DIR, PLAIN: "x" },
    }),
    fixtureEntry("unset", "ok", { env: { TOKEN: "${NOT_SET_ANYWHERE}" } }),
  ], { env });
  try {
    const seen = JSON.parse((await call(h, "fx_env", {})).text);
    delete seen.DENO_DIR;
    expect(seen).toEqual({
      PATH: env.PATH,
      HOME: "/home/tester",
      LANG: "C.UTF-8",
      TOKEN: "t0ken",
      PLAIN: "x",
    });
    expect(h.warnings).toEqual([
      'MCP server "unset" env.TOKEN references ${NOT_SET_ANYWHERE}, which is not set: set it ' +
      "in zeph's environment or write the value into the config; the server is not started",
    ]);
  } finally {
    await h.close();
  }
});

Deno.test("closing the servers kills their process groups: no orphans", async () => {
  const h = await startHarness([fixtureEntry("fx")]);
  let pids: { server: number; child: number };
  try {
    pids = JSON.parse((await call(h, "fx_spawn", {})).text);
    expect(processGroupMembers(pids.server).length).toBeGreaterThanOrEqual(2);
  } finally {
    await h.close();
  }
  expect(processGroupMembers(pids.server)).toEqual([]);
});

Deno.test("permission: ask by default, trust and annotations as documented, rules on id + JSON args", async () => {
  const config = defaultConfig();
  config.tools.permissions.fx_slow = [{ pattern: '*"ms":13*', action: "deny" }];
  const h = await startHarness([
    fixtureEntry("fx"),
    fixtureEntry("trusted", "ok", { trust: "all" }),
  ], { config });
  try {
    const unasked = await call(h, "fx_slow", { ms: 0 }, { ask: undefined });
    expect([unasked.category, unasked.decision?.action]).toEqual(["confirmation_required", "ask"]);
    const trusted = await call(h, "trusted_slow", { ms: 0 }, { ask: undefined });
    expect([trusted.ok, trusted.decision?.action]).toEqual([true, "allow"]);
    const denied = await call(h, "fx_slow", { ms: 13 });
    expect([denied.category, denied.decision?.policyMatch]).toEqual([
      "policy_blocked",
      'tools.permissions.fx_slow[0] deny "*"ms":13*"',
    ]);
  } finally {
    await h.close();
  }
});

function exists(file: string): boolean {
  try {
    Deno.statSync(file);
    return true;
  } catch {
    return false;
  }
}
