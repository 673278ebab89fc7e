/**
 * Machine-readable output of the chat (`--output-format json|stream-json`, `--json`): the
 * agent's event stream as JSONL with message boundaries added, and one `result` object per turn
 * (final text, conversation id, stop reason, summed token usage, `is_error`). `json` prints only
 * the result objects. Every event type is listed in README "## Output for scripts".
 */
import type { AgentEvent, StopReason } from "../agent/mod.ts";
import type { Usage } from "../provider/mod.ts";
import { exitCodeOf } from "./exit_codes.ts";
import type { Writer } from "./render.ts";

export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = typeof OUTPUT_FORMATS[number];

/** The last object of a turn. */
export interface TurnResult {
  type: "result";
  is_error: boolean;
  stop_reason: StopReason;
  /** The turn's exit code (see exit_codes.ts). */
  exit_code: number;
  /** The text of the last assistant message. */
  result: string;
  conversation_id: string | null;
  usage: { input_tokens: number; output_tokens: number; cache_read_tokens: number };
  duration_ms: number;
  /** The message of the notice that ended a failed or cut-short turn. */
  error?: string;
}

/** Writes one turn's events (stream-json) and its result object. */
export class JsonTurnWriter {
  #out: Writer;
  #stream: boolean;
  #now: () => number;
  #started = 0;
  #message: string | null = null;
  #lastMessage = "";
  #usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0 };
  #lastNotice: string | undefined;

  constructor(out: Writer, format: "json" | "stream-json", now: () => number = Date.now) {
    this.#out = out;
    this.#stream = format === "stream-json";
    this.#now = now;
  }

  /** Starts a turn: counters reset. */
  begin(): void {
    this.#started = this.#now();
    this.#message = null;
    this.#lastMessage = "";
    this.#usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0 };
    this.#lastNotice = undefined;
  }

  event(event: AgentEvent): void {
    if (event.type === "text") {
      if (this.#message === null) {
        this.#message = "";
        this.#emit({ type: "message_start", role: "assistant" });
      }
      this.#message += event.text;
    } else {
      this.#endMessage();
    }
    if (event.type === "usage") this.#addUsage(event.usage);
    if (event.type === "notice" && (event.level === "warn" || event.level === "error")) {
      this.#lastNotice = event.message;
    }
    this.#emit(event);
  }

  /** Ends the turn with its result object; returns it. */
  end(stop: StopReason, conversationId: string | null): TurnResult {
    this.#endMessage();
    const exitCode = exitCodeOf(stop);
    const result: TurnResult = {
      type: "result",
      is_error: exitCode !== 0,
      stop_reason: stop,
      exit_code: exitCode,
      result: this.#lastMessage,
      conversation_id: conversationId,
      usage: { ...this.#usage },
      duration_ms: this.#now() - this.#started,
      ...(exitCode !== 0 && this.#lastNotice ? { error: this.#lastNotice } : {}),
    };
    this.#out.write(JSON.stringify(result) + "\n");
    return result;
  }

  #addUsage(usage: Usage): void {
    this.#usage.input_tokens += usage.inputTokens;
    this.#usage.output_tokens += usage.outputTokens;
    this.#usage.cache_read_tokens += usage.cacheReadTokens ?? 0;
  }

  #endMessage(): void {
    if (this.#message === null) return;
    this.#lastMessage = this.#message;
    this.#emit({ type: "message_end", role: "assistant", text: this.#message });
    this.#message = null;
  }

  #emit(value: unknown): void {
    if (this.#stream) this.#out.write(JSON.stringify(value) + "\n");
  }
}
