/**
 * Roo's repetition rule: consecutive identical calls (same tool, same arguments; key order and
 * JSON whitespace do not matter) run up to `[agent] repeat_threshold` times; the next one asks
 * the user whether to go on. Only a refusal, or no one to ask, turns the call into an error
 * result for the model. Re-running a test or polling a build is legitimate; a model stuck on
 * one call is stopped by the person watching it, not by a fixed rule.
 */
import { ToolError } from "../errors/mod.ts";
import {
  type AnyTool,
  type AskReply,
  askReply,
  type CallScope,
  rejectionWords,
  validateParams,
} from "../tools/mod.ts";
import { stableJson } from "./limits.ts";

/** Counts the current run of identical calls within a turn. */
export class RepetitionDetector {
  #last: string | null = null;
  #count = 0;
  #unasked = new Set<string>();

  /** `limit` identical calls in a row run unasked; 0 turns the rule off. */
  constructor(readonly limit: number) {}

  static signature(name: string, input: unknown): string {
    return `${name.slice(0, 256)}\u0000${stableJson(input ?? {})}`;
  }

  /**
   * Records a call; returns how many identical calls in a row it makes when that is over the
   * limit (the user is asked), else 0.
   */
  record(name: string, input: unknown): number {
    const sig = RepetitionDetector.signature(name, input);
    if (sig === this.#last) this.#count++;
    else {
      this.#last = sig;
      this.#count = 1;
    }
    if (this.limit <= 0 || this.#unasked.has(sig)) return 0;
    return this.#count > this.limit ? this.#count : 0;
  }

  /** The user let the run go on: `limit` more identical calls run before the next question. */
  approveOnce(): void {
    this.#count = 0;
  }

  /** The user said not to ask again about this call: it repeats unasked for the rest of the turn. */
  approveAlways(name: string, input: unknown): void {
    this.#unasked.add(RepetitionDetector.signature(name, input));
  }
}

/**
 * Asks whether the `count`th identical call in a row may run. Resolves null when it may,
 * else the error the model gets instead of the call's result.
 */
export async function askToRepeat(
  call: { id: string; name: string; input: unknown },
  options: {
    tool: AnyTool;
    count: number;
    detector: RepetitionDetector;
    ask: CallScope["ask"];
  },
): Promise<ToolError | null> {
  const { tool, count, detector } = options;
  const limit = detector.limit;
  const what = `Cannot run ${call.name}: the same call (same tool, same arguments) ` +
    `${count} times in a row`;
  const hint = "Use the earlier result, different arguments or a different approach.";
  if (!options.ask) {
    return new ToolError(
      "policy_blocked",
      `${what}, over [agent] repeat_threshold = ${limit}, and no one is here to approve more`,
      { hint },
    );
  }
  const params = paramsOf(tool, call.input);
  const reply: AskReply = askReply(
    await options.ask({
      callId: call.id,
      tool,
      params,
      decision: {
        action: "ask",
        policyMatch: `agent.repeat_threshold = ${limit}`,
        subject: subjectOf(tool, params),
        reason: `the same call ${count} times in a row`,
      },
      repeat: { count, limit },
    }),
  );
  if (reply.answer === "allow_once") {
    detector.approveOnce();
    return null;
  }
  if (reply.answer === "allow_always") {
    detector.approveAlways(call.name, call.input);
    return null;
  }
  if (reply.answer === "cancelled") {
    return new ToolError("policy_blocked", `${what}; the question to go on was cancelled`, {
      hint,
    });
  }
  const words = rejectionWords(reply);
  return new ToolError("policy_blocked", `${what}; the user stopped it${words.said}`, {
    hint: reply.reason || reply.reasonFollows ? words.hint : hint,
  });
}

function paramsOf(tool: AnyTool, input: unknown): unknown {
  try {
    return validateParams(tool, input);
  } catch {
    return input;
  }
}

function subjectOf(tool: AnyTool, params: unknown): string | null {
  try {
    const subjects = tool.subjects(params);
    return subjects.length ? subjects.join(" → ") : null;
  } catch {
    return null;
  }
}
