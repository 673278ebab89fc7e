/**
 * `deno task bench:acp`: how fast an editor gets a usable agent. One probe per run: spawn
 * `zeph acp`, send `initialize`, then `session/new`; time both answers from the spawn, read the
 * agent's RSS after `session/new`; median of 7. Baselines: a Deno process that only echoes an
 * `initialize` answer (no SDK), and a minimal agent on the ACP SDK. Then the cost per tool call
 * of the ACP notifications (tool_call + final tool_call_update built, validated shape, encoded
 * and written), measured in-process.
 * Targets (issue #6): initialize ≤ 80 ms, session/new ≤ 150 ms, idle RSS ≤ 70 MB.
 */
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..");
const DENO = path.join(ROOT, "node_modules/deno/deno");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? 7);
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
  // As the `zeph` task runs it: without this, Deno loads every `await import()` up front.
  "--unstable-lazy-dynamic-imports",
];

const enc = new TextEncoder();
const line = (m: unknown) => enc.encode(JSON.stringify(m) + "\n");

interface Probe {
  initialize: number;
  sessionNew: number | null;
  rssMb: number | null;
}

async function probe(
  args: string[],
  cwd: string,
  home: string,
  withSession: boolean,
): Promise<Probe> {
  const t0 = performance.now();
  const child = new Deno.Command(DENO, {
    args,
    cwd,
    env: { HOME: home, XDG_DATA_HOME: "", XDG_CONFIG_HOME: "" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(line({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    },
  }));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  let initialize = 0;
  let sessionNew: number | null = null;
  let rssMb: number | null = null;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    if (!initialize && /"id":0,"result"/.test(buf)) {
      initialize = performance.now() - t0;
      if (!withSession) break;
      await w.write(
        line({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd, mcpServers: [] } }),
      );
    }
    if (initialize && /"id":1,"(result|error)"/.test(buf)) {
      sessionNew = performance.now() - t0;
      if (/"id":1,"error"/.test(buf)) throw new Error(`session/new failed: ${buf}`);
      const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      rssMb = kb / 1024;
      break;
    }
  }
  await w.close().catch(() => {});
  reader.releaseLock();
  child.kill();
  await child.status;
  return { initialize, sessionNew, rssMb };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const fmt = (n: number | null) => (n === null ? "—" : n.toFixed(0));

const tmp = await Deno.makeTempDir({ prefix: "zeph_acp_bench_" });
const ws = path.join(tmp, "ws");
const home = path.join(tmp, "home");
await Deno.mkdir(ws);
await Deno.mkdir(home);
const script = path.join(tmp, "script.jsonl");
await Deno.writeTextFile(script, JSON.stringify({ text: "hi" }) + "\n");
const config = path.join(tmp, "config.toml");
await Deno.writeTextFile(config, "");
const echo = path.join(ROOT, "bench/_acp_echo.ts");
const sdkMin = path.join(ROOT, "bench/_acp_sdk_min.ts");

const cases: [string, string[], boolean][] = [
  ["deno echo (no SDK, baseline)", [...FLAGS, echo], false],
  ["minimal SDK agent (baseline)", [...FLAGS, sdkMin], true],
  ["zeph acp", [
    ...FLAGS,
    path.join(ROOT, "main.ts"),
    "acp",
    "--config",
    config,
    "--script",
    script,
  ], true],
];

// Warm the module caches once per case (editors spawn a cached agent too).
for (const [, args, s] of cases) await probe(args, ws, home, s);

// Interleaved rounds (one probe of each case per round), so drift in machine speed hits every
// case alike; medians per case.
const results: Probe[][] = cases.map(() => []);
for (let i = 0; i < RUNS; i++) {
  for (const [c, [, args, withSession]] of cases.entries()) {
    results[c].push(await probe(args, ws, home, withSession));
  }
}
const rows: string[] = [];
for (const [c, [name, , withSession]] of cases.entries()) {
  const init = median(results[c].map((r) => r.initialize));
  const sn = withSession ? median(results[c].map((r) => r.sessionNew!)) : null;
  const rss = withSession ? median(results[c].map((r) => r.rssMb!)) : null;
  rows.push(`| ${name} | ${fmt(init)} | ${fmt(sn)} | ${rss === null ? "—" : rss.toFixed(1)} |`);
}

// Notification cost per tool call, in-process: build both updates, encode, write to a sink.
const { toolCallFinished, toolCallStarted } = await import("../src/acp/updates.ts");
const N = 20_000;
const result = {
  callId: "c1",
  tool: "read",
  ok: true,
  text: "   1\thello\n".repeat(40),
  outcome: "success" as const,
  durationMs: 1,
  output: { text: "", locations: [{ path: "src/a.ts", line: 1 }] },
};
let bytes = 0;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const id = crypto.randomUUID();
  const a = toolCallStarted({
    toolCallId: id,
    tool: "read",
    input: { path: "src/a.ts" },
    subjects: ["src/a.ts"],
    cwd: "/ws",
  });
  const b = toolCallFinished({ toolCallId: id, result, cwd: "/ws" });
  bytes += line({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: a } })
    .length;
  bytes += line({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: b } })
    .length;
}
const perCallUs = ((performance.now() - t0) / N) * 1000;

const cpu = (await Deno.readTextFile("/proc/cpuinfo")).match(/model name\s*:\s*(.*)/)?.[1] ??
  "unknown";
console.log(
  `ACP start-up, median of ${RUNS} interleaved rounds (ms from spawn; RSS after session/new)`,
);
console.log(
  `${navigator.hardwareConcurrency} cores, ${cpu}, ${new Date().toISOString().slice(0, 10)}`,
);
console.log("| agent | initialize (ms) | session/new (ms) | RSS (MB) |");
console.log("|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(
  `\nNotifications per tool call (tool_call + final update, ${Math.round(bytes / N)} bytes): ${
    perCallUs.toFixed(1)
  } µs`,
);
await Deno.remove(tmp, { recursive: true });
