/**
 * Token economy of the output filters on bench/corpus, and engine throughput.
 *
 *   deno task bench:filters            print the tables
 *   deno task bench:filters --write    also write them into bench/README.md "## Output filters"
 *   deno task bench:filters --quick    skip the 100 MB throughput run
 *
 * Tokens are bytes/4 (the RTK-comparable estimate). Retention = share of a case's `.signals`
 * lines found verbatim in the filtered text.
 */
import { loadavg } from "node:os";
import { cpuUsage } from "node:process";
import { defaultConfig } from "../src/config/schema.ts";
import { type FilterEngine, loadFilterEngine } from "../src/filter/mod.ts";

const CORPUS = new URL("./corpus/", import.meta.url);
const README = new URL("./README.md", import.meta.url);
const encoder = new TextEncoder();

interface CaseMeta {
  command: string;
  exit_code: number;
  synthetic: boolean;
}

interface CaseResult {
  family: string;
  name: string;
  rules: string;
  raw: number;
  filtered: number;
  reduction: number;
  retention: number;
  missing: string[];
  synthetic: boolean;
}

const tokens = (text: string) => Math.ceil(encoder.encode(text).length / 4);
const median = (values: number[]) => {
  const v = [...values].sort((a, b) => a - b);
  if (!v.length) return 0;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function runCorpus(engine: FilterEngine): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const families = [];
  for await (const e of Deno.readDir(CORPUS)) if (e.isDirectory) families.push(e.name);
  for (const family of families.sort()) {
    const dir = new URL(`${family}/`, CORPUS);
    const names = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.name.endsWith(".txt")) names.push(e.name.slice(0, -4));
    }
    for (const name of names.sort()) {
      const text = await Deno.readTextFile(new URL(`${name}.txt`, dir));
      const meta = JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, dir))) as CaseMeta;
      const signals = (await Deno.readTextFile(new URL(`${name}.signals`, dir)).catch(() => ""))
        .split("\n").filter((s) => s.trim() !== "");
      const out = engine.filter(meta.command, text, { failed: meta.exit_code !== 0 });
      const raw = tokens(text);
      const filtered = tokens(out.text);
      const missing = signals.filter((s) => !out.text.includes(s));
      results.push({
        family,
        name,
        rules: out.rules.join("+") || "(none)",
        raw,
        filtered,
        reduction: raw ? 1 - filtered / raw : 0,
        retention: signals.length ? (signals.length - missing.length) / signals.length : 1,
        missing,
        synthetic: meta.synthetic,
      });
    }
  }
  return results;
}

function corpusTables(results: CaseResult[]): string {
  const lines: string[] = [];
  lines.push("| family | case | rules | raw tok | filtered tok | reduction | signals kept |");
  lines.push("|---|---|---|---:|---:|---:|---:|");
  for (const r of results) {
    lines.push(
      `| ${r.family} | ${r.name}${
        r.synthetic ? " (synthetic)" : ""
      } | ${r.rules} | ${r.raw} | ${r.filtered} | ${pct(r.reduction)} | ${pct(r.retention)} |`,
    );
  }
  lines.push("");
  lines.push(
    "| family | cases | raw tok | filtered tok | reduction | median reduction | signals kept |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|");
  const families = [...new Set(results.map((r) => r.family))];
  for (const f of families) {
    const rs = results.filter((r) => r.family === f);
    const raw = rs.reduce((n, r) => n + r.raw, 0);
    const filtered = rs.reduce((n, r) => n + r.filtered, 0);
    const retention = rs.reduce((n, r) => n + r.retention, 0) / rs.length;
    lines.push(
      `| ${f} | ${rs.length} | ${raw} | ${filtered} | ${pct(1 - filtered / raw)} | ${
        pct(median(rs.map((r) => r.reduction)))
      } | ${pct(retention)} |`,
    );
  }
  const raw = results.reduce((n, r) => n + r.raw, 0);
  const filtered = results.reduce((n, r) => n + r.filtered, 0);
  const retention = results.reduce((n, r) => n + r.retention, 0) / results.length;
  lines.push(
    `| **all** | ${results.length} | ${raw} | ${filtered} | ${pct(1 - filtered / raw)} | **${
      pct(median(results.map((r) => r.reduction)))
    }** | ${pct(retention)} |`,
  );
  // Outputs under ~2 KB (git push, go test without -v) have little to remove; the median over
  // the larger ones says how the filters do where tokens are actually spent.
  const large = results.filter((r) => r.raw >= 500);
  const largeRaw = large.reduce((n, r) => n + r.raw, 0);
  const largeFiltered = large.reduce((n, r) => n + r.filtered, 0);
  lines.push(
    `| all with ≥ 500 raw tokens | ${large.length} | ${largeRaw} | ${largeFiltered} | ${
      pct(1 - largeFiltered / largeRaw)
    } | ${pct(median(large.map((r) => r.reduction)))} | ${
      pct(large.reduce((n, r) => n + r.retention, 0) / large.length)
    } |`,
  );
  return lines.join("\n");
}

