/** strip_noise: drops lines matching any pattern. Full when something went, else Fallback. */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatch, patternList } from "./_shared.ts";

export const StripNoiseConfig = z.object({
  type: z.literal("strip_noise"),
  patterns: z.array(z.string()).min(1).describe("Regexes (RE2 syntax) of lines to drop"),
}).strict();
export type StripNoiseConfig = z.infer<typeof StripNoiseConfig>;

export function compileStripNoise(config: StripNoiseConfig): CompiledStrategy {
  const patterns = patternList(config.patterns, "strategy.patterns");
  return {
    type: "strip_noise",
    createStage(ctx: StageContext): Stage {
      let removed = 0;
      return {
        push(line) {
          if (anyMatch(patterns, line)) removed++;
          else ctx.emit(line);
        },
        finish: () => removed > 0 ? "full" : "fallback",
      };
    },
  };
}
