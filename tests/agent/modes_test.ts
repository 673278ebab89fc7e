// Modes through the real loop with the scripted provider: what each request offers the model,
// what a call outside the mode gets back, switch_mode under the permission rules, and
// `[tools] enabled = false`.
import { expect } from "expect";
import { formatToolError, ToolError } from "../../src/errors/mod.ts";
import { ModeState } from "../../src/tools/modes.ts";
import type { AskAnswer } from "../../src/tools/ask_reply.ts";
import type { AskRequest } from "../../src/tools/registry.ts";
import { switchModeTool } from "../../src/tools/switch_mode.ts";
import { writeTool } from "../../src/tools/write.ts";
import { echoTool, harness, type HarnessOptions, runs, scrapeTool, shellTool } from "./_harness.ts";

const call = (id: string, name: string, input: unknown) => ({ id, name, input });
const TOOLS = [echoTool, shellTool, writeTool, scrapeTool, switchModeTool];

async function modeHarness(
  mode: string,
  turns: HarnessOptions["turns"],
  options: { ask?: (r: AskRequest) => Promise<AskAnswer>; config?: HarnessOptions["config"] } = {},
) {
  const h = await harness({ turns, tools: TOOLS, config: options.config });
  const modes = new ModeState(h.config, { initial: mode });
  // The harness built its session before the modes: give it one in this mode.
  const { AgentSession } = await import("../../src/agent/session.ts");
  const session = new AgentSession({
    provider: h.provider,
    registry: h.registry,
    cwd: h.dir,
    sandbox: h.session.sandbox,
    random: () => 0,
    modes,
    ask: options.ask,
  });
  return Object.assign(h, { session, modes });
}

const names = (tools: { name: string }[]) => tools.map((t) => t.name);
const results = (
  h: { provider: { requests: { messages: { parts: unknown[] }[] }[] } },
  i: number,
) => h.provider.requests[i].messages.at(-1)!.parts;

Deno.test("ask mode: only read and web tools are sent; a write the model invents is refused", async () => {
  await using h = await modeHarness("ask", [
    { tool_calls: [call("w1", "write", { path: "a.ts", content: "x" })] },
    { tool_calls: [call("b1", "bash", { command: "touch made_by_bash" })] },
    { text: "I cannot." },
  ]);
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(names(h.provider.requests[0].tools)).toEqual(["echo", "web_scrape", "switch_mode"]);
  const available = "Available tools: echo, web_scrape, switch_mode";
  expect(results(h, 1)).toEqual([{
    type: "tool_result",
    callId: "w1",
    isError: true,
    text: formatToolError(
      new ToolError("policy_blocked", `Tool "write" is not available in mode "ask". ${available}`, {
        hint: "Use one of the available tools, or ask to switch modes with switch_mode.",
      }),
    ),
  }]);
  expect((results(h, 2)[0] as { text: string }).text).toContain(
    `Tool "bash" is not available in mode "ask". ${available}`,
  );
  expect(runs.bash).toBeUndefined();
  await expect(Deno.stat(`${h.dir}/a.ts`)).rejects.toThrow();
  await expect(Deno.stat(`${h.dir}/made_by_bash`)).rejects.toThrow();
  expect(h.provider.requests[0].system).toContain("Mode: ask (Ask)");
});

