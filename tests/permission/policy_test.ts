import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import {
  type Decision,
  legacyShellRules,
  mostRestrictive,
  PermissionPolicy,
} from "../../src/permission/policy.ts";
import type { Autonomy, PermissionAction } from "../../src/config/schema.ts";
import { compileGlob } from "../../src/permission/glob.ts";
import { installShellAnalyzer } from "../../src/permission/shell.ts";
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

/** Rule lists × subjects: the first matching rule decides, whatever its action. */
const FIRST_MATCH: { rules: [string, PermissionAction][]; cases: [string, PermissionAction][] }[] =
  [
    {
      rules: [["ls *", "allow"], ["*", "deny"]],
      cases: [["ls -la", "allow"], ["ls", "deny"], ["rm -rf x", "deny"]],
    },
    {
      rules: [["*", "allow"], ["*rm*", "deny"]],
      cases: [["rm -rf x", "allow"], ["ls", "allow"]],
    },
    {
      rules: [["git push*", "deny"], ["git *", "allow"], ["*", "ask"]],
      cases: [["git push origin", "deny"], ["git status", "allow"], ["make", "ask"]],
    },
    {
      rules: [["git *", "allow"], ["git push*", "deny"]],
      cases: [["git push origin", "allow"], ["git log", "allow"], ["hg log", "ask"]],
    },
    {
      rules: [["*secret*", "ask"], ["cat *", "allow"], ["*", "deny"]],
      cases: [["cat secret.txt", "ask"], ["cat a.txt", "allow"], ["head a.txt", "deny"]],
    },
  ];

Deno.test("the first matching rule wins, a deny included (table)", () => {
  const got: string[] = [];
  const want: string[] = [];
  for (const { rules, cases } of FIRST_MATCH) {
    const policy = new PermissionPolicy({
      bash: rules.map(([pattern, action]) => ({ pattern, action })),
    });
    for (const [subject, action] of cases) {
      const d = policy.evaluate("bash", subject);
      const index = rules.findIndex(([p]) => compileGlob(p).test(subject));
      got.push(`${rules.map((r) => r.join(":"))} | ${subject} → ${d.action} ${d.policyMatch}`);
      want.push(
        `${rules.map((r) => r.join(":"))} | ${subject} → ${action} ${
          index < 0
            ? null
            : `tools.permissions.bash[${index}] ${rules[index][1]} "${rules[index][0]}"`
        }`,
      );
    }
  }
  expect(got).toEqual(want);
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
  Object.assign(config.tools.permissions, {
    read: [{ pattern: "*.env", action: "deny" }],
  });
  const policy = PermissionPolicy.fromConfig(config);
  expect(policy.hasRules("bash")).toBe(false);
  expect(policy.evaluate("read", "a/.env").action).toBe("deny");
  // Defaults: no legacy rule denies anything, `$(` asks.
  const defaults = PermissionPolicy.fromConfig(defaultConfig());
  expect(defaults.evaluate("bash", "echo $(id)").action).toBe("ask");
  expect(defaults.evaluate("bash", "ls -la").action).toBe("allow");
});

Deno.test("command lines: first match per simple command, the most restrictive across them", async () => {
  const table: { rules: [string, PermissionAction][]; line: string; action: PermissionAction }[] = [
    { rules: [["ls *", "allow"], ["*", "deny"]], line: "ls -la", action: "allow" },
    { rules: [["ls *", "allow"], ["*", "deny"]], line: "ls -la && rm x", action: "deny" },
    { rules: [["ls *", "allow"], ["*", "deny"]], line: "ls -la | wc -l", action: "deny" },
    { rules: [["ls *", "allow"], ["wc *", "ask"]], line: "ls -la | wc -l", action: "ask" },
    { rules: [["git *", "allow"], ["git push*", "deny"]], line: "git push", action: "allow" },
    // The spec's blocked commands are enforced whatever the rules say.
    { rules: [["*", "allow"]], line: "ls; sudo ls", action: "deny" },
    { rules: [["sudo *", "allow"]], line: "sudo ls", action: "deny" },
  ];
  const got: string[] = [];
  for (const { rules, line } of table) {
    const config = defaultConfig();
    Object.assign(config.tools.permissions, {
      bash: rules.map(([pattern, action]) => ({ pattern, action })),
    });
    const policy = PermissionPolicy.fromConfig(config);
    installShellAnalyzer(policy, config);
    got.push(`${line} → ${(await policy.decide(bashLikeTool, { command: line })).action}`);
  }
  expect(got).toEqual(table.map((t) => `${t.line} → ${t.action}`));
});

