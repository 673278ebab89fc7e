/**
 * `deno task bench:grep`: our grep tool (through ToolRegistry.dispatch, on the local executor and
 * on the permission-fenced worker, both with their grep pool threads, and on the local executor
 * with the pool switched off) against ripgrep on a generated tree of 100,000+ files, with the
 * same pattern and the same match count. Reports median wall times and the ratio to rg.
 *
 * The tree lives in bench/data/grep_tree (git-ignored) and is generated once. rg runs with
 * `--hidden --no-require-git` so that both search hidden files and honour .gitignore without a
 * git repository; ripgrep is skipped with a message when it is not installed.
 */
import * as path from "node:path";
import { defaultConfig } from "../src/config/schema.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { WorkerFileExecutor } from "../src/tools/executors/mod.ts";
import { setSearchThreads } from "../src/search/mod.ts";
import { LocalExecutor, type ToolExecutor } from "../src/tools/executors/mod.ts";
import { FILE_TOOLS } from "../src/tools/file_tools.ts";
import { ToolRegistry } from "../src/tools/registry.ts";
import { median } from "./_stats.ts";

const ROOT = path.join(import.meta.dirname!, "data", "grep_tree");
const DIRS = 1000;
const FILES_PER_DIR = 100;
const IGNORED_FILES = 2000;
const RUNS = Number(Deno.env.get("GREP_BENCH_RUNS") ?? 5);
const MARKER = path.join(ROOT, ".generated-v1");

const WORDS = ["const", "value", "return", "function", "import", "export", "await", "string"];

