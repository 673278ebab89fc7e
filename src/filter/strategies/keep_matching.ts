/**
 * keep_matching: keeps only lines matching a pattern. When the command failed, lines that look
 * like failures are kept too (a filter must never hide a failure). Nothing kept → Fallback with
 * the input unchanged.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatcher, FAILURE_SIGNAL, patternList } from "./_shared.ts";

export const KeepMatchingConfig = z.object({
  type: z.literal("keep_matching"),
  patterns: z.array(z.string()).min(1).describe("Regexes (RE2 syntax) of lines to keep"),
}).strict();
export type KeepMatchingConfig = z.infer<typeof KeepMatchingConfig>;

export function compileKeepMatching(
  config: KeepMatchingConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const matches = anyMatcher(patternList(config.patterns, "strategy.patterns", engine));
  return {
    type: "keep_matching",
    createStage(ctx: StageContext): Stage {
      // Held until the first match proves the output has the expected shape.
      let held: string[] | null = [];
      let kept = 0;
      return {
        push(line) {
          const keep = matches(line) || (ctx.failed && FAILURE_SIGNAL.test(line));
          if (held) held.push(line);
          if (!keep) return;
          kept++;
          if (held) {
            // First match: the lines held before it are dropped unless they were kept.
            held = null;
          }
          ctx.emit(line);
        },
        finish() {
          if (kept > 0) return "full";
          for (const line of held ?? []) ctx.emit(line);
          return "fallback";
        },
      };
    },
  };
}