const writeLike = {
  name: "write",
  mutates: true,
  pathSubjects: true,
  subjects: (p: unknown) => [(p as { path: string }).path],
};
const readLike = { ...writeLike, name: "read", mutates: false };

Deno.test("autonomy levels: readonly refuses writers, full lifts asks, supervised asks destructive (table)", async () => {
  const table: [Autonomy, boolean, string, PermissionAction][] = [
    // [autonomy, OS sandbox, command, decision] with no [tools.permissions] rules (legacy).
    ["supervised", false, "git status", "allow"],
    ["supervised", false, "ls -la | wc -l", "allow"],
    ["supervised", false, "make build", "allow"],
    ["supervised", false, "git clean -fdx", "ask"],
    ["supervised", false, "echo x > important.txt", "ask"],
    ["supervised", false, "git reset --hard HEAD~1", "ask"],
    ["supervised", false, "git checkout -- src/a.ts", "ask"],
    ["supervised", false, "git stash drop", "ask"],
    ["supervised", false, "git branch -D old", "ask"],
    ["supervised", false, "find . -name '*.o' -delete", "ask"],
    ["supervised", false, "truncate -s 0 log.txt", "ask"],
    ["supervised", false, "sed -i s/a/b/ f.txt", "ask"],
    ["supervised", false, "ls && rm -r -f build", "ask"],
    ["supervised", false, "psql -c 'drop table x'", "ask"],
    ["supervised", true, "psql -c 'drop table x'", "allow"],
    ["supervised", true, "rm x", "ask"],
    ["supervised", true, "sudo ls", "deny"],
    ["readonly", false, "git status", "allow"],
    ["readonly", false, "cat a.txt | grep x", "allow"],
    ["readonly", false, "make build", "deny"],
    ["readonly", false, "ls > out.txt", "deny"],
    ["readonly", false, "ls; touch x", "deny"],
    ["full", false, "rm -rf build", "allow"],
    ["full", false, "echo $(id)", "allow"],
    ["full", false, "sudo ls", "deny"],
  ];
  const got: string[] = [];
  for (const [autonomy, unaskedInSandbox, command] of table) {
    const config = defaultConfig();
    const policy = PermissionPolicy.fromConfig(config, { autonomy, unaskedInSandbox });
    installShellAnalyzer(policy, config);
    const d = await policy.decide(bashLikeTool, { command });
    got.push(`${autonomy} ${unaskedInSandbox} ${command} → ${d.action}`);
  }
  expect(got).toEqual(table.map(([a, s, c, action]) => `${a} ${s} ${c} → ${action}`));
});

Deno.test("autonomy readonly refuses mutating tools with a reason; reading tools run", async () => {
  const policy = new PermissionPolicy({}, { autonomy: "readonly" });
  const d = await policy.decide(writeLike, { path: "a.txt" });
  expect([d.action, d.policyMatch]).toEqual(["deny", 'tools.permissions.autonomy = "readonly"']);
  expect(d.reason).toContain('write changes files and autonomy is "readonly"');
  expect((await policy.decide(readLike, { path: "a.txt" })).action).toBe("allow");
});

