import { expect } from "expect";
import { defaultConfig, type PolicyRuleConfig } from "../../src/config/mod.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { AuditWriter } from "../../src/store/audit.ts";
import { auditHook } from "../../src/tools/hooks.ts";
import {
  commandPathWords,
  PolicyEnforcer,
  policyRuleWarnings,
} from "../../src/tools/policy_rules.ts";
import { call, guardHarness } from "./_guards.ts";

const rule = (r: Partial<PolicyRuleConfig> & Pick<PolicyRuleConfig, "effect" | "tool">) => ({
  paths: [],
  env: [],
  ...r,
});

function enforcer(
  policyRules: PolicyRuleConfig[],
  options: { authorization?: PolicyRuleConfig[]; policy?: boolean; default?: "allow" | "deny" } =
    {},
  env: Record<string, string> = {},
) {
  const config = defaultConfig();
  config.tools.policy.enabled = options.policy ?? true;
  config.tools.policy.rules = policyRules;
  config.tools.policy.default_effect = options.default ?? "deny";
  if (options.authorization) {
    config.tools.authorization.enabled = true;
    config.tools.authorization.rules = options.authorization;
  }
  return PolicyEnforcer.fromConfig(config, (n) => env[n]);
}

Deno.test("disabled sections build no enforcer", () => {
  expect(PolicyEnforcer.fromConfig(defaultConfig())).toBeNull();
});

Deno.test("first match wins, in order: tool glob, paths, args_match, env; else the default", () => {
  const e = enforcer(
    [
      rule({ effect: "allow", tool: "read", paths: ["/ws/public/**"] }),
      rule({ effect: "deny", tool: "shell", args_match: "\\bsudo\\b" }),
      rule({ effect: "deny", tool: "*", paths: ["/ws/**/secret*"] }),
      rule({ effect: "deny", tool: "web_*", env: ["OFFLINE"] }),
      rule({ effect: "allow", tool: "*" }),
    ],
    {},
    { OFFLINE: "1" },
  )!;
  const table: [string, string[], unknown, string][] = [
    [
      "read",
      ["/ws/public/secret.txt"],
      {},
      'tools.policy.rules[0] allow: tool "read" path "/ws/public/secret.txt" ~ "/ws/public/**"',
    ],
    [
      "read",
      ["/ws/src/secret.key"],
      {},
      'tools.policy.rules[2] deny: tool "*" path "/ws/src/secret.key" ~ "/ws/**/secret*"',
    ],
    [
      "bash",
      [],
      { command: "sudo ls" },
      'tools.policy.rules[1] deny: tool "shell" args_match "\\bsudo\\b"',
    ],
    ["bash", [], { command: "pseudonym" }, 'tools.policy.rules[4] allow: tool "*"'],
    [
      "web_scrape",
      [],
      { url: "https://x" },
      'tools.policy.rules[3] deny: tool "web_*" env OFFLINE',
    ],
    ["grep", [], { nested: [{ deep: "sudo" }] }, 'tools.policy.rules[4] allow: tool "*"'],
  ];
  expect(table.map(([tool, paths, params]) => e.evaluate({ tool, paths, params }).trace)).toEqual(
    table.map(([, , , trace]) => trace),
  );
  // args_match searches nested string values as well.
  const nested = enforcer([rule({ effect: "deny", tool: "*", args_match: "^rm -rf" })])!;
  expect(nested.evaluate({ tool: "x", paths: [], params: { a: [{ b: "rm -rf /" }] } }).effect)
    .toBe("deny");
  // No env: the web rule does not apply, the catch-all allows.
  const noEnv = enforcer([rule({ effect: "deny", tool: "web_*", env: ["OFFLINE"] })], {
    default: "allow",
  })!;
  expect(noEnv.evaluate({ tool: "web_scrape", paths: [], params: {} })).toEqual({
    effect: "allow",
    trace: "tools.policy.default_effect allow (no rule matched web_scrape)",
  });
});

