/**
 * Token economy of the output filters on bench/corpus, and engine throughput.
 *
 *   deno task bench:filters            print the tables
 *   deno task bench:filters --write    also write them into bench/README.md "## Output filters"
 *   deno task bench:filters --quick    skip the 100 MB throughput run
 *   FILTER_BENCH_ROUNDS=N              rounds of the throughput runs (default 7)
 *   FILTER_BENCH_TRACE=1               print every throughput run's thread CPU time
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
  // With the machine's speed in the round that gave each row's fastest run.
  const at = (r: ScalingRow) => `reference ${r.referenceMs.toFixed(0)} ms`;
  const fast = at100.filter((r) => r.mbps >= 100).map((r) =>
    `${r.label} ${r.mbps.toFixed(0)} MB/s (${at(r)})`
  );
  const slow = at100.filter((r) => r.mbps < 100).map((r) =>
    `${r.label} ${r.mbps.toFixed(0)} MB/s (${at(r)})`
  );
  const medianSlow = at100.filter((r) => r.medianMbps < 100).map((r) =>
    `${r.label} ${r.medianMbps.toFixed(0)} MB/s`
  );
  const ref = [...referenceMs].sort((a, b) => a - b);
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
        }. At the median of each row's rounds, under 100 MB/s: ${medianSlow.join(", ") || "none"}.`,
        "(The reference in parentheses is the machine's speed in the round of the run that counts.)",
        `The machine's speed during this run: a fixed reference workload (\`reference()\`: no engine`,
        `code) took ${ref[0]?.toFixed(0)}–${
          ref.at(-1)?.toFixed(0)
        } ms of thread CPU over the rounds (median ${median(ref).toFixed(0)}; ${
          (ref.at(-1)! / ref[0]).toFixed(2)
        }× between the fastest and slowest round).`,
        "Throughput is per CPU second of the thread that filters (/proc/thread-self/schedstat); the",
        "table also gives wall time and the process's CPU time, which adds V8's compiler and GC",
        "threads working beside it (until 2026-11-22 03:45 the verdict used the process's CPU time;",
        "it counted 40–90 ms of that background work per run, more right after the bench's forced",
        "GC). The machine is shared with other engineers and its speed drifts: the same code measured",
        "up to 2× apart minutes apart, so each size takes the fastest of its runs, spread over the",
        "whole bench. The throughput runs come after the corpus in the same process, as in an agent",
        "session that has filtered many kinds of output. Scaling, thread CPU ms per MB at 10 MB → at",
        "100 MB (equal = linear; the first round's 10 MB run also pays for JIT compilation):",
        scaling.filter((r) => r.mb === 100).map((r) => {
          const small = scaling.find((x) => x.label === r.label && x.mb === 10);
          return `${r.label} ${small ? (small.cpuMs / 10).toFixed(1) : "?"} → ${
            (r.cpuMs / 100).toFixed(1)
          }`;
        }).join("; ") + ".",
        "RSS growth is measured after the input string exists (GC makes it noisy). No stage holds its",
        "input: one that may pass it through unchanged (Fallback) walks it again instead (the engine",
        "re-runs the stages before it), group_by_rule keeps only what its output shows, and the walk",
        "encodes 1 Mi characters of lines at a time for the security pass and the first stage. What",
        "grows is the output itself (cargo test's repeated failure lines).",
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
  "Re-run after the review's fixes (02:08 UTC, load 1.5 right after a CI run; the review fixed,",
  "among others, 2^n replay walks when several stages of a chain fall back): at 100 MB cargo test",
  "77 MB/s, docker logs 53, make 70, no rule 327; RSS growth 0–1 MB; corpus unchanged.",
  "Fifth pass (2026-11-22 02:31–04:15 UTC), throughput (corpus results unchanged): the walk",
  "encodes each chunk of lines once, for the security pass and for a first stage that reads bytes;",
  "dedup's default normalisers scan a line's UTF-8 and key lines by those bytes (hash of 32-bit",
  "words, no string per line); the security scan reads two bytes per table lookup (each literal",
  "under two adjacent pairs); native regexes run named groups as numbered ones; pattern lists",
  "anchored at known first characters are ruled out by one lookup (strip_noise's `^g?make…`);",
  "test_summary leaves column-0 shapes out of indented lines' testers; make-gcc's line_pattern",
  "with lazy repeats (same captures); group_by_rule's quote elision without regexes and located",
  "one-line warnings filed without a Diagnostic. Two fixes on the way: the V8 translation of RE2",
  "patterns now gives RE2's `\\s` ([\\t\\n\\f\\r ]), `\\S` and `.` (V8's took \\v, U+00A0, U+3000 …),",
  "and a line of only non-ASCII whitespace (U+3000 …) counts as blank like any other.",
  "Same-process A/B against the session's start (09112f7; both engines loaded in one process,",
  "runs interleaved, 25 MB, fastest of 10, CPU ms, 04:12 UTC, load 0.4–0.8): fresh process",
  "docker logs 425 → 200 ms (2.13×), make 364 → 260 (1.40×), cargo test 261 → 188 (1.39×), no",
  "rule 76 → 53 (1.43×); after both engines filtered the corpus twice (the state this bench",
  "measures in) docker logs 416 → 247 (1.68×), make 365 → 300 (1.22×), cargo test 336 → 223",
  "(1.51×), no rule 74 → 57 (1.30×). A process that has filtered many kinds of output runs the",
  "same code 1.2–2× slower than a fresh one (V8's call sites and string reads go generic); the",
  "machine's own drift is of the same size (docker logs 25 MB in a fresh process: 170–500 ms",
  "within the hour), which is why the table below varies from run to run.",
  "Sixth pass (2026-11-22 04:37–06:00 UTC; corpus results unchanged): patterns answer as RE2 on",
  "output with emoji, lone surrogates, ſ and K (a V8 translation that could read such a text",
  "otherwise hands it to re2js; the security scan's unit table finds those characters in the bytes",
  "it reads anyway, so plain text pays nothing: make 25 MB A/B 236 → 231 ms; with one emoji line",
  "in 1000, make pays a look per line, 307 → 367 ms, and 282 → 253 once runs like `^\\S+: In ` between",
  "literals count as exact); dedup's normalisers are one alternation on",
  "every path; the output is joined 4096 lines at a time (a pass-through of 13M short lines: heap",
  "753 → 168 MB); huge lines are encoded in windows for the byte scan; Stripe triggers under rarer",
  "pairs. Tried and dropped: a combined pre-test per test_summary tester (cargo 250 → 268 ms), a",
  "shape comparison without building shapes in group_by_rule (no gain).",
  "Seventh pass (2026-11-22 06:36–, throughput; corpus results unchanged): the security pass reads",
  "the output's own UTF-8 when the caller has it (the bash tool hands the filter its captured",
  "bytes) instead of encoding the text: encoding a two-byte string (gcc's ‘’ make every make chunk",
  "one) cost 55–80 ms per 25 MB against 2 ms for a one-byte one; make 25 MB, same-process A/B after",
  "the corpus, median of 12 ratios 0.82. From this pass on the throughput runs hand the engine the",
  "input's bytes as well, as the bash tool does, encoded outside the timer (the tool's own decoding",
  "never was inside it). dedup's normaliser decides most bytes with one lookup in a table indexed",
  "by the byte before and the byte, and crosses a short [0-9a-f] run inside a word in one tight",
  "loop (normaliser alone, docker logs 25 MB: median 316 → 271 ms; docker logs in the engine, A/B",
  "after the corpus: median ratio 0.905); a stage's push is the previous stage's emit itself. The",
  "security pass now also reads the notice lines for credentials (a program's own `[background] …`",
  "last line is one). Measured and left: decoding the capture in 1 MiB pieces and",
  "joining them costs what one decode does; a JavaScript UTF-8 encoder is 2× slower than",
  "TextEncoder; the chunk size does not change the encoding's cost. This table's runs also time a",
  "fixed reference workload per round; its spread shows the machine's drift during the run.",
  "Eighth pass (2026-11-22 08:43–, throughput; corpus results unchanged): test_summary classifies",
  "a line with one regex per first character (each kind's shapes followed by an empty group that",
  "names the kind) in a test-only form (quantifiers lazy, groups non-capturing: V8 fails a lazy",
  "`.*?` in under half the time of a greedy `.*`); dedup's normaliser goes a word at a time (each",
  "alternative looked for only where it can start); the walk and test_summary read a line's first",
  "character from its bytes (string reads slow down once a process has read strings of many",
  "kinds: cargo test without them 1.4× slower). Same-process A/B after the corpus against the",
  "session start (25 MB, 12 rounds, median ratio): cargo test 0.78, docker logs 0.90, make 0.98,",
  "vitest (two-byte) 0.89. The verdict now names the reference's time in each row's fastest round.",
  "Measured and left (same-process A/B): the security scan's unit table as a bitset (1.13×",
  "slower) or read four units per step (scan alone: docker logs 0.85, cargo and make 1.0);",
  "DataView or `set` copies in the normaliser, a joined (flat) group_by_rule shape, a literal",
  "pre-check skipped after a run of matches: no gain.",
  "Ninth pass (2026-11-22 10:26–, throughput; corpus results unchanged): make-gcc's built-in",
  "patterns are read from each line's bytes by hand (gcc_lines.ts: the same answers as the",
  "regexes, a line it cannot be sure of left to them), and a warning with the last one's rule and",
  "shape whose group lists no more is only counted; strip_noise hands a kept line's bytes on to a",
  "next stage that reads them; the walk maps lines onto the caller's bytes instead of encoding a",
  "text with multi-byte characters again. Same-process A/B after the corpus against the session",
  "start (25 MB, 12–16 rounds, median ratio): make 0.59, vitest (two-byte) 0.82, jest 0.79,",
  "cargo test, docker logs and no rule 0.98–1.01. Before it, each piece of make's per-line work",
  "was a regex call or a string method at ~100 ns (a warning: ~1.4 µs over six of them); cutting",
  "them one by one (a flat shape, the noise and line patterns in one regex, no Member for a full",
  "group) gave 0–2%.",
];

interface ScalingRow {
  label: string;
  mb: number;
  mbps: number;
  /** Throughput at the median of the row's rounds. */
  medianMbps: number;
  cpuMs: number;
  /** `reference()`'s time in the round of the fastest run: how fast the machine was then. */
  referenceMs: number;
}

