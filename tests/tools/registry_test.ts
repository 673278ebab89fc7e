import { expect } from "expect";
import { defaultConfig, type PermissionRuleConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { ToolError } from "../../src/errors/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { FILE_TOOLS } from "../../src/tools/file_tools.ts";
import type { ToolExecutor } from "../../src/tools/executors/mod.ts";
import type { AskAnswer } from "../../src/tools/ask_reply.ts";
import {
  type AskRequest,
  type CallScope,
  type FinalHook,
  type OutputHook,
  ToolRegistry,
  type ToolResult,
} from "../../src/tools/registry.ts";
import { defaultToolDeps } from "../../src/tools/deps.ts";
import { defineTool, type ToolContext } from "../../src/tools/tool.ts";
import { builtinTools } from "../../src/tools/catalog.ts";
import { definitionsFor } from "../../src/agent/tool_selection.ts";
import { z } from "zod";
import {
  bashLikeTool,
  echoTool,
  failingTool,
  makeRegistry,
  scrapeLikeTool,
  touchTool,
} from "./_fixtures.ts";

/** Strips the timing so whole results can be compared. */
function stable(result: ToolResult): Omit<ToolResult, "durationMs"> {
  const { durationMs: _, ...rest } = result;
  return rest;
}

Deno.test("unknown tool: Roo wording listing the available tools, nothing executed", async () => {
  const seen: ToolContext[] = [];
  const { registry, scope } = await makeRegistry([echoTool(seen), touchTool]);
  const result = await registry.dispatch({ id: "c1", name: "raed", input: {} }, scope);
  expect(stable(result)).toEqual({
    callId: "c1",
    tool: "raed",
    ok: false,
    text: [
      "[tool_error]",
      "category: tool_not_found",
      'error: Unknown tool "raed". Available tools: echo, touch',
      "suggestion: Check the tool name against the list of available tools.",
      "retryable: false",
    ].join("\n"),
    category: "tool_not_found",
    error: 'Unknown tool "raed". Available tools: echo, touch',
    retryable: false,
    decision: undefined,
    outcome: "error",
    output: undefined,
  });
  expect(seen).toEqual([]);
});

Deno.test("unknown tool: fully denied tools are not offered as available", async () => {
  const { registry, scope } = await makeRegistry([echoTool(), touchTool], {
    rules: { touch: [{ pattern: "*", action: "deny" }] },
  });
  const result = await registry.dispatch({ id: "c", name: "nope", input: {} }, scope);
  expect(result.error).toBe('Unknown tool "nope". Available tools: echo');
});

Deno.test("invalid parameters list every issue with its path and ask for valid input", async () => {
  const { registry, scope } = await makeRegistry([echoTool()]);
  const result = await registry.dispatch(
    { id: "c", name: "echo", input: { times: 0, extra: true } },
    scope,
  );
  expect([result.ok, result.category, result.outcome]).toEqual([
    false,
    "invalid_parameters",
    "error",
  ]);
  expect(result.error).toBe(
    [
      'Invalid parameters for tool "echo":',
      "- path: Invalid input: expected string, received undefined",
      "- times: Too small: expected number to be >=1",
      "- extra: Unknown parameter",
    ].join("\n"),
  );
  expect(result.text).toBe(
    [
      "[tool_error]",
      "category: invalid_parameters",
      'error: Invalid parameters for tool "echo": - path: Invalid input: expected string, received undefined - times: Too small: expected number to be >=1 - extra: Unknown parameter',
      "suggestion: Call the tool again with input that matches its parameter schema. Parameters of echo: path, times.",
      "retryable: false",
    ].join("\n"),
  );
});

Deno.test("every tool rejects an unknown parameter with a did-you-mean, strict schema or not", async () => {
  const loose = defineTool({
    name: "loose",
    description: "A tool whose schema is not strict.",
    params: z.object({ path: z.string(), limit: z.number().optional() }),
    mutates: false,
    group: "read",
    kind: "read",
    invocation: { type: "call" },
    subjects: (p) => [p.path],
    execute: (p) => Promise.resolve({ text: `read ${p.path} limit ${p.limit}` }),
  });
  const { registry, scope } = await makeRegistry([loose, echoTool()]);
  const typo = await registry.dispatch(
    { id: "c", name: "loose", input: { path: "a", lmit: 1 } },
    scope,
  );
  expect([typo.ok, typo.category, typo.error]).toEqual([
    false,
    "invalid_parameters",
    'Invalid parameters for tool "loose":\n- lmit: Unknown parameter (did you mean "limit"?)',
  ]);
  expect(typo.text).toContain("Parameters of loose: path, limit.");
  const strict = await registry.dispatch(
    { id: "c", name: "echo", input: { path: "a", time: 2 } },
    scope,
  );
  expect(strict.error).toBe(
    'Invalid parameters for tool "echo":\n- time: Unknown parameter (did you mean "times"?)',
  );
  const fine = await registry.dispatch({ id: "c", name: "loose", input: { path: "a" } }, scope);
  expect([fine.ok, fine.text]).toEqual([true, "read a limit undefined"]);
});

Deno.test("a present value of the wrong type is a type_mismatch; null input is an empty object", async () => {
  const { registry, scope } = await makeRegistry([echoTool()]);
  const wrong = await registry.dispatch({ id: "c", name: "echo", input: { path: 7 } }, scope);
  expect([wrong.category, wrong.error]).toEqual([
    "type_mismatch",
    'Invalid parameters for tool "echo":\n- path: Invalid input: expected string, received number',
  ]);
  const empty = await registry.dispatch({ id: "c", name: "echo", input: null }, scope);
  expect(empty.category).toBe("invalid_parameters");
});

Deno.test("validated params (with defaults) reach the tool; the context carries the scope and deps", async () => {
  const seen: ToolContext[] = [];
  const overflow = { overflowSlice: () => null };
  const { registry, scope } = await makeRegistry([echoTool(seen)], { deps: { overflow } });
  const result = await registry.dispatch(
    { id: "call-9", name: "echo", input: { path: "ab" } },
    { ...scope, conversationId: "conv", callerId: "agent" },
  );
  expect(stable(result)).toEqual({
    callId: "call-9",
    tool: "echo",
    ok: true,
    text: "ab",
    output: { text: "ab" },
    decision: { action: "allow", policyMatch: null, subject: "ab", alwaysPattern: "ab" },
    outcome: "success",
  });
  expect(seen.length).toBe(1);
  const ctx = seen[0];
  expect([ctx.cwd, ctx.callId, ctx.conversationId, ctx.callerId]).toEqual([
    scope.cwd,
    "call-9",
    "conv",
    "agent",
  ]);
  // What the caller passed, and the real thing for every member it left out.
  const real = defaultToolDeps();
  expect(ctx.overflow).toBe(overflow);
  expect([ctx.files, ctx.runner, ctx.web, ctx.analyzeShell]).toEqual([
    real.files,
    real.runner,
    real.web,
    real.analyzeShell,
  ]);
  expect(ctx.sandbox).toBe(scope.sandbox);
  expect(ctx.config).toBe(registry.config);
});

Deno.test("deny: policy_blocked naming the rule's subject, tool not executed", async () => {
  const seen: ToolContext[] = [];
  const { registry, scope } = await makeRegistry([echoTool(seen)], {
    rules: { echo: [{ pattern: "*.env", action: "deny" }, { pattern: "*", action: "allow" }] },
  });
  const result = await registry.dispatch(
    { id: "c", name: "echo", input: { path: "src/.ENV" } },
    scope,
  );
  expect([result.ok, result.category, result.outcome, result.error]).toEqual([
    false,
    "policy_blocked",
    "blocked",
    'Cannot run echo "src/.ENV": denied by policy',
  ]);
  expect(result.decision).toEqual({
    action: "deny",
    policyMatch: 'tools.permissions.echo[0] deny "*.env"',
    subject: "src/.ENV",
    alwaysPattern: "src/.ENV",
  });
  expect(seen).toEqual([]);
});

Deno.test("ask without an ask handler: confirmation_required with the --yes hint", async () => {
  const { registry, scope } = await makeRegistry([touchTool]);
  const result = await registry.dispatch(
    { id: "c", name: "touch", input: { from: "a", to: "b" } },
    scope,
  );
  expect(result.text).toBe([
    "[tool_error]",
    "category: confirmation_required",
    'error: Cannot run touch "a" without confirmation',
    "suggestion: Run with --yes to allow, or add an allow rule to [tools.permissions].",
    "retryable: false",
  ].join("\n"));
  expect(result.outcome).toBe("blocked");
});

function recordingAsk(answers: AskAnswer[]) {
  const requests: AskRequest[] = [];
  return {
    requests,
    ask: (request: AskRequest) => {
      requests.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error("unexpected ask");
      return Promise.resolve(answer);
    },
  };
}

Deno.test("ask: allow_once runs the call and asks again next time", async () => {
  const { registry, scope } = await makeRegistry([echoTool()], {
    rules: { echo: [{ pattern: "*.md", action: "ask" }] },
  });
  const asker = recordingAsk(["allow_once", "allow_once"]);
  const s = { ...scope, ask: asker.ask };
  const a = await registry.dispatch({ id: "1", name: "echo", input: { path: "a.md" } }, s);
  const b = await registry.dispatch({ id: "2", name: "echo", input: { path: "a.md" } }, s);
  expect([a.text, b.text]).toEqual(["a.md", "a.md"]);
  expect(asker.requests.map((r) => [r.callId, r.tool.name, r.params, r.decision.action])).toEqual([
    ["1", "echo", { path: "a.md", times: 1 }, "ask"],
    ["2", "echo", { path: "a.md", times: 1 }, "ask"],
  ]);
});

Deno.test("ask: allow_always adds a session rule keyed by the subject", async () => {
  const { registry, scope, policy } = await makeRegistry([echoTool()], {
    rules: { echo: [{ pattern: "*.md", action: "ask" }] },
  });
  const asker = recordingAsk(["allow_always", "allow_once"]);
  const s = { ...scope, ask: asker.ask };
  await registry.dispatch({ id: "1", name: "echo", input: { path: "a.md" } }, s);
  const again = await registry.dispatch({ id: "2", name: "echo", input: { path: "A.md" } }, s);
  expect(again.decision).toEqual({
    action: "allow",
    policyMatch: 'session allow "a.md"',
    subject: "A.md",
    alwaysPattern: "A.md",
  });
  // Another subject is still asked about.
  await registry.dispatch({ id: "3", name: "echo", input: { path: "b.md" } }, s);
  expect(asker.requests.map((r) => r.callId)).toEqual(["1", "3"]);
  policy.clearSessionRules();
  expect(policy.evaluate("echo", "a.md").action).toBe("ask");
});

Deno.test("ask: reject_once, reject_always and cancelled refuse with policy_blocked", async () => {
  const { registry, scope } = await makeRegistry([echoTool()], {
    rules: { echo: [{ pattern: "*", action: "ask" }] },
  });
  const asker = recordingAsk(["reject_once", "cancelled", "reject_always"]);
  const s = { ...scope, ask: asker.ask };
  const call = (id: string) =>
    registry.dispatch({ id, name: "echo", input: { path: "x" } }, s).then((r) => [
      r.category,
      r.outcome,
      r.error,
    ]);
  expect(await call("1")).toEqual([
    "policy_blocked",
    "blocked",
    'Cannot run echo "x": the user rejected it',
  ]);
  expect(await call("2")).toEqual([
    "policy_blocked",
    "blocked",
    'Cannot run echo "x": the permission request was cancelled',
  ]);
  expect(await call("3")).toEqual([
    "policy_blocked",
    "blocked",
    'Cannot run echo "x": the user rejected it',
  ]);
  // reject_always stored a session deny: no fourth question.
  expect(await call("4")).toEqual([
    "policy_blocked",
    "blocked",
    'Cannot run echo "x": denied by policy',
  ]);
  expect(asker.requests.length).toBe(3);
});

Deno.test("a caller's policy overrides the registry's policy", async () => {
  const { PermissionPolicy } = await import("../../src/permission/policy.ts");
  const { registry, scope } = await makeRegistry([touchTool]);
  const policy = new PermissionPolicy({ touch: [{ pattern: "*", action: "allow" }] });
  const result = await registry.dispatch(
    { id: "c", name: "touch", input: { from: "a", to: "b" } },
    { ...scope, policy },
  );
  expect(result.text).toBe("touched a b");
});

Deno.test("output hooks run in order on success only; final hooks see every result", async () => {
  const log: string[] = [];
  const hook = (name: string, order: number): OutputHook => ({
    name,
    order,
    apply(result) {
      log.push(name);
      result.text = `${name}(${result.text})`;
    },
  });
  const finals: ToolResult[] = [];
  const final: FinalHook = {
    name: "audit",
    record(result) {
      log.push("audit");
      finals.push(result);
    },
  };
  const { registry, scope } = await makeRegistry([echoTool()]);
  registry.addOutputHook(hook("overflow", 20));
  registry.addOutputHook(hook("filter", 10));
  registry.addFinalHook(final);
  const ok = await registry.dispatch({ id: "1", name: "echo", input: { path: "p" } }, scope);
  expect(ok.text).toBe("overflow(filter(p))");
  expect(log).toEqual(["filter", "overflow", "audit"]);
  log.length = 0;
  const bad = await registry.dispatch({ id: "2", name: "missing", input: {} }, scope);
  const invalid = await registry.dispatch({ id: "3", name: "echo", input: {} }, scope);
  expect(log).toEqual(["audit", "audit"]);
  expect(finals.map((r) => [r.callId, r.ok, r.category])).toEqual([
    ["1", true, undefined],
    ["2", false, "tool_not_found"],
    ["3", false, "invalid_parameters"],
  ]);
  expect(finals[1]).toBe(bad);
  expect(finals[2]).toBe(invalid);
});

Deno.test("a throwing final hook does not change the result", async () => {
  const { registry, scope } = await makeRegistry([echoTool()]);
  registry.addFinalHook({
    name: "broken",
    record() {
      throw new Error("disk full");
    },
  });
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args.join(" "));
  try {
    const result = await registry.dispatch(
      { id: "1", name: "echo", input: { path: "p" } },
      scope,
    );
    expect([result.ok, result.text]).toEqual([true, "p"]);
  } finally {
    console.error = original;
  }
  expect(errors).toEqual(["zeph: broken failed: disk full"]);
});

