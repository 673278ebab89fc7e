/**
 * `deno task bench:mcp`: what MCP servers cost.
 * 1. Start-up, median of BENCH_RUNS interleaved rounds: `zeph acp` initialize and session/new
 *    with 0 and with 3 servers (3 in the config; 3 passed by the editor in session/new), and
 *    `zeph tools --json` (the CLI builds the runtime and waits for the servers' tools) with 0
 *    and 3 configured servers. The servers are tests/mcp/_server.ts run by Deno.
 * 2. Time per call of one tool (`slow` with ms = 0) of the same server: through the registry's
 *    dispatch boundary of the runtime main.ts builds (validation, permission, filter, overflow,
 *    audit) vs a bare SDK client with the SDK's own stdio transport; interleaved blocks.
 */
import * as path from "node:path";
import { deps } from "../main.ts";
import { median, percentile } from "./_stats.ts";

const ROOT = path.resolve(import.meta.dirname!, "..");
const DENO = path.join(ROOT, "node_modules/deno/deno");
const FIXTURE = path.join(ROOT, "tests/mcp/_server.ts");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 5);
const CALLS = Number(Deno.env.get("BENCH_CALLS") ?? 300);
const FLAGS = [
  "run",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net",
  "--allow-sys",
  "--allow-ffi",
  "--no-prompt",
  "--unstable-lazy-dynamic-imports",
];

const tmp = await Deno.makeTempDir({ prefix: "zeph_mcp_bench_" });
const ws = path.join(tmp, "ws");
const home = path.join(tmp, "home");
await Deno.mkdir(ws);
await Deno.mkdir(home);
const script = path.join(tmp, "script.jsonl");
await Deno.writeTextFile(script, JSON.stringify({ text: "hi" }) + "\n");
const serverToml = (id: string) =>
  `[[mcp.servers]]\nid = "${id}"\ncommand = ${JSON.stringify(DENO)}\n` +
  `args = ["run", "-A", "--no-prompt", ${JSON.stringify(FIXTURE)}]\ntrust = "all"\n` +
  `env = { DENO_DIR = ${
    JSON.stringify(Deno.env.get("DENO_DIR") ?? path.join(Deno.env.get("HOME")!, ".cache/deno"))
  } }\n`;
const config0 = path.join(tmp, "zero.toml");
const config3 = path.join(tmp, "three.toml");
await Deno.writeTextFile(config0, `[tools.audit]\nenabled = false\n`);
await Deno.writeTextFile(
  config3,
  `[tools.audit]\nenabled = false\n` + ["a", "b", "c"].map(serverToml).join("\n"),
);
const editorServers = ["a", "b", "c"].map((name) => ({
  name,
  command: DENO,
  args: ["run", "-A", "--no-prompt", FIXTURE],
  env: [],
}));

const enc = new TextEncoder();
const line = (m: unknown) => enc.encode(JSON.stringify(m) + "\n");

/** Spawn `zeph acp`, time initialize and session/new from the spawn. */
async function acpProbe(config: string, mcpServers: unknown[]): Promise<[number, number]> {
  const t0 = performance.now();
  const child = new Deno.Command(DENO, {
    args: [...FLAGS, path.join(ROOT, "main.ts"), "acp", "--config", config, "--script", script],
    cwd: ws,
    env: { HOME: home, PATH: Deno.env.get("PATH")! },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(line({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: 1, clientCapabilities: {} },
  }));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let init = 0;
  let sessionNew = 0;
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`zeph acp ended: ${buf}`);
    buf += value;
    if (!init && /"id":0,"result"/.test(buf)) {
      init = performance.now() - t0;
      await w.write(
        line({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: ws, mcpServers } }),
      );
    }
    if (init && /"id":1,"(result|error)"/.test(buf)) {
      sessionNew = performance.now() - t0;
      break;
    }
  }
  await w.close().catch(() => {});
  reader.releaseLock();
  child.kill("SIGTERM");
  await child.status;
  return [init, sessionNew];
}

async function toolsProbe(config: string): Promise<number> {
  const t0 = performance.now();
  const out = await new Deno.Command(DENO, {
    args: [...FLAGS, path.join(ROOT, "main.ts"), "--config", config, "-C", ws, "tools", "--json"],
    env: { HOME: home, PATH: Deno.env.get("PATH")! },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return ms;
}

const startCases: [string, () => Promise<number[]>][] = [
  ["acp, 0 servers", () => acpProbe(config0, [])],
  ["acp, 3 in config", () => acpProbe(config3, [])],
  ["acp, 3 in session/new", () => acpProbe(config0, editorServers)],
  ["zeph tools, 0 servers", async () => [await toolsProbe(config0)]],
  ["zeph tools, 3 servers", async () => [await toolsProbe(config3)]],
];
for (const [, run] of startCases) await run(); // warm the module caches
const startResults: number[][][] = startCases.map(() => []);
for (let i = 0; i < RUNS; i++) {
  for (const [c, [, run]] of startCases.entries()) startResults[c].push(await run());
}
console.log(`Start-up, median of ${RUNS} (ms from spawn):`);
console.log("| case | initialize | session/new or total |");
console.log("| --- | ---: | ---: |");
for (const [c, [name]] of startCases.entries()) {
  const r = startResults[c];
  const cols = r[0].length === 2
    ? [median(r.map((x) => x[0])).toFixed(0), median(r.map((x) => x[1])).toFixed(0)]
    : ["—", median(r.map((x) => x[0])).toFixed(0)];
  console.log(`| ${name} | ${cols.join(" | ")} |`);
}

// Per call: the boundary of main.ts's runtime vs a bare SDK client, same server program.
const runtime = await deps.buildRuntime({ cwd: ws, config: config3, yes: true, json: false });
// @ts-types="@modelcontextprotocol/sdk/client/index"
const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
const bare = new Client({ name: "bench", version: "0" });
await bare.connect(
  new StdioClientTransport({ command: DENO, args: ["run", "-A", "--no-prompt", FIXTURE] }),
);
const scope = runtime.scope();
const viaBoundary = async () => {
  const r = await runtime.registry.dispatch(
    { id: "b", name: "a_slow", input: { ms: 0 } },
    scope,
  );
  if (!r.ok) throw new Error(r.text);
};
const viaSdk = async () => {
  await bare.callTool({ name: "slow", arguments: { ms: 0 } });
};
for (let i = 0; i < 30; i++) {
  await viaBoundary();
  await viaSdk();
}
const times: Record<string, number[]> = { boundary: [], sdk: [] };
for (let block = 0; block < CALLS / 50; block++) {
  for (const [name, fn] of [["boundary", viaBoundary], ["sdk", viaSdk]] as const) {
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await fn();
      times[name].push(performance.now() - t);
    }
  }
}
console.log(`\nPer call of "slow" (ms = 0), ${CALLS} calls each (ms):`);
console.log("| path | p50 | p95 |");
console.log("| --- | ---: | ---: |");
for (const [name, xs] of Object.entries(times)) {
  const s = [...xs].sort((a, b) => a - b);
  console.log(`| ${name} | ${median(s).toFixed(3)} | ${percentile(s, 0.95).toFixed(3)} |`);
}
await bare.close();
await runtime.close();
await Deno.remove(tmp, { recursive: true });
