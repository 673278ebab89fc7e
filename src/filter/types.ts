/** Types shared by the engine and the strategies. */

/** How sure a stage is that it handled the output correctly (spec: Full, Partial, Fallback). */
export type Confidence = "full" | "partial" | "fallback";

const RANK: Record<Confidence, number> = { full: 0, partial: 1, fallback: 2 };

/** The worse of two confidences (Fallback > Partial > Full). */
export function worstConfidence(a: Confidence, b: Confidence): Confidence {
  return RANK[a] >= RANK[b] ? a : b;
}

/** What the filter reports about one output; the CLI prints `[shell] 342 lines -> 28 lines, …`. */
export interface FilterStats {
  rawLines: number;
  filteredLines: number;
  rawChars: number;
  filteredChars: number;
  /**
   * Characters of the output's text the filter removed or replaced beyond sanitising (escapes,
   * carriage-return redraws, runs of blank lines, `[stderr] ` prefixes): folded, cut and dropped
   * lines, net of the markers put in their place. 0 when only sanitising changed the output, so
   * a caller can tell an elision worth a recovery path from a tidy-up.
   */
  removedChars: number;
  /**
   * The output shows that lines were left out: a line the input does not hold says so (`… 12
   * lines folded …`, `… (+91 more)`, `... (3 lines omitted) ...`), even where the marker is as
   * long as what it replaced.
   */
  elided: boolean;
  confidence: Confidence;
  rules: string[];
  /** The one-line summary for humans (empty when nothing was removed). */
  inline: string;
  /** A stage threw (`TypeError: …`), so the output is shown as it came. Absent when none did. */
  failure?: string;
}

export interface StageContext {
  /** Hands one output line to the next stage (or the collector). */
  emit(line: string): void;
  /**
   * Hands a whole array of output lines on at once, the same as `emit` of each in order; the
   * array is the receiver's from then on (it may keep or clear it), so a stage that emits what
   * it held in `finish` lets the next hold it without a copy. Absent where the receiver takes
   * lines one at a time: use `emitLines`.
   */
  emitAll?(lines: string[]): void;
  /**
   * The run failed: the command exited non-zero, or its output holds a line a matched rule knows
   * as a failure record (`CompiledRule.recordsFailure`). A stage must never hide the failure.
   */
  failed: boolean;
  /**
   * The command is compound and other commands' output may come with this rule's: `after`, a
   * later command's follows it (`go test ./...; go tool cover -func=c.out`); `before`, an earlier
   * command's precedes it (`cargo clippy && cargo test`). A stage that keeps only the lines it
   * knows passes theirs on as printed, for their own rules. `lastOwns`: the lines the last
   * command's rules know as theirs (`CompiledStrategy.owns`); the first one starts its output, so
   * a stage that cannot tell its lines by their look (a cut) ends its part there (`after`) or
   * starts it there (`before`).
   */
  shared?: { before: boolean; after: boolean; lastOwns?: (line: string) => boolean };
}

/**
 * One run of a strategy over one output. Lines arrive one at a time (sanitised, no newline);
 * a streaming stage emits as it goes, a summarising one emits in `finish`. A stage that
 * reports Fallback has emitted its input unchanged.
 */
export interface Stage {
  push(line: string): void;
  /** Optional: takes a whole array of lines, as `push` of each would (see `emitAll`). */
  pushAll?(lines: string[]): void;
  finish(): Confidence;
}

/**
 * Emits `lines` in order: handed on whole when the receiver takes arrays (the caller must not use
 * the array afterwards), else line by line.
 */
export function emitLines(ctx: StageContext, lines: string[]): void {
  if (ctx.emitAll) ctx.emitAll(lines);
  else for (const line of lines) ctx.emit(line);
}

/** A strategy after validation: creating a stage never fails. */
export interface CompiledStrategy {
  readonly type: string;
  createStage(ctx: StageContext): Stage;
  /**
   * The lines this strategy recognises as its tool's (a row of its listing, a line its patterns
   * keep or drop). Declared by a strategy that drops, folds or cuts lines it does not know: in a
   * compound command's output (`StageContext.shared`) `sharedStage` then gives its stage only
   * its own part and passes the other commands' lines through as printed, in their places. A
   * strategy that reads `shared` itself, or leaves every line it does not know alone, has none.
   */
  readonly owns?: (line: string) => boolean;
  /**
   * The lines that record a failure of its tool (a failed test's line, `FAIL\tpkg`): output
   * holding one is read as a failed run's whatever the exit code (`| tee`, `|| true`, a go
   * version that exits 0 after a failed benchmark), so no stage folds its failure away as a
   * passing run's. Declared by a strategy that reads such records; a wrapper passes it on.
   */
  readonly recordsFailure?: (line: string) => boolean;
}

/** A rule field that failed validation; the loader turns it into a warning naming the rule. */
export class RuleFieldError extends Error {
  constructor(readonly field: string, readonly reason: string) {
    super(`${field}: ${reason}`);
    this.name = "RuleFieldError";
  }
}