Deno.test("failures thrown by tools are classified into the taxonomy", async () => {
  const cases: [() => unknown, string, string, boolean][] = [
    [() => new Deno.errors.NotFound("no such file"), "permanent_failure", "error", false],
    [() => new ToolError("timeout", "took too long"), "timeout", "timeout", true],
    [() => new Deno.errors.NotCapable("no read"), "policy_blocked", "blocked", false],
    [() => new DOMException("stop", "AbortError"), "cancelled", "cancelled", false],
    [() => "a string", "permanent_failure", "error", false],
  ];
  for (const [thrown, category, outcome, retryable] of cases) {
    const { registry, scope } = await makeRegistry([failingTool(thrown)]);
    const r = await registry.dispatch({ id: "c", name: "fail", input: {} }, scope);
    expect([r.ok, r.category, r.outcome, r.retryable]).toEqual([
      false,
      category,
      outcome,
      retryable,
    ]);
  }
});

Deno.test("an aborted caller signal cancels before the tool runs", async () => {
  const seen: ToolContext[] = [];
  const { registry, scope } = await makeRegistry([echoTool(seen)]);
  const controller = new AbortController();
  controller.abort();
  const r = await registry.dispatch(
    { id: "c", name: "echo", input: { path: "p" } },
    { ...scope, signal: controller.signal },
  );
  expect([r.category, r.outcome, r.error]).toEqual([
    "cancelled",
    "cancelled",
    "Cannot run echo: cancelled",
  ]);
  expect(seen).toEqual([]);
});

