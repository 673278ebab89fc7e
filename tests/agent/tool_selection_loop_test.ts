// Tool selection through the real loop and the scripted provider: what each request offers
// (names and schemas), dependency gating across iterations, and the TAFC field's whole path.
import { expect } from "expect";
import { z } from "zod";
import { defineTool } from "../../src/tools/tool.ts";
import type { ToolCall } from "../../src/tools/registry.ts";
import { harness, ofType, runs } from "./_harness.ts";

const call = (id: string, name: string, input: unknown) => ({ id, name, input });

/** Non-mutating, so no permission ask stands between the model and the call. */
function described(name: string, description: string) {
  return defineTool({
    name,
    description,
    params: z.object({ path: z.string().describe("the file") }).strict(),
    mutates: false,
    kind: "read",
    group: "read",
    invocation: { type: "call" },
    subjects: (p) => [p.path],
    execute(p) {
      runs[name] = (runs[name] ?? 0) + 1;
      return Promise.resolve({ text: `${name} ${p.path}` });
    },
  });
}

const TOOLS = [
  described("open_file", "Reads a text file from the workspace and returns its lines."),
  described("patch", "Replaces an exact string in a text file with new text."),
  described("web_get", "Downloads a web page over HTTPS and returns its readable text."),
  described("sql", "Runs a query against the project's SQLite database and prints rows."),
  described("lint", "Checks source code style and reports lint warnings with line numbers."),
];

/** A tool with a nested, enum-heavy, combinator schema: complex enough for TAFC. */
const deployTool = defineTool({
  name: "deploy",
  description: "Deploys a service to an environment.",
  params: z.object({
    service: z.string().describe("service name"),
    env: z.enum(["dev", "staging", "prod", "eu", "us", "ap", "test", "qa", "perf", "dr"])
      .describe("target environment"),
    strategy: z.union([
      z.object({ kind: z.literal("rolling"), batch: z.number() }),
      z.object({ kind: z.literal("canary"), percent: z.number() }),
    ]).describe("how to roll out"),
  }).strict(),
  mutates: false,
  kind: "execute",
  group: "command",
  invocation: { type: "call" },
  subjects: (p) => [p.service],
  execute(p) {
    runs.deploy = (runs.deploy ?? 0) + 1;
    return Promise.resolve({ text: `deployed ${p.service} to ${p.env}` });
  },
});

Deno.test("schema filter: each request offers always-on, named and the best-ranked tools", async () => {
  await using h = await harness({
    tools: TOOLS,
    turns: [{ text: "ok" }, { text: "ok" }],
    config: (c) => {
      c.tools.schema_filter.enabled = true;
      c.tools.schema_filter.always_on = ["open_file"];
      c.tools.schema_filter.top_k = 1;
    },
  });
  await h.session.prompt("download the docs page over https", { sink: (e) => h.events.push(e) });
  await h.session.prompt("run sql to count users", { sink: (e) => h.events.push(e) });
  expect(h.provider.requests.map((r) => r.tools.map((t) => t.name))).toEqual([
    ["open_file", "web_get"],
    // sql is named; no word of the message matches any other tool, so there is nothing to
    // rank by and every tool is offered rather than an arbitrary top_k.
    ["open_file", "patch", "web_get", "sql", "lint"],
  ]);
});

