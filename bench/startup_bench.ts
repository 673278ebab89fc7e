/**
 * Cold start: `zeph --version` (main.ts, with the flags of `deno task zeph`) against
 * an empty `deno run` file in the same project. Target ≤ 1.3×. Uses hyperfine when installed
 * (`apt-get install -y hyperfine`), and always an interleaved loop of spawns with medians.
 * Run: `deno task bench:startup`.
 */
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..");
const DENO = path.join(ROOT, "node_modules", "deno", "deno");
/**
 * The exact `deno run` flags of the `zeph` task (deno.json), so the benchmark measures what
 * `npm start`/`deno task zeph` runs, including `--unstable-lazy-dynamic-imports`: without it
 * Deno loads every statically analysable dynamic import (the whole program) before `main.ts`
 * starts, which costs `--version` about a third more than an empty program.
 */
function taskFlags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(path.join(ROOT, "deno.json")));
  const words = String(config.tasks.zeph).split(/\s+/);
  const main = words.indexOf("main.ts");
  if (words[1] !== "run" || main < 0) throw new Error("Unexpected zeph task in deno.json");
  return words.slice(1, main);
}
const FLAGS = taskFlags();
const RUNS = 60;
const TARGET = 1.3;

const zeph = [DENO, ...FLAGS, path.join(ROOT, "main.ts"), "--version"];
const empty = [DENO, ...FLAGS, path.join(ROOT, "bench", "_empty.ts")];

async function hasHyperfine(): Promise<boolean> {
  try {
    const out = await new Deno.Command("hyperfine", { args: ["--version"], stdout: "null" })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function spawnOnce(cmd: string[]): Promise<number> {
  const t = performance.now();
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: ROOT,
    stdout: "null",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`${cmd.join(" ")} failed with exit ${out.code}`);
  return performance.now() - t;
}

/**
 * Median wall times of RUNS spawns of each command, interleaved (zeph, empty, empty, zeph, …)
 * so load changes on a shared machine hit both alike; 3 warm-ups fill the module cache.
 */
async function interleavedMedians(): Promise<{ zeph: number; empty: number }> {
  for (let i = 0; i < 3; i++) await spawnOnce(zeph), await spawnOnce(empty);
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2) {
      a.push(await spawnOnce(zeph));
      b.push(await spawnOnce(empty));
    } else {
      b.push(await spawnOnce(empty));
      a.push(await spawnOnce(zeph));
    }
  }
  return { zeph: median(a), empty: median(b) };
}

interface Timing {
  /** Median wall time, ms. */
  zeph: number;
  empty: number;
  /** Mean user+system CPU time, ms (hyperfine only): steadier than wall time on a busy machine. */
  zephCpu?: number;
  emptyCpu?: number;
}

async function viaHyperfine(): Promise<Timing> {
  const json = await Deno.makeTempFile({ suffix: ".json" });
  try {
    const quote = (parts: string[]) => parts.map((p) => `'${p}'`).join(" ");
    const out = await new Deno.Command("hyperfine", {
      args: [
        "--warmup",
        "5",
        "--runs",
        String(RUNS),
        "-N",
        "--export-json",
        json,
        "--command-name",
        "zeph --version",
        quote(zeph),
        "--command-name",
        "empty deno run",
        quote(empty),
      ],
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error("hyperfine failed");
    const results = JSON.parse(await Deno.readTextFile(json)).results as {
      median: number;
      user: number;
      system: number;
    }[];
    const cpu = (i: number) => (results[i].user + results[i].system) * 1000;
    return {
      zeph: results[0].median * 1000,
      empty: results[1].median * 1000,
      zephCpu: cpu(0),
      emptyCpu: cpu(1),
    };
  } finally {
    await Deno.remove(json);
  }
}

if (import.meta.main) {
  const useHyperfine = await hasHyperfine();
  const rows: string[] = [];
  const cpu = (ms?: number) => ms === undefined ? "n/a" : `${ms.toFixed(1)} ms`;
  const row = (how: string, r: Timing) => {
    const ratio = r.zeph / r.empty;
    const cpuRatio = r.zephCpu && r.emptyCpu ? (r.zephCpu / r.emptyCpu).toFixed(2) : "n/a";
    rows.push(
      `| ${how} | ${r.empty.toFixed(1)} ms | ${r.zeph.toFixed(1)} ms | ${ratio.toFixed(2)} | ${
        cpu(r.emptyCpu)
      } / ${cpu(r.zephCpu)} | ${cpuRatio} | ${ratio <= TARGET ? "yes" : "NO"} |`,
    );
  };
  if (useHyperfine) row("hyperfine (median)", await viaHyperfine());
  row("interleaved spawns (median)", await interleavedMedians());
  console.log(`\ncold start of \`zeph --version\` vs an empty \`deno run\`, ${RUNS} runs each`);
  console.log(
    "| method | empty | zeph --version | ratio | CPU user+sys (empty / zeph) | CPU ratio | ≤ 1.3× |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const r of rows) console.log(r);
}