Deno.test("a caller's executor replaces the registry's executor for that caller", async () => {
  const editor: ToolExecutor = {
    name: "editor",
    handles: () => true,
    execute: (tool) => Promise.resolve({ text: `editor ran ${tool.name}` }),
  };
  const { registry, scope } = await makeRegistry([echoTool()]);
  const r = await registry.dispatch(
    { id: "c", name: "echo", input: { path: "p" } },
    { ...scope, executor: editor },
  );
  expect(r.text).toBe("editor ran echo");
});

Deno.test("register refuses duplicate ids", async () => {
  const { registry } = await makeRegistry([echoTool()]);
  expect(() => registry.register(echoTool())).toThrow('Tool "echo" is registered twice');
});

Deno.test("definitions() and renderCatalog() hide fully denied tools", async () => {
  const { registry } = await makeRegistry([echoTool(), touchTool, bashLikeTool], {
    rules: {
      touch: [{ pattern: "/etc/*", action: "deny" }, { pattern: "*", action: "deny" }],
      bash: [{ pattern: "*sudo*", action: "deny" }, { pattern: "*", action: "ask" }],
    },
  });
  expect(registry.definitions().map((d) => d.name)).toEqual(["echo", "bash"]);
  const catalog = registry.renderCatalog();
  expect(catalog).toContain('<tool name="echo">');
  expect(catalog).toContain('<tool name="bash">');
  expect(catalog).not.toContain('<tool name="touch">');
  expect(registry.all().map((t) => t.name)).toEqual(["echo", "touch", "bash"]);
});

