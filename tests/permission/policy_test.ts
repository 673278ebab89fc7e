import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import {
  type Decision,
  legacyShellRules,
  mostRestrictive,
  PermissionPolicy,
} from "../../src/permission/policy.ts";
import { bashLikeTool, echoTool, touchTool } from "../tools/_fixtures.ts";

Deno.test("first matching rule wins; no match asks when the tool has rules", () => {
  const policy = new PermissionPolicy({
    bash: [
      { pattern: "*sudo*", action: "deny" },
      { pattern: "cargo *", action: "allow" },
      { pattern: "git *", action: "ask" },
    ],
  });
  const cases: [string, string, string | null][] = [
    ["sudo cargo build", "deny", 'tools.permissions.bash[0] deny "*sudo*"'],
    ["cargo build", "allow", 'tools.permissions.bash[1] allow "cargo *"'],
    ["CARGO TEST", "allow", 'tools.permissions.bash[1] allow "cargo *"'],
    ["git push", "ask", 'tools.permissions.bash[2] ask "git *"'],
    ["ls", "ask", null],
  ];
  expect(cases.map(([s]) => {
    const d = policy.evaluate("bash", s);
    return [s, d.action, d.policyMatch];
  })).toEqual(cases);
});

Deno.test("earlier rules shadow later ones (order is the user's)", () => {
  const policy = new PermissionPolicy({
    bash: [{ pattern: "*", action: "allow" }, { pattern: "*rm*", action: "deny" }],
  });
  // The deny is checked first against configured rules, so it is not shadowed for deny…
  expect(policy.evaluate("bash", "rm -rf x").action).toBe("deny");
  const askFirst = new PermissionPolicy({
    bash: [{ pattern: "*", action: "allow" }, { pattern: "*rm*", action: "ask" }],
  });
  // …but a later ask is: the first match (allow) wins.
  expect(askFirst.evaluate("bash", "rm -rf x").action).toBe("allow");
});

Deno.test("without rules: read-only tools run, mutating tools ask", async () => {
  const policy = new PermissionPolicy({});
  expect((await policy.decide(echoTool(), { path: "a" })).action).toBe("allow");
  expect((await policy.decide(touchTool, { from: "a", to: "b" })).action).toBe("ask");
  expect(policy.defaultAction(echoTool())).toBe("allow");
  const ruled = new PermissionPolicy({ echo: [{ pattern: "*.md", action: "allow" }] });
  expect(ruled.defaultAction(echoTool())).toBe("ask");
  expect((await ruled.decide(echoTool(), { path: "a.ts" })).action).toBe("ask");
});

Deno.test("several subjects: the most restrictive decision wins (move checks both ends)", async () => {
  const policy = new PermissionPolicy({
    touch: [{ pattern: "secret/*", action: "deny" }, { pattern: "*", action: "allow" }],
  });
  const d = await policy.decide(touchTool, { from: "a.txt", to: "secret/b.txt" });
  expect([d.action, d.subject]).toEqual(["deny", "secret/b.txt"]);
  const ok = await policy.decide(touchTool, { from: "a.txt", to: "b.txt" });
  expect([ok.action, ok.subject]).toEqual(["allow", "a.txt"]);
});

Deno.test("mostRestrictive: deny > ask > allow; empty is null", () => {
  const d = (action: Decision["action"], subject: string): Decision => ({
    action,
    subject,
    policyMatch: null,
  });
  expect(mostRestrictive([d("allow", "a"), d("ask", "b"), d("allow", "c")])?.subject).toBe("b");
  expect(mostRestrictive([d("ask", "a"), d("deny", "b"), d("ask", "c")])?.subject).toBe("b");
  expect(mostRestrictive([])).toBe(null);
});

Deno.test("session rules come before configured ones but never override a configured deny", () => {
  const policy = new PermissionPolicy({
    bash: [{ pattern: "*sudo*", action: "deny" }, { pattern: "*", action: "ask" }],
  });
  policy.addSessionRule("bash", "*", "allow");
  expect(policy.evaluate("bash", "ls").action).toBe("allow");
  expect(policy.evaluate("bash", "sudo ls").action).toBe("deny");
  policy.clearSessionRules();
  expect(policy.evaluate("bash", "ls").action).toBe("ask");
});

Deno.test("a fully denied tool is detected (every rule denies)", () => {
  const policy = new PermissionPolicy({
    a: [{ pattern: "*", action: "deny" }],
    b: [{ pattern: "x", action: "deny" }, { pattern: "*", action: "allow" }],
    c: [],
  });
  expect(["a", "b", "c", "d"].map((t) => policy.isFullyDenied(t))).toEqual([
    true,
    false,
    false,
    false,
  ]);
});

Deno.test("an analyser replaces the generic evaluation for its tool", async () => {
  const policy = new PermissionPolicy({ bash: [{ pattern: "*", action: "allow" }] });
  const seen: unknown[] = [];
  policy.setAnalyzer("bash", (params, p) => {
    seen.push(params);
    expect(p).toBe(policy);
    return Promise.resolve({
      action: "deny",
      policyMatch: "analyser",
      subject: "x",
      reason: "parsed",
    });
  });
  const d = await policy.decide(bashLikeTool, { command: "ls" });
  expect(d).toEqual({ action: "deny", policyMatch: "analyser", subject: "x", reason: "parsed" });
  expect(seen).toEqual([{ command: "ls" }]);
});

Deno.test("legacy [tools.shell] lists convert to deny/ask rules then allow", () => {
  const config = defaultConfig();
  config.tools.shell.blocked_commands = ["sudo", "curl"];
  config.tools.shell.confirm_patterns = ["rm ", "git push -f"];
  config.tools.shell.allowed_commands = ["RM "];
  expect(legacyShellRules(config)).toEqual([
    { pattern: "*sudo*", action: "deny" },
    { pattern: "*curl*", action: "deny" },
    { pattern: "*git push -f*", action: "ask" },
    { pattern: "*", action: "allow" },
  ]);
  const policy = PermissionPolicy.fromConfig(config);
  expect(
    ["sudo ls", "git push -f origin", "rm x", "ls"].map((c) => policy.evaluate("bash", c).action),
  ).toEqual(["deny", "ask", "allow", "allow"]);
});

Deno.test("[tools.permissions], when present, replaces the legacy lists entirely", () => {
  const config = defaultConfig();
  config.tools.shell.blocked_commands = ["sudo"];
  config.tools.permissions = { read: [{ pattern: "*.env", action: "deny" }] };
  const policy = PermissionPolicy.fromConfig(config);
  expect(policy.hasRules("bash")).toBe(false);
  expect(policy.evaluate("read", "a/.env").action).toBe("deny");
  // Defaults: no legacy rule denies anything, `$(` asks.
  const defaults = PermissionPolicy.fromConfig(defaultConfig());
  expect(defaults.evaluate("bash", "echo $(id)").action).toBe("ask");
  expect(defaults.evaluate("bash", "ls -la").action).toBe("allow");
});