/** `reference()`'s thread CPU ms, one per round. */
const referenceMs: number[] = [];

/**
 * Rounds: every (workload, size) runs once per round, rounds one after the other, and the
 * fastest round counts. The machine's speed drifts over minutes (the same run measured up to
 * 2× apart, not with the load average), so spreading each measurement's runs over the whole
 * bench finds its uncontended cost better than running them back to back.
 */
const ROUNDS = Number(Deno.env.get("FILTER_BENCH_ROUNDS") ?? 7);

interface Workload {
  label: string;
  command: string;
  unit: string;
  failed: boolean;
}

interface Best {
  ms: number;
  cpuMs: number;
  threadMs: number;
  /** Thread CPU ms of every round, for the median. */
  rounds: number[];
  rss: number;
  outputKiB: number;
}

/**
 * A fixed piece of JS work that does not use the engine (UTF-8 encoding of a two-byte text, a
 * regex over its lines, a typed-array loop), timed in thread CPU ms (the fastest of three calls
 * per round, after two warm-up calls): how fast the machine was in that round. Its spread over the rounds is the machine's drift during the
 * bench, which the engine's numbers share.
 */
function reference(): number {
  const line = "src/lib/f1.c:2:21: warning: unused variable \u2018x\u2019 [-Wunused-variable]\n";
  const text = line.repeat(Math.ceil((2 << 20) / line.length));
  const t0 = threadCpuMs() ?? performance.now();
  const bytes = new TextEncoder().encode(text);
  let n = 0;
  for (const l of text.split("\n")) if (/^(\S+):(\d+):(\d+): warning: /.test(l)) n++;
  let sum = 0;
  for (let r = 0; r < 4; r++) for (let i = 0; i < bytes.length; i++) sum += bytes[i] & 15;
  const t1 = threadCpuMs() ?? performance.now();
  if (n === 0 || sum === 0) throw new Error("reference workload did nothing");
  return t1 - t0;
}