Deno.test("renderCatalog: fenced hint for bash and web_scrape, structured call for the rest", async () => {
  const { registry } = await makeRegistry([bashLikeTool, scrapeLikeTool, echoTool()]);
  const schemaOf = (name: string) =>
    JSON.stringify(registry.definitions().find((d) => d.name === name)!.inputSchema);
  expect(registry.renderCatalog()).toBe([
    "<tools>",
    '<tool name="bash">',
    "Runs a command.",
    `Parameters (JSON Schema): ${schemaOf("bash")}`,
    "Invoke with a fenced block: ```bash",
    "<command>",
    "```",
    "</tool>",
    '<tool name="web_scrape">',
    "Scrapes a page.",
    `Parameters (JSON Schema): ${schemaOf("web_scrape")}`,
    "Invoke with a fenced block: ```scrape",
    "<JSON object matching the parameters>",
    "```",
    "</tool>",
    '<tool name="echo">',
    "Echoes the path.",
    `Parameters (JSON Schema): ${schemaOf("echo")}`,
    'Invoke with a structured tool call: <tool_call>{"name": "echo", "input": {…}}</tool_call>',
    "</tool>",
    "</tools>",
  ].join("\n"));
});

Deno.test("definitions() expose input-mode JSON Schema: defaulted fields are not required", async () => {
  const { registry } = await makeRegistry([echoTool()]);
  expect(registry.definitions()).toEqual([{
    name: "echo",
    description: "Echoes the path.",
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "A path" },
        times: {
          type: "integer",
          minimum: 1,
          maximum: 9007199254740991,
          default: 1,
          description: "Repetitions",
        },
      },
      required: ["path"],
      additionalProperties: false,
    },
  }]);
});

