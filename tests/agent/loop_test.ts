import { expect } from "expect";
import { flakyTool, harness, ofType, runs } from "./_harness.ts";
import { echoTool, noteTool, scrapeTool, shellTool } from "./_harness.ts";
import type { AskRequest } from "../../src/tools/registry.ts";
import { formatToolError, ToolError } from "../../src/errors/mod.ts";

const call = (id: string, name: string, input: unknown) => ({ id, name, input });

Deno.test("native path: calls run in order, results go back paired with their ids", async () => {
  await using h = await harness({
    turns: [
      {
        text: "Looking.",
        tool_calls: [call("c1", "echo", { text: "a" }), call("c2", "echo", { text: "b" })],
      },
      { text: "Done." },
    ],
  });
  const stop = await h.session.prompt("go", { sink: (e) => h.events.push(e) });
  expect(stop).toBe("end_turn");
  expect(h.provider.requests.length).toBe(2);
  expect(h.provider.requests[0].tools.map((t) => t.name)).toEqual([
    "echo",
    "constant",
    "sleep",
    "note",
  ]);
  expect(h.provider.requests[1].messages).toEqual([
    { role: "user", parts: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      parts: [
        { type: "text", text: "Looking." },
        { type: "tool_call", id: "c1", name: "echo", input: { text: "a" } },
        { type: "tool_call", id: "c2", name: "echo", input: { text: "b" } },
      ],
    },
    {
      role: "user",
      parts: [
        { type: "tool_result", callId: "c1", text: "echo: a", isError: false },
        { type: "tool_result", callId: "c2", text: "echo: b", isError: false },
      ],
    },
  ]);
  expect(ofType(h.events, "text").map((e) => e.text).join("")).toBe("Looking.Done.");
  expect(ofType(h.events, "tool_start").map((e) => [e.callId, e.tool, e.kind, e.subjects])).toEqual(
    [
      ["c1", "echo", "read", ["a"]],
      ["c2", "echo", "read", ["b"]],
    ],
  );
  expect(ofType(h.events, "tool_end").map((e) => [e.result.callId, e.result.ok])).toEqual([
    ["c1", true],
    ["c2", true],
  ]);
  expect(h.events.at(-1)).toEqual({ type: "turn_end", stopReason: "end_turn" });
  expect(h.session.messages.length).toBe(4);
});

Deno.test("max_tool_iterations stops the turn with a notice", async () => {
  await using h = await harness({
    config: (c) => (c.agent.max_tool_iterations = 2),
    turns: [1, 2, 3].map((n) => ({ tool_calls: [call(`c${n}`, "echo", { text: String(n) })] })),
  });
  const stop = await h.session.prompt("go", { sink: (e) => h.events.push(e) });
  expect(stop).toBe("max_iterations");
  expect(h.provider.requests.length).toBe(2);
  expect(runs.echo).toBe(2);
  expect(ofType(h.events, "notice").map((e) => e.code)).toEqual(["max_iterations"]);
});

Deno.test("doom loop: three iterations with identical output stop the turn", async () => {
  await using h = await harness({
    turns: [1, 2, 3, 4].map((n) => ({ tool_calls: [call(`c${n}`, "constant", { n })] })),
  });
  const stop = await h.session.prompt("go", { sink: (e) => h.events.push(e) });
  expect(stop).toBe("doom_loop");
  expect(runs.constant).toBe(3);
  expect(h.provider.remaining).toBe(1);
  expect(ofType(h.events, "notice").map((e) => e.code)).toEqual(["doom_loop"]);
});

