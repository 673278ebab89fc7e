/**
 * fold_samples: the rows a benchmark prints once per run, one after another (`go test -bench
 * -count=6`: six `BenchmarkX-2   200   49.14 ns/op   2 B/op   1 allocs/op` rows), fold into the
 * median run's row (by the first metric), as printed, and a line under it counting the runs and
 * giving the least and greatest value of each metric (a number and its unit) the runs disagree on:
 * the median and the spread are what runs are compared by, as benchstat does; the other rows
 * repeat the name and the metrics that did not move. `row` names a run's line, its `name` group
 * the benchmark and its `metrics` group the `value unit` pairs. Fewer than `min_runs` rows in a
 * row stay as printed, and so does every row whose metrics do not read as such pairs; a row whose
 * units differ from the one before starts a run of its own. With `keep_last_before`, a run right
 * above a line it matches (a package's `FAIL`: the test binary ended after that row) keeps its
 * last row as printed too: what the binary printed last before failing. A line carrying a failure
 * never reads as a row: it stays as printed.
 *
 * In a compound command's output the other commands' lines need no part of their own: only rows
 * `row` matches fold; any other line stays as printed.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import {
  carriesFailure,
  optionalPatternField,
  patternField,
  requireNamedGroups,
} from "./_shared.ts";

export const FoldSamplesConfig = z.object({
  type: z.literal("fold_samples"),
  row: z.string().describe(
    "Regex (RE2 syntax) of one run's row: its `name` group the benchmark, its `metrics` group the `value unit` pairs",
  ),
  min_runs: z.number().int().min(2).max(1000).default(3).describe(
    "Rows of one benchmark in a row that fold; fewer stay as printed",
  ),
  keep_last_before: z.string().optional().describe(
    "Regex (RE2 syntax) of a line (a failure the run ended in) above which a run keeps its last row as printed",
  ),
}).strict();
export type FoldSamplesConfig = z.infer<typeof FoldSamplesConfig>;

/** Rows of one benchmark held at most; past them the run folds and the next one starts. */
const MAX_RUNS = 10_000;

/** One metric of a row: a number and its unit (`49.14 ns/op`, `2 B/op`, `11.00 bytes/op`). */
const METRIC = /^(\d{1,20}(?:\.\d{1,20})?(?:e[+-]?\d{1,3})?)\s{1,40}(\S{1,100})$/;

/** The `value unit` pairs of a row's metrics text, or null when it holds anything else. */
function readMetrics(text: string): { value: string; unit: string }[] | null {
  // Cells are set apart by tabs (go's columns) or by two spaces or more (columns lined up).
  const cells = text.trim().split(/\s*\t\s*|\s{2,}/);
  const metrics: { value: string; unit: string }[] = [];
  for (const cell of cells) {
    const m = METRIC.exec(cell.trim());
    if (m === null) return null;
    metrics.push({ value: m[1], unit: m[2] });
  }
  return metrics.length ? metrics : null;
}

/** One metric over the runs, when the runs disagree on it: `least to greatest unit`. */
function spread(values: string[], unit: string): string | null {
  if (values.every((v) => v === values[0])) return null;
  const sorted = values.map(Number).sort((a, b) => a - b);
  const least = values.find((v) => Number(v) === sorted[0])!;
  const greatest = values.find((v) => Number(v) === sorted[sorted.length - 1])!;
  return `${least} to ${greatest} ${unit}`;
}

export function compileFoldSamples(
  config: FoldSamplesConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const row = patternField(config.row, "strategy.row", engine);
  requireNamedGroups(config.row, "strategy.row", ["name", "metrics"], () => "the benchmark");
  const lastBefore = optionalPatternField(
    config.keep_last_before,
    "strategy.keep_last_before",
    engine,
  );
  return {
    type: "fold_samples",
    createStage(ctx: StageContext): Stage {
      let run: {
        name: string;
        units: string;
        lines: string[];
        values: string[][];
      } | null = null;
      let folded = 0;
      const close = (next: string | null) => {
        if (run === null) return;
        const { lines, values } = run;
        run = null;
        if (lines.length < config.min_runs) {
          for (const line of lines) ctx.emit(line);
          return;
        }
        // The median run by the first metric (the lower of the two middle ones when even).
        const order = values.map((_, i) => i).sort((a, b) =>
          Number(values[a][0]) - Number(values[b][0])
        );
        const median = order[(order.length - 1) >> 1];
        ctx.emit(lines[median]);
        const units = readMetrics(row.exec(lines[0])!.group("metrics")!)!.map((m) => m.unit);
        const spreads = units.flatMap((unit, i) => spread(values.map((v) => v[i]), unit) ?? []);
        ctx.emit(
          `  … ${lines.length} runs, the median above${
            spreads.length ? `: ${spreads.join(", ")}` : ", all alike"
          }`,
        );
        const last = lines.length - 1;
        if (last !== median && next !== null && lastBefore?.test(next)) {
          ctx.emit(lines[last]);
          folded--;
        }
        folded += last;
      };
      return {
        push(line) {
          const match = carriesFailure(line) ? null : row.exec(line);
          const name = match?.group("name");
          const metrics = match ? readMetrics(match.group("metrics") ?? "") : null;
          if (!match || name === undefined || metrics === null) {
            close(line);
            return ctx.emit(line);
          }
          const units = metrics.map((m) => m.unit).join("\t");
          if (
            run !== null &&
            (run.name !== name || run.units !== units || run.lines.length >= MAX_RUNS)
          ) close(line);
          if (run === null) run = { name, units, lines: [], values: [] };
          run.lines.push(line);
          run.values.push(metrics.map((m) => m.value));
        },
        finish() {
          close(null);
          return folded > 0 ? "full" : "fallback";
        },
      };
    },
  };
}
