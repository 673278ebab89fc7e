/**
 * fold_passed: a workspace run prints each package's lines with its name in front
 * (`packages/api build: …`, as `pnpm -r run build` does), the packages' lines interleaved. A
 * package whose last line says it passed (`packages/api build: Done`) keeps that line, with one
 * `summary` line before it counting its other lines; its failure-looking lines and the locations
 * right after them stay, in place. A package that failed, or whose lines end without a verdict
 * (the run stopped), stays whole; lines naming no package (the tool's own error and exit status)
 * pass. The whole output is held: a package's verdict comes after its lines.
 *
 * In a compound command's output the other commands' lines name no package of its run, so they pass
 * as printed in their places: it needs no part of its own.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { emitLines } from "../types.ts";
import { FailureKeeper, patternField, requireNamedGroups } from "./_shared.ts";

export const FoldPassedConfig = z.object({
  type: z.literal("fold_passed"),
  line_pattern: z.string().describe(
    "Regex (RE2 syntax) of a line that names its package, with the named groups `name` and `rest` (the line without the name)",
  ),
  passed: z.string().describe(
    "Regex (RE2 syntax) of the `rest` of a package's last line when the package passed",
  ),
  summary: z.string().max(200).default("… {n} lines of {name} folded").describe(
    "The line standing for a passed package's folded lines; {n} is their count, {name} the package",
  ),
}).strict();
export type FoldPassedConfig = z.infer<typeof FoldPassedConfig>;

export function compileFoldPassed(config: FoldPassedConfig, engine: RegexEngine): CompiledStrategy {
  requireNamedGroups(
    config.line_pattern,
    "strategy.line_pattern",
    ["name", "rest"],
    (name) => `the line's ${name} part`,
  );
  const pattern = patternField(config.line_pattern, "strategy.line_pattern", engine);
  const passed = patternField(config.passed, "strategy.passed", engine);
  return {
    type: "fold_passed",
    createStage(ctx: StageContext): Stage {
      const held: string[] = [];
      // Each held line's package (null: it names none).
      const names: (string | null)[] = [];
      return {
        push(line) {
          held.push(line);
          const m = pattern.exec(line);
          const name = m?.group("name");
          names.push(name !== undefined && m?.group("rest") !== undefined ? name : null);
        },
        finish() {
          // Each package's last line, and whether its verdict says it passed.
          const last = new Map<string, number>();
          names.forEach((name, i) => {
            if (name !== null) last.set(name, i);
          });
          const folds = new Map<string, { keeper: FailureKeeper; n: number }>();
          for (const [name, i] of last) {
            const rest = pattern.exec(held[i])?.group("rest") ?? "";
            if (passed.test(rest)) folds.set(name, { keeper: new FailureKeeper(), n: 0 });
          }
          if (folds.size === 0) {
            emitLines(ctx, held);
            return "fallback";
          }
          const out: string[] = [];
          let changed = false;
          held.forEach((line, i) => {
            const name = names[i];
            const fold = name === null ? undefined : folds.get(name);
            if (fold === undefined) return out.push(line);
            if (last.get(name!) === i) {
              if (fold.n > 0) {
                out.push(
                  config.summary.replaceAll("{n}", String(fold.n)).replaceAll("{name}", name!),
                );
                changed = true;
              }
              return out.push(line);
            }
            if (fold.keeper.keep(line)) out.push(line);
            else fold.n++;
          });
          emitLines(ctx, changed ? out : held);
          return changed ? "full" : "fallback";
        },
      };
    },
  };
}
