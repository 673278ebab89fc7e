/**
 * Output filters: token economy on bench/corpus, and what the filters cost.
 *
 *   deno task bench:filters            print the tables
 *   deno task bench:filters --write    also write them into bench/README.md "## Output filters"
 *   deno task bench:filters --quick    corpus tables only
 *   FILTER_BENCH_ROUNDS=N              rounds of the size runs (default 5)
 *   FILTER_BENCH_BEFORE=/other/checkout  also time that checkout's engine on the corpus, in child
 *                                      processes alternating with this one's, and print both
 *   deno task bench:filters --only logs/dpkg_log,make
 *                                      only the corpus cases (family/name) and size workloads
 *                                      (label) holding one of these strings, the comparison's too
 *
 * Tokens are bytes/4 (the RTK-comparable estimate). Retention = share of a case's `.signals`
 * lines found verbatim in the filtered text. Targets: median reduction ≥ 85% with every signal
 * kept; every corpus case filtered in ≤ 10 ms (p95 of its repeats); a 16 MiB capture of each
 * workload in ≤ 1 s, the time linear in the size, the memory flat.
 */
import { loadavg } from "node:os";
import { defaultConfig } from "../src/config/schema.ts";
import { type FilterEngine, loadFilterEngine } from "../src/filter/mod.ts";
import { percentile } from "./_stats.ts";

const CORPUS = new URL("./corpus/", import.meta.url);
const README = new URL("./README.md", import.meta.url);
const encoder = new TextEncoder();
const ROUNDS = Number(Deno.env.get("FILTER_BENCH_ROUNDS") ?? 5);
/** `--only a,b`: the corpus cases and size workloads whose name holds one of these. */
const ONLY = Deno.args.includes("--only")
  ? Deno.args[Deno.args.indexOf("--only") + 1]?.split(",").filter(Boolean) ?? []
  : null;
const selected = (name: string) => ONLY === null || ONLY.some((part) => name.includes(part));
/** Repeats of each corpus case for its latency. */
const CASE_REPEATS = 40;
const SIZES_MIB = [4, 8, 16];

export interface Case {
  family: string;
  name: string;
  command: string;
  failed: boolean;
  synthetic: boolean;
  text: string;
  signals: string[];
}

export interface CaseResult {
  case: Case;
  rules: string;
  raw: number;
  filtered: number;
  reduction: number;
  retention: number;
  missing: string[];
}

const tokens = (text: string) => Math.ceil(encoder.encode(text).length / 4);
export const median = (values: number[]) => {
  const v = [...values].sort((a, b) => a - b);
  if (!v.length) return 0;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** Every case of a corpus (bench/corpus unless named), family by family in name order. */
export async function readCorpus(root: URL = CORPUS): Promise<Case[]> {
  const cases: Case[] = [];
  const families = [];
  for await (const e of Deno.readDir(root)) if (e.isDirectory) families.push(e.name);
  for (const family of families.sort()) {
    const dir = new URL(`${family}/`, root);
    const names = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.name.endsWith(".txt")) names.push(e.name.slice(0, -4));
    }
    for (const name of names.sort()) {
      const meta = JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, dir))) as {
        command: string;
        exit_code: number;
        synthetic: boolean;
      };
      // One signal per line; a line-final CR is the line's ending (a signal copied from CRLF
      // output), not part of the text the filter must keep.
      const signals = (await Deno.readTextFile(new URL(`${name}.signals`, dir)).catch(() => ""))
        .split("\n").map((s) => s.replace(/\r$/, "")).filter((s) => s.trim() !== "");
      cases.push({
        family,
        name,
        command: meta.command,
        failed: meta.exit_code !== 0,
        synthetic: meta.synthetic,
        text: await Deno.readTextFile(new URL(`${name}.txt`, dir)),
        signals,
      });
    }
  }
  return cases;
}

export function runCorpus(engine: FilterEngine, cases: Case[]): CaseResult[] {
  return cases.map((c) => {
    const out = engine.filter(c.command, c.text, { failed: c.failed });
    const raw = tokens(c.text);
    const filtered = tokens(out.text);
    const missing = c.signals.filter((s) => !out.text.includes(s));
    return {
      case: c,
      rules: out.rules.join("+") || "(none)",
      raw,
      filtered,
      reduction: raw ? 1 - filtered / raw : 0,
      retention: c.signals.length ? (c.signals.length - missing.length) / c.signals.length : 1,
      missing,
    };
  });
}