Deno.test("schema filter off (the default): every tool is offered", async () => {
  await using h = await harness({ tools: TOOLS, turns: [{ text: "ok" }] });
  await h.session.prompt("download the docs page", { sink: (e) => h.events.push(e) });
  expect(h.provider.requests[0].tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
});

Deno.test("requires: patch is hidden until open_file succeeded, then offered; prefers boosts", async () => {
  await using h = await harness({
    tools: TOOLS,
    turns: [
      { tool_calls: [call("c1", "patch", { path: "a.txt" })] },
      { tool_calls: [call("c2", "open_file", { path: "a.txt" })] },
      { tool_calls: [call("c3", "patch", { path: "a.txt" })] },
      { text: "patched" },
    ],
    config: (c) => {
      c.tools.dependencies.enabled = true;
      c.tools.dependencies.rules = { patch: { requires: ["open_file"], prefers: [] } };
    },
  });
  const stop = await h.session.prompt("fix a.txt", { sink: (e) => h.events.push(e) });
  expect(stop).toBe("end_turn");
  const names = h.provider.requests.map((r) => r.tools.map((t) => t.name));
  expect(names).toEqual([
    ["open_file", "web_get", "sql", "lint"],
    ["open_file", "web_get", "sql", "lint"],
    ["open_file", "patch", "web_get", "sql", "lint"],
    ["open_file", "patch", "web_get", "sql", "lint"],
  ]);
  // The call to the hidden tool was refused, not run; the later one ran.
  expect(runs).toEqual({ open_file: 1, patch: 1 });
  const first = ofType(h.events, "tool_end")[0].result;
  expect([first.ok, first.category, first.error]).toEqual([
    false,
    "policy_blocked",
    "Cannot run patch: it requires open_file to complete successfully first in this session " +
    "([tools.dependencies.rules.patch])",
  ]);
  expect(ofType(h.events, "notice").map((n) => [n.level, n.code, n.message])).toEqual([
    ["debug", "tool_hidden", "patch is hidden: it requires open_file to complete first"],
  ]);
  // /clear forgets what completed: patch is hidden again.
  h.session.clear();
  expect([...h.session.completedTools]).toEqual([]);
});

Deno.test("a failed prerequisite does not unlock the tool", async () => {
  await using h = await harness({
    tools: TOOLS,
    turns: [{ tool_calls: [call("c1", "open_file", { wrong: 1 })] }, { text: "hm" }],
    config: (c) => {
      c.tools.dependencies.enabled = true;
      c.tools.dependencies.rules = { patch: { requires: ["open_file"], prefers: [] } };
    },
  });
  await h.session.prompt("fix a.txt", { sink: (e) => h.events.push(e) });
  expect(h.provider.requests[1].tools.map((t) => t.name)).not.toContain("patch");
  expect([...h.session.completedTools]).toEqual([]);
});

Deno.test("prefers: a completed preferred tool lifts a ranked tool into top_k", async () => {
  await using h = await harness({
    tools: TOOLS,
    turns: [
      { tool_calls: [call("c1", "lint", { path: "a.ts" })] },
      { text: "done" },
    ],
    config: (c) => {
      c.tools.schema_filter.enabled = true;
      c.tools.schema_filter.always_on = ["lint"];
      c.tools.schema_filter.top_k = 2;
      c.tools.dependencies.enabled = true;
      c.tools.dependencies.boost_per_dep = 0.5;
      c.tools.dependencies.max_total_boost = 0.5;
      c.tools.dependencies.rules = { sql: { requires: [], prefers: ["lint"] } };
    },
  });
  // Only patch matches "replace … string"; sql matches nothing, and is left out until lint
  // completed and its prefers boost gave it a score.
  await h.session.prompt("replace the string", { sink: (e) => h.events.push(e) });
  const names = h.provider.requests.map((r) => r.tools.map((t) => t.name));
  expect(names).toEqual([["patch", "lint"], ["patch", "sql", "lint"]]);
});

Deno.test("every tool hidden by requires: the user is told and no request is sent", async () => {
  await using h = await harness({
    tools: TOOLS.slice(0, 2),
    turns: [{ text: "never" }],
    config: (c) => {
      c.tools.dependencies.enabled = true;
      c.tools.dependencies.rules = {
        patch: { requires: ["open_file"], prefers: [] },
        open_file: { requires: ["web_get"], prefers: [] },
      };
    },
  });
  const stop = await h.session.prompt("fix it", { sink: (e) => h.events.push(e) });
  expect(stop).toBe("error");
  expect(h.provider.requests.length).toBe(0);
  const errors = ofType(h.events, "notice").filter((n) => n.level === "error");
  expect(errors.map((n) => [n.code, n.message])).toEqual([[
    "tools_blocked",
    "Cannot ask the model: every available tool is hidden by [tools.dependencies] requires " +
    "(open_file needs web_get; patch needs open_file), and none of those prerequisites is " +
    "available to complete. Fix the rules so a chain starts at a tool without requires, or set " +
    "[tools.dependencies] enabled = false.",
  ]]);
});

Deno.test("TAFC: the complex schema carries `thinking`; the call runs, is shown, stored and audited without it", async () => {
  const audited: unknown[] = [];
  await using h = await harness({
    tools: [deployTool, TOOLS[0]],
    turns: [
      {
        tool_calls: [call("c1", "deploy", {
          thinking: "prod needs a canary first",
          service: "api",
          env: "prod",
          strategy: { kind: "canary", percent: 5 },
        })],
      },
      { text: "deployed" },
    ],
    config: (c) => {
      c.tools.tafc.enabled = true;
    },
  });
  h.registry.addFinalHook({
    name: "test",
    record: (_r, input) => void audited.push([(input.call as ToolCall).input, input.params]),
  });
  await h.session.prompt("deploy api", { sink: (e) => h.events.push(e) });

  const [deploy, open] = h.provider.requests[0].tools;
  const props = deploy.inputSchema.properties as Record<string, unknown>;
  expect(Object.keys(props)).toEqual(["thinking", "service", "env", "strategy"]);
  expect(props.thinking).toEqual({
    type: "string",
    description: "Think step by step about what this call must achieve and which value each " +
      "parameter needs, before filling them in. Discarded before the tool runs.",
  });
  expect(deploy.inputSchema.required).toEqual(["service", "env", "strategy"]);
  expect(Object.keys(open.inputSchema.properties as object)).toEqual(["path"]);

  const input = { service: "api", env: "prod", strategy: { kind: "canary", percent: 5 } };
  expect(runs.deploy).toBe(1);
  expect(ofType(h.events, "tool_start").map((e) => e.input)).toEqual([input]);
  expect(h.session.messages[1].parts).toEqual([
    { type: "tool_call", id: "c1", name: "deploy", input },
  ]);
  expect(audited).toEqual([[input, input]]);
  expect(JSON.stringify(h.provider.requests[1])).not.toContain("canary first");
});

Deno.test("TAFC off (the default): no thinking field, and a stray one is an invalid parameter", async () => {
  await using h = await harness({
    tools: [deployTool],
    turns: [
      {
        tool_calls: [call("c1", "deploy", {
          thinking: "x",
          service: "api",
          env: "dev",
          strategy: { kind: "rolling", batch: 1 },
        })],
      },
      { text: "no" },
    ],
  });
  await h.session.prompt("deploy api", { sink: (e) => h.events.push(e) });
  const props = h.provider.requests[0].tools[0].inputSchema.properties as Record<string, unknown>;
  expect(Object.keys(props)).toEqual(["service", "env", "strategy"]);
  expect(runs.deploy).toBeUndefined();
  expect(ofType(h.events, "tool_end")[0].result.category).toBe("invalid_parameters");
});

Deno.test("legacy path: no tool list is sent, but a call to a tool hidden by requires is refused", async () => {
  await using h = await harness({
    tools: TOOLS,
    turns: [
      '{"legacy": true}',
      { text: '<tool_call>{"name": "patch", "input": {"path": "a"}}</tool_call>' },
      { text: "ok" },
    ],
    config: (c) => {
      c.tools.dependencies.enabled = true;
      c.tools.dependencies.rules = { patch: { requires: ["open_file"], prefers: [] } };
    },
  });
  await h.session.prompt("patch a", { sink: (e) => h.events.push(e) });
  expect(h.provider.requests.map((r) => r.tools)).toEqual([[], []]);
  expect(runs.patch).toBeUndefined();
  expect(ofType(h.events, "tool_end").map((e) => [e.result.tool, e.result.category])).toEqual([
    ["patch", "policy_blocked"],
  ]);
});
