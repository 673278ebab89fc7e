/**
 * fold_blocks: inside a block that opens with a `start` line and closes with an `end` line (a
 * resource terraform destroys, whose every attribute goes to null), the inner lines fold into one
 * `summary` line before the block's end, `{n}` their count. Lines matching `keep`, failure-looking
 * ones and the locations right after them stay, in place, unless they match `fold` (a probe line
 * whose only failure-look is a name it quotes: tsc's `File '…/errors.ts' does not exist.`). A block of at most `min_lines` inner
 * lines stays whole, one the output ends inside gets its summary at the end; lines outside blocks
 * pass. With `only_when`, a block folds only when its end line matches it (a nox session that
 * passed); any other block, and one the output ends inside, stays whole. With `after`, a start
 * line opens a block only right under a line matching it (meson's verbose `3/12 mul OK 0.02s`
 * above the `✀` line its output opens with: a failing test's output, under its FAIL line, is no
 * block). Streaming: memory is one block's first `min_lines` lines, or with `only_when` the open
 * block. In a compound command's output its own part ends at the last block line `start` or `end`
 * matches and the indented lines under it (`owns`): a later command's lines after a block left
 * open (a run cut short) pass as printed.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatcher, FailureKeeper, patternField, patternList } from "./_shared.ts";

export const FoldBlocksConfig = z.object({
  type: z.literal("fold_blocks"),
  start: z.string().describe("Regex (RE2 syntax) of a block's first line (it stays)"),
  end: z.string().describe("Regex (RE2 syntax) of a block's last line (it stays)"),
  keep: z.array(z.string()).default([]).describe("Regexes of lines inside a block that stay"),
  fold: z.array(z.string()).default([]).describe(
    "Regexes of lines inside a block that fold even when they read as failures (a name they quote)",
  ),
  summary: z.string().max(200).default("  … ({n} lines)").describe(
    "The line standing for a block's folded lines; {n} is their count",
  ),
  only_when: z.string().optional().describe(
    "Regex (RE2 syntax) of the end lines of the blocks that fold; other blocks stay whole",
  ),
  after: z.string().optional().describe(
    "Regex (RE2 syntax) of the line right before a block's start line: a start line under any other line opens no block",
  ),
  min_lines: z.number().int().min(0).max(10_000).default(3).describe(
    "Blocks of at most this many inner lines stay whole",
  ),
}).strict();
export type FoldBlocksConfig = z.infer<typeof FoldBlocksConfig>;

export function compileFoldBlocks(config: FoldBlocksConfig, engine: RegexEngine): CompiledStrategy {
  const start = patternField(config.start, "strategy.start", engine);
  const end = patternField(config.end, "strategy.end", engine);
  const keep = anyMatcher(patternList(config.keep, "strategy.keep", engine));
  const foldAnyway = anyMatcher(patternList(config.fold, "strategy.fold", engine));
  const minLines = config.min_lines;
  const onlyWhen = config.only_when === undefined
    ? null
    : patternField(config.only_when, "strategy.only_when", engine);
  const after = config.after === undefined
    ? null
    : patternField(config.after, "strategy.after", engine);
  return {
    type: "fold_blocks",
    // A block's first and last lines are its tool's: in a compound command's output a later
    // command's lines after a block the output ends inside are not folded as its inner lines.
    owns: (line) => start.test(line) || end.test(line),
    createStage(ctx: StageContext): Stage {
      /** The open block's inner lines while it is short enough to stay whole, else null. */
      let held: string[] | null = null;
      let open = false;
      let folded = 0;
      let keeper = new FailureKeeper();
      let changed = false;
      // With after: the line read before the current one, outside a block.
      let previous = "";
      // Past min_lines an inner line stays when kept, else it is counted.
      const fold = (line: string) => {
        if (keep(line) || (!foldAnyway(line) && keeper.keep(line))) ctx.emit(line);
        else folded++;
      };
      const close = () => {
        if (held) { for (const line of held) ctx.emit(line); }
        else if (folded) {
          ctx.emit(config.summary.replaceAll("{n}", String(folded)));
          changed = true;
        }
        open = false;
      };
      return {
        push(line) {
          if (!open) {
            ctx.emit(line);
            const under = previous;
            previous = line;
            if (start.test(line) && (after === null || after.test(under))) {
              open = true;
              held = [];
              folded = 0;
              keeper = new FailureKeeper();
              keeper.observe(line);
            }
            return;
          }
          if (end.test(line)) {
            if (
              onlyWhen !== null && held !== null && held.length > minLines && onlyWhen.test(line)
            ) {
              const lines = held;
              held = null;
              for (const l of lines) fold(l);
            }
            close();
            ctx.emit(line);
            return;
          }
          if (held === null) return fold(line);
          if (onlyWhen !== null) return void held.push(line);
          held.push(line);
          if (held.length > minLines) {
            const lines = held;
            held = null;
            for (const l of lines) fold(l);
          }
        },
        finish() {
          if (open) close();
          return changed ? "full" : "fallback";
        },
      };
    },
  };
}