function corpusTables(results: CaseResult[]): string {
  const lines: string[] = [];
  lines.push("| family | case | rules | raw tok | filtered tok | reduction | signals kept |");
  lines.push("|---|---|---|---:|---:|---:|---:|");
  for (const r of results) {
    lines.push(
      `| ${r.case.family} | ${r.case.name}${
        r.case.synthetic ? " (synthetic)" : ""
      } | ${r.rules} | ${r.raw} | ${r.filtered} | ${pct(r.reduction)} | ${pct(r.retention)} |`,
    );
  }
  lines.push("");
  lines.push(
    "| family | cases | raw tok | filtered tok | reduction | median reduction | signals kept |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|");
  const row = (label: string, rs: CaseResult[], bold = false) => {
    const raw = rs.reduce((n, r) => n + r.raw, 0);
    const filtered = rs.reduce((n, r) => n + r.filtered, 0);
    const retention = rs.reduce((n, r) => n + r.retention, 0) / rs.length;
    const med = pct(median(rs.map((r) => r.reduction)));
    lines.push(
      `| ${label} | ${rs.length} | ${raw} | ${filtered} | ${pct(1 - filtered / raw)} | ${
        bold ? `**${med}**` : med
      } | ${pct(retention)} |`,
    );
  };
  for (const f of new Set(results.map((r) => r.case.family))) {
    row(f, results.filter((r) => r.case.family === f));
  }
  row("**all**", results, true);
  // Outputs under ~2 KB (git push, go test without -v) have little to remove; the median over
  // the larger ones says how the filters do where tokens are actually spent.
  row("all with ≥ 500 raw tokens", results.filter((r) => r.raw >= 500));
  return lines.join("\n");
}

/** CPU time of this thread in ms (Linux: /proc/thread-self/schedstat), or wall time elsewhere. */
function cpuMs(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
  } catch {
    return performance.now();
  }
}

/**
 * Per corpus case, the p95 of its filter time (wall ms) over `CASE_REPEATS` runs after a warm-up,
 * and the thread's CPU time over those runs divided by their number (what a loaded machine's
 * descheduling does not inflate; the clock ticks coarsely, so only the mean is read).
 */
export function caseLatencies(
  engine: FilterEngine,
  cases: Case[],
): { case: Case; p95: number; cpu: number }[] {
  return cases.map((c) => {
    engine.filter(c.command, c.text, { failed: c.failed });
    const times: number[] = [];
    const cpu = cpuMs();
    for (let i = 0; i < CASE_REPEATS; i++) {
      const started = performance.now();
      engine.filter(c.command, c.text, { failed: c.failed });
      times.push(performance.now() - started);
    }
    const meanCpu = (cpuMs() - cpu) / CASE_REPEATS;
    return { case: c, p95: percentile(times.sort((a, b) => a - b), 0.95), cpu: meanCpu };
  });
}

interface Workload {
  label: string;
  command: string;
  unit: string;
  failed: boolean;
}

interface SizeRow {
  label: string;
  mib: number;
  /** Fastest round's wall and thread CPU ms, and the median of the rounds' wall ms. */
  wallMs: number;
  cpuMs: number;
  medianMs: number;
  /** Largest RSS growth over the rounds, MiB. */
  rssMiB: number;
  outputKiB: number;
}

/**
 * Each workload at each size, once per round, rounds one after the other: the machine is
 * shared and its speed drifts over minutes, so each measurement's runs are spread over the
 * whole bench and the fastest counts (the median is shown beside it).
 */
