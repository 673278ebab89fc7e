/**
 * The provider-neutral chat types every adapter maps to and from. Tool results travel in a
 * user-role message as `tool_result` parts paired with their call ids (Anthropic's shape);
 * adapters for other wire formats translate.
 */
import { type ErrorCategory, isRetryable } from "../errors/mod.ts";
import { maskUrlPasswords } from "../secrets/mod.ts";

export type ContentPart =
  | { type: "text"; text: string }
  | { type: "tool_call"; id: string; name: string; input: unknown }
  | { type: "tool_result"; callId: string; text: string; isError: boolean };

export interface Message {
  role: "user" | "assistant";
  parts: ContentPart[];
}

/** A tool as the model sees it: its name, what it does and its parameters' JSON Schema. */
export interface ToolDefinitionForModel {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  system: string;
  messages: Message[];
  /** Empty for providers on the legacy text path. */
  tools: ToolDefinitionForModel[];
  signal: AbortSignal;
  /** Streamed text as it arrives. */
  onText?: (chunk: string) => void;
  /** Called before each retry of a failed request, so a front-end can show "Retrying…". */
  onRetry?: (notice: RetryNotice) => void;
}

/** One scheduled retry: `attempt` is 1 for the first retry. */
export interface RetryNotice {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  error: ProviderError;
}

export interface Usage {
  /** Every prompt token of the request, cached ones included (the context size in use). */
  inputTokens: number;
  outputTokens: number;
  /** The part of inputTokens read from the provider's prompt cache. */
  cacheReadTokens?: number;
  /** The part of inputTokens written to the provider's prompt cache. */
  cacheWriteTokens?: number;
}

export interface ToolCallRequest {
  id: string;
  name: string;
  input: unknown;
}

export interface ChatResponse {
  text: string;
  toolCalls: ToolCallRequest[];
  usage?: Usage;
  /**
   * Normalised across providers: "end_turn", "tool_use", "max_tokens", "stop_sequence",
   * "refusal"; anything else is passed through as the provider sent it.
   */
  stopReason: string;
}

/**
 * The key of the input object an adapter produces when the model sent tool-call arguments that
 * are not valid JSON: `{ [INVALID_TOOL_INPUT]: { raw, error } }`. The call still reaches the
 * dispatch boundary (so it gets exactly one result) and is reported as invalid_parameters.
 */
export const INVALID_TOOL_INPUT = "__zeph_invalid_json";

export interface InvalidToolInput {
  raw: string;
  error: string;
}

/** The parse failure carried by a tool call's input, if the model's arguments were not JSON. */
export function invalidToolInput(input: unknown): InvalidToolInput | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const v = (input as Record<string, unknown>)[INVALID_TOOL_INPUT];
  if (typeof v !== "object" || v === null) return undefined;
  const { raw, error } = v as Record<string, unknown>;
  return typeof raw === "string" && typeof error === "string" ? { raw, error } : undefined;
}

export interface Provider {
  readonly name: string;
  readonly model: string;
  /** False: the loop uses the legacy text path (catalog in the prompt, fenced blocks). */
  readonly supportsToolUse: boolean;
  chat(request: ChatRequest): Promise<ChatResponse>;
}

/**
 * How messages name a provider: "claude (claude-sonnet-4-5)", or just "script" when the model
 * only repeats the provider's name, as the scripted provider's does.
 */
export function providerLabel(provider: Pick<Provider, "name" | "model">): string {
  const model = provider.model.trim();
  return model && model !== provider.name ? `${provider.name} (${model})` : provider.name;
}

/** A provider failure, classified with the tool taxonomy so retry logic is shared. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly category: ErrorCategory,
    readonly options: {
      status?: number;
      hint?: string;
      cause?: unknown;
      /** Overrides the category's retryability (e.g. false once text has streamed). */
      retryable?: boolean;
      /** The server's retry-after, in milliseconds. */
      retryAfterMs?: number;
    } = {},
  ) {
    // Base URLs may carry a password (https://me:pw@host); every provider message names the URL.
    super(maskUrlPasswords(message), { cause: options.cause });
    this.name = "ProviderError";
  }

  /** Whether withRetry may try again: the category's rule unless overridden. */
  get retryable(): boolean {
    return this.options.retryable ?? isRetryable(this.category);
  }

  get hint(): string | undefined {
    return this.options.hint === undefined ? undefined : maskUrlPasswords(this.options.hint);
  }
}
