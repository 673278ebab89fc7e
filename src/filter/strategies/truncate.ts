/**
 * truncate: beyond `max_lines`, keeps the first `head` and last `tail` lines. Improvement over
 * the reference: lines in the cut that look like failures (error, FAIL, panic, …; at most
 * `keep_signals`) stay, in place, so a cut never hides why a command failed. Memory is bounded
 * by max_lines + keep_signals whatever the input size.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { FAILURE_SIGNAL, omitted } from "./_shared.ts";

export const TruncateConfig = z.object({
  type: z.literal("truncate"),
  max_lines: z.number().int().min(1).default(100).describe("Outputs up to this many lines pass"),
  head: z.number().int().min(0).default(20).describe("Lines kept from the start"),
  tail: z.number().int().min(0).default(20).describe("Lines kept from the end"),
  keep_signals: z.number().int().min(0).default(30).describe(
    "Failure-looking lines kept from the cut",
  ),
}).strict().refine((c) => c.head + c.tail <= c.max_lines, {
  message: "head + tail must not exceed max_lines",
  path: ["head"],
});
export type TruncateConfig = z.infer<typeof TruncateConfig>;

export function compileTruncate(config: TruncateConfig): CompiledStrategy {
  const { max_lines: max, head, tail, keep_signals: keepSignals } = config;
  return {
    type: "truncate",
    createStage(ctx: StageContext): Stage {
      let total = 0;
      // Lines after the head, until we know the output is long; then the last `tail` of them.
      const pending: string[] = [];
      let cutting = false;
      const kept: { index: number; line: string }[] = [];
      const consider = (index: number, line: string) => {
        if (kept.length < keepSignals && FAILURE_SIGNAL.test(line)) kept.push({ index, line });
      };
      return {
        push(line) {
          const index = total++;
          if (index < head) {
            ctx.emit(line);
            return;
          }
          pending.push(line);
          if (!cutting && total > max) cutting = true;
          while (cutting && pending.length > tail) {
            // The oldest pending line leaves the tail window: it is in the cut.
            const at = total - pending.length;
            consider(at, pending.shift()!);
          }
        },
        finish() {
          if (!cutting) {
            for (const line of pending) ctx.emit(line);
            return "fallback";
          }
          const tailStart = total - pending.length;
          let next = head;
          for (const { index, line } of kept) {
            if (index > next) ctx.emit(omitted(index - next));
            ctx.emit(line);
            next = index + 1;
          }
          if (tailStart > next) ctx.emit(omitted(tailStart - next));
          for (const line of pending) ctx.emit(line);
          return "partial";
        },
      };
    },
  };
}
