/**
 * Shell tool costs: (1) 1 GiB of output through the bash tool via ToolRegistry.dispatch, with
 * the wall time and the peak RSS of this process (target: a few hundred MB at most, whatever the
 * command prints); (2) the spawn overhead of `bash -c true` through dispatch, next to a bare
 * Deno.Command and the process runner alone. Run: `deno task bench:shell`.
 */
import { defaultConfig } from "../src/config/schema.ts";
import { LocalProcessRunner } from "../src/exec/mod.ts";
import { installShellAnalyzer } from "../src/permission/shell.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { bashTool } from "../src/tools/bash.ts";
import { LocalExecutor } from "../src/tools/executors/mod.ts";
import { type CallScope, ToolRegistry } from "../src/tools/registry.ts";
import { peakRssBytes, percentile } from "./_stats.ts";

const GIB = 1024 ** 3;
const MB = 1024 * 1024;
const SPAWNS = 200;
const RSS_TARGET_MB = 300;

const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_shell_bench_" }));
const config = defaultConfig();
config.tools.shell.timeout = 600;
const sandbox = await Sandbox.create(workspace);

function registryWith(policy: PermissionPolicy): ToolRegistry {
  return new ToolRegistry({ tools: [bashTool], executor: new LocalExecutor(), policy, config });
}
const allowAll = registryWith(new PermissionPolicy({ bash: [{ pattern: "*", action: "allow" }] }));
const analysed = (() => {
  const policy = PermissionPolicy.fromConfig(config);
  installShellAnalyzer(policy, config);
  return registryWith(policy);
})();

// --- 1. 1 GiB of output -----------------------------------------------------------------------

async function bigOutput(command: string, label: string): Promise<string> {
  let streamed = 0;
  const scope: CallScope = {
    cwd: workspace,
    sandbox,
    emit: (e) => {
      if (e.type === "output") streamed += e.chunk.length;
    },
  };
  const before = Deno.memoryUsage().rss / MB;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, Deno.memoryUsage().rss / MB);
  }, 10);
  const t = performance.now();
  const result = await allowAll.dispatch({ id: "big", name: "bash", input: { command } }, scope);
  const wall = (performance.now() - t) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, Deno.memoryUsage().rss / MB);
  const ok = result.ok && result.output?.truncated === true && streamed >= GIB;
  return `| ${label} | ${ok ? "ok" : "FAILED"} | ${wall.toFixed(2)} s | ${
    (GIB / MB / wall).toFixed(0)
  } MiB/s | ${before.toFixed(0)} MB | ${peak.toFixed(0)} MB | ${result.text.length} chars | ${
    peak <= RSS_TARGET_MB ? "yes" : "NO"
  } | `;
}

const LINE = "a".repeat(100);
const CASES: [string, string][] = [
  [`yes ${LINE} | head -c 1G`, "`yes <100 × a> \\| head -c 1G` (101-byte lines)"],
  ["yes | head -c 1G", "`yes \\| head -c 1G` (2-byte lines)"],
  [`yes ${LINE} | head -c 1G >&2`, "the 101-byte lines on stderr (prefixed)"],
  ["head -c 1G /dev/zero | tr '\\0' 'a'", "`head -c 1G /dev/zero \\| tr …` (one 1 GiB line)"],
];

if (Deno.args[0] === "--case") {
  // One case per process, so each peak RSS starts from a fresh process.
  const [command, label] = CASES[Number(Deno.args[1])];
  const row = await bigOutput(command, label);
  const peak = peakRssBytes();
  console.log(`${row}${peak === null ? "n/a" : (peak / MB).toFixed(0)} MB |`);
  await Deno.remove(workspace, { recursive: true });
  Deno.exit(0);
}

console.log(
  `1 GiB through the bash tool (dispatch, [tools.shell] max_output_bytes = ${
    config.tools.shell.max_output_bytes / MB
  } MiB, every chunk streamed to the event sink; each case in a fresh process):\n`,
);
console.log(
  "| command | result | wall | throughput | RSS before | peak RSS (sampled) | model text | " +
    `≤ ${RSS_TARGET_MB} MB | VmHWM |`,
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (let i = 0; i < CASES.length; i++) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", import.meta.filename!, "--case", String(i)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  console.log(new TextDecoder().decode(out.stdout).trim() || `| ${CASES[i][1]} | FAILED |`);
}

// --- 2. spawn overhead ------------------------------------------------------------------------

async function timeIt(label: string, run: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 20; i++) await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return `| ${label} | ${percentile(times, 0.5).toFixed(2)} ms | ${
    percentile(times, 0.95).toFixed(2)
  } ms |`;
}

const scope: CallScope = { cwd: workspace, sandbox };
const runner = new LocalProcessRunner();
let n = 0;
console.log(`\nSpawn overhead of \`bash -c true\` (${SPAWNS} runs after 20 warm-up runs):\n`);
console.log("| path | p50 | p95 |");
console.log("|---|---|---|");
console.log(
  await timeIt(
    'bare `new Deno.Command("bash", …).output()`',
    () => new Deno.Command("bash", { args: ["-c", "true"] }).output(),
  ),
);
console.log(
  await timeIt(
    "process runner (detached group, streams, /proc group check)",
    () => runner.run("bash", ["-c", "true"], { cwd: workspace }),
  ),
);
console.log(
  await timeIt(
    "dispatch, allow-all rule (+ path analysis)",
    () => allowAll.dispatch({ id: `s${n++}`, name: "bash", input: { command: "true" } }, scope),
  ),
);
console.log(
  await timeIt(
    "dispatch, default config (shell permission analyser + path analysis)",
    () => analysed.dispatch({ id: `s${n++}`, name: "bash", input: { command: "true" } }, scope),
  ),
);

await Deno.remove(workspace, { recursive: true });