// File-tool rules are written against workspace paths: any spelling of the same file must meet
// the same rule (`./x`, `a/../x`, the absolute path, a symlink to it).
async function fileRegistry(rules: Record<string, PermissionRuleConfig[]>) {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_reg_paths_" }));
  const ws = `${base}/ws`;
  await Deno.mkdir(`${ws}/.github`, { recursive: true });
  await Deno.mkdir(`${ws}/src`);
  await Deno.symlink(`${ws}/.github`, `${ws}/gh`);
  const sandbox = await Sandbox.create(ws);
  const registry = new ToolRegistry({
    tools: FILE_TOOLS,
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(rules),
    config: defaultConfig(),
  });
  const asked: AskRequest[] = [];
  const answers: AskAnswer[] = [];
  const scope: CallScope = {
    cwd: ws,
    sandbox,
    ask: (r) => {
      asked.push(r);
      return Promise.resolve(answers.shift() ?? "reject_once");
    },
  };
  return { base, ws, registry, scope, asked, answers };
}

Deno.test("file rules: every spelling of a denied path is denied", async () => {
  const t = await fileRegistry({
    write: [{ pattern: ".github/*", action: "deny" }, { pattern: "*", action: "allow" }],
  });
  try {
    const spellings = [
      ".github/ci.yml",
      "./.github/ci.yml",
      "src/../.github/ci.yml",
      `${t.ws}/.github/ci.yml`,
      "gh/ci.yml",
    ];
    const outcomes: Record<string, string> = {};
    for (const p of spellings) {
      const r = await t.registry.dispatch(
        { id: p, name: "write", input: { path: p, content: "x" } },
        t.scope,
      );
      outcomes[p] = `${r.outcome} ${r.decision?.policyMatch}`;
    }
    const denied = 'blocked tools.permissions.write[0] deny ".github/*"';
    expect(outcomes).toEqual(Object.fromEntries(spellings.map((p) => [p, denied])));
    expect([...Deno.readDirSync(`${t.ws}/.github`)]).toEqual([]);
    const ok = await t.registry.dispatch(
      { id: "ok", name: "write", input: { path: "./src/a.ts", content: "x" } },
      t.scope,
    );
    expect([ok.outcome, ok.decision?.subject]).toEqual(["success", "src/a.ts"]);
  } finally {
    await Deno.remove(t.base, { recursive: true });
  }
});

