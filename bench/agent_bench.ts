/**
 * Agent loop benchmarks. Run: `deno task bench:agent` (prints a markdown table).
 * - Overhead of one loop iteration besides the tool (target ≤ 2 ms): turns of 10 tool
 *   iterations against the scripted provider, minus the time the same dispatches take alone.
 * - Peak RSS while a 100 MB command output goes through the loop: the real bash tool, the
 *   output filter hook (built-in rules), the overflow hook and the SQLite store.
 */
import { join } from "node:path";
import { z } from "zod";
import { AgentSession } from "../src/agent/session.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { parseScript, ScriptProvider } from "../src/provider/script.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { openStore } from "../src/store/mod.ts";
import { filterHook, overflowHook } from "../src/tools/hooks.ts";
import { bashTool } from "../src/tools/bash.ts";
import { LocalExecutor } from "../src/tools/executors/mod.ts";
import { ToolRegistry } from "../src/tools/registry.ts";
import { defineTool } from "../src/tools/tool.ts";
import { median, peakRssBytes } from "./_stats.ts";

const MB = 1024 * 1024;
const ITERATIONS = 10;

const echoTool = defineTool({
  name: "echo",
  description: "Returns its text.",
  params: z.object({ text: z.string() }).strict(),
  mutates: false,
  kind: "read",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.text],
  execute: (p) => Promise.resolve({ text: `echo: ${p.text}` }),
});

function scriptText(iterations: number): string {
  const lines: string[] = [];
  for (let i = 0; i < iterations; i++) {
    lines.push(JSON.stringify({
      text: `Step ${i}.`,
      tool_calls: [{ id: `c${i}`, name: "echo", input: { text: `arg ${i}` } }],
    }));
  }
  lines.push(JSON.stringify({ text: "Done." }));
  return lines.join("\n");
}

async function loopOverhead(dir: string, strict: boolean) {
  const config = defaultConfig();
  config.agent.max_tool_iterations = ITERATIONS + 1;
  const sandbox = await Sandbox.create(dir);
  const registry = new ToolRegistry({
    tools: [echoTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(),
    config,
  });
  const script = parseScript(scriptText(ITERATIONS), "bench.jsonl");
  const store = openStore(join(dir, `loop-${strict}.db`));
  const runTurn = async (persist: boolean) => {
    const session = new AgentSession({
      provider: new ScriptProvider(script, { strict }),
      registry,
      cwd: sandbox.workspace,
      sandbox,
      store: persist ? store : null,
    });
    const t = performance.now();
    await session.prompt("go", { sink: () => {} });
    return performance.now() - t;
  };
  const dispatchAlone = async () => {
    const scope = { cwd: sandbox.workspace, sandbox };
    const t = performance.now();
    for (let i = 0; i < ITERATIONS; i++) {
      await registry.dispatch({ id: `c${i}`, name: "echo", input: { text: `arg ${i}` } }, scope);
    }
    return performance.now() - t;
  };
  const rounds = 200;
  for (let i = 0; i < 20; i++) await runTurn(false); // warm-up (JIT)
  const memory: number[] = [];
  const persisted: number[] = [];
  const tools: number[] = [];
  for (let i = 0; i < rounds; i++) {
    memory.push(await runTurn(false));
    persisted.push(await runTurn(true));
    tools.push(await dispatchAlone());
  }
  store.close();
  // Per iteration: (turn − the same tool dispatches alone) / (iterations + the final answer).
  const per = (turns: number[]) => (median(turns) - median(tools)) / (ITERATIONS + 1);
  return { memory: per(memory), persisted: per(persisted), tool: median(tools) / ITERATIONS };
}

/** Child mode: one turn whose bash call prints 100 MB; prints peak RSS (VmHWM). */
async function rssChild(dir: string): Promise<void> {
  const config = defaultConfig();
  config.tools.shell.timeout = 600;
  const store = openStore(join(dir, "rss.db"));
  const sandbox = await Sandbox.create(dir);
  const registry = new ToolRegistry({
    tools: [bashTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(),
    config,
    deps: { overflow: store },
  });
  const { loadFilterEngine } = await import("../src/filter/mod.ts");
  const { engine } = await loadFilterEngine(config, { configDir: dir });
  registry.addOutputHook(filterHook(engine));
  registry.addOutputHook(overflowHook(store, config));
  const command = "yes 'src/module/file.ts:120:5 warning: unused variable x 0123456789' " +
    "| head -c 104857600";
  const script = parseScript(
    JSON.stringify({ tool_calls: [{ id: "b", name: "bash", input: { command } }] }) +
      '\n{"text": "done"}',
  );
  const session = new AgentSession({
    provider: new ScriptProvider(script),
    registry,
    cwd: sandbox.workspace,
    sandbox,
    store,
    ask: () => Promise.resolve("allow_once"),
  });
  let chars = 0;
  let streamed = 0;
  const before = peakRssBytes();
  const t = performance.now();
  const stop = await session.prompt("make noise", {
    sink: (e) => {
      if (e.type === "tool_end") chars = e.result.text.length;
      if (e.type === "tool_output") streamed += e.chunk.length;
    },
  });
  const ms = performance.now() - t;
  console.log(JSON.stringify({ before, peak: peakRssBytes(), ms, chars, streamed, stop }));
  store.close();
}

async function main(): Promise<void> {
  if (Deno.args[0] === "--rss-child") return await rssChild(Deno.args[1]);
  const dir = await Deno.makeTempDir({ prefix: "zeph-bench-agent-" });
  try {
    const rows: [string, string, string][] = [];
    const lax = await loopOverhead(dir, false);
    const strict = await loopOverhead(dir, true);
    rows.push([
      "loop overhead per iteration, in-memory transcript",
      `${lax.memory.toFixed(3)} ms`,
      "≤ 2 ms",
    ]);
    rows.push([
      "loop overhead per iteration, SQLite transcript (2 appends/iteration)",
      `${lax.persisted.toFixed(3)} ms`,
      "≤ 2 ms",
    ]);
    rows.push([
      "same, with the scripted provider's protocol check on",
      `${strict.memory.toFixed(3)} ms`,
      "",
    ]);
    rows.push([
      "the tool itself (echo through dispatch), per call",
      `${lax.tool.toFixed(3)} ms`,
      "",
    ]);

    const child = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", import.meta.filename!, "--rss-child", dir],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const rss = JSON.parse(new TextDecoder().decode(child.stdout));
    rows.push([
      `100 MB bash output through one loop turn (bash + filters + overflow + SQLite; model saw ${rss.chars} chars, stop ${rss.stop})`,
      `${(rss.ms / 1000).toFixed(1)} s, peak RSS ${(rss.peak / MB).toFixed(0)} MB (${
        (rss.before / MB).toFixed(0)
      } MB before)`,
      "",
    ]);

    console.log(`| measurement | result | target |\n|---|---|---|`);
    for (const [what, result, goal] of rows) console.log(`| ${what} | ${result} | ${goal} |`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