/** The targets, checked against this run. */
function verdict(results: CaseResult[], scaling: ScalingRow[]): string {
  const med = median(results.map((r) => r.reduction));
  const kept = results.every((r) => r.retention === 1);
  const below = results.filter((r) => r.reduction < 0.85).map((r) => `${r.family}/${r.name}`);
  const at100 = scaling.filter((r) => r.mb === 100);
  const fast = at100.filter((r) => r.mbps >= 100).map((r) => r.label);
  const slow = at100.filter((r) => r.mbps < 100).map((r) => `${r.label} ${r.mbps.toFixed(0)} MB/s`);
  return [
    `Targets: median reduction ≥ 85% — **${med >= 0.85 ? "met" : "not met"}** (${pct(med)});`,
    `100% signal retention — **${kept ? "met" : "not met"}**. Cases under 85% (${below.length}): ${
      below.join(", ")
    }.`,
    "Most of them are outputs that are already dense (a 2-line `git push`, `go test` without `-v`,",
    "a 59-line grep under the 100-line cut, pytest/jest/tsc/deno failures where the failure text is",
    "the signal) or big diffs shown up to `max_diff_lines`.",
    ...(at100.length
      ? [
        `Throughput ≥ 100 MB/s on 100 MB — met by: ${fast.join(", ") || "none"}; not met by: ${
          slow.join(", ") || "none"
        }.`,
        "Throughput is CPU time of this process (the machine is shared with other engineers: wall time",
        "and CPU time both vary with load). Scaling, CPU ms per MB at 10 MB → at 100 MB (equal = linear):",
        scaling.filter((r) => r.mb === 100).map((r) => {
          const small = scaling.find((x) => x.label === r.label && x.mb === 10);
          return `${r.label} ${small ? (small.cpuMs / 10).toFixed(1) : "?"} → ${
            (r.cpuMs / 100).toFixed(1)
          }`;
        }).join("; ") + ".",
        "RSS growth is measured after the input string exists (GC makes it noisy). No stage holds its",
        "input: one that may pass it through unchanged (Fallback) walks it again instead (the engine",
        "re-runs the stages before it), group_by_rule keeps only what its output shows, and the",
        "security pass encodes 1 MiB of lines at a time. What grows is the output itself (cargo test's",
        "repeated failure lines).",
      ]
      : []),
  ].join("\n");
}

/** Earlier runs, for comparison (the corpus did not change between them). */
const HISTORY = [
  "History: first pass (2026-11-21, commit a0e76b4, lower load): median 74.0%, 77.2% over the cases",
  "of ≥ 500 tokens, 46.9% of all tokens; cargo test 23–37 MB/s, docker logs 29–34 MB/s, make",
  "18–33 MB/s, no rule 101–114 MB/s. Second pass: test_summary trace compaction, group_paths (find),",
  "git_log, kubectl-pods, log-truncate, group_by_rule name-only locations, noise rules (brew, docker,",
  "make, terraform); pattern lists as one V8 alternation, first-character dispatch in test_summary,",
  "exec-loop dedup normaliser, probe-first security hints. Load makes runs differ by up to 1.5×; the",
  "same-process A/B against a0e76b4's src/filter (25 MB, best of 5, both engines alternating;",
  "23:31 UTC, load 2.2) gave cargo test 34 → 38 MB/s (1.11×), docker logs 26 → 37 (1.39×), make",
  "33 → 38 (1.15×), no rule 108 → 145 (1.34×).",
  "Third pass (23:40–00:40 UTC): median 81.5% → 85.1% (TAP expected/actual dropped when the assertion",
  "message shows both values; git log author only when it changes, stat padding and totals compacted;",
  "group_by_rule shows several quoted names in slot order and omits its total when the tool printed an",
  "equal one; clippy drops the Finished timing once warnings are grouped). Security pass: credential",
  "regexes only on lines holding a hint (identical warnings, tested against the old scanner);",
  "same-process A/B against 0fc2734 (25 MB, best of 5, 23:48 UTC, load 1.8): equal within noise",
  "(0.97–1.06×): the pass is ~20 literal searches plus one signal regex, not the regexes it gates.",
  "test_summary streaming (no input held when it is the first stage): cargo test 1.03–1.08×.",
  "Fourth pass (2026-11-22 00:48–01:50 UTC), throughput and memory only (corpus results unchanged):",
  "security pass as one byte scan for the rarest pair of each literal, exact patterns only on those",
  "lines (25 MB: cargo 203 → 55 ms, no rule 139 → 38 ms); dedup's default normalisers as a",
  "hand-written scanner; test_summary per-kind tests, `\\S.*` line shapes (V8 backtracked `\\S+.*`",
  "quadratically) and a quadratic splice removed; group_by_rule streaming with bounded state; replay",
  "for every stage. Before (00:46 UTC, load 0.7, this command with single runs, 100 MB): cargo test",
  "34 MB/s, docker logs 39, make 33 (RSS +153 MB), no rule 138. Same-process A/B against the code of",
  "00:48 (100 MB, best of 3, wall time, 01:44 UTC, load 0.9): cargo test 46 → 108 MB/s (2.35×),",
  "docker logs 44 → 63 (1.45×), make 39 → 69 (1.78×), no rule 115 → 245 (2.13×). Runs of this",
  "table during the pass varied 1.5–2× with the machine's state (make 38–77 MB/s at 100 MB).",
];

