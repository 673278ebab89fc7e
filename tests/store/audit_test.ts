import { expect } from "expect";
import { NOT_SECRETS, SECRET_EXAMPLES, WIDE_SECRETS } from "../secrets/_examples.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import {
  type AuditEntry,
  auditRecordOf,
  AuditWriter,
  openAuditLog,
  readAuditLog,
  redactSecrets,
  resolveAuditPath,
} from "../../src/store/audit.ts";
import { ToolError } from "../../src/errors/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { z } from "zod";
import { auditHook } from "../_support/hooks.ts";

const echoTool = defineTool({
  name: "echo",
  description: "Echoes text; fails or times out on request.",
  params: z.object({ text: z.string(), mode: z.enum(["ok", "fail", "timeout"]).default("ok") }),
  mutates: true,
  kind: "other",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.text],
  execute: (p) => {
    if (p.mode === "fail") throw new ToolError("permanent_failure", "failed on purpose");
    if (p.mode === "timeout") throw new ToolError("timeout", "timed out on purpose");
    return Promise.resolve({ text: p.text, exitCode: 0, truncated: p.text.length > 5 });
  },
});

const readTool = defineTool({
  name: "read_two",
  description: "Reads nothing; exposes two paths.",
  params: z.object({ a: z.string(), b: z.string() }),
  mutates: false,
  kind: "read",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.a, p.b],
  execute: () => Promise.resolve({ text: "ok" }),
});

