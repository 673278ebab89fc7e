/**
 * Tool selection benchmarks. Run: `deno task bench:tool_selection` (prints markdown tables).
 * - Cost per request of choosing and rendering the tool list (target ≤ 1 ms p50 at 200 tools):
 *   the loop's tool list before this feature (`registry.definitions`), and `offerTools` with
 *   filtering off and on (BM25, dependency rules, TAFC), with the 15 built-in tools and with 185
 *   generated tools added.
 * - Estimated tokens per request on the scripted demo (examples/demo.jsonl, the real tools in a
 *   temp workspace), schema filtering off and on, for the demo's own prompt and a longer one.
 */
import * as path from "node:path";
import { z } from "zod";
import { AgentSession } from "../src/agent/session.ts";
import { estimateRequestTokens } from "../src/agent/limits.ts";
import { offerTools } from "../src/agent/tool_selection.ts";
import { type Config, defaultConfig } from "../src/config/schema.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { parseScript, ScriptProvider } from "../src/provider/script.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { builtinTools } from "../src/tools/catalog.ts";
import { LocalExecutor } from "../src/tools/executors/mod.ts";
import { ToolRegistry } from "../src/tools/registry.ts";
import { type AnyTool, defineTool } from "../src/tools/tool.ts";
import { median, percentile } from "./_stats.ts";

const ROUNDS = 2000;

const WORDS = ("archive branch build cache calendar certificate channel cluster commit container " +
  "cron database deploy diff dns docker email event feature flag graph health image index " +
  "invoice issue job kubernetes label ledger log metric migration monitor namespace node " +
  "notebook package pipeline pod queue record release repository report rollback schema " +
  "secret service snapshot spreadsheet table task template ticket token topic trace user " +
  "volume webhook workflow").split(" ");
const VERBS = "list create delete update show search export import sync restart".split(" ");