interface ScalingRow {
  label: string;
  mb: number;
  mbps: number;
  cpuMs: number;
}

/** Runs per size; the fastest counts (other engineers' jobs share the 2 CPUs and slow single runs). */
const RUNS = 3;

/**
 * Builds `mb` megabytes by repeating `unit`, filters it RUNS times, reports the fastest run's
 * MB/s (CPU time) and the largest RSS growth of the runs.
 */
async function throughput(
  engine: FilterEngine,
  label: string,
  command: string,
  unit: string,
  sizes: number[],
  failed: boolean,
  measured: ScalingRow[],
): Promise<string[]> {
  const rows: string[] = [];
  for (const mb of sizes) {
    const target = mb * 1024 * 1024;
    const input = unit.repeat(Math.ceil(target / unit.length)).slice(0, target);
    let best = { ms: Infinity, cpuMs: Infinity };
    let rss = -Infinity;
    let outputKiB = 0;
    for (let run = 0; run < RUNS; run++) {
      // deno-lint-ignore no-explicit-any
      (globalThis as any).gc?.();
      await new Promise((r) => setTimeout(r, 0));
      const before = Deno.memoryUsage();
      const cpu0 = cpuUsage();
      const started = performance.now();
      const out = engine.filter(command, input, { failed });
      const ms = performance.now() - started;
      const cpu = cpuUsage(cpu0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      const after = Deno.memoryUsage();
      if (cpuMs < best.cpuMs) best = { ms, cpuMs };
      rss = Math.max(rss, (after.rss - before.rss) / 1048576);
      outputKiB = out.text.length / 1024;
    }
    measured.push({ label, mb, mbps: mb / (best.cpuMs / 1000), cpuMs: best.cpuMs });
    rows.push(
      `| ${label} | ${mb} MB | ${best.ms.toFixed(0)} ms | ${best.cpuMs.toFixed(0)} ms | ${
        (mb / (best.cpuMs / 1000)).toFixed(0)
      } MB/s | ${rss.toFixed(0)} MB | ${outputKiB.toFixed(1)} KiB |`,
    );
    console.error(rows[rows.length - 1]);
  }
  return rows;
}

if (import.meta.main) {
  const startedAt = new Date();
  const write = Deno.args.includes("--write");
  const quick = Deno.args.includes("--quick");
  const { engine, warnings } = await loadFilterEngine(defaultConfig(), {
    configDir: "/nonexistent",
  });
  for (const w of warnings) console.error(`warning: ${w}`);
  const results = await runCorpus(engine);
  const corpus = corpusTables(results);
  console.log(corpus);
  for (const r of results.filter((r) => r.missing.length)) {
    console.log(
      `MISSING in ${r.family}/${r.name}: ${r.missing.map((m) => JSON.stringify(m)).join(", ")}`,
    );
  }

  let scaling = "";
  const measured: ScalingRow[] = [];
  const loadBefore = loadavg()[0];
  if (!quick) {
    const read = (p: string) => Deno.readTextFile(new URL(p, CORPUS));
    const sizes = [10, 25, 50, 100];
    const header = [
      "| workload | input | wall | CPU | throughput (per CPU second) | RSS growth | output |",
      "|---|---:|---:|---:|---:|---:|---:|",
    ];
    const rows = [
      ...await throughput(
        engine,
        "cargo test (test_summary)",
        "cargo test",
        await read("cargo/test_failing.txt"),
        sizes,
        true,
        measured,
      ),
      ...await throughput(
        engine,
        "docker logs (dedup)",
        "docker logs api",
        await read("logs/docker_logs_api.txt"),
        sizes,
        false,
        measured,
      ),
      ...await throughput(
        engine,
        "make (3 rules)",
        "make",
        await read("make/build_warnings.txt"),
        sizes,
        false,
        measured,
      ),
      ...await throughput(
        engine,
        "no rule (sanitize + security)",
        "some-tool",
        await read("files/ls_la_usr_bin.txt"),
        sizes,
        false,
        measured,
      ),
    ];
    scaling = [...header, ...rows].join("\n");
    console.log("\n" + scaling);
  }

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
      `average ${loadBefore.toFixed(2)} before the throughput runs and ${
        loadavg()[0].toFixed(2)
      } after (the machine is shared with other engineers working at the same time).`,
      "Corpus: `bench/corpus/` (real captures unless marked synthetic; see its README). Tokens = bytes/4.",
      "Signals kept = share of each case's `.signals` strings present verbatim after filtering.",
      "",
      corpus,
      "",
      verdict(results, measured),
      "",
      ...HISTORY,
      "",
      ...(scaling
        ? [
          `Throughput (the whole engine: sanitise, rules, security pass; input built by repeating a corpus case; fastest of ${RUNS} runs per size, RSS growth the largest of them):`,
          "",
          scaling,
          "",
        ]
        : []),
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