Deno.test("a path outside the sandbox is refused before anyone is asked to approve it", async () => {
  const t = await fileRegistry({ delete_path: [{ pattern: "*", action: "ask" }] });
  try {
    await Deno.writeTextFile(`${t.base}/outside.txt`, "keep");
    const outside = await t.registry.dispatch(
      { id: "out", name: "delete_path", input: { path: "../outside.txt" } },
      t.scope,
    );
    expect([outside.outcome, outside.category, t.asked.length]).toEqual([
      "blocked",
      "policy_blocked",
      0,
    ]);
    expect(outside.text).toContain('Cannot access "../outside.txt": is outside the allowed paths');
    // Without an ask handler (no --yes) the answer is the same: not "run with --yes".
    const noAsk = await t.registry.dispatch(
      { id: "out2", name: "delete_path", input: { path: "../outside.txt" } },
      { ...t.scope, ask: undefined },
    );
    expect(noAsk.category).toBe("policy_blocked");
    expect(await Deno.readTextFile(`${t.base}/outside.txt`)).toBe("keep");
    // Inside, the question is asked as before.
    await Deno.writeTextFile(`${t.ws}/src/a.ts`, "x");
    t.answers.push("allow_once");
    const inside = await t.registry.dispatch(
      { id: "in", name: "delete_path", input: { path: "src/a.ts" } },
      t.scope,
    );
    expect([inside.outcome, t.asked.map((r) => r.callId)]).toEqual(["success", ["in"]]);
  } finally {
    await Deno.remove(t.base, { recursive: true });
  }
});