Deno.test("audit: one line per call for every tool, with decision, policy match and outcome", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/nested/audit.jsonl`;
  const config = defaultConfig();
  const registry = new ToolRegistry({
    tools: [echoTool, readTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({
      echo: [{ pattern: "*forbidden*", action: "deny" }, { pattern: "*", action: "allow" }],
    }),
    config,
    now: (() => {
      let t = 0;
      return () => (t += 10);
    })(),
  });
  const log = openAuditLog(config, path);
  registry.addFinalHook(auditHook(log, { now: () => new Date(Date.UTC(2026, 0, 2)) }));
  const scope = { cwd: dir, sandbox: await Sandbox.create(dir) };
  await registry.dispatch({ id: "1", name: "echo", input: { text: "hello world" } }, scope);
  await registry.dispatch({ id: "2", name: "echo", input: { text: "forbidden" } }, scope);
  await registry.dispatch({ id: "3", name: "echo", input: { text: "x", mode: "fail" } }, {
    ...scope,
    callerId: "acp-session-7",
  });
  await registry.dispatch(
    { id: "4", name: "echo", input: { text: "y", mode: "timeout" } },
    scope,
  );
  await registry.dispatch(
    { id: "5", name: "read_two", input: { a: "a.txt", b: "b.txt" } },
    scope,
  );
  await registry.dispatch({ id: "6", name: "nope", input: {} }, scope);
  await registry.dispatch(
    { id: "7", name: "echo", input: { text: "curl https://bob:hunter2@example.com" } },
    scope,
  );

  const { entries, skippedLines } = await readAuditLog(path);
  expect(skippedLines).toEqual([]);
  const base = {
    timestamp: "2026-01-02T00:00:00.000Z",
    caller_id: null,
    duration_ms: 10,
  };
  const allow = 'tools.permissions.echo[1] allow "*"';
  expect(entries).toEqual(
    [
      {
        ...base,
        tool: "echo",
        subject: "hello world",
        decision: "allow",
        policy_match: allow,
        result: "success",
        error_category: null,
        exit_code: 0,
        truncated: true,
      },
      {
        ...base,
        tool: "echo",
        subject: "forbidden",
        decision: "deny",
        policy_match: 'tools.permissions.echo[0] deny "*forbidden*"',
        result: "blocked",
        error_category: "policy_blocked",
        exit_code: null,
        truncated: false,
      },
      {
        ...base,
        tool: "echo",
        subject: "x",
        decision: "allow",
        policy_match: allow,
        caller_id: "acp-session-7",
        result: "error",
        error_category: "permanent_failure",
        exit_code: null,
        truncated: false,
      },
      {
        ...base,
        tool: "echo",
        subject: "y",
        decision: "allow",
        policy_match: allow,
        result: "timeout",
        error_category: "timeout",
        exit_code: null,
        truncated: false,
      },
      {
        ...base,
        tool: "read_two",
        subject: "a.txt, b.txt",
        decision: "allow",
        policy_match: null,
        result: "success",
        error_category: null,
        exit_code: null,
        truncated: false,
      },
      {
        ...base,
        tool: "nope",
        subject: null,
        decision: null,
        policy_match: null,
        result: "error",
        error_category: "tool_not_found",
        exit_code: null,
        truncated: false,
      },
      {
        ...base,
        tool: "echo",
        subject: "curl https://bob:[REDACTED]@example.com",
        decision: "allow",
        policy_match: allow,
        result: "success",
        error_category: null,
        exit_code: 0,
        truncated: true,
      },
    ] satisfies AuditEntry[],
  );
  if (Deno.build.os !== "windows") expect((await Deno.stat(path)).mode! & 0o777).toBe(0o600);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("audit: disabled writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  const config = defaultConfig();
  config.tools.audit.enabled = false;
  const registry = new ToolRegistry({
    tools: [echoTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({ echo: [{ pattern: "*", action: "allow" }] }),
    config,
  });
  const log = openAuditLog(config, `${dir}/audit.jsonl`);
  expect(log).toBe(null);
  registry.addFinalHook(auditHook(log));
  const result = await registry.dispatch(
    { id: "1", name: "echo", input: { text: "hi" } },
    { cwd: dir, sandbox: await Sandbox.create(dir) },
  );
  expect(result.ok).toBe(true);
  await expect(Deno.stat(`${dir}/audit.jsonl`)).rejects.toBeInstanceOf(Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("audit: auditRecordOf on a plain call falls back to the decision's subject", () => {
  const at = new Date(Date.UTC(2026, 0, 3));
  const result = {
    tool: "nope",
    outcome: "blocked" as const,
    category: "policy_blocked" as const,
    durationMs: 1.5,
    decision: { action: "deny" as const, policyMatch: "rule", subject: "TOKEN=abc cmd" },
  };
  const unknownTool = { params: { x: 1 }, scope: {} };
  const throwing = {
    tool: {
      subjects: (): string[] => {
        throw new Error("bad params");
      },
    },
    params: 7,
    scope: { callerId: "acp-1" },
  };
  const entries = [unknownTool, throwing].map((call) => auditRecordOf(result, call, { at }));
  expect(entries.map((e) => [e.subject, e.caller_id])).toEqual([
    ["TOKEN=[REDACTED] cmd", null],
    ["TOKEN=[REDACTED] cmd", "acp-1"],
  ]);
  expect(entries[0]).toEqual({
    timestamp: "2026-01-03T00:00:00.000Z",
    tool: "nope",
    subject: "TOKEN=[REDACTED] cmd",
    decision: "deny",
    policy_match: "rule",
    caller_id: null,
    result: "blocked",
    error_category: "policy_blocked",
    exit_code: null,
    truncated: false,
    duration_ms: 1.5,
  });
});

Deno.test("audit: the default path is in the XDG data directory", () => {
  const config = defaultConfig();
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  expect(resolveAuditPath(config, env({ XDG_DATA_HOME: "/x/data", HOME: "/h" })))
    .toBe("/x/data/zeph/audit.jsonl");
  expect(resolveAuditPath(config, env({ HOME: "/h" }))).toBe("/h/.local/share/zeph/audit.jsonl");
  config.tools.audit.path = "~/logs/a.jsonl";
  expect(resolveAuditPath(config, env({ HOME: "/h" }))).toBe("/h/logs/a.jsonl");
  config.tools.audit.path = "/var/log/zeph.jsonl";
  expect(resolveAuditPath(config, env({ HOME: "/h" }))).toBe("/var/log/zeph.jsonl");
});

Deno.test("audit: a writer killed with SIGKILL mid-stream never corrupts earlier lines", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/audit.jsonl`;
  const writer = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./_audit_writer.ts", import.meta.url).pathname, path, "200000"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  // Kill once at least 20 lines are complete; lines are ~200 KB so a write is often in flight.
  while (true) {
    const size = await Deno.stat(path).then((s) => s.size, () => 0);
    if (size > 20 * 200_000) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  writer.kill("SIGKILL");
  await writer.status;
  await writer.stderr.cancel();

  const first = await readAuditLog(path);
  expect(first.entries.length).toBeGreaterThanOrEqual(20);
  // Every complete line is an entry, in order; at most the last line is cut.
  expect(first.entries.map((e) => e.duration_ms)).toEqual(first.entries.map((_, i) => i));
  expect(first.entries.every((e) => e.subject === `${e.duration_ms} ${"x".repeat(200_000)}`))
    .toBe(true);
  const lineCount = (await Deno.readTextFile(path)).split("\n").filter((l) => l !== "").length;
  expect(first.skippedLines.length).toBe(lineCount - first.entries.length);
  expect(first.skippedLines.length).toBeLessThanOrEqual(1);
  if (first.skippedLines.length) expect(first.skippedLines).toEqual([lineCount]);

  // A single write() is rarely cut by SIGKILL (the kernel finishes it), so cut the last line
  // as a power loss would, then check the reader skips it and a later writer starts afresh.
  await Deno.writeTextFile(path, '{"timestamp":"2026-01-0', { append: true });
  const cut = await readAuditLog(path);
  expect(cut.entries.length).toBe(first.entries.length);
  expect(cut.skippedLines).toEqual([lineCount + (first.skippedLines.length ? 0 : 1)]);
  await new AuditWriter(path).append({ ...first.entries[0], subject: "after the crash" });
  const second = await readAuditLog(path);
  expect(second.entries.at(-1)?.subject).toBe("after the crash");
  expect(second.entries.length).toBe(first.entries.length + 1);
  expect(second.skippedLines).toEqual(cut.skippedLines);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("audit: secrets in subjects are redacted", () => {
  const table: [string, string][] = [
    ["ls -la", "ls -la"],
    [
      "git clone https://user:s3cret@github.com/x/y",
      "git clone https://user:[REDACTED]@github.com/x/y",
    ],
    ["GITHUB_TOKEN=abc123 gh pr list", "GITHUB_TOKEN=[REDACTED] gh pr list"],
    ["export DB_PASSWORD='p w'", "export DB_PASSWORD=[REDACTED]"],
    ["mysql --password=hunter2 db", "mysql --password=[REDACTED] db"],
    ["tool --api-key abcdef --verbose", "tool --api-key [REDACTED] --verbose"],
    ['curl -H "Authorization: Bearer abcdefghijkl"', 'curl -H "Authorization: Bearer [REDACTED]"'],
    ["echo sk-ant-api03-abcdefghijklmnopqrstuv", "echo [REDACTED]"],
    ["echo ghp_abcdefghijklmnopqrstuvwxyz0123456789", "echo [REDACTED]"],
    ["aws AKIAABCDEFGHIJKLMNOP", "aws [REDACTED]"],
    ["AUTHOR=me PWD=/x make", "AUTHOR=me PWD=/x make"],
    ["DEPLOY_KEY=xyz ./deploy", "DEPLOY_KEY=[REDACTED] ./deploy"],
    ["src/token_parser.ts", "src/token_parser.ts"],
    // HTTP auth schemes are case-insensitive.
    ['curl -H "Authorization: bearer abcdefghijkl"', 'curl -H "Authorization: bearer [REDACTED]"'],
    ['curl -H "Authorization: token abcdefghijkl"', 'curl -H "Authorization: token [REDACTED]"'],
    // curl's user:password.
    ["curl -u admin:hunter2xyz https://x.io", "curl -u admin:[REDACTED] https://x.io"],
    ["curl --user=admin:hunter2xyz https://x.io", "curl --user=admin:[REDACTED] https://x.io"],
    // Secret query parameters of a URL (the scheme's ':' must not hide them).
    [
      "https://api.x.io/v1?access_token=abc123&page=2",
      "https://api.x.io/v1?access_token=[REDACTED]&page=2",
    ],
    ["curl 'https://x.io/a?b=1&api_key=zz9'", "curl 'https://x.io/a?b=1&api_key=[REDACTED]'"],
    // JSON bodies and headers written without a space.
    [
      `curl -d '{"password":"hun ter2","user":"a"}' x.io`,
      `curl -d '{"password":"[REDACTED]","user":"a"}' x.io`,
    ],
    [`curl -d '{"api_key": "abc123"}' x.io`, `curl -d '{"api_key": "[REDACTED]"}' x.io`],
    ["curl -H 'X-Api-Key:abc123' x.io", "curl -H 'X-Api-Key:[REDACTED]' x.io"],
    ["docker run -v token:/data img", "docker run -v token:/data img"],
    // A raw '@' inside the password.
    ["git clone https://u:p@ss@host/r", "git clone https://u:[REDACTED]@host/r"],
  ];
  expect(table.map(([input]) => [input, redactSecrets(input)])).toEqual(table);
});

Deno.test("audit: every credential of the shared examples is redacted, near misses are kept", () => {
  expect(SECRET_EXAMPLES.map(([kind, line]) => [kind, redactSecrets(line)])).toEqual(
    SECRET_EXAMPLES.map(([kind, line, secret]) => [
      kind,
      kind === "password in URL"
        ? line.replace(/:hunter2@/, ":[REDACTED]@")
        // The header's name and scheme stay readable, as for a `Bearer` anywhere.
        : kind === "HTTP Authorization credential"
        ? line.replace(/Bearer \S+/, "Bearer [REDACTED]")
        : line.replace(secret, "[REDACTED]"),
    ]),
  );
  expect(NOT_SECRETS.map(redactSecrets)).toEqual(NOT_SECRETS);
  // The redactor errs wide: shorter and older tokens of a vendor's prefix go too.
  expect(WIDE_SECRETS.map(([, secret]) => redactSecrets(`x ${secret} y`)))
    .toEqual(WIDE_SECRETS.map(() => "x [REDACTED] y"));
});
