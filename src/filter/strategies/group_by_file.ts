/**
 * group_by_file: lines that each start with their file (`grep -rn`'s `path:12:text`, mypy's
 * `path:12: error: …`) are kept as printed, at most `max_per_file` per run of lines of one file;
 * the run's further lines are counted in one marker after it that names the file and the line
 * numbers they held (`… 5 more matches in src/a.ts (lines 40, 41, 55, 60, 72)`), so every file
 * matched stays in view and each shown line can be copied whole. A line carrying a failure signal
 * is never counted away. Lines that do not match (errors, `--` separators, context lines) pass
 * unchanged and end the run. Streams: nothing is held.
 *
 * In a compound command's output the other commands' lines need no part of their own: a line it
 * does not match passes and ends the run, and a matched line carrying a failure signal is never
 * counted away.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { FAILURE_SIGNAL, patternField, requireNamedGroups } from "./_shared.ts";

/** Line numbers a cap's marker lists at most; past them it says how many it left out. */
const MAX_LISTED = 20;

export const GroupByFileConfig = z.object({
  type: z.literal("group_by_file"),
  line_pattern: z.string().describe(
    "Regex of a line that names its file, with the named groups `file` and `rest` (the line without the file)",
  ),
  max_per_file: z.number().int().min(1).default(10).describe(
    "Lines of one file shown as printed per run; the rest are counted with their line numbers",
  ),
}).strict();
export type GroupByFileConfig = z.infer<typeof GroupByFileConfig>;

export function compileGroupByFile(
  config: GroupByFileConfig,
  engine: RegexEngine,
): CompiledStrategy {
  requireNamedGroups(
    config.line_pattern,
    "strategy.line_pattern",
    ["file", "rest"],
    (name) => `the line's ${name} part`,
  );
  const pattern = patternField(config.line_pattern, "strategy.line_pattern", engine);
  const cap = config.max_per_file;
  return {
    type: "group_by_file",
    createStage(ctx: StageContext): Stage {
      // The run's file, how many of its lines were shown, and the line numbers of those counted.
      let file: string | null = null;
      let shown = 0;
      let counted = 0;
      let numbers: string[] = [];
      let capped = false;
      const end = () => {
        if (counted) ctx.emit(moreMarker(file!, counted, numbers));
        file = null;
        shown = 0;
        counted = 0;
        numbers = [];
      };
      return {
        push(line) {
          const m = pattern.exec(line);
          const name = m?.group("file");
          const rest = m?.group("rest");
          if (!name || rest === undefined) {
            end();
            ctx.emit(line);
            return;
          }
          if (name !== file) {
            end();
            file = name;
          }
          if (shown < cap || FAILURE_SIGNAL.test(line)) {
            shown++;
            ctx.emit(line);
            return;
          }
          counted++;
          capped = true;
          const number = /^\d+/.exec(rest)?.[0];
          if (number && numbers.length < MAX_LISTED) numbers.push(number);
        },
        finish() {
          end();
          return capped ? "full" : "fallback";
        },
      };
    },
  };
}

/** `… 5 more matches in src/a.ts (lines 40, 41, 55)`: an engine marker, the file as printed. */
function moreMarker(file: string, count: number, numbers: string[]): string {
  const unlisted = count - numbers.length;
  const list = numbers.length
    ? ` (line${numbers.length > 1 ? "s" : ""} ${numbers.join(", ")}${
      unlisted ? `, … ${unlisted} more` : ""
    })`
    : "";
  return `… ${count} more matches in ${file}${list}`;
}