Deno.test("quota: counted per batch; over quota the calls are refused, /clear resets", async () => {
  await using h = await harness({
    config: (c) => (c.tools.max_tool_calls_per_session = 2),
    turns: [
      { tool_calls: [call("c1", "echo", { text: "1" }), call("c2", "echo", { text: "2" })] },
      { tool_calls: [call("c3", "echo", { text: "3" })] },
      { tool_calls: [call("c4", "echo", { text: "4" })] },
      { tool_calls: [call("c5", "echo", { text: "5" })] },
      { text: "fresh" },
    ],
  });
  const sink = (e: (typeof h.events)[number]) => h.events.push(e);
  expect(await h.session.prompt("go", { sink })).toBe("quota");
  expect(runs.echo).toBe(2);
  expect(h.session.quota.used).toBe(2);
  const blocked = h.session.messages.at(-1)!.parts[0];
  expect(blocked).toMatchObject({ type: "tool_result", callId: "c4", isError: true });
  expect((blocked as { text: string }).text).toContain("quota_blocked");
  expect(ofType(h.events, "notice").map((e) => e.code)).toEqual(["quota", "quota"]);

  h.session.clear();
  expect(h.session.quota.used).toBe(0);
  expect(h.session.messages).toEqual([]);
  expect(await h.session.prompt("again", { sink })).toBe("end_turn");
  expect(runs.echo).toBe(3);
});

