/**
 * strip_annotated: a noise stripper that reports what it removed. A `summary_pattern` line
 * (cargo's `Finished …`) is kept as the heading; kept lines beyond `long_output_threshold` are
 * cut to head/tail on success only: after a failure the kept lines are the errors, all kept.
 * In a compound command's output its own lines are those its patterns and `summary_pattern` match
 * (`owns`): the other commands' lines pass as printed, neither cut nor put under its heading.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatcher, keepFailuresPast, patternField, patternList } from "./_shared.ts";

export const StripAnnotatedConfig = z.object({
  type: z.literal("strip_annotated"),
  patterns: z.array(z.string()).min(1).describe("Regexes of annotation/noise lines"),
  summary_pattern: z.string().optional().describe("Regex of the line kept as a summary"),
  long_output_threshold: z.number().int().min(1).default(30).describe(
    "On success, kept lines beyond this many are cut to keep_head + keep_tail (failure lines stay)",
  ),
  keep_head: z.number().int().min(0).default(10).describe(
    "First kept lines shown past the threshold",
  ),
  keep_tail: z.number().int().min(0).default(5).describe(
    "Last kept lines shown past the threshold",
  ),
}).strict();
export type StripAnnotatedConfig = z.infer<typeof StripAnnotatedConfig>;

export function compileStripAnnotated(
  config: StripAnnotatedConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const matches = anyMatcher(patternList(config.patterns, "strategy.patterns", engine));
  const summary = config.summary_pattern === undefined
    ? null
    : patternField(config.summary_pattern, "strategy.summary_pattern", engine);
  const { long_output_threshold: threshold, keep_head: head, keep_tail: tail } = config;
  return {
    type: "strip_annotated",
    owns: (line) => matches(line) || (summary?.test(line) ?? false),
    createStage(ctx: StageContext): Stage {
      const kept: string[] = [];
      let noise = 0;
      let summaryLine: string | null = null;
      const emitCut = (lines: string[]) => {
        if (lines.length <= threshold || ctx.failed) {
          for (const line of lines) ctx.emit(line);
          return false;
        }
        // The cut keeps its failure lines and their locations, in place.
        const end = lines.length - tail;
        for (const line of keepFailuresPast(lines.slice(0, end), head)) ctx.emit(line);
        for (const line of lines.slice(end)) ctx.emit(line);
        return true;
      };
      return {
        push(line) {
          if (summary?.test(line)) {
            summaryLine = line.trimStart();
            noise++;
          } else if (matches(line)) {
            noise++;
          } else {
            kept.push(line);
          }
        },
        finish() {
          if (noise === 0) return emitCut(kept) ? "partial" : "fallback";
          if (summaryLine !== null) ctx.emit(summaryLine);
          ctx.emit(`(${noise} noise line${noise === 1 ? "" : "s"} removed)`);
          while (kept.length && kept[0].trim() === "") kept.shift();
          if (kept.length) emitCut(kept);
          return "full";
        },
      };
    },
  };
}