/**
 * CPU time of this thread in ms (Linux: /proc/thread-self/schedstat, ns), or null where that
 * file does not exist. The filter runs on this thread; V8's compiler and GC threads work beside
 * it and count only in the process's CPU time.
 */
function threadCpuMs(): number | null {
  try {
    return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
  } catch {
    return null;
  }
}

/**
 * One run: `mb` megabytes built by repeating the workload's unit, filtered once, with the bytes
 * it decodes from (what the bash tool hands the filter: its captured output and that text).
 */
async function runOnce(engine: FilterEngine, w: Workload, mb: number, best: Best): Promise<void> {
  const target = mb * 1024 * 1024;
  const input = w.unit.repeat(Math.ceil(target / w.unit.length)).slice(0, target);
  // Collect the previous run's and the input's garbage, and let V8's concurrent sweeping of
  // it finish (it otherwise runs on other threads during the timed filter and counts in the
  // CPU time: measured 40–60 ms more CPU than wall per 25 MB run right after a full GC).
  // deno-lint-ignore no-explicit-any
  (globalThis as any).gc?.();
  await new Promise((r) => setTimeout(r, 100));
  const before = Deno.memoryUsage();
  const cpu0 = cpuUsage();
  const thread0 = threadCpuMs();
  const started = performance.now();
  const out = engine.filter(w.command, input, { failed: w.failed });
  const ms = performance.now() - started;
  const thread1 = threadCpuMs();
  const cpu = cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const threadMs = thread0 !== null && thread1 !== null ? thread1 - thread0 : cpuMs;
  const after = Deno.memoryUsage();
  best.rounds.push(threadMs);
  if (Deno.env.get("FILTER_BENCH_TRACE")) {
    console.error(`  ${w.label} ${mb} MB: ${threadMs.toFixed(0)} ms thread CPU`);
  }
  if (threadMs < best.threadMs) {
    best.ms = ms;
    best.cpuMs = cpuMs;
    best.threadMs = threadMs;
  }
  best.rss = Math.max(best.rss, (after.rss - before.rss) / 1048576);
  best.outputKiB = out.text.length / 1024;
}