/** Deterministic pseudo-random numbers so every machine gets the same tree. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function fileBody(rand: () => number, id: number): string {
  const lines: string[] = [];
  const n = 10 + Math.floor(rand() * 30);
  for (let i = 0; i < n; i++) {
    const w = Array.from({ length: 6 }, () => WORDS[Math.floor(rand() * WORDS.length)]);
    // About 1 line in 400 carries the needle the benchmark searches for.
    if (rand() < 0.0025) w.splice(3, 0, `needle_${id}_${i}`);
    if (rand() < 0.002) w.splice(1, 0, `Sentinel${i}`);
    lines.push(`${"  ".repeat(i % 4)}${w.join(" ")};`);
  }
  return lines.join("\n") + "\n";
}

function ensureTree(): number {
  const existing = (() => {
    try {
      return Number(Deno.readTextFileSync(MARKER));
    } catch {
      return 0;
    }
  })();
  if (existing) return existing;
  console.log(`Generating the tree in ${ROOT} (once) …`);
  try {
    Deno.removeSync(ROOT, { recursive: true });
  } catch {
    // nothing to remove
  }
  const rand = rng(42);
  let files = 0;
  for (let d = 0; d < DIRS; d++) {
    const dir = path.join(ROOT, `pkg${d % 10}`, `mod${d}`);
    Deno.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR; f++) {
      Deno.writeTextFileSync(path.join(dir, `file${f}.ts`), fileBody(rand, d * 1000 + f));
      files++;
    }
    // A few binary files that contain the needle: both tools must skip them.
    const bin = new TextEncoder().encode(`needle_bin_${d}\n`);
    Deno.writeFileSync(path.join(dir, "blob.bin"), new Uint8Array([...bin, 0, 1, 2, 3]));
    files++;
  }
  // A .gitignored directory full of matches: both tools must skip it.
  const ignored = path.join(ROOT, "generated");
  Deno.mkdirSync(ignored, { recursive: true });
  for (let f = 0; f < IGNORED_FILES; f++) {
    Deno.writeTextFileSync(path.join(ignored, `gen${f}.ts`), `const needle_gen_${f} = 1;\n`);
    files++;
  }
  Deno.writeTextFileSync(path.join(ROOT, ".gitignore"), "generated/\n*.log\n");
  files++;
  Deno.writeTextFileSync(MARKER, String(files));
  return files;
}

interface Case {
  label: string;
  pattern: string;
  caseSensitive: boolean;
}

const CASES: Case[] = [
  {
    label: "regex with a literal: needle_[0-9]+_1\\b",
    pattern: "needle_[0-9]+_1\\b",
    caseSensitive: true,
  },
  { label: "case-insensitive literal: sentinel1", pattern: "sentinel1", caseSensitive: false },
  {
    label: "regex without a literal: [A-Z][a-z]+[0-9]{2}\\b",
    pattern: "[A-Z][a-z]+[0-9]{2}\\b",
    caseSensitive: true,
  },
];

async function rgAvailable(): Promise<boolean> {
  try {
    const out = await new Deno.Command("rg", {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

async function runRg(c: Case, threads?: number): Promise<{ ms: number; matches: number }> {
  const args = ["--hidden", "--no-require-git", "-n", "--no-heading", "--color", "never"];
  if (threads) args.push("-j", String(threads));
  if (!c.caseSensitive) args.push("-i");
  args.push("-e", c.pattern, ".");
  const t = performance.now();
  const out = await new Deno.Command("rg", { args, cwd: ROOT, stdout: "piped", stderr: "null" })
    .output();
  const ms = performance.now() - t;
  const text = new TextDecoder().decode(out.stdout);
  const matches = text === "" ? 0 : text.trimEnd().split("\n").length;
  return { ms, matches };
}

interface Contender {
  name: string;
  run(c: Case): Promise<{ ms: number; matches: number }>;
}

async function main() {
  const files = ensureTree();
  const nproc = navigator.hardwareConcurrency;
  console.log(`Tree: ${files} files under ${ROOT}; ${nproc} CPUs; ${RUNS} rounds per pattern.`);
  const hasRg = await rgAvailable();
  if (!hasRg) console.log("ripgrep (rg) is not installed: skipping it (apt-get install ripgrep).");

  const config = defaultConfig();
  config.tools.file.grep_max_matches = 10_000_000;
  const sandbox = await Sandbox.create(ROOT);
  const policy = new PermissionPolicy({ grep: [{ pattern: "*", action: "allow" }] });
  const executors: ToolExecutor[] = [];
  const viaDispatch = (name: string, executor: ToolExecutor): Contender => {
    executors.push(executor);
    const registry = new ToolRegistry({ tools: FILE_TOOLS, executor, policy, config });
    return {
      name,
      async run(c) {
        const t = performance.now();
        const r = await registry.dispatch({
          id: "bench",
          name: "grep",
          input: { pattern: c.pattern, case_sensitive: c.caseSensitive },
        }, { cwd: ROOT, sandbox });
        const ms = performance.now() - t;
        if (!r.ok) throw new Error(r.text);
        return { ms, matches: (r.output?.raw as { matches: number }).matches };
      },
    };
  };
  const contenders: Contender[] = [
    ...(hasRg
      ? [
        { name: "ripgrep", run: (c: Case) => runRg(c) },
        // One thread, for reference: on a small or busy machine it can beat the default.
        { name: "ripgrep -j1", run: (c: Case) => runRg(c, 1) },
      ]
      : []),
    viaDispatch("zeph grep (local)", new LocalExecutor()),
    viaDispatch("zeph grep (worker)", new WorkerFileExecutor()),
  ];
  // The local executor without its grep pool: the calling thread alone, as before the pool.
  const local = contenders.find((k) => k.name === "zeph grep (local)")!;
  contenders.push({
    name: "zeph grep (local, 1 thread)",
    async run(c) {
      setSearchThreads(0);
      try {
        return await local.run(c);
      } finally {
        setSearchThreads();
      }
    },
  });
  const rows: string[] = [];
  for (const c of CASES) {
    console.log(`\nPattern ${c.label}`);
    for (const k of contenders) await k.run(c); // warm caches, start the worker
    // Rounds interleave the contenders so that a busy machine slows all of them alike; each
    // ratio is the median of the per-round ratios to ripgrep.
    const times = new Map<string, number[]>(contenders.map((k) => [k.name, []]));
    const ratios = new Map<string, number[]>(contenders.map((k) => [k.name, []]));
    const matches = new Map<string, number>();
    for (let i = 0; i < RUNS; i++) {
      const round = new Map<string, number>();
      for (const k of contenders) {
        const r = await k.run(c);
        round.set(k.name, r.ms);
        times.get(k.name)!.push(r.ms);
        matches.set(k.name, r.matches);
      }
      if (hasRg) {
        for (const k of contenders) {
          ratios.get(k.name)!.push(round.get(k.name)! / round.get("ripgrep")!);
        }
      }
    }
    const rgMatches = matches.get("ripgrep");
    for (const k of contenders) {
      const ms = median(times.get(k.name)!);
      const ratio = hasRg ? `${median(ratios.get(k.name)!).toFixed(2)}×` : "n/a";
      const n = matches.get(k.name)!;
      const same = rgMatches === undefined || n === rgMatches
        ? ""
        : `  MISMATCH (rg: ${rgMatches})`;
      if (same) Deno.exitCode = 1;
      console.log(
        `  ${k.name.padEnd(28)}${ms.toFixed(0).padStart(6)} ms  ${n} matches  ${ratio}${same}`,
      );
      rows.push(`| ${c.label} | ${k.name} | ${ms.toFixed(0)} ms | ${n} | ${ratio} |`);
    }
  }
  for (const e of executors) await e.close?.();
  console.log(
    "\n| pattern | tool | median wall time | matching lines | ratio to rg (median of rounds) |",
  );
  console.log("|---|---|---|---|---|");
  for (const r of rows) console.log(r);
}

await main();