Deno.test("file tools ask before writing a protected path even when a rule allows it (table)", async () => {
  const policy = new PermissionPolicy({
    write: [{ pattern: "*", action: "allow" }],
    read: [{ pattern: "*", action: "allow" }],
  });
  const table: [string, PermissionAction, PermissionAction][] = [
    // [path, write, read]
    ["src/a.ts", "allow", "allow"],
    [".git/config", "ask", "allow"],
    [".git/hooks/pre-commit", "ask", "allow"],
    ["./.envrc", "ask", "allow"],
    [".gitattributes", "ask", "allow"],
    [".zeph/state.json", "ask", "allow"],
    [".vscode/settings.json", "ask", "allow"],
    [".vscode/launch.json", "allow", "allow"],
    [".mcp.json", "ask", "allow"],
    [".bashrc", "ask", "allow"],
    ["docs/.git-notes.md", "allow", "allow"],
  ];
  const got: string[] = [];
  for (const [path] of table) {
    const w = await policy.decide(writeLike, { path });
    const r = await policy.decide(readLike, { path });
    got.push(`${path} ${w.action} ${r.action}`);
  }
  expect(got).toEqual(table.map((t) => t.join(" ")));
  const custom = new PermissionPolicy({ write: [{ pattern: "*", action: "allow" }] }, {
    protectedPaths: ["deploy/**"],
  });
  const d = await custom.decide(writeLike, { path: "deploy/prod.yml" });
  expect([d.action, d.policyMatch]).toEqual([
    "ask",
    'tools.permissions.protected_paths "deploy/**"',
  ]);
  expect((await custom.decide(writeLike, { path: ".git/config" })).action).toBe("allow");
});

Deno.test("protected paths hold at any depth and for the directories that hold them (table)", async () => {
  // A nested repository's hooks run at a git command inside it, direnv loads a subdirectory's
  // .envrc, and moving a directory onto .git (or .git away) replaces every hook at once.
  const policy = new PermissionPolicy({
    write: [{ pattern: "*", action: "allow" }],
    move_path: [{ pattern: "*", action: "allow" }],
  });
  const moveLike = {
    ...writeLike,
    name: "move_path",
    subjects: (p: unknown) => [(p as { from: string }).from, (p as { to: string }).to],
  };
  const table: [string, string, PermissionAction][] = [
    ["write", "sub/.git/hooks/pre-commit", "ask"],
    ["write", "vendor/lib/.git/config", "ask"],
    ["write", "app/.envrc", "ask"],
    ["write", "sub/.vscode/launch.json", "allow"],
    ["write", "sub/git/hooks/x", "allow"],
    ["write", "docs/.git-notes.md", "allow"],
    ["write", ".gitx", "allow"],
    ["move", "evil -> .git", "ask"],
    ["move", ".git -> old", "ask"],
    ["move", ".vscode -> v", "ask"],
    ["move", "sub/.git -> x", "ask"],
    ["move", ".github -> gh", "allow"],
    ["move", "a -> b", "allow"],
  ];
  const got: string[] = [];
  for (const [kind, subject] of table) {
    const [from, to] = subject.split(" -> ");
    const d = kind === "write"
      ? await policy.decide(writeLike, { path: subject })
      : await policy.decide(moveLike, { from, to });
    got.push(`${kind} ${subject} ${d.action}`);
  }
  expect(got).toEqual(table.map((t) => t.join(" ")));
  // Tails are taken of the workspace-relative spelling only: a workspace under ~/.zeph/ is not
  // protected as a whole, while a protected path inside it still is.
  const forms = (rel: string) => () => Promise.resolve([rel, `/home/u/.zeph/ws/${rel}`]);
  const plain = await policy.decide(writeLike, { path: "a.txt" }, { pathForms: forms("a.txt") });
  expect(plain.action).toBe("allow");
  const hook = ".git/hooks/x";
  expect((await policy.decide(writeLike, { path: hook }, { pathForms: forms(hook) })).action)
    .toBe("ask");
});