Deno.test("authorization rules come after the policy's; alone, they default to allow", () => {
  const both = enforcer([rule({ effect: "allow", tool: "bash" })], {
    authorization: [rule({ effect: "deny", tool: "bash", args_match: "sudo" })],
  })!;
  expect(both.evaluate({ tool: "bash", paths: [], params: { command: "sudo x" } }).trace).toBe(
    'tools.policy.rules[0] allow: tool "bash"',
  );
  const authOnly = enforcer([rule({ effect: "allow", tool: "x" })], {
    policy: false,
    authorization: [rule({ effect: "deny", tool: "bash", args_match: "sudo" })],
  })!;
  expect(authOnly.evaluate({ tool: "bash", paths: [], params: { command: "sudo x" } }).trace)
    .toBe('tools.authorization.rules[0] deny: tool "bash" args_match "sudo"');
  expect(authOnly.evaluate({ tool: "bash", paths: [], params: { command: "ls" } })).toEqual({
    effect: "allow",
    trace: "tools.authorization (no rule matched) allow (no rule matched bash)",
  });
});

Deno.test("deniesAll: only an unconditional deny reached before any conditional allow", () => {
  const e = enforcer([
    rule({ effect: "allow", tool: "read", paths: ["/ws/**"] }),
    rule({ effect: "deny", tool: "read" }),
    rule({ effect: "deny", tool: "bash", args_match: "sudo" }),
    rule({ effect: "deny", tool: "bash" }),
    rule({ effect: "allow", tool: "grep" }),
  ])!;
  expect(["read", "bash", "grep", "write"].map((t) => e.deniesAll(t))).toEqual([
    false,
    true,
    false,
    true, // the default effect is deny
  ]);
});

Deno.test("commandPathWords: absolute, home and relative paths of a command line", () => {
  expect(commandPathWords("cat /etc/passwd; ls ~/x && cp a/b ./c > out.txt FOO=/tmp/y")).toEqual([
    "/etc/passwd",
    "~/x",
    "a/b",
    "./c",
    "/tmp/y",
  ]);
});

Deno.test("loop: a policy deny beats a permission allow; the model reads why; the audit holds the rule", async () => {
  const auditDir = await Deno.makeTempDir();
  const auditPath = `${auditDir}/audit.jsonl`;
  await using h = await guardHarness({
    config: (c) => {
      c.tools.policy.enabled = true;
      c.tools.policy.default_effect = "allow";
      c.tools.policy.rules = [rule({ effect: "deny", tool: "shell", args_match: "\\brm\\b" })];
    },
    // [tools.permissions] allows every bash command.
    policy: new PermissionPolicy({ bash: [{ pattern: "*", action: "allow" }] }),
    ask: null,
    finalHooks: [auditHook(new AuditWriter(auditPath))],
    turns: [
      { tool_calls: [call("b1", "bash", { command: "rm keep.txt" })] },
      { tool_calls: [call("b2", "bash", { command: "echo ran" })] },
      { text: "done" },
    ],
  });
  await Deno.writeTextFile(`${h.dir}/keep.txt`, "x");
  expect(await h.prompt()).toBe("end_turn");
  const [b1, b2] = h.results();
  expect(b1.isError).toBe(true);
  expect(b1.text).toContain(
    'error: Cannot run bash "rm keep.txt": denied by tools.policy.rules[0] deny: tool "shell" ' +
      'args_match "\\brm\\b"',
  );
  expect(b1.text).toContain("category: policy_blocked");
  expect(await Deno.readTextFile(`${h.dir}/keep.txt`)).toBe("x");
  expect([b2.isError, b2.text.includes("ran")]).toEqual([false, true]);
  const audit = (await Deno.readTextFile(auditPath)).trim().split("\n").map((l) => JSON.parse(l));
  expect(audit.map((a) => [a.tool, a.decision, a.result, a.policy_match])).toEqual([
    ["bash", "deny", "blocked", 'tools.policy.rules[0] deny: tool "shell" args_match "\\brm\\b"'],
    [
      "bash",
      "allow",
      "success",
      'tools.policy.default_effect allow (no rule matched bash); then tools.permissions.bash[0] allow "*"',
    ],
  ]);
  await Deno.remove(auditDir, { recursive: true });
});

