/** Types shared by the engine and the strategies. */

/** How sure a stage is that it handled the output correctly (spec: Full, Partial, Fallback). */
export type Confidence = "full" | "partial" | "fallback";

const RANK: Record<Confidence, number> = { full: 0, partial: 1, fallback: 2 };

/** The worse of two confidences (Fallback > Partial > Full). */
export function worstConfidence(a: Confidence, b: Confidence): Confidence {
  return RANK[a] >= RANK[b] ? a : b;
}

export interface StageContext {
  /**
   * Hands one output line to the next stage (or the collector), with its UTF-8 when the stage
   * received the line with it and hands it on unchanged (see `Stage.push`).
   */
  emit(line: string, utf8?: Uint8Array, from?: number, to?: number): void;
  /**
   * The next stage reads the lines' UTF-8: a stage that passes lines on unchanged may hand it
   * on.
   */
  nextUtf8?: boolean;
  /** The command exited non-zero: a stage must never hide the failure. */
  failed: boolean;
  /**
   * Walks the stage's whole input again (the same lines `push` received; for a later stage of a
   * chain the engine re-runs the stages before it). A stage that may pass its input through
   * unchanged can use it instead of holding every line. Optional for callers that build a
   * stage outside the engine.
   */
  replay?: (fn: (line: string) => void) => void;
}

/**
 * One run of a strategy over one output. Lines arrive one at a time (sanitised, no newline);
 * a streaming stage emits as it goes, a summarising one emits in `finish`. A stage that
 * reports Fallback has emitted its input unchanged.
 */
export interface Stage {
  /**
   * One line. A stage may also get the line's UTF-8, `utf8[from..to)` with a newline at
   * `utf8[to]`, when it asked for it (`utf8`) and the line is exactly those bytes: output with
   * no escapes to sanitise and no lone surrogate, a line that is not a whitespace line passed
   * on as "" nor one of over 4 Mi characters, reaching a later stage unchanged through stages
   * that hand the bytes on. Any line may come without. The buffer is reused for the next
   * lines: keep nothing of it. Called unbound: the engine hands it on as the previous stage's
   * `emit`, so it must not use `this`.
   */
  readonly push: (this: void, line: string, utf8?: Uint8Array, from?: number, to?: number) => void;
  finish(): Confidence;
  /**
   * The stage reads the lines' UTF-8 when it is there (see `push`), or hands it on to a next
   * stage that does (`StageContext.nextUtf8`).
   */
  readonly utf8?: boolean;
}

/** A strategy after validation: creating a stage never fails. */
export interface CompiledStrategy {
  readonly type: string;
  createStage(ctx: StageContext): Stage;
}

/** A rule field that failed validation; the loader turns it into a warning naming the rule. */
export class RuleFieldError extends Error {
  constructor(readonly field: string, readonly reason: string) {
    super(`${field}: ${reason}`);
    this.name = "RuleFieldError";
  }
}