Deno.test("calls answered without dispatch (repeated, over quota) pass the audit hooks too", async () => {
  await using h = await harness({
    config: (c) => {
      c.tools.max_tool_calls_per_session = 3;
      c.agent.repeat_threshold = 1; // no one to ask: the second identical call is refused
    },
    turns: [
      { tool_calls: [call("c1", "echo", { text: "x" })] },
      { tool_calls: [call("c2", "echo", { text: "x" }), call("c3", "echo", { text: "y" })] },
      { tool_calls: [call("c4", "echo", { text: "z" })] },
      { text: "done" },
    ],
  });
  const audited: unknown[] = [];
  h.registry.addFinalHook({
    name: "test-audit",
    record: (result, input) =>
      void audited.push([input.call.id, result.outcome, result.category ?? null, input.params]),
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(runs.echo).toBe(2);
  expect(audited).toEqual([
    ["c1", "success", null, { text: "x" }],
    ["c2", "blocked", "policy_blocked", { text: "x" }], // repeated: not run, still audited
    ["c3", "success", null, { text: "y" }],
    ["c4", "blocked", "policy_blocked", { text: "z" }], // over the quota of 3
  ]);
});

Deno.test("context budget: the loop stops before a request over 80% of the budget", async () => {
  await using h = await harness({
    config: (c) => (c.agent.context_budget_tokens = 1000),
    turns: [{ text: "never sent" }],
  });
  const stop = await h.session.prompt("x".repeat(4000), { sink: (e) => h.events.push(e) });
  expect(stop).toBe("context_budget");
  expect(h.provider.requests.length).toBe(0);
  const [notice] = ofType(h.events, "notice");
  expect(notice.code).toBe("context_budget");
  expect(notice.message).toContain("limit 800 = 80%");
});

Deno.test("context budget: measured usage counts once the provider reports it", async () => {
  await using h = await harness({
    config: (c) => (c.agent.context_budget_tokens = 1000),
    turns: [
      {
        tool_calls: [call("c1", "echo", { text: "1" })],
        usage: { input_tokens: 790, output_tokens: 20 },
      },
      { text: "never sent" },
    ],
  });
  expect(await h.session.prompt("hi", { sink: (e) => h.events.push(e) })).toBe("context_budget");
  expect(h.provider.requests.length).toBe(1);
  expect(ofType(h.events, "usage")).toEqual([
    { type: "usage", usage: { inputTokens: 790, outputTokens: 20 } },
  ]);
});

Deno.test("cancel mid-tool: every call gets one result, the turn ends cancelled", async () => {
  await using h = await harness({
    turns: [
      { tool_calls: [call("s1", "sleep", { seconds: 30 }), call("e1", "echo", { text: "late" })] },
      { text: "after cancel" },
    ],
  });
  const audited: unknown[] = [];
  h.registry.addFinalHook({
    name: "test-audit",
    record: (result, input) => void audited.push([input.call.id, result.outcome]),
  });
  const controller = new AbortController();
  const stop = await h.session.prompt("go", {
    signal: controller.signal,
    sink: (e) => {
      h.events.push(e);
      if (e.type === "tool_output") controller.abort();
    },
  });
  expect(stop).toBe("cancelled");
  expect(runs).toEqual({ sleep: 1 });
  // The call that never started is in the audit log as well.
  expect(audited).toEqual([["s1", "cancelled"], ["e1", "cancelled"]]);
  const last = h.session.messages.at(-1)!;
  expect(last.role).toBe("user");
  expect(last.parts.map((p) => p.type === "tool_result" && [p.callId, p.isError])).toEqual([
    ["s1", true],
    ["e1", true],
  ]);
  expect(last.parts.map((p) => p.type === "tool_result" && p.text.split("\n")[1])).toEqual([
    "category: cancelled",
    "category: cancelled",
  ]);
  expect(ofType(h.events, "tool_output")).toEqual([
    { type: "tool_output", callId: "s1", tool: "sleep", stream: "stdout", chunk: "zz" },
  ]);
  // The next turn's request passes the provider's protocol check: every call has its result.
  expect(await h.session.prompt("again", { sink: () => {} })).toBe("end_turn");
});

Deno.test("malformed calls: unknown tool and bad params reach the model; one free reformat", async () => {
  await using h = await harness({
    config: (c) => (c.agent.max_tool_iterations = 2),
    turns: [
      { tool_calls: [call("c1", "nope", {}), call("c2", "echo", { txt: 1 })] },
      { tool_calls: [call("c3", "echo", { text: "fixed" })] },
      { text: "done" },
    ],
  });
  const stop = await h.session.prompt("go", { sink: (e) => h.events.push(e) });
  expect(stop).toBe("end_turn");
  const [r1, r2] = h.provider.requests[1].messages.at(-1)!.parts as {
    text: string;
    isError: boolean;
  }[];
  expect(r1.isError).toBe(true);
  expect(r1.text).toContain("category: tool_not_found");
  expect(r1.text).toContain('Unknown tool "nope". Available tools: echo, constant, sleep, note');
  expect(r2.text).toContain("category: invalid_parameters");
  expect(r2.text).toContain("text:");
  expect(ofType(h.events, "notice").map((e) => e.code)).toEqual(["reformat_attempt"]);
});

Deno.test("a second invalid-parameter iteration counts against the cap", async () => {
  await using h = await harness({
    config: (c) => (c.agent.max_tool_iterations = 2),
    turns: [
      { tool_calls: [call("c1", "echo", { txt: 1 })] },
      { tool_calls: [call("c2", "echo", { tex: 2 })] },
      { tool_calls: [call("c3", "echo", { tx: 3 })] },
      { text: "never" },
    ],
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("max_iterations");
  expect(h.provider.requests.length).toBe(3);
});

Deno.test("provider errors end the turn with a notice, not a crash", async () => {
  await using h = await harness({
    turns: [{ error: { status: 429, message: "Too many requests" } }],
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("error");
  expect(ofType(h.events, "notice")).toEqual([{
    type: "notice",
    level: "error",
    code: "provider_error",
    message: "script: Too many requests",
    category: "rate_limited",
  }]);
});

Deno.test("a provider error names the model only when it differs from the provider's name", async () => {
  await using h = await harness({
    turns: ['{"legacy": false, "model": "m-1"}', { error: { status: 400, message: "Boom" } }],
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("error");
  expect(ofType(h.events, "notice").map((n) => n.message)).toEqual(["script (m-1): Boom"]);
});

Deno.test("an unscripted turn fails loudly, naming the script and the turn", async () => {
  await using h = await harness({ turns: [{ tool_calls: [call("c1", "echo", { text: "a" })] }] });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("error");
  const [notice] = ofType(h.events, "notice");
  expect(notice.message).toContain("Script test.jsonl has no turn 2");
});

Deno.test("retryable tools are retried on infrastructure failures, not counted", async () => {
  await using h = await harness({
    tools: [flakyTool(2), echoTool],
    config: (c) => (c.agent.max_tool_iterations = 1),
    turns: [{ tool_calls: [call("f1", "flaky", {})] }, { text: "never" }],
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("max_iterations");
  expect(runs.flaky).toBe(3);
  expect(h.session.messages.at(-1)!.parts).toEqual([
    { type: "tool_result", callId: "f1", text: "fetched", isError: false },
  ]);
  expect(ofType(h.events, "notice").map((e) => e.code)).toEqual([
    "tool_retry",
    "tool_retry",
    "max_iterations",
  ]);
  expect(ofType(h.events, "tool_end").length).toBe(1);
});

Deno.test("ask: allow_always adds a session rule; /clear removes it", async () => {
  const asked: AskRequest[] = [];
  await using h = await harness({
    turns: [
      { tool_calls: [call("n1", "note", { name: "a.txt", text: "1" })] },
      { tool_calls: [call("n2", "note", { name: "a.txt", text: "2" })] },
      { text: "ok" },
      { tool_calls: [call("n3", "note", { name: "a.txt", text: "3" })] },
      { text: "ok" },
    ],
    session: {
      ask: (r) => {
        asked.push(r);
        return Promise.resolve(asked.length === 1 ? "allow_always" : "reject_once");
      },
    },
  });
  expect(await h.session.prompt("go", { sink: () => {} })).toBe("end_turn");
  expect(asked.map((a) => a.callId)).toEqual(["n1"]);
  expect(await Deno.readTextFile(`${h.dir}/a.txt`)).toBe("2");
  h.session.clear();
  expect(await h.session.prompt("again", { sink: () => {} })).toBe("end_turn");
  expect(asked.map((a) => a.callId)).toEqual(["n1", "n3"]);
  expect(await Deno.readTextFile(`${h.dir}/a.txt`)).toBe("2");
});

Deno.test("legacy path: bash fences, scrape fences and <tool_call> run in order", async () => {
  const answer = [
    "First a command:",
    "```bash",
    "echo one",
    "```",
    'Then <tool_call>{"name": "echo", "input": {"text": "two"}}</tool_call>',
    "```scrape",
    '{"url": "https://example.com", "select": "h1"}',
    "```",
    "```python",
    "print('not a tool')",
    "```",
  ].join("\n");
  await using h = await harness({
    tools: [shellTool, echoTool, scrapeTool],
    turns: ['{"legacy": true}', { text: answer }, { text: "All done." }],
    session: { ask: () => Promise.resolve("allow_once") },
  });
  expect(h.provider.supportsToolUse).toBe(false);
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  const req = h.provider.requests[0];
  expect(req.tools).toEqual([]);
  expect(req.system).toContain('<tool name="echo">');
  expect(req.system).toContain("<tool_call>");
  expect(h.provider.requests[1].messages.slice(1)).toEqual([
    { role: "assistant", parts: [{ type: "text", text: answer }] },
    {
      role: "user",
      parts: [{
        type: "text",
        text: [
          '<tool_result name="bash" call="legacy_1_1" status="ok">\none\n</tool_result>',
          '<tool_result name="echo" call="legacy_1_2" status="ok">\necho: two\n</tool_result>',
          '<tool_result name="web_scrape" call="legacy_1_3" status="ok">\n' +
          "scraped https://example.com h1\n</tool_result>",
        ].join("\n\n"),
      }],
    },
  ]);
  expect(ofType(h.events, "tool_start").map((e) => e.tool)).toEqual(["bash", "echo", "web_scrape"]);
});

Deno.test("legacy path: a broken <tool_call> gets an invalid_parameters result", async () => {
  await using h = await harness({
    tools: [echoTool, noteTool],
    turns: ['{"legacy": true}', { text: "<tool_call>{name: echo}</tool_call>" }, { text: "ok" }],
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  const text = (h.provider.requests[1].messages.at(-1)!.parts[0] as { text: string }).text;
  expect(text).toContain('status="error"');
  expect(text).toContain("category: invalid_parameters");
  expect(text).toContain("The <tool_call> body is not JSON");
});

Deno.test("cancel: a tool that ignores the signal gets a synthesised result after the grace", async () => {
  const { defineTool } = await import("../../src/tools/tool.ts");
  const { z } = await import("zod");
  const stubborn = defineTool({
    name: "stubborn",
    description: "Never finishes.",
    params: z.object({}).strict(),
    mutates: false,
    kind: "other",
    group: "read",
    invocation: { type: "call" },
    subjects: () => [],
    execute: (_p, ctx) => {
      ctx.emit({ type: "notice", callId: ctx.callId, tool: "stubborn", message: "started" });
      return new Promise(() => {});
    },
  });
  await using h = await harness({
    tools: [stubborn, echoTool],
    turns: [{ tool_calls: [call("s1", "stubborn", {}), call("e1", "echo", { text: "x" })] }],
    session: { cancelGraceMs: 10 },
  });
  const controller = new AbortController();
  const stop = await h.session.prompt("go", {
    signal: controller.signal,
    sink: (e) => {
      h.events.push(e);
      if (e.type === "notice" && e.code === "tool_notice") controller.abort();
    },
  });
  expect(stop).toBe("cancelled");
  expect(ofType(h.events, "notice")[0].message).toBe("stubborn: started");
  expect(h.session.messages.at(-1)!.parts).toEqual([
    {
      type: "tool_result",
      callId: "s1",
      isError: true,
      text: "[tool_error]\ncategory: cancelled\n" +
        "error: Cannot run stubborn: the turn was cancelled and it did not stop within 10 ms of " +
        "the cancel\nsuggestion: The operation was cancelled by the user.\nretryable: false",
    },
    {
      type: "tool_result",
      callId: "e1",
      isError: true,
      text: "[tool_error]\ncategory: cancelled\n" +
        "error: Cannot run echo: the turn was cancelled and it was not started\n" +
        "suggestion: The operation was cancelled by the user.\nretryable: false",
    },
  ]);
  expect(runs.echo).toBeUndefined();
});

Deno.test("cancel while the model is answering: no assistant message, stop cancelled", async () => {
  await using h = await harness({ turns: [{ text: "slow", delay_ms: 60_000 }] });
  const controller = new AbortController();
  const pending = h.session.prompt("go", {
    signal: controller.signal,
    sink: (e) => h.events.push(e),
  });
  controller.abort();
  expect(await pending).toBe("cancelled");
  expect(h.session.messages).toEqual([{ role: "user", parts: [{ type: "text", text: "go" }] }]);
  expect(h.events).toEqual([{ type: "turn_end", stopReason: "cancelled" }]);
});

Deno.test("resume: calls left without results (zeph killed mid-tool) get a result before the new prompt", async () => {
  const stored = [
    { role: "user" as const, parts: [{ type: "text" as const, text: "build it" }] },
    {
      role: "assistant" as const,
      parts: [
        { type: "text" as const, text: "Building." },
        { type: "tool_call" as const, id: "k1", name: "echo", input: { text: "a" } },
        { type: "tool_call" as const, id: "k2", name: "echo", input: { text: "b" } },
      ],
    },
  ];
  const appended: unknown[] = [];
  await using h = await harness({
    turns: [{ text: "Picking up." }],
    session: {
      conversationId: "conv-1",
      messages: stored,
      store: {
        createConversation: () => "unused",
        appendMessages: (_id, messages) => void appended.push(...messages),
        savePlan: () => {},
      },
    },
  });
  const stop = await h.session.prompt("go on", { sink: (e) => h.events.push(e) });
  expect(stop).toBe("end_turn");
  const interrupted = (id: string) => ({
    type: "tool_result",
    callId: id,
    text: formatToolError(
      new ToolError(
        "cancelled",
        "Cannot run echo: zeph stopped before this call finished (the session ended mid-turn)",
      ),
    ),
    isError: true,
  });
  const repair = { role: "user", parts: [interrupted("k1"), interrupted("k2")] };
  expect(h.provider.requests[0].messages).toEqual([
    ...stored,
    repair,
    { role: "user", parts: [{ type: "text", text: "go on" }] },
  ]);
  // The repair is persisted too, so the next resume starts from a valid transcript.
  expect(appended).toEqual([
    repair,
    { role: "user", parts: [{ type: "text", text: "go on" }] },
    { role: "assistant", parts: [{ type: "text", text: "Picking up." }] },
  ]);
});

Deno.test("an empty prompt is refused with a notice; nothing is sent or stored", async () => {
  const appended: unknown[] = [];
  await using h = await harness({
    turns: [{ text: "hello" }],
    session: {
      store: {
        createConversation: () => "conv-e",
        appendMessages: (_id, messages) => void appended.push(...messages),
        savePlan: () => {},
      },
    },
  });
  // An empty user message would stay in the stored transcript, and Claude rejects every later
  // request of that conversation ("all messages must have non-empty content").
  expect(await h.session.prompt(" \n\t", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(h.events).toEqual([
    {
      type: "notice",
      level: "warn",
      code: "empty_prompt",
      message: "Nothing to do: the prompt is empty.",
    },
    { type: "turn_end", stopReason: "end_turn" },
  ]);
  expect([h.provider.requests.length, appended, h.session.messages]).toEqual([0, [], []]);
  expect(await h.session.prompt("hi", { sink: () => {} })).toBe("end_turn");
  expect(h.provider.requests[0].messages).toEqual([
    { role: "user", parts: [{ type: "text", text: "hi" }] },
  ]);
});

Deno.test("rejection with a reason: the model reads the user's words in the call's result", async () => {
  await using h = await harness({
    turns: [
      { tool_calls: [call("c1", "note", { name: "x.txt", text: "hi" })] },
      { text: "Listing first." },
    ],
    session: {
      ask: () => Promise.resolve({ answer: "reject_once", reason: "  too risky,\nlist first " }),
    },
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(runs.note).toBeUndefined();
  expect(h.provider.requests[1].messages.at(-1)).toEqual({
    role: "user",
    parts: [{
      type: "tool_result",
      callId: "c1",
      isError: true,
      text: "[tool_error]\ncategory: policy_blocked\n" +
        'error: Cannot run note "x.txt": the user rejected it and said: "too risky, list first"\n' +
        "suggestion: Do what the user said instead; do not retry this call unchanged.\n" +
        "retryable: false",
    }],
  });
});

Deno.test("rejection whose reason follows (ACP): the turn ends, later calls are not started, the next prompt comes right after", async () => {
  await using h = await harness({
    turns: [
      {
        tool_calls: [
          call("c1", "note", { name: "x.txt", text: "hi" }),
          call("c2", "echo", { text: "after" }),
        ],
      },
      { text: "Understood, listing first." },
    ],
    session: { ask: () => Promise.resolve({ answer: "reject_once", reasonFollows: true }) },
  });
  const sink = (e: (typeof h.events)[number]) => h.events.push(e);
  expect(await h.session.prompt("go", { sink })).toBe("end_turn");
  expect(h.provider.requests.length).toBe(1);
  expect(runs).toEqual({});
  expect(ofType(h.events, "notice").map((e) => e.code)).toEqual(["rejected"]);
  expect(await h.session.prompt("too risky: list the files first", { sink })).toBe("end_turn");
  expect(h.provider.requests[1].messages.slice(1)).toEqual([
    {
      role: "assistant",
      parts: [
        { type: "tool_call", id: "c1", name: "note", input: { name: "x.txt", text: "hi" } },
        { type: "tool_call", id: "c2", name: "echo", input: { text: "after" } },
      ],
    },
    {
      role: "user",
      parts: [
        {
          type: "tool_result",
          callId: "c1",
          isError: true,
          text: "[tool_error]\ncategory: policy_blocked\n" +
            'error: Cannot run note "x.txt": the user rejected it; their next message may say why\n' +
            "suggestion: Do not retry this call; read the user's next message and follow it.\n" +
            "retryable: false",
        },
        {
          type: "tool_result",
          callId: "c2",
          isError: true,
          text: "[tool_error]\ncategory: policy_blocked\n" +
            "error: Cannot run echo: not started, the user rejected an earlier call of this answer\n" +
            "suggestion: Read the user's next message and follow it.\n" +
            "retryable: false",
        },
      ],
    },
    { role: "user", parts: [{ type: "text", text: "too risky: list the files first" }] },
  ]);
});
