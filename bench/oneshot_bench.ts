/**
 * One-shot calls as scripts and containers make them: whole processes of `zeph --version`,
 * `zeph tool read` (5 lines), `zeph tool grep` over a generated 15,750-file tree, and `rg` on
 * the same tree, run interleaved so load changes on a shared machine hit all alike. Prints the
 * median wall time, median user+system CPU and median peak RSS of each (GNU `/usr/bin/time`
 * measures CPU and RSS; without it only wall time is shown).
 * The floor rows run bench/_read_floor.ts, which only walks the tree and reads every file on two
 * threads, once with Deno's per-path check (the fence's grant) and once without (`-A`).
 * Run: `deno task bench:oneshot` (`apt-get install -y ripgrep time` for the rg row and RSS).
 * `RUNS=n` changes the number of runs (default 9); `ZEPH_BENCH_BEFORE=/other/checkout/main.ts`
 * adds that checkout's read and grep rows to the same interleaved run (the "before" rows of
 * bench/README.md).
 */
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..");
const DENO = path.join(ROOT, "node_modules", "deno", "deno");
const TREE = path.join(ROOT, "bench", "data", "oneshot_tree");
const RUNS = Number(Deno.env.get("RUNS") ?? 9);
const MAIN = path.join(ROOT, "main.ts");
const BEFORE = Deno.env.get("ZEPH_BENCH_BEFORE");
const FLOOR = path.join(ROOT, "bench", "_read_floor.ts");

/** The `deno run` flags of the `zeph` task (deno.json), so this measures what `zeph` runs. */
function taskFlags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(path.join(ROOT, "deno.json")));
  const words = String(config.tasks.zeph).split(/\s+/);
  return words.slice(1, words.indexOf("main.ts"));
}

/** 150 directories of 105 files (40–600 lines of six words each), 1% holding "needle_zz". */
function makeTree(): void {
  try {
    if (Deno.statSync(path.join(TREE, "done")).isFile) return;
  } catch { /* not made yet */ }
  const words = ["alpha", "beta", "gamma", "delta", "function", "const", "return", "import"];
  let seed = 1;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const pick = () => words[Math.floor(random() * words.length)];
  for (let d = 0; d < 150; d++) {
    const dir = path.join(TREE, `pkg${d % 15}`, `mod${d}`);
    Deno.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 105; f++) {
      const lines: string[] = [];
      const size = 40 + Math.floor(random() * 560);
      for (let i = 0; i < size; i++) lines.push(Array.from({ length: 6 }, pick).join(" "));
      if (random() < 0.01) lines.push("needle_zz found here");
      Deno.writeTextFileSync(path.join(dir, `f${f}.ts`), lines.join("\n") + "\n");
    }
  }
  Deno.writeTextFileSync(path.join(TREE, "x"), "one\ntwo\nthree\nfour\nfive\nsix\n");
  Deno.writeTextFileSync(path.join(TREE, "done"), "");
}

/** A one-shot grep of one directory (105 files): too small to start a pool thread. */
const SMALL_GREP = '{"pattern":"needle_zz","path":"pkg1/mod1"}';

function has(command: string, args: string[]): boolean {
  try {
    return new Deno.Command(command, { args, stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

interface Sample {
  wall: number;
  cpu?: number;
  rssMb?: number;
}

const TIME = "/usr/bin/time";
const hasTime = has(TIME, ["-f", "%M", "true"]);

async function spawnOnce(cmd: string[]): Promise<Sample> {
  const report = hasTime ? await Deno.makeTempFile() : null;
  const argv = report ? [TIME, "-f", "%U %S %M", "-o", report, ...cmd] : cmd;
  const t = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: TREE,
    stdout: "null",
    stderr: "piped",
    // One-shot calls in scripts: no terminal, no colour, no data directory from the caller.
    env: { NO_COLOR: "1" },
  }).output();
  const wall = performance.now() - t;
  if (!out.success) {
    throw new Error(`${cmd.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  if (!report) return { wall };
  const [user, sys, rss] = (await Deno.readTextFile(report)).trim().split("\n").at(-1)!
    .split(" ").map(Number);
  await Deno.remove(report);
  return { wall, cpu: (user + sys) * 1000, rssMb: rss / 1024 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

if (import.meta.main) {
  makeTree();
  const zeph = [DENO, ...taskFlags(), MAIN];
  const commands: [string, string[]][] = [
    ["zeph --version", [...zeph, "--version"]],
    ["zeph tool read (5 lines)", [...zeph, "tool", "read", '{"path":"x","limit":5}']],
    ["zeph tool grep (15,750 files)", [...zeph, "tool", "grep", '{"pattern":"needle_zz"}']],
    ["zeph tool grep (105 files)", [...zeph, "tool", "grep", SMALL_GREP]],
  ];
  if (BEFORE) {
    const before = [DENO, ...taskFlags(), BEFORE];
    commands.push(
      ["before: zeph tool read", [...before, "tool", "read", '{"path":"x","limit":5}']],
      ["before: zeph tool grep", [...before, "tool", "grep", '{"pattern":"needle_zz"}']],
      ["before: zeph tool grep (105 files)", [...before, "tool", "grep", SMALL_GREP]],
    );
  }
  if (has("rg", ["--version"])) commands.push(["rg needle_zz", ["rg", "needle_zz"]]);
  const tree = Deno.realPathSync(TREE);
  const floor = [DENO, "run", "--unstable-worker-options"];
  commands.push(
    ["floor: walk + read, checked", [...floor, `--allow-read=${tree},${FLOOR}`, FLOOR, tree]],
    ["floor: walk + read, -A", [...floor, "-A", FLOOR, tree, "unchecked"]],
  );
  const samples = commands.map(() => [] as Sample[]);
  for (const [, cmd] of commands) await spawnOnce(cmd); // warm-up: module cache, page cache
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 ? [...commands.keys()].reverse() : [...commands.keys()];
    for (const k of order) samples[k].push(await spawnOnce(commands[k][1]));
  }
  const ms = (x?: number) => x === undefined ? "n/a" : `${x.toFixed(0)} ms`;
  console.log(`Medians of ${RUNS} runs, in ${TREE}`);
  console.log("| command | wall | user+sys CPU | peak RSS |");
  console.log("|---|---|---|---|");
  for (const [k, [name]] of commands.entries()) {
    const s = samples[k];
    const cpu = s[0].cpu === undefined ? undefined : median(s.map((x) => x.cpu!));
    const rss = s[0].rssMb === undefined
      ? "n/a"
      : `${median(s.map((x) => x.rssMb!)).toFixed(0)} MB`;
    console.log(`| ${name} | ${ms(median(s.map((x) => x.wall)))} | ${ms(cpu)} | ${rss} |`);
  }
}