Deno.test("a > redirect asks when it may overwrite a file, not when it creates one (table)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/important.txt`, "keep\n");
    await Deno.mkdir(`${dir}/sub`);
    const config = defaultConfig();
    const policy = PermissionPolicy.fromConfig(config);
    installShellAnalyzer(policy, config);
    const pathForms = (s: string) => Promise.resolve(s.startsWith("/") ? [s] : [s, `${dir}/${s}`]);
    const table: [string, PermissionAction][] = [
      ["echo x > important.txt", "ask"],
      ["echo x >| important.txt", "ask"],
      ["echo x 2> important.txt", "ask"],
      ["echo x > new.txt", "allow"],
      ["echo x >> important.txt", "allow"],
      ["echo x > sub/new.txt", "allow"],
      // Unresolvable or moved targets may overwrite: fail closed.
      ["echo x > $f", "ask"],
      ["echo x > *.txt", "ask"],
      ["cd sub && echo x > new.txt", "ask"],
      ["echo x > /dev/null", "allow"],
    ];
    const got: string[] = [];
    for (const [command] of table) {
      got.push(
        `${command} → ${(await policy.decide(bashLikeTool, { command }, { pathForms })).action}`,
      );
    }
    expect(got).toEqual(table.map(([c, a]) => `${c} → ${a}`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("autonomy readonly hides mutating tools without an analyser from the catalog", () => {
  const readonly = new PermissionPolicy({}, { autonomy: "readonly" });
  readonly.setAnalyzer("bash", () => ({ action: "ask", policyMatch: null, subject: null }));
  const supervised = new PermissionPolicy({});
  const tools: [string, boolean][] = [["write", true], ["read", false], ["bash", true]];
  expect(tools.map(([t, m]) => [t, readonly.isFullyDenied(t, m), supervised.isFullyDenied(t, m)]))
    .toEqual([["write", true, false], ["read", false, false], ["bash", false, false]]);
});

Deno.test("an 'always' to a destructive command approves that line, not every overwrite", async () => {
  const config = defaultConfig();
  const policy = PermissionPolicy.fromConfig(config);
  installShellAnalyzer(policy, config);
  // Without path forms every `>` may overwrite a file: each asks as destructive.
  const first = await policy.decide(bashLikeTool, { command: "echo x > b.txt" });
  expect(first.action).toBe("ask");
  policy.addSessionRule("bash", first.alwaysPattern!, "allow");
  const again = await policy.decide(bashLikeTool, { command: "echo x > b.txt" });
  const other = await policy.decide(bashLikeTool, { command: "echo x > important.txt" });
  const rm = await policy.decide(bashLikeTool, { command: "rm -f important.txt" });
  expect([again.action, other.action, rm.action]).toEqual(["allow", "ask", "ask"]);
});

Deno.test("inside the OS sandbox the default confirm patterns rest, one the user added still asks", async () => {
  const config = defaultConfig();
  config.tools.shell.confirm_patterns = [...config.tools.shell.confirm_patterns, "git push"];
  const policy = PermissionPolicy.fromConfig(config, { unaskedInSandbox: true });
  installShellAnalyzer(policy, config);
  const push = await policy.decide(bashLikeTool, { command: "git push origin main" });
  const other = await policy.decide(bashLikeTool, { command: "make build" });
  expect([push.action, push.policyMatch, other.action, other.policyMatch]).toEqual([
    "ask",
    'tools.shell.confirm_patterns "git push"',
    "allow",
    "bash analysis: inside the OS sandbox",
  ]);
});

Deno.test("protected paths stay asks only a person may answer, at every autonomy level", async () => {
  const rows: string[] = [];
  for (const autonomy of ["supervised", "full"] as Autonomy[]) {
    const policy = new PermissionPolicy({ write: [{ pattern: "*", action: "allow" }] }, {
      autonomy,
    });
    const config = defaultConfig();
    installShellAnalyzer(policy, config);
    const file = await policy.decide(writeLike, { path: ".git/hooks/pre-commit" });
    const plain = await policy.decide(writeLike, { path: "notes.txt" });
    const shell = await policy.decide(bashLikeTool, { command: "echo x >> .git/config" });
    rows.push(
      `${autonomy}: ${file.action}/${file.humanOnly} ${plain.action}/${!!plain.humanOnly} ` +
        `${shell.action}/${shell.humanOnly}`,
    );
  }
  expect(rows).toEqual([
    "supervised: ask/true allow/false ask/true",
    "full: ask/true allow/false ask/true",
  ]);
});