/** A deterministic stand-in for an MCP server's tools: varied names, descriptions, schemas. */
function generatedTools(count: number): AnyTool[] {
  const tools: AnyTool[] = [];
  for (let i = 0; i < count; i++) {
    const noun = WORDS[i % WORDS.length];
    const verb = VERBS[Math.floor(i / WORDS.length) % VERBS.length];
    const other = WORDS[(i * 7 + 3) % WORDS.length];
    tools.push(defineTool({
      name: `${verb}_${noun}_${i}`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)}s the ${noun} entries of the ` +
        `connected service, filtered by ${other}; returns one line per ${noun} with its id, ` +
        `status and the time it last changed.`,
      params: z.object({
        [noun]: z.string().describe(`the ${noun} id`),
        filter: z.enum(["all", "open", "closed", "mine"]).optional().describe("which ones"),
        limit: z.number().int().optional().describe("at most this many"),
      }).strict(),
      mutates: verb !== "list" && verb !== "show" && verb !== "search",
      kind: "other",
      group: "read",
      invocation: { type: "call" },
      subjects: () => [],
      execute: () => Promise.resolve({ text: "" }),
    }));
  }
  return tools;
}

const QUERIES = [
  "fix the failing test in src/app.ts and run it again",
  "download the release notes page and summarise the breaking changes",
  "rename the config folder to settings and update the imports",
  "list the open tickets assigned to me and export them",
  "grep for TODO comments and count them per file",
  "restart the deploy pipeline for the billing service",
];

function selectionConfig(on: boolean): Config {
  const config = defaultConfig();
  if (!on) return config;
  config.tools.schema_filter.enabled = true;
  config.tools.tafc.enabled = true;
  config.tools.dependencies.enabled = true;
  config.tools.dependencies.rules = {
    edit: { requires: ["read"], prefers: ["grep"] },
    write: { requires: [], prefers: ["read", "list_directory"] },
    delete_path: { requires: ["list_directory"], prefers: [] },
  };
  return config;
}

function timeRounds(fn: (i: number) => unknown): { p50: number; p95: number } {
  for (let i = 0; i < 300; i++) fn(i); // JIT warm-up
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    fn(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: median(times), p95: percentile(times, 0.95) };
}

function costTable(): string[] {
  const rows = [
    "| tools | tool list per request                          |  p50 ms |  p95 ms | tools sent (avg) |",
    "| ----: | ---------------------------------------------- | ------: | ------: | ---------------: |",
  ];
  for (const extra of [0, 185]) {
    const tools = [...builtinTools(), ...generatedTools(extra)];
    const cases: [string, Config, boolean][] = [
      ["before: `registry.definitions()`", defaultConfig(), false],
      ["`offerTools`, filtering off", selectionConfig(false), true],
      ["`offerTools`, filter + dependencies + TAFC on", selectionConfig(true), true],
    ];
    for (const [label, config, offer] of cases) {
      const policy = PermissionPolicy.fromConfig(config);
      const registry = new ToolRegistry({ tools, executor: new LocalExecutor(), policy, config });
      const session = { registry, policy, config, completedTools: new Set(["read"]) };
      let sent = 0;
      const run = offer
        ? (i: number) => {
          const o = offerTools(session, registry.visible(policy), {
            query: QUERIES[i % QUERIES.length],
            legacy: false,
            notice: () => {},
            reported: new Set(),
          });
          sent += o!.tools.length;
        }
        : () => {
          sent += registry.definitions(policy).length;
        };
      const { p50, p95 } = timeRounds(run);
      const avg = sent / (ROUNDS + 300);
      rows.push(
        `| ${String(tools.length).padStart(5)} | ${label.padEnd(46)} | ${
          p50.toFixed(3).padStart(7)
        } | ${p95.toFixed(3).padStart(7)} | ${avg.toFixed(1).padStart(16)} |`,
      );
    }
  }
  return rows;
}

async function demoTokens(prompt: string, filter: boolean) {
  const dir = await Deno.makeTempDir({ prefix: "zeph-bench-select-" });
  try {
    const config = defaultConfig();
    config.tools.schema_filter.enabled = filter;
    const sandbox = await Sandbox.create(dir);
    const policy = new PermissionPolicy();
    const registry = new ToolRegistry({
      tools: builtinTools(),
      executor: new LocalExecutor(),
      policy,
      config,
    });
    const script = parseScript(
      await Deno.readTextFile(path.join(import.meta.dirname!, "..", "examples", "demo.jsonl")),
      "demo.jsonl",
    );
    const provider = new ScriptProvider(script);
    const session = new AgentSession({
      provider,
      registry,
      cwd: sandbox.workspace,
      sandbox,
      policy,
      ask: () => Promise.resolve("allow_once"),
    });
    await session.prompt(prompt, { sink: () => {} });
    const requests = provider.requests;
    const total = requests.map((r) => estimateRequestTokens(r));
    const tools = requests.map((r) => estimateRequestTokens({ ...r, system: "", messages: [] }));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      requests: requests.length,
      toolsSent: mean(requests.map((r) => r.tools.length)),
      toolTokens: mean(tools),
      totalTokens: mean(total),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function tokenTable(): Promise<string[]> {
  const rows = [
    "| prompt | schema filter | requests | tools sent (avg) | schema tokens / request | tokens / request |",
    "| ------ | ------------- | -------: | ---------------: | ----------------------: | ---------------: |",
  ];
  const prompts = [
    "Tidy up greet.ts",
    "Write greet.ts, read it back, search where greet is used, count its lines and edit the " +
    "greeting",
  ];
  for (const prompt of prompts) {
    for (const filter of [false, true]) {
      const r = await demoTokens(prompt, filter);
      rows.push(
        `| ${JSON.stringify(prompt).slice(0, 40)} | ${filter ? "on" : "off"} | ${r.requests} | ${
          r.toolsSent.toFixed(1)
        } | ${Math.round(r.toolTokens)} | ${Math.round(r.totalTokens)} |`,
      );
    }
  }
  return rows;
}

console.log(costTable().join("\n"));
console.log();
console.log((await tokenTable()).join("\n"));