async function sizeRuns(engine: FilterEngine, workloads: Workload[]): Promise<SizeRow[]> {
  const runs = workloads.flatMap((w) =>
    SIZES_MIB.map((mib) => ({
      w,
      mib,
      walls: [] as number[],
      cpus: [] as number[],
      rss: 0,
      out: 0,
    }))
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const run of runs) {
      const target = run.mib << 20;
      const input = run.w.unit.repeat(Math.ceil(target / run.w.unit.length)).slice(0, target);
      // deno-lint-ignore no-explicit-any
      (globalThis as any).gc?.();
      await new Promise((r) => setTimeout(r, 50));
      const rss = Deno.memoryUsage().rss;
      const cpu = cpuMs();
      const started = performance.now();
      const out = engine.filter(run.w.command, input, { failed: run.w.failed });
      run.walls.push(performance.now() - started);
      run.cpus.push(cpuMs() - cpu);
      run.rss = Math.max(run.rss, (Deno.memoryUsage().rss - rss) / 1048576);
      run.out = out.text.length / 1024;
    }
    console.error(`round ${round + 1}/${ROUNDS} done (load ${loadavg()[0].toFixed(2)})`);
  }
  return runs.map((r) => ({
    label: r.w.label,
    mib: r.mib,
    wallMs: Math.min(...r.walls),
    cpuMs: Math.min(...r.cpus),
    medianMs: median(r.walls),
    rssMiB: r.rss,
    outputKiB: r.out,
  }));
}

