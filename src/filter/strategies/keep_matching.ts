/**
 * keep_matching: keeps only lines matching a pattern. When the command failed, lines that look
 * like failures are kept too (a filter must never hide a failure). Nothing kept → Fallback with
 * the input unchanged.
 *
 * On a failing run a failure line that speaks through a tag (`remote: ERROR: …`, the text a git
 * hook prints) brings the contiguous lines with the same tag around it: a hook's or a server's
 * explanation of a refusal is free text no allow-list names. Progress lines (a percentage, a
 * closing `, done.` or `, done`) and tagged lines with nothing after the tag stay out; untagged lines (a
 * diagnostic's source echo and carets) never join a block. A long block (a hook's report of every
 * file it checked) folds its runs of lines of one shape as the generic pass does
 * (generic_shapes.ts): the failure lines, the first and last of each run and the block's last
 * lines stay as printed.
 *
 * In a compound command's output (`git push && npm test`) the lines the patterns match are its
 * own (`owns`): the other commands' lines pass as printed, for their own rules.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatcher, FAILURE_SIGNAL, patternList } from "./_shared.ts";
import { foldShapeRuns } from "../generic_shapes.ts";

export const KeepMatchingConfig = z.object({
  type: z.literal("keep_matching"),
  patterns: z.array(z.string()).min(1).describe("Regexes (RE2 syntax) of lines to keep"),
}).strict();
export type KeepMatchingConfig = z.infer<typeof KeepMatchingConfig>;

/** A speaker's tag: a word and a colon opening the line (`remote:`), the line's only text or before a space. */
const TAG = /^([A-Za-z][\w-]{0,39}):(?: |$)/;
/** Transfer progress under a tag: a percentage or a closing `, done.` (Gerrit's has no period). */
const PROGRESS = /\d{1,3}%|, done\.?\s*$/;

function tagOf(line: string): string | null {
  return TAG.exec(line)?.[1] ?? null;
}

/** Whether a tagged line says something: not progress, not the tag alone. */
function says(line: string, tag: string): boolean {
  const rest = line.slice(tag.length + 1).trim();
  return rest !== "" && !PROGRESS.test(rest);
}

export function compileKeepMatching(
  config: KeepMatchingConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const matches = anyMatcher(patternList(config.patterns, "strategy.patterns", engine));
  return {
    type: "keep_matching",
    // The lines it keeps are its tool's: in a compound command's output the others' pass.
    owns: matches,
    createStage(ctx: StageContext): Stage {
      // Held until the first match proves the output has the expected shape.
      let held: string[] | null = [];
      let kept = 0;
      // On a failing run: the tagged lines not kept since the last kept line, all with `blockTag`,
      // and the tag of a failure line whose block is still open.
      let block: string[] = [];
      let blockTag: string | null = null;
      let openTag: string | null = null;
      // The tagged lines kept since the last other kept line, folded when the block ends.
      let tagged: string[] = [];
      const flushTagged = () => {
        if (tagged.length === 0) return;
        for (const line of foldShapeRuns(tagged, false)) ctx.emit(line);
        tagged = [];
      };
      const emit = (line: string) => {
        kept++;
        held = null;
        flushTagged();
        ctx.emit(line);
      };
      const emitTagged = (line: string) => {
        kept++;
        held = null;
        tagged.push(line);
      };
      return {
        push(line) {
          const failure = ctx.failed && FAILURE_SIGNAL.test(line);
          const keep = matches(line) || failure;
          if (held) held.push(line);
          const tag = ctx.failed ? tagOf(line) : null;
          if (!keep) {
            if (tag !== null && tag === openTag) {
              if (says(line, tag)) emitTagged(line);
              return;
            }
            openTag = null;
            if (tag === null || tag !== blockTag) block = [];
            blockTag = tag;
            if (tag !== null) block.push(line);
            return;
          }
          if (failure && tag !== null) {
            if (tag === blockTag) {
              for (const before of block) if (says(before, tag)) emitTagged(before);
            }
            openTag = tag;
          } else if (tag === null || tag !== openTag) {
            openTag = null;
          }
          block = [];
          blockTag = null;
          // The first match drops the lines held before it unless they were kept.
          if (tag !== null && tag === openTag) emitTagged(line);
          else emit(line);
        },
        finish() {
          flushTagged();
          if (kept > 0) return "full";
          for (const line of held ?? []) ctx.emit(line);
          return "fallback";
        },
      };
    },
  };
}
