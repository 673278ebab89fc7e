import { expect } from "expect";
import { z } from "zod";
import { type ErrorCategory, ToolError } from "../../src/errors/mod.ts";
import { AnomalyDetector, countedOutcome } from "../../src/tools/anomaly.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { call, guardHarness } from "./_guards.ts";

const settings = { enabled: true, window_size: 4, failure_threshold: 0.5, auto_block: true };

Deno.test("countedOutcome: tool failures, infrastructure failures, and what is not counted", () => {
  const table: [Parameters<typeof countedOutcome>[0], ReturnType<typeof countedOutcome>][] = [
    [{ ok: true, outcome: "success" }, "success"],
    [{ ok: false, outcome: "error", category: "permanent_failure" }, "failure"],
    [{ ok: false, outcome: "error", category: "invalid_parameters" }, "failure"],
    [{ ok: false, outcome: "error", category: "rate_limited" }, "infrastructure"],
    [{ ok: false, outcome: "error", category: "network_error" }, "infrastructure"],
    [{ ok: false, outcome: "error", category: "server_error" }, "infrastructure"],
    [{ ok: false, outcome: "timeout", category: "timeout" }, "infrastructure"],
    [{ ok: false, outcome: "blocked", category: "policy_blocked" }, null],
    [{ ok: false, outcome: "blocked", category: "confirmation_required" }, null],
    [{ ok: false, outcome: "cancelled", category: "cancelled" }, null],
  ];
  expect(table.map(([r]) => countedOutcome(r))).toEqual(table.map(([, want]) => want));
});

Deno.test("the ratio is judged only on a full window, and only above the threshold", () => {
  const d = new AnomalyDetector(settings);
  // 3 failures in 3 calls: 100%, but the window of 4 is not full yet.
  expect([d.record("t", "failure"), d.record("t", "failure"), d.record("t", "failure")]).toEqual([
    null,
    null,
    null,
  ]);
  const alert = d.record("t", "success"); // 3 of 4 = 75% > 50%
  expect(alert).toEqual({
    tool: "t",
    severity: "critical",
    blocked: true,
    message: 'Tool "t" failed 3 of its last 4 calls (75% > failure_threshold 0.5). It is ' +
      "blocked for this session: the model no longer sees it. Type /unblock t to allow it again.",
  });
  expect([d.isBlocked("t"), d.blocked()]).toEqual([true, ["t"]]);

  // Exactly at the threshold (2 of 4 = 50%) is not above it.
  const e = new AnomalyDetector(settings);
  for (const o of ["failure", "success", "failure", "success"] as const) {
    expect(e.record("u", o)).toBeNull();
  }
  // The window slides: the oldest outcome leaves as a new one comes.
  expect(e.record("u", "failure")).toBeNull(); // s f s f = 2/4
  expect(e.record("u", "failure")?.severity).toBe("critical"); // f s f f = 3/4
});

Deno.test("infrastructure failures warn on their own window and never block", () => {
  const d = new AnomalyDetector(settings);
  const alerts = [1, 2, 3, 4].map(() => d.record("fetch", "infrastructure"));
  expect(alerts.slice(0, 3)).toEqual([null, null, null]);
  expect(alerts[3]?.severity).toBe("warning");
  expect(alerts[3]?.blocked).toBe(false);
  expect(alerts[3]?.message).toContain("stays available");
  expect(d.isBlocked("fetch")).toBe(false);
  // They do not count as the tool's failures either: three real failures and a success pass.
  for (const o of ["failure", "failure", "success", "success"] as const) {
    expect(d.record("fetch", o)).toBeNull();
  }
  expect(d.record("fetch", null)).toBeNull();
});

Deno.test("after an alert the window starts over; unblock lifts the block; auto_block = false only warns", () => {
  const d = new AnomalyDetector(settings);
  for (let i = 0; i < 3; i++) d.record("t", "failure");
  expect(d.record("t", "failure")?.blocked).toBe(true);
  expect(d.unblock("t")).toBe(true);
  expect(d.unblock("t")).toBe(false);
  // One more failure does not block again at once: the window restarted.
  expect(d.record("t", "failure")).toBeNull();
  expect(d.isBlocked("t")).toBe(false);

  const soft = new AnomalyDetector({ ...settings, auto_block: false });
  for (let i = 0; i < 3; i++) soft.record("t", "failure");
  const alert = soft.record("t", "failure");
  expect([alert?.severity, alert?.blocked, soft.isBlocked("t")]).toEqual([
    "critical",
    false,
    false,
  ]);
  expect(alert?.message).toContain("auto_block = false");

  const off = new AnomalyDetector({ ...settings, enabled: false });
  for (let i = 0; i < 10; i++) expect(off.record("t", "failure")).toBeNull();
});