Deno.test("loop: a policy allow does not skip a permission ask (non-interactive: refused)", async () => {
  await using h = await guardHarness({
    config: (c) => {
      c.tools.policy.enabled = true;
      c.tools.policy.rules = [rule({ effect: "allow", tool: "write" })];
    },
    ask: null,
    turns: [
      { tool_calls: [call("w1", "write", { path: "a.txt", content: "x" })] },
      { text: "done" },
    ],
  });
  expect(await h.prompt()).toBe("end_turn");
  const [w1] = h.results();
  expect(w1.isError).toBe(true);
  expect(w1.text).toContain("category: confirmation_required");
  expect(await Deno.stat(`${h.dir}/a.txt`).then(() => true, () => false)).toBe(false);
});

Deno.test("loop: paths match canonical spellings (a symlink into a denied directory), denied tools are hidden", async () => {
  await using h = await guardHarness({
    config: (c) => {
      c.tools.policy.enabled = true;
      c.tools.policy.default_effect = "allow";
      c.tools.policy.rules = [
        rule({ effect: "deny", tool: "*", paths: ["**/private/**"] }),
        rule({ effect: "deny", tool: "delete_path" }),
      ];
    },
    turns: [
      { tool_calls: [call("r1", "read", { path: "innocent/notes.txt" })] },
      { tool_calls: [call("r2", "read", { path: "public.txt" })] },
      { text: "done" },
    ],
  });
  await Deno.mkdir(`${h.dir}/private`);
  await Deno.writeTextFile(`${h.dir}/private/notes.txt`, "secret");
  await Deno.writeTextFile(`${h.dir}/public.txt`, "open");
  await Deno.symlink(`${h.dir}/private`, `${h.dir}/innocent`);
  expect(await h.prompt()).toBe("end_turn");
  const [r1, r2] = h.results();
  expect(r1.isError).toBe(true);
  expect(r1.text).toContain(`path "${h.dir}/private/notes.txt" ~ "**/private/**"`);
  expect(r1.text).not.toContain("secret\n");
  expect([r2.isError, r2.text.includes("open")]).toEqual([false, true]);
  const tools = h.provider.requests[0].tools.map((t) => t.name);
  expect(tools).not.toContain("delete_path");
  expect(tools).toContain("read");
});

Deno.test("loop: bash paths in the command meet the paths globs", async () => {
  await using h = await guardHarness({
    config: (c) => {
      c.tools.policy.enabled = true;
      c.tools.policy.default_effect = "allow";
      c.tools.policy.rules = [rule({ effect: "deny", tool: "bash", paths: ["/etc/**"] })];
    },
    turns: [
      { tool_calls: [call("b1", "bash", { command: "cat /etc/hostname" })] },
      { text: "done" },
    ],
  });
  expect(await h.prompt()).toBe("end_turn");
  expect(h.results()[0].text).toContain('path "/etc/hostname" ~ "/etc/**"');
});

Deno.test("policyRuleWarnings: a tool glob naming no tool, a policy that denies every tool", () => {
  const config = defaultConfig();
  const tools = ["bash", "read", "write"];
  expect(policyRuleWarnings(config, tools)).toEqual([]); // disabled: nothing to say
  config.tools.policy.enabled = true;
  config.tools.policy.rules = [
    rule({ effect: "deny", tool: "shell" }),
    rule({ effect: "deny", tool: "raed" }),
    rule({ effect: "allow", tool: "w*" }),
  ];
  config.tools.authorization.enabled = true;
  config.tools.authorization.rules = [
    rule({ effect: "deny", tool: "mcp_*" }), // may be meant for MCP tools: no warning
    rule({ effect: "deny", tool: "fetch" }),
  ];
  expect(policyRuleWarnings(config, tools)).toEqual([
    'tools.policy.rules[1]: tool "raed" names no tool, the rule applies to nothing (did you mean "read"?)',
    'tools.authorization.rules[1]: tool "fetch" names no tool, the rule applies to nothing',
  ]);
  config.tools.policy.rules = [];
  config.tools.authorization.enabled = false;
  expect(policyRuleWarnings(config, tools)).toEqual([
    '[tools.policy] denies every tool (default_effect = "deny" and no rule allows one): the ' +
    'model gets no tools. Add allow rules, or set default_effect = "allow".',
  ]);
});
