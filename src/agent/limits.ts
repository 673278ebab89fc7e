/**
 * The loop's safety limits, each a small stateful object the loop consults: the iteration
 * budget, the doom-loop detector, the context-budget estimate and the per-session tool call
 * quota (the repetition rule, which asks the user, is in repetition.ts). None of them runs a
 * tool or talks to a provider.
 */
import type { Message, ToolDefinitionForModel } from "../provider/mod.ts";

/**
 * Token estimate: characters / 4, rounded up. It is the same cheap rule Zeph uses when its BPE
 * counter is unavailable and is within ~20% for English prose and code. Structural overheads
 * follow Zeph's counter: +20 per tool call, +15 per tool result, +4 per message, and the tool
 * schemas are counted as their JSON text.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessageTokens(message: Message): number {
  let n = 4;
  for (const p of message.parts) {
    if (p.type === "text") n += estimateTokens(p.text);
    else if (p.type === "tool_call") {
      n += 20 + estimateTokens(p.id + p.name + JSON.stringify(p.input ?? {}));
    } else n += 15 + estimateTokens(p.callId + p.text);
  }
  return n;
}

/** The estimate of a whole request: system prompt, tool schemas and every message. */
export function estimateRequestTokens(
  request: { system: string; messages: Message[]; tools: ToolDefinitionForModel[] },
): number {
  let n = estimateTokens(request.system);
  for (const t of request.tools) {
    n += estimateTokens(t.name + t.description + JSON.stringify(t.inputSchema));
  }
  for (const m of request.messages) n += estimateMessageTokens(m);
  return n;
}

/**
 * Context budget: the loop stops before a model call whose request would reach
 * `ratio × budget` tokens. When the provider reported usage for the previous call, that
 * measured count (input + output) plus the estimate of the messages added since is used
 * instead of the estimate of the whole transcript, whichever is larger.
 */
export class ContextBudget {
  #measured: { tokens: number; messageCount: number } | null = null;

  constructor(readonly budgetTokens: number, readonly ratio: number) {}

  get limit(): number {
    return Math.floor(this.budgetTokens * this.ratio);
  }

  /** Records the provider's usage for a request of `messageCount` messages plus its answer. */
  recordUsage(tokens: number, messageCount: number): void {
    this.#measured = { tokens, messageCount: messageCount + 1 };
  }

  reset(): void {
    this.#measured = null;
  }

  estimate(
    request: { system: string; messages: Message[]; tools: ToolDefinitionForModel[] },
  ): number {
    const estimated = estimateRequestTokens(request);
    const m = this.#measured;
    if (!m || m.messageCount > request.messages.length) return estimated;
    let measured = m.tokens;
    for (const msg of request.messages.slice(m.messageCount)) {
      measured += estimateMessageTokens(msg);
    }
    return Math.max(estimated, measured);
  }

  exceeded(tokens: number): boolean {
    return tokens >= this.limit;
  }
}

/**
 * Doom loop: `threshold` consecutive iterations whose tool results are identical. The
 * signature covers each result's tool name and text but not the call ids, so the same output
 * under fresh ids still counts as a repeat (Zeph's normalisation).
 */
export class DoomLoopDetector {
  #history: string[] = [];
  constructor(readonly threshold: number) {}

  /** Records one iteration's results; true when the last `threshold` are identical. */
  record(results: { tool: string; text: string }[]): boolean {
    const signature = JSON.stringify(results.map((r) => [r.tool, r.text]));
    this.#history.push(signature);
    if (this.#history.length > this.threshold) this.#history.shift();
    return this.#history.length >= this.threshold &&
      this.#history.every((s) => s === signature);
  }

  reset(): void {
    this.#history = [];
  }
}

/** Stable JSON: object keys sorted at every level, so `{a,b}` and `{b,a}` are the same call. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    }
    return v;
  }) ?? "null";
}

/**
 * `[tools] max_tool_calls_per_session` (0 = unlimited), counted per batch as the spec says:
 * a batch is refused when the count already reached the limit, otherwise the whole batch is
 * admitted and counted (so the last admitted batch may overshoot). Retries are not counted.
 * Reset by `/clear`.
 */
export class ToolQuota {
  #used = 0;
  constructor(readonly max: number) {}

  get used(): number {
    return this.#used;
  }

  /** True when the batch of `size` calls may run (and counts it). */
  admit(size: number): boolean {
    if (this.max > 0 && this.#used >= this.max) return false;
    this.#used += size;
    return true;
  }

  reset(): void {
    this.#used = 0;
  }
}
