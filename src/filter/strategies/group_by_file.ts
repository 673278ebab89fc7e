/**
 * group_by_file: lines that each start with their file (`grep -rn`'s `path:12:text`, mypy's
 * `path:12: error: …`) say the path once per run of lines of one file: `path:` on its own line,
 * then each line's rest (`12:text`) as printed. A file with one line keeps it verbatim, and
 * lines that do not match (errors, `--` separators, context lines) pass unchanged and end the
 * run. Streams: at most one line is held.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { patternField, requireNamedGroups } from "./_shared.ts";

export const GroupByFileConfig = z.object({
  type: z.literal("group_by_file"),
  line_pattern: z.string().describe(
    "Regex of a line that names its file, with the named groups `file` and `rest` (the line without the file)",
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
  return {
    type: "group_by_file",
    createStage(ctx: StageContext): Stage {
      // The run's file, its first line while it is the only one, and whether its header is out.
      let file: string | null = null;
      let first: { line: string; rest: string } | null = null;
      let grouped = false;
      const end = () => {
        if (first) ctx.emit(first.line);
        file = null;
        first = null;
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
            first = { line, rest };
            return;
          }
          if (first) {
            ctx.emit(`${name}:`);
            ctx.emit(first.rest);
            first = null;
            grouped = true;
          }
          ctx.emit(rest);
        },
        finish() {
          end();
          return grouped ? "full" : "fallback";
        },
      };
    },
  };
}