function sizeTable(rows: SizeRow[]): string {
  const lines = [
    "| workload | input | wall (fastest) | thread CPU | wall (median) | ms per MiB | RSS growth | output |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.label} | ${r.mib} MiB | ${r.wallMs.toFixed(0)} ms | ${r.cpuMs.toFixed(0)} ms | ${
        r.medianMs.toFixed(0)
      } ms | ${(r.wallMs / r.mib).toFixed(1)} | ${r.rssMiB.toFixed(0)} MiB | ${
        r.outputKiB.toFixed(1)
      } KiB |`,
    );
  }
  return lines.join("\n");
}

/** Each family's slowest case (p95), slowest family first. */
function familyTable(latencies: { case: Case; p95: number; cpu: number }[]): string {
  const slowest = new Map<string, { case: Case; p95: number; cpu: number }>();
  for (const l of latencies) {
    const seen = slowest.get(l.case.family);
    if (!seen || l.p95 > seen.p95) slowest.set(l.case.family, l);
  }
  const lines = [
    "| family | slowest case | input | p95 ms | CPU ms per run |",
    "|---|---|---:|---:|---:|",
  ];
  for (const l of [...slowest.values()].sort((a, b) => b.p95 - a.p95)) {
    lines.push(
      `| ${l.case.family} | ${l.case.name} | ${(l.case.text.length / 1024).toFixed(0)} KiB | ${
        l.p95.toFixed(2)
      } | ${l.cpu.toFixed(2)} |`,
    );
  }
  return lines.join("\n");
}

/** Rounds of the before/after comparison, per checkout, alternating. */
const COMPARE_ROUNDS = 3;

/**
 * The corpus latencies of `root`'s engine, in a child process (this file with `--latencies
 * <root>`): a checkout's modules load apart from this one's, and each engine's garbage stays in
 * its own heap.
 */
async function childLatencies(root: string): Promise<Map<string, { p95: number; cpu: number }>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL(import.meta.url).pathname,
      "--latencies",
      root,
      ...(ONLY ? ["--only", ONLY.join(",")] : []),
    ],
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`Cannot time the engine of ${root}: the child failed`);
  return new Map(Object.entries(JSON.parse(new TextDecoder().decode(out.stdout))));
}

/**
 * Before (another checkout) and after (this one), `COMPARE_ROUNDS` child runs each, alternating
 * so both see the same load; per case the median of the rounds' p95. The rows: the three cases
 * slowest before.
 */
async function compareWith(before: string): Promise<string> {
  const here = new URL("..", import.meta.url).pathname;
  type Round = Map<string, { p95: number; cpu: number }>;
  const rounds: { before: Round[]; after: Round[] } = { before: [], after: [] };
  for (let round = 0; round < COMPARE_ROUNDS; round++) {
    rounds.before.push(await childLatencies(before));
    rounds.after.push(await childLatencies(here));
    console.error(`compare round ${round + 1}/${COMPARE_ROUNDS} (load ${loadavg()[0].toFixed(2)})`);
  }
  const p95 = (maps: Round[], key: string) => median(maps.map((m) => m.get(key)!.p95));
  const cpu = (maps: Round[], key: string) => median(maps.map((m) => m.get(key)!.cpu));
  const keys = [...rounds.before[0].keys()].filter((k) => rounds.after[0].has(k));
  // The slowest three, or every case `--only` named.
  const slowest = keys.sort((a, b) => p95(rounds.before, b) - p95(rounds.before, a))
    .slice(0, ONLY ? keys.length : 3);
  const lines = [
    "| case | before p95 ms | after p95 ms | after / before | before CPU ms | after CPU ms |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const key of slowest) {
    const [b, a] = [p95(rounds.before, key), p95(rounds.after, key)];
    lines.push(
      `| ${key} | ${b.toFixed(2)} | ${a.toFixed(2)} | ${(a / b).toFixed(2)} | ${
        cpu(rounds.before, key).toFixed(2)
      } | ${cpu(rounds.after, key).toFixed(2)} |`,
    );
  }
  return lines.join("\n");
}

function verdict(
  results: CaseResult[],
  latencies: { case: Case; p95: number }[],
  sizes: SizeRow[],
): string {
  const med = median(results.map((r) => r.reduction));
  const met = (ok: boolean) => `**${ok ? "met" : "not met"}**`;
  const slowest = [...latencies].sort((a, b) => b.p95 - a.p95).slice(0, 3);
  const lines = [
    `- Median reduction ≥ 85%: ${met(med >= 0.85)} (${pct(med)}).`,
    `- Every signal kept: ${met(results.every((r) => r.retention === 1))}.`,
    `- Every corpus case in ≤ 10 ms (p95 of ${CASE_REPEATS} runs, wall): ${
      met(latencies.every((l) => l.p95 <= 10))
    } (slowest: ${
      slowest.map((l) => `${l.case.family}/${l.case.name} ${l.p95.toFixed(1)} ms`).join(", ")
    }).`,
  ];
  if (sizes.length) {
    const largest = sizes.filter((r) => r.mib === SIZES_MIB.at(-1));
    const at = (label: string, mib: number) =>
      sizes.find((s) => s.label === label && s.mib === mib)!;
    lines.push(
      `- ${SIZES_MIB.at(-1)} MiB of each workload in ≤ 1 s: ${
        met(largest.every((r) => r.wallMs <= 1000))
      } (${largest.map((r) => `${r.label} ${r.wallMs.toFixed(0)} ms`).join(", ")}).`,
      `- Time linear in size, ms per MiB at ${SIZES_MIB.join(" → ")} MiB: ${
        largest.map((r) =>
          `${r.label} ${
            SIZES_MIB.map((mib) => (at(r.label, mib).wallMs / mib).toFixed(1)).join(" → ")
          }`
        ).join("; ")
      }.`,
      `- Memory, RSS growth at ${SIZES_MIB.join(" → ")} MiB: ${
        largest.map((r) =>
          `${r.label} ${SIZES_MIB.map((mib) => at(r.label, mib).rssMiB.toFixed(0)).join(" → ")}`
        ).join("; ")
      } MiB (stages that may pass their input through unchanged hold its lines).`,
    );
  }
  return lines.join("\n");
}

if (import.meta.main && Deno.args[0] === "--latencies") {
  // A child of compareWith: the corpus latencies of the engine of the checkout named, as JSON.
  const root = Deno.args[1];
  const { defaultConfig } = await import(`${root}/src/config/schema.ts`);
  const { loadFilterEngine } = await import(`${root}/src/filter/mod.ts`);
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: "/nonexistent" });
  const latencies = caseLatencies(
    engine,
    (await readCorpus()).filter((c) => selected(`${c.family}/${c.name}`)),
  );
  console.log(JSON.stringify(
    Object.fromEntries(
      latencies.map((l) => [`${l.case.family}/${l.case.name}`, { p95: l.p95, cpu: l.cpu }]),
    ),
  ));
} else if (import.meta.main) {
  const startedAt = new Date();
  const write = Deno.args.includes("--write");
  const quick = Deno.args.includes("--quick");
  if (write && ONLY) {
    console.error("Cannot --write with --only: the tables would hold some cases only");
    Deno.exit(2);
  }
  const { engine, warnings } = await loadFilterEngine(defaultConfig(), {
    configDir: "/nonexistent",
  });
  for (const w of warnings) console.error(`warning: ${w}`);
  const cases = (await readCorpus()).filter((c) => selected(`${c.family}/${c.name}`));
  const results = runCorpus(engine, cases);
  const corpus = corpusTables(results);
  console.log(corpus);
  for (const r of results.filter((r) => r.missing.length)) {
    console.log(
      `MISSING in ${r.case.family}/${r.case.name}: ${
        r.missing.map((m) => JSON.stringify(m)).join(", ")
      }`,
    );
  }
  const loadBefore = loadavg()[0];
  const latencies = caseLatencies(engine, cases);
  let sizes: SizeRow[] = [];
  if (!quick) {
    const read = (p: string) => Deno.readTextFile(new URL(p, CORPUS));
    sizes = await sizeRuns(
      engine,
      ([
        {
          label: "cargo test (test_summary)",
          command: "cargo test",
          unit: await read("cargo/test_failing.txt"),
          failed: true,
        },
        {
          label: "docker logs (dedup)",
          command: "docker logs api",
          unit: await read("logs/docker_logs_api.txt"),
          failed: false,
        },
        {
          label: "make (3 rules)",
          command: "make",
          unit: await read("make/build_warnings.txt"),
          failed: false,
        },
        {
          label: "no rule (generic pass + security)",
          command: "some-tool",
          unit: await read("files/ls_la_usr_bin.txt"),
          failed: false,
        },
      ] as Workload[]).filter((w) => selected(w.label)),
    );
    if (sizes.length) console.log("\n" + sizeTable(sizes));
  }
  const summary = verdict(results, latencies, sizes);
  console.log("\n" + summary);
  const families = familyTable(latencies);
  console.log("\n" + families);
  const before = Deno.env.get("FILTER_BENCH_BEFORE");
  const comparison = before ? await compareWith(before) : "";
  if (comparison) console.log(`\nBefore = ${before}, after = this checkout:\n\n${comparison}`);

  if (write) {
    const cpu = new TextDecoder().decode(
      (await new Deno.Command("bash", {
        args: ["-c", "nproc; lscpu | grep 'Model name' | sed 's/Model name: *//'"],
      }).output()).stdout,
    ).trim().split("\n");
    const section = [
      "## Output filters",
      "",
      `Measured ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC on ${
        cpu[1]?.trim()
      } (${
        cpu[0]
      } CPUs), Deno ${Deno.version.deno}, with \`deno task bench:filters --write\`; 1-minute load`,
      `average ${loadBefore.toFixed(2)} before the timed runs and ${
        loadavg()[0].toFixed(2)
      } after (the machine is shared).`,
      "Corpus: `bench/corpus/` (real captures unless marked synthetic; see its README). Tokens = bytes/4.",
      "Signals kept = share of each case's `.signals` strings present verbatim after filtering.",
      "",
      corpus,
      "",
      "Targets, in this run:",
      "",
      summary,
      "",
      "Filter time, each family's slowest case (p95 of 40 runs after a warm-up, wall):",
      "",
      families,
      ...(comparison
        ? [
          "",
          `Before/after in the same run, each engine in ${COMPARE_ROUNDS} child processes alternating with the other's (median of their p95s, and of their mean thread CPU per run); before = \`${before}\`:`,
          "",
          comparison,
        ]
        : []),
      ...(sizes.length
        ? [
          "",
          `Sizes (the whole engine: sanitise, rules, security pass; input built by repeating a corpus case; each size of each workload runs once per round, ${ROUNDS} rounds interleaved; RSS growth is the largest over the rounds):`,
          "",
          sizeTable(sizes),
        ]
        : []),
      "",
    ].join("\n");
    const readme = await Deno.readTextFile(README).catch(() => "# Benchmarks\n");
    const start = readme.indexOf("## Output filters");
    let next = start < 0 ? -1 : readme.indexOf("\n## ", start + 5);
    if (next < 0) next = readme.length;
    const updated = start < 0
      ? readme.trimEnd() + "\n\n" + section
      : readme.slice(0, start) + section + readme.slice(next);
    await Deno.writeTextFile(README, updated.trimEnd() + "\n");
    // Keep the file as `deno fmt --check` (part of `deno task ok`) wants it.
    await new Deno.Command(Deno.execPath(), { args: ["fmt", README.pathname] }).output();
    console.error("bench/README.md updated");
  }
}
