/**
 * OpenAI chat completions with function tools and streaming (`openai` SDK, imported on first
 * use); any OpenAI-compatible server works through `[llm.openai] base_url`. OpenAI caches long
 * prompt prefixes automatically, so no markers are sent.
 */
import type OpenAI from "openai";
import type { Config } from "../config/mod.ts";
import {
  argumentsJson,
  type Endpoint,
  type KeyedProviderOptions,
  parseToolArguments,
  streamAttempt,
  type StreamFolder,
} from "./_shared.ts";
import { withRetry } from "./retry.ts";
import type {
  ChatRequest,
  ChatResponse,
  Message,
  Provider,
  ToolCallRequest,
  Usage,
} from "./types.ts";

export const OPENAI_KEY_ENV = "OPENAI_API_KEY";
const DEFAULT_URL = "https://api.openai.com/v1";

type ChatParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

export type OpenAiProviderOptions = KeyedProviderOptions;

export class OpenAiProvider implements Provider {
  readonly name = "openai";
  readonly model: string;
  readonly supportsToolUse = true;
  readonly #config: Config;
  readonly #options: OpenAiProviderOptions;
  readonly #endpoint: Endpoint;
  #client: OpenAI | undefined;

  constructor(config: Config, options: OpenAiProviderOptions) {
    this.#config = config;
    this.#options = options;
    this.model = config.llm.openai.model;
    const url = config.llm.openai.base_url || DEFAULT_URL;
    this.#endpoint = {
      provider: "OpenAI",
      url,
      model: this.model,
      keyEnv: OPENAI_KEY_ENV,
      unreachableHint: config.llm.openai.base_url
        ? "Check that the server at [llm.openai] base_url is running, or fix the URL in config.toml."
        : 'Check your network connection, or set [llm] provider = "ollama" for a local model.',
      notFoundHint:
        "Check [llm.openai] model, and that base_url ends with the API root (e.g. …/v1).",
    };
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    return withRetry(() => this.#attempt(request), this.#config.tools.retry, {
      signal: request.signal,
      onRetry: request.onRetry ?? this.#options.onRetry,
    });
  }

  /** The request body, exported for inspection by tests. */
  buildBody(request: ChatRequest): ChatParams {
    const cfg = this.#config.llm.openai;
    const messages: ChatMessage[] = [];
    if (request.system !== "") messages.push({ role: "system", content: request.system });
    messages.push(...toOpenAiMessages(request.messages));
    const body: ChatParams = {
      model: this.model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    };
    // OpenAI itself deprecated max_tokens (reasoning models reject it); compatible servers
    // (vLLM, llama.cpp, LM Studio, OpenRouter…) still widely expect it.
    if (cfg.base_url === "") body.max_completion_tokens = cfg.max_tokens;
    else body.max_tokens = cfg.max_tokens;
    if (request.tools.length > 0) {
      body.tools = request.tools.map((t) => ({
        type: "function" as const,
        function: {
          name: t.name,
          description: t.description,
          parameters: toolSchema(t.inputSchema),
        },
      }));
    }
    return body;
  }

  async #client_(): Promise<OpenAI> {
    if (this.#client) return this.#client;
    const { default: OpenAiSdk } = await import("openai");
    this.#client = new OpenAiSdk({
      apiKey: this.#options.apiKey,
      baseURL: this.#endpoint.url,
      maxRetries: 0,
      timeout: 24 * 3600 * 1000,
      fetch: this.#options.fetch,
    });
    return this.#client;
  }

  async #attempt(request: ChatRequest): Promise<ChatResponse> {
    return await streamAttempt(
      request,
      this.#config.llm.timeout * 1000,
      this.#endpoint,
      async (signal) =>
        (await this.#client_()).chat.completions.create(this.buildBody(request), { signal }),
      new StreamAccumulator(),
    );
  }
}

/** Folds chat.completion.chunk objects; tool-call fragments are joined by their `index`. */
class StreamAccumulator implements StreamFolder<Chunk> {
  #text = "";
  #calls = new Map<number, { id: string; name: string; args: string }>();
  #usage: Usage | undefined;
  #finish: string | undefined;

  add(chunk: Chunk): string {
    if (chunk.usage) {
      this.#usage = {
        inputTokens: chunk.usage.prompt_tokens ?? 0,
        outputTokens: chunk.usage.completion_tokens ?? 0,
        cacheReadTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
      };
    }
    const choice = chunk.choices?.[0];
    if (!choice) return "";
    if (choice.finish_reason) this.#finish = choice.finish_reason;
    for (const tc of choice.delta?.tool_calls ?? []) {
      let call = this.#calls.get(tc.index);
      if (!call) {
        call = { id: "", name: "", args: "" };
        this.#calls.set(tc.index, call);
      }
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name += tc.function.name;
      if (tc.function?.arguments) call.args += tc.function.arguments;
    }
    const text = choice.delta?.content ?? "";
    this.#text += text;
    return text;
  }

  /**
   * Malformed argument JSON (models do produce it) becomes an input object carrying the parse
   * error (INVALID_TOOL_INPUT) rather than a failed request: the call reaches the dispatch
   * boundary, gets its one result as invalid_parameters, and the model can try again.
   */
  finish(): ChatResponse {
    if (this.#finish === undefined) {
      // The connection closed mid-answer: never pass a truncated answer off as complete.
      throw new SyntaxError("the stream ended before a finish_reason");
    }
    const toolCalls: ToolCallRequest[] = [...this.#calls].sort((a, b) => a[0] - b[0]).map((
      [index, c],
    ) => ({
      id: c.id || `call_${index}_${crypto.randomUUID().slice(0, 8)}`,
      name: c.name,
      input: parseToolArguments(c.args),
    }));
    return {
      text: this.#text,
      toolCalls,
      usage: this.#usage,
      stopReason: toolCalls.length > 0 ? "tool_use" : normaliseFinish(this.#finish),
    };
  }
}

function normaliseFinish(reason: string | undefined): string {
  switch (reason) {
    case undefined:
    case "stop":
      return "end_turn";
    case "length":
      return "max_tokens";
    case "tool_calls":
    case "function_call":
      return "tool_use";
    case "content_filter":
      return "refusal";
    default:
      return reason;
  }
}

/**
 * Our messages in chat-completions form: tool results become `role: "tool"` messages right
 * after the assistant message that called them (the API requires that placement), followed by
 * any user text of the same message.
 */
export function toOpenAiMessages(messages: Message[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const text = m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    if (m.role === "assistant") {
      const calls = m.parts.flatMap((p) =>
        p.type === "tool_call"
          ? [{
            id: p.id,
            type: "function" as const,
            function: { name: p.name, arguments: argumentsJson(p.input) },
          }]
          : []
      );
      out.push({
        role: "assistant",
        content: text === "" && calls.length > 0 ? null : text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
      continue;
    }
    for (const p of m.parts) {
      if (p.type === "tool_result") {
        out.push({ role: "tool", tool_call_id: p.callId, content: p.text });
      }
    }
    if (text !== "") out.push({ role: "user", content: text });
  }
  return out;
}

function toolSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, title: _t, ...rest } = schema;
  return rest;
}
