/**
 * Cold start: `zeph --version` (main.ts, with the permission flags of `deno task zeph`) against
 * an empty `deno run` file in the same project. Target ≤ 1.3×. Uses hyperfine when installed
 * (`apt-get install -y hyperfine`), else a loop of spawns with medians.
 * Run: `deno task bench:startup`.
 */
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..");
const DENO = path.join(ROOT, "node_modules", "deno", "deno");
const FLAGS = [
  "run",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-net",
  "--allow-sys",
  "--no-prompt",
];
const RUNS = 30;
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

/** Median wall time of RUNS spawns, after 3 warm-ups (module cache filled). */
async function spawnMedian(cmd: string[]): Promise<number> {
  const run = async () => {
    const t = performance.now();
    const out = await new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      cwd: ROOT,
      stdout: "null",
      stderr: "null",
    }).output();
    if (!out.success) throw new Error(`${cmd.join(" ")} failed with exit ${out.code}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 3; i++) await run();
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) xs.push(await run());
  return median(xs);
}

async function viaHyperfine(): Promise<{ zeph: number; empty: number }> {
  const json = await Deno.makeTempFile({ suffix: ".json" });
  try {
    const quote = (parts: string[]) => parts.map((p) => `'${p}'`).join(" ");
    const out = await new Deno.Command("hyperfine", {
      args: [
        "--warmup",
        "3",
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
    const results = JSON.parse(await Deno.readTextFile(json)).results as { median: number }[];
    return { zeph: results[0].median * 1000, empty: results[1].median * 1000 };
  } finally {
    await Deno.remove(json);
  }
}

if (import.meta.main) {
  const useHyperfine = await hasHyperfine();
  const r = useHyperfine
    ? await viaHyperfine()
    : { zeph: await spawnMedian(zeph), empty: await spawnMedian(empty) };
  const ratio = r.zeph / r.empty;
  console.log(
    `\ncold start, median of ${RUNS} runs (${useHyperfine ? "hyperfine" : "spawn loop"})`,
  );
  console.log("| command | median | ratio | ≤ 1.3× |");
  console.log("|---|---|---|---|");
  console.log(`| empty \`deno run\` | ${r.empty.toFixed(1)} ms | 1.00 | |`);
  console.log(
    `| \`zeph --version\` | ${r.zeph.toFixed(1)} ms | ${ratio.toFixed(2)} | ${
      ratio <= TARGET ? "yes" : "NO"
    } |`,
  );
}
