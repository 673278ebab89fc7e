/**
 * truncate: beyond `max_lines`, keeps the first `head` and last `tail` lines. Improvement over
 * the reference: lines in the cut that look like failures (error, FAIL, panic, …) and the
 * location lines right after one stay, in place, wherever they are (up to `keep_signals`, a
 * bound on memory, not a budget), so a cut never hides why a command failed or where. So do the odd
 * lines of the cut (generic_shapes.ts' `cutReader`: a setuid row of a listing, a 500 among 200s),
 * read while the cut holds at most MAX_SHAPED_LINES lines; a longer cut streams, its
 * failure-looking lines alone kept. Memory is bounded by max_lines + MAX_SHAPED_LINES +
 * keep_signals whatever the input size. With `record_start`, the tail starts where a record does:
 * a tail that would cut into one (a commit's `--numstat` lines without its commit line) reaches
 * back to the record's first line, at most MAX_RECORD_LINES lines back. With `keep_pattern_unit`,
 * the keep_patterns budget counts units (a commit's line), not lines: the pattern lines after a
 * unit (its subject) stay with it, so a one-line log and a log of commits and subjects keep as
 * many commits.
 *
 * In a compound command's output it cannot tell its own lines from the others' by their look: the
 * head and the tail keep the first command's start and the last one's end, and every
 * failure-looking line of any command in the cut stays in place. The last command's rules know
 * its lines, though (`shared.lastOwns`): the first of them starts its output. A cut for an earlier
 * command ends there, and the last command's output passes as printed, so the cut never takes the
 * lines a later rule reads its run by (a test run's header, the blocks its failures sit in). A cut
 * for the last command cuts the earlier commands' lines before that first line on their own, to
 * their own head and tail (past head + tail lines), and its own from there: the end of a script's
 * output (its traceback, each frame with its source line) is that part's tail, not lines in the
 * middle of one cut.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Confidence, Stage, StageContext } from "../types.ts";
import { cutReader } from "../generic_shapes.ts";
import { anyMatcher, CutGap, FailureKeeper, optionalPatternField, patternList } from "./_shared.ts";

/** Lines a tail reaches back for its record's start, at most. */
const MAX_RECORD_LINES = 100;

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
      "Lines kept from the cut by keep_patterns, at most: the first ones (a long history's newest commits); with keep_pattern_unit, units",
    ),
  keep_pattern_unit: z.string().optional().describe(
    "Regex (RE2 syntax) of the kept lines keep_pattern_lines counts (a commit's line): the pattern lines after one stay with it until the budget is spent",
  ),
  record_start: z.string().optional().describe(
    "Regex (RE2 syntax) of a record's first line: the tail starts at one, reaching back into the cut for the record it would cut into",
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
  const unit = optionalPatternField(
    config.keep_pattern_unit,
    "strategy.keep_pattern_unit",
    engine,
  );
  const recordStart = optionalPatternField(config.record_start, "strategy.record_start", engine);
  /**
   * One run of the cut over the lines pushed: the head as they come, then at `flush` the cut's kept
   * lines and the tail (Fallback when no more than `limit` lines came); `first` lines are the head.
   */
  const cutter = (emit: (line: string) => void, limit = max, first = head) => {
    let total = 0;
    // Lines that left the tail window since the last record start (with it): the tail reaches
    // back to them when it starts inside that record.
    let held: string[] = [];
    // Lines after the head, until we know the output is long; then the last `tail` of them.
    const pending: string[] = [];
    let cutting = false;
    // What the cut shows, in order: the lines it keeps and the notes counting the lines it dropped
    // (each as the lines it stands for: an earlier stage's notes and repeat counts).
    const kept: string[] = [];
    const gap = new CutGap();
    let signals = 0;
    let patterned = 0;
    let keptByPattern = 0;
    // The budget is spent: a line it would count was read past it, so no more pattern lines stay.
    let spent = false;
    const keeper = new FailureKeeper();
    // The cut's lines come in order from the first after the head (see `cutReader`).
    const cut = cutReader((line, odd) => {
      if (signals < keepSignals && keeper.keep(line)) {
        signals++;
        // The line naming what failed comes back in its place when the cut dropped it.
        gap.flush(kept, keeper.subject);
        kept.push(line);
      } else if (odd) {
        gap.flush(kept);
        kept.push(line);
      } else if (
        !spent && keptByPattern < MAX_PATTERN_KEPT && keepPattern(line)
      ) {
        // Without a unit every kept line counts; with one, a unit's line counts and the lines
        // after it stay with it. The first unit past the budget ends the keeping.
        if (unit === undefined || unit.test(line)) {
          if (patterned === patternLines) {
            spent = true;
            gap.add(line);
            return;
          }
          patterned++;
        }
        keptByPattern++;
        // A listing's kept rows: the lines dropped before them are told together, once, before
        // the next line kept for another reason or the tail.
        gap.pass();
        kept.push(line);
      } else gap.add(line);
    }, { odd: keepOdd });
    /** A line out of the tail window: into the cut, or held as part of a record's start. */
    const leave = (line: string) => {
      if (recordStart === undefined) return cut.push(line);
      if (recordStart.test(line)) {
        for (const h of held) cut.push(h);
        held = [line];
      } else if (held.length > 0 && held.length < MAX_RECORD_LINES) held.push(line);
      else {
        for (const h of held) cut.push(h);
        held = [];
        cut.push(line);
      }
    };
    /** The head, the cut and the tail once the own lines are all read. */
    const flush = (): Confidence => {
      if (!cutting) {
        for (const line of pending) emit(line);
        return "fallback";
      }
      // A tail that starts inside a record reaches back to the record's held lines.
      if (recordStart !== undefined && pending.length > 0 && !recordStart.test(pending[0])) {
        pending.unshift(...held);
      } else for (const h of held) cut.push(h);
      held = [];
      cut.finish();
      gap.flush(kept);
      for (const line of kept) emit(line);
      for (const line of pending) emit(line);
      return "partial";
    };
    const push = (line: string) => {
      const index = total++;
      if (index < first) {
        keeper.observe(line);
        emit(line);
        return;
      }
      pending.push(line);
      if (!cutting && total > limit) cutting = true;
      // The oldest pending line leaves the tail window: it is in the cut.
      while (cutting && pending.length > tail) leave(pending.shift()!);
    };
    return { push, flush, read: () => total };
  };
  return {
    type: "truncate",
    createStage(ctx: StageContext): Stage {
      const shared = ctx.shared;
      const lastOwns = shared?.lastOwns;
      const starts = (line: string) =>
        lastOwns !== undefined && line.trim() !== "" && lastOwns(line);
      // For the last command, the lines before its first are the earlier commands': cut to their
      // head and tail alone (their end is where a failure shows); its own lines then get what is
      // left of the head and max_lines, as in one cut of both, and the tail.
      const split = shared?.before === true && lastOwns !== undefined;
      let run = cutter(ctx.emit, split ? head + tail : max);
      // Once the last command's first line came: for an earlier command, its own run's verdict
      // (the rest passes as printed); for the last command, the earlier commands' run's.
      let done: Confidence | null = null;
      return {
        push(line) {
          if (done !== null && shared?.after) return ctx.emit(line);
          if (done === null && starts(line)) {
            done = run.flush();
            if (shared?.after) return ctx.emit(line);
            const earlier = run.read();
            run = cutter(ctx.emit, Math.max(0, max - earlier), Math.max(0, head - earlier));
          }
          run.push(line);
        },
        finish() {
          if (done !== null && shared?.after) return done;
          const confidence = run.flush();
          // Two runs, the earlier commands' and the last one's: a cut in either is Partial.
          return done === "partial" ? done : confidence;
        },
      };
    },
  };
}
