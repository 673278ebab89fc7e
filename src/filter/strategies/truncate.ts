/**
 * truncate: beyond `max_lines`, keeps the first `head` and last `tail` lines. Improvement over
 * the reference: lines in the cut that look like failures (error, FAIL, panic, …) and the
 * location lines right after one stay, in place, wherever they are (up to `keep_signals`, a
 * bound on memory, not a budget), so a cut never hides why a command failed or where. So do the odd
 * lines of the cut (generic_shapes.ts' `cutReader`: a setuid row of a listing, a 500 among 200s),
 * read while the cut holds at most MAX_SHAPED_LINES lines; a longer cut streams, its
 * failure-looking lines alone kept. Memory is bounded by max_lines + MAX_SHAPED_LINES +
 * keep_signals whatever the input size.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { cutReader } from "../generic_shapes.ts";
import { anyMatcher, FailureKeeper, omitted, patternList } from "./_shared.ts";

/** Lines kept from the cut by `keep_patterns`, at most (memory stays bounded). */
const MAX_PATTERN_KEPT = 10_000;

export const TruncateConfig = z.object({
  type: z.literal("truncate"),
  max_lines: z.number().int().min(1).default(100).describe("Outputs up to this many lines pass"),
  head: z.number().int().min(0).default(20).describe("Lines kept from the start"),
  tail: z.number().int().min(0).default(20).describe("Lines kept from the end"),
  keep_signals: z.number().int().min(0).default(10_000).describe(
    "Failure-looking lines kept from the cut (every one, up to this many; 0 keeps none)",
  ),
  keep_odd: z.boolean().default(true).describe(
    "Keep the cut's odd lines: a row that differs from the others of its kind where those agree (a 500 among 200s, a setuid file), at most 10 of each odd value",
  ),
  keep_patterns: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of other lines kept from the cut (a history's commit lines)",
  ),
  keep_pattern_lines: z.number().int().min(1).max(MAX_PATTERN_KEPT).default(MAX_PATTERN_KEPT)
    .describe(
      "Lines kept from the cut by keep_patterns, at most: the first ones (a long history's newest commits)",
    ),
}).strict().refine((c) => c.head + c.tail <= c.max_lines, {
  message: "head + tail must not exceed max_lines",
  path: ["head"],
});
export type TruncateConfig = z.infer<typeof TruncateConfig>;

export function compileTruncate(config: TruncateConfig, engine: RegexEngine): CompiledStrategy {
  const { max_lines: max, head, tail, keep_signals: keepSignals, keep_odd: keepOdd } = config;
  const patternLines = config.keep_pattern_lines;
  const keepPattern = anyMatcher(
    patternList(config.keep_patterns, "strategy.keep_patterns", engine),
  );
  return {
    type: "truncate",
    createStage(ctx: StageContext): Stage {
      let total = 0;
      // Lines after the head, until we know the output is long; then the last `tail` of them.
      const pending: string[] = [];
      let cutting = false;
      // `pattern`: kept by keep_patterns (a listing: the gaps before them are counted together).
      const kept: { index: number; line: string; pattern?: boolean }[] = [];
      let signals = 0;
      let patterned = 0;
      const keeper = new FailureKeeper();
      // The cut's lines come in order from the first after the head (see `cutReader`).
      let cutAt = head;
      const cut = cutReader((line, odd) => {
        const index = cutAt++;
        if (signals < keepSignals && keeper.keep(line)) {
          signals++;
          kept.push({ index, line });
        } else if (odd) kept.push({ index, line });
        else if (patterned < patternLines && keepPattern(line)) {
          patterned++;
          kept.push({ index, line, pattern: true });
        }
      }, { odd: keepOdd });
      return {
        push(line) {
          const index = total++;
          if (index < head) {
            keeper.observe(line);
            ctx.emit(line);
            return;
          }
          pending.push(line);
          if (!cutting && total > max) cutting = true;
          // The oldest pending line leaves the tail window: it is in the cut.
          while (cutting && pending.length > tail) cut.push(pending.shift()!);
        },
        finish() {
          if (!cutting) {
            for (const line of pending) ctx.emit(line);
            return "fallback";
          }
          cut.finish();
          const tailStart = total - pending.length;
          let next = head;
          // Lines omitted before pattern-kept lines, told once before the next signal or the tail.
          let untold = 0;
          for (const { index, line, pattern } of kept) {
            if (pattern) untold += index - next;
            else if (index - next + untold > 0) {
              ctx.emit(omitted(index - next + untold));
              untold = 0;
            }
            ctx.emit(line);
            next = index + 1;
          }
          if (tailStart - next + untold > 0) ctx.emit(omitted(tailStart - next + untold));
          for (const line of pending) ctx.emit(line);
          return "partial";
        },
      };
    },
  };
}