/** The throughput table's rows, per workload and size, from ROUNDS interleaved rounds. */
async function throughput(
  engine: FilterEngine,
  workloads: Workload[],
  sizes: number[],
  measured: ScalingRow[],
): Promise<string[]> {
  const best = workloads.map(() =>
    sizes.map((): Best => ({
      ms: Infinity,
      cpuMs: Infinity,
      threadMs: Infinity,
      rounds: [],
      rss: -Infinity,
      outputKiB: 0,
    }))
  );
  // Warm (JIT) before the first timed call; per round the fastest of three calls, one call
  // being too short to say much on its own.
  reference();
  reference();
  for (let round = 0; round < ROUNDS; round++) {
    referenceMs.push(Math.min(reference(), reference(), reference()));
    for (const [i, w] of workloads.entries()) {
      for (const [j, mb] of sizes.entries()) await runOnce(engine, w, mb, best[i][j]);
    }
    console.error(
      `round ${round + 1}/${ROUNDS} done (load ${loadavg()[0].toFixed(2)}, reference ${
        referenceMs.at(-1)!.toFixed(0)
      } ms)`,
    );
  }
  const rows: string[] = [];
  for (const [i, w] of workloads.entries()) {
    for (const [j, mb] of sizes.entries()) {
      const b = best[i][j];
      const medianMbps = mb / (median(b.rounds) / 1000);
      measured.push({
        label: w.label,
        mb,
        mbps: mb / (b.threadMs / 1000),
        medianMbps,
        cpuMs: b.threadMs,
        referenceMs: referenceMs[b.rounds.indexOf(b.threadMs)],
      });
      rows.push(
        `| ${w.label} | ${mb} MB | ${b.ms.toFixed(0)} ms | ${b.cpuMs.toFixed(0)} ms | ${
          b.threadMs.toFixed(0)
        } ms | ${(mb / (b.threadMs / 1000)).toFixed(0)} MB/s | ${medianMbps.toFixed(0)} MB/s | ${
          (mb / (b.cpuMs / 1000)).toFixed(0)
        } MB/s | ${b.rss.toFixed(0)} MB | ${b.outputKiB.toFixed(1)} KiB |`,
      );
    }
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
      "| workload | input | wall | process CPU | filter thread CPU | throughput (per thread CPU second) | median of the rounds | per process CPU second | RSS growth | output |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ];
    const workloads: Workload[] = [
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
        label: "no rule (sanitize + security)",
        command: "some-tool",
        unit: await read("files/ls_la_usr_bin.txt"),
        failed: false,
      },
    ];
    const rows = await throughput(engine, workloads, sizes, measured);
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
          `Throughput (the whole engine: sanitise, rules, security pass; input built by repeating a corpus case, handed over as the bash tool does: the text and the UTF-8 it was decoded from; each size of each workload runs once per round, the fastest of ${ROUNDS} interleaved rounds counts, RSS growth the largest of them):`,
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
