/**
 * The held-out proxy set (bench/heldout): how the filters do on real outputs no rule was written
 * for. Prints each case (rules, tokens, reduction, signals kept), then the three numbers issue
 * #22 is judged by — median reduction, total reduction, signals lost (listed) — and how many
 * cases match no rule.
 *
 *   deno task bench:heldout
 *   HELDOUT_BEFORE=/other/checkout deno task bench:heldout   that checkout's engine too, same run
 *
 * Tokens are bytes/4, as in bench/filters_bench.ts. The set must not be tuned to (its README).
 */
import { defaultConfig } from "../src/config/schema.ts";
import { loadFilterEngine } from "../src/filter/mod.ts";
import { type CaseResult, median, readCorpus, runCorpus } from "./filters_bench.ts";
import { engineOf } from "./_engine_of.ts";

const HELDOUT = new URL("./heldout/", import.meta.url);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

type Engine = Parameters<typeof runCorpus>[0];

export interface Summary {
  cases: number;
  median: number;
  total: number;
  signals: number;
  lost: string[];
  unmatched: number;
}

export function summarise(results: CaseResult[]): Summary {
  const raw = results.reduce((n, r) => n + r.raw, 0);
  const filtered = results.reduce((n, r) => n + r.filtered, 0);
  return {
    cases: results.length,
    median: median(results.map((r) => r.reduction)),
    total: raw ? 1 - filtered / raw : 0,
    signals: results.reduce((n, r) => n + r.case.signals.length, 0),
    lost: results.flatMap((r) =>
      r.missing.map((m) => `${r.case.family}/${r.case.name}: ${JSON.stringify(m)}`)
    ),
    unmatched: results.filter((r) => r.rules === "(none)").length,
  };
}

function summaryLines(label: string, s: Summary): string[] {
  return [
    `${label}: cases ${s.cases}, median reduction ${pct(s.median)}, total reduction ${
      pct(s.total)
    }, signals lost ${s.lost.length} of ${s.signals}, matching no rule ${s.unmatched}`,
    ...s.lost.map((l) => `  lost ${l}`),
  ];
}

if (import.meta.main) {
  const cases = await readCorpus(HELDOUT);
  const { engine, warnings } = await loadFilterEngine(defaultConfig(), {
    configDir: "/nonexistent",
  });
  for (const w of warnings) console.error(`warning: ${w}`);
  const after = runCorpus(engine, cases);
  const beforeRoot = Deno.env.get("HELDOUT_BEFORE");
  const before = beforeRoot ? runCorpus(await engineOf<Engine>(beforeRoot), cases) : null;
  const head = before
    ? "| case | exit | rules (after) | raw tok | before tok | after tok | before | after | signals before | signals after |"
    : "| case | exit | rules | raw tok | filtered tok | reduction | signals kept |";
  console.log(head);
  console.log(head.replace(/[^|]+/g, (cell) => cell.includes("case") ? "---" : "---:"));
  after.forEach((r, i) => {
    const c = r.case;
    const kept = (x: CaseResult) => `${c.signals.length - x.missing.length}/${c.signals.length}`;
    const cells = [`${c.family}/${c.name}`, c.failed ? "fail" : "ok", r.rules, String(r.raw)];
    if (before) {
      const b = before[i];
      cells.push(String(b.filtered), String(r.filtered), pct(b.reduction), pct(r.reduction));
      cells.push(kept(b), kept(r));
    } else cells.push(String(r.filtered), pct(r.reduction), kept(r));
    console.log(`| ${cells.join(" | ")} |`);
  });
  console.log("");
  if (before) console.log(summaryLines(`before (${beforeRoot})`, summarise(before)).join("\n"));
  console.log(
    summaryLines(before ? "after (this checkout)" : "heldout", summarise(after)).join("\n"),
  );
}