Deno.test("file rules: an 'always' answer approves that one path, not a glob", async () => {
  const t = await fileRegistry({});
  try {
    t.answers.push("allow_always");
    const first = await t.registry.dispatch(
      { id: "1", name: "write", input: { path: "src/*", content: "x" } },
      t.scope,
    );
    const again = await t.registry.dispatch(
      { id: "2", name: "write", input: { path: "src/*", content: "y" } },
      t.scope,
    );
    const other = await t.registry.dispatch(
      { id: "3", name: "write", input: { path: "src/other.ts", content: "x" } },
      t.scope,
    );
    expect([first.outcome, again.outcome, other.outcome]).toEqual([
      "success",
      "success",
      "blocked",
    ]);
    expect(t.asked.map((a) => a.decision.subject)).toEqual(["src/*", "src/other.ts"]);
  } finally {
    await Deno.remove(t.base, { recursive: true });
  }
});

Deno.test("execute hooks see every permitted call around its executor; their failures are reported, never the call's", async () => {
  const { registry, scope } = await makeRegistry([
    echoTool(),
    failingTool(() => new ToolError("permanent_failure", "it broke")),
  ]);
  const seen: string[] = [];
  registry.addExecuteHook({
    name: "recorder",
    before(tool, params, ctx) {
      seen.push(`before ${tool.name} ${JSON.stringify(params)} ${ctx.callId}`);
      return Promise.resolve((output) => {
        seen.push(`after ${tool.name} ${output === null ? "failed" : output.text}`);
        return Promise.resolve();
      });
    },
  });
  registry.addExecuteHook({
    name: "broken",
    before: (tool) =>
      tool.name === "echo"
        ? Promise.reject(new Error("before broke"))
        : Promise.resolve(() => Promise.reject(new Error("after broke"))),
  });
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args.join(" "));
  let results: ToolResult[];
  try {
    results = [
      await registry.dispatch({ id: "1", name: "echo", input: { path: "p" } }, scope),
      await registry.dispatch({ id: "2", name: "fail", input: {} }, scope),
      await registry.dispatch({ id: "3", name: "echo", input: {} }, scope),
    ];
  } finally {
    console.error = original;
  }
  expect(results.map((r) => [r.ok, r.category])).toEqual([
    [true, undefined],
    [false, "permanent_failure"],
    [false, "invalid_parameters"],
  ]);
  // The invalid call never reached execution: no hook saw it.
  expect(seen).toEqual([
    // The validated params, defaults filled in.
    'before echo {"path":"p","times":1} 1',
    "after echo p",
    "before fail {} 2",
    "after fail failed",
  ]);
  expect(errors).toEqual(["zeph: broken failed: before broke", "zeph: broken failed: after broke"]);
});

Deno.test("definitions(), renderCatalog() and the offered tools share one frozen JSON Schema per tool", () => {
  const tools = builtinTools();
  const registry = new ToolRegistry({
    tools,
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({}),
    config: defaultConfig(),
  });
  // What the model sees is what zod's input-mode conversion gives, unchanged.
  const converted = (t: (typeof tools)[number]) => {
    const schema = z.toJSONSchema(t.params, { io: "input" }) as Record<string, unknown>;
    delete schema.$schema;
    return schema;
  };
  const first = registry.definitions();
  expect(first.map((d) => [d.name, d.inputSchema])).toEqual(
    tools.map((t) => [t.name, converted(t)]),
  );
  // Converted once: the same frozen object on every call and for every caller.
  const again = registry.definitions();
  const offered = definitionsFor(tools, { ...defaultConfig().tools.tafc, enabled: false });
  for (const [i, d] of first.entries()) {
    expect(Object.isFrozen(d.inputSchema)).toBe(true);
    expect(again[i].inputSchema).toBe(d.inputSchema);
    expect(offered[i].inputSchema).toBe(d.inputSchema);
  }
  const catalog = registry.renderCatalog();
  for (const t of tools) {
    expect(catalog).toContain(`Parameters (JSON Schema): ${JSON.stringify(converted(t))}\n`);
  }
});
