/**
 * The provider-neutral chat types every adapter maps to and from. Tool results travel in a
 * user-role message as `tool_result` parts paired with their call ids (Anthropic's shape);
 * adapters for other wire formats translate.
 */
import type { ErrorCategory } from "../tools/errors.ts";
import type { ToolDefinitionForModel } from "../tools/registry.ts";

export type ContentPart =
  | { type: "text"; text: string }
  | { type: "tool_call"; id: string; name: string; input: unknown }
  | { type: "tool_result"; callId: string; text: string; isError: boolean };

export interface Message {
  role: "user" | "assistant";
  parts: ContentPart[];
}

export interface ChatRequest {
  system: string;
  messages: Message[];
  /** Empty for providers on the legacy text path. */
  tools: ToolDefinitionForModel[];
  signal: AbortSignal;
  /** Streamed text as it arrives. */
  onText?: (chunk: string) => void;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
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
  stopReason: string;
}

export interface Provider {
  readonly name: string;
  readonly model: string;
  /** False: the loop uses the legacy text path (catalog in the prompt, fenced blocks). */
  readonly supportsToolUse: boolean;
  chat(request: ChatRequest): Promise<ChatResponse>;
}

/** A provider failure, classified with the tool taxonomy so retry logic is shared. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly category: ErrorCategory,
    readonly options: { status?: number; hint?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
  }
}