Deno.test("architect mode: Markdown is written, any other path is refused naming pattern and path", async () => {
  await using h = await modeHarness("architect", [
    {
      tool_calls: [
        call("w1", "write", { path: "docs/plan.md", content: "# Plan\n" }),
        call("w2", "write", { path: "src/auth.ts", content: "x" }),
      ],
    },
    { text: "Planned." },
  ], { ask: () => Promise.resolve("allow_once") });
  expect(await h.session.prompt("plan", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(names(h.provider.requests[0].tools)).toEqual(["echo", "write", "switch_mode"]);
  const [ok, refused] = results(h, 1) as { text: string; isError: boolean }[];
  expect(ok.isError).toBe(false);
  expect(await Deno.readTextFile(`${h.dir}/docs/plan.md`)).toBe("# Plan\n");
  expect(refused).toEqual({
    type: "tool_result",
    callId: "w2",
    isError: true,
    text: formatToolError(
      new ToolError(
        "policy_blocked",
        'Tool "write" in mode "architect" can only edit files matching pattern: \\.md$ ' +
          "(Markdown files only). Got: src/auth.ts",
        { hint: "Edit a file that matches, or ask to switch modes with switch_mode." },
      ),
    ),
  });
  await expect(Deno.stat(`${h.dir}/src/auth.ts`)).rejects.toThrow();
});

Deno.test("architect mode: an absolute path is matched in its workspace-relative form", async () => {
  await using h = await modeHarness("architect", [
    { tool_calls: [call("w1", "write", { path: "PLACEHOLDER", content: "x" })] },
    { text: "ok" },
  ], { ask: () => Promise.resolve("allow_once") });
  // The workspace is known only now: point the scripted call at an absolute path inside it.
  h.provider.script.turns[0].toolCalls[0].input = { path: `${h.dir}/lib/x.ts`, content: "x" };
  await h.session.prompt("go", { sink: () => {} });
  const text = (results(h, 1)[0] as { text: string }).text;
  expect(text).toContain("Got: lib/x.ts");
});

Deno.test("switch_mode: asks, and once allowed the next request carries the new mode's tools", async () => {
  const asked: string[] = [];
  await using h = await modeHarness("ask", [
    { tool_calls: [call("s1", "switch_mode", { mode_slug: "code", reason: "need an edit" })] },
    { tool_calls: [call("w1", "write", { path: "a.ts", content: "done\n" })] },
    { text: "Edited." },
  ], {
    ask: (r) => {
      asked.push(`${r.tool.name} ${r.decision.subject}`);
      return Promise.resolve("allow_once");
    },
  });
  const changes: string[] = [];
  h.modes.onChange((m, by) => changes.push(`${m.slug} by ${by}`));
  expect(await h.session.prompt("fix it", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(names(h.provider.requests[0].tools)).toEqual(["echo", "web_scrape", "switch_mode"]);
  expect(names(h.provider.requests[1].tools)).toEqual([
    "echo",
    "bash",
    "write",
    "web_scrape",
    "switch_mode",
  ]);
  expect(results(h, 1)).toEqual([{
    type: "tool_result",
    callId: "s1",
    isError: false,
    text: 'Switched from mode "ask" to "code" (Code). Your next request offers this mode\'s tools.',
  }]);
  expect(asked).toEqual(["switch_mode code", "write a.ts"]);
  expect(changes).toEqual(["code by model"]);
  expect(await Deno.readTextFile(`${h.dir}/a.ts`)).toBe("done\n");
  expect(h.provider.requests[1].system).toContain("Mode: code (Code)");
});

Deno.test("switch_mode: a rejection keeps the mode; no one to ask refuses; an unknown slug lists the modes", async () => {
  const asked: string[] = [];
  await using h = await modeHarness("ask", [
    { tool_calls: [call("s1", "switch_mode", { mode_slug: "code" })] },
    { tool_calls: [call("s2", "switch_mode", { mode_slug: "nope" })] },
    { text: "Staying." },
  ], {
    ask: (r) => {
      asked.push(r.decision.subject ?? "");
      return Promise.resolve("reject_once");
    },
  });
  await h.session.prompt("go", { sink: () => {} });
  expect(h.modes.current.slug).toBe("ask");
  expect((results(h, 1)[0] as { text: string }).text).toContain(
    'Cannot run switch_mode "code": the user rejected it',
  );
  expect(names(h.provider.requests[1].tools)).toEqual(["echo", "web_scrape", "switch_mode"]);
  // An unknown slug is refused before the user is asked about it.
  expect(asked).toEqual(["code"]);
  expect((results(h, 2)[0] as { text: string }).text).toContain(
    'Cannot switch to mode "nope": there is no such mode. Modes: code, ask, architect',
  );

  await using quiet = await modeHarness("ask", [
    { tool_calls: [call("s1", "switch_mode", { mode_slug: "code" })] },
    { text: "ok" },
  ]);
  await quiet.session.prompt("go", { sink: () => {} });
  expect(quiet.modes.current.slug).toBe("ask");
  expect((results(quiet, 1)[0] as { text: string }).text).toContain(
    "category: confirmation_required",
  );
});

Deno.test("a user mode from config: its groups and file regex apply; the user's /mode switch is seen by the next request", async () => {
  await using h = await modeHarness("docs", [
    { tool_calls: [call("w1", "write", { path: "guide/intro.txt", content: "hi" })] },
    { text: "ok" },
    { tool_calls: [call("b1", "bash", { command: "echo hi" })] },
    { text: "ran" },
  ], {
    ask: () => Promise.resolve("allow_once"),
    config: (c) => {
      c.modes = {
        docs: {
          name: "Docs",
          description: "Writes the guide",
          groups: ["read", "edit"],
          file_regex: "^guide/",
          file_regex_description: "the guide folder",
        },
      };
    },
  });
  await h.session.prompt("write", { sink: () => {} });
  expect(names(h.provider.requests[0].tools)).toEqual(["echo", "write", "switch_mode"]);
  expect(await Deno.readTextFile(`${h.dir}/guide/intro.txt`)).toBe("hi");
  h.modes.switchTo("code", "user");
  await h.session.prompt("run", { sink: () => {} });
  expect(names(h.provider.requests[2].tools)).toContain("bash");
  expect((results(h, 3)[0] as { text: string }).text).toBe("hi");
});

Deno.test("[tools] enabled = false: no tools are sent, a call made anyway is refused and nothing runs", async () => {
  await using h = await modeHarness("code", [
    { tool_calls: [call("b1", "bash", { command: "touch made_by_bash" })] },
    { text: "I will answer in text." },
  ], { config: (c) => (c.tools.enabled = false) });
  expect(await h.session.prompt("go", { sink: () => {} })).toBe("end_turn");
  expect(h.provider.requests[0].tools).toEqual([]);
  expect(h.provider.requests[0].system).toContain("No tools are available in this session");
  expect(h.provider.requests[0].system).not.toContain("switch_mode");
  expect(results(h, 1)).toEqual([{
    type: "tool_result",
    callId: "b1",
    isError: true,
    text: formatToolError(
      new ToolError(
        "policy_blocked",
        "Cannot run bash: tools are turned off ([tools] enabled = false), so no tool runs",
        { hint: "Answer the user in text, without calling tools." },
      ),
    ),
  }]);
  expect(runs.bash).toBeUndefined();
  await expect(Deno.stat(`${h.dir}/made_by_bash`)).rejects.toThrow();
});

Deno.test("legacy path: the catalog in the system prompt holds only the mode's tools", async () => {
  await using h = await modeHarness("ask", [
    '{"legacy": true}',
    { text: "```bash\ntouch made_by_bash\n```" },
    { text: "ok" },
  ]);
  await h.session.prompt("go", { sink: () => {} });
  const system = h.provider.requests[0].system;
  expect(system).toContain('<tool name="echo">');
  expect(system).not.toContain('<tool name="bash">');
  expect(system).not.toContain('<tool name="write">');
  await expect(Deno.stat(`${h.dir}/made_by_bash`)).rejects.toThrow();
});