/** Fails with `category` on every call. */
function failingTool(name: string, category: ErrorCategory) {
  return defineTool({
    name,
    description: `Always fails with ${category}.`,
    params: z.object({ n: z.number() }).strict(),
    mutates: false,
    group: "read",
    kind: "other",
    invocation: { type: "call" },
    subjects: (p) => [String(p.n)],
    execute: (p) => Promise.reject(new ToolError(category, `Cannot run ${name}: broken (${p.n})`)),
  });
}

Deno.test("loop: a failing tool is reported, hidden from the model and refused until /unblock", async () => {
  await using h = await guardHarness({
    tools: [failingTool("flaky", "permanent_failure"), failingTool("net", "network_error")],
    config: (c) => {
      c.tools.anomaly.window_size = 3;
      c.tools.anomaly.failure_threshold = 0.5;
    },
    turns: [
      { tool_calls: [call("f1", "flaky", { n: 1 }), call("n1", "net", { n: 1 })] },
      { tool_calls: [call("f2", "flaky", { n: 2 }), call("n2", "net", { n: 2 })] },
      { tool_calls: [call("f3", "flaky", { n: 3 }), call("n3", "net", { n: 3 })] },
      // The model calls it anyway (a stale plan): refused, not run.
      { tool_calls: [call("f4", "flaky", { n: 4 })] },
      { text: "giving up" },
      { text: "after unblock" },
    ],
  });
  expect(await h.prompt()).toBe("end_turn");
  const tools = h.provider.requests.map((r) => r.tools.map((t) => t.name));
  expect(tools).toEqual([
    ["flaky", "net"],
    ["flaky", "net"],
    ["flaky", "net"],
    ["net"],
    ["net"],
  ]);
  const notices = h.events.filter((e) => e.type === "notice" && e.code === "anomaly");
  expect(notices).toEqual([
    {
      type: "notice",
      level: "error",
      code: "anomaly",
      message: 'Tool "flaky" failed 3 of its last 3 calls (100% > failure_threshold 0.5). It is ' +
        "blocked for this session: the model no longer sees it. Type /unblock flaky to allow it again.",
    },
    {
      type: "notice",
      level: "warn",
      code: "anomaly",
      message: 'Tool "net" hit infrastructure failures (rate limits, network or server errors, ' +
        "timeouts) in 3 of its last 3 calls (100% > failure_threshold 0.5). It stays available: " +
        "check the network or the service.",
    },
  ]);
  const f4 = h.results().find((r) => r.callId === "f4")!;
  expect(f4.isError).toBe(true);
  expect(f4.text).toContain(
    "error: Cannot run flaky: it is blocked for this session after repeated failures " +
      "([tools.anomaly] auto_block)",
  );
  expect(f4.text).toContain("/unblock flaky");

  expect(h.session.unblock("flaky")).toBe("flaky is unblocked: the model sees it again.");
  expect(h.session.unblock("flaky")).toBe("flaky is not blocked. No tool is blocked.");
  expect(await h.prompt("again")).toBe("end_turn");
  expect(h.provider.requests.at(-1)!.tools.map((t) => t.name)).toEqual(["flaky", "net"]);
});

Deno.test("/clear keeps a block (only /unblock or a new session lifts it)", async () => {
  await using h = await guardHarness({
    tools: [failingTool("flaky", "permanent_failure")],
    config: (c) => (c.tools.anomaly.window_size = 1),
    turns: [{ tool_calls: [call("f1", "flaky", { n: 1 })] }, { text: "done" }],
  });
  await h.prompt();
  h.session.clear();
  expect(h.session.guards.anomaly.blocked()).toEqual(["flaky"]);
  expect(h.session.unblock("")).toBe("Usage: /unblock <tool>. Blocked tools: flaky.");
});
