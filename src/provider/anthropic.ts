/**
 * Claude through the Messages API with streaming (@anthropic-ai/sdk, imported on first use).
 * Prompt caching marks the system block, the last tool definition and the last user block
 * `ephemeral`, so the stable prefix (system + tools) and the conversation so far are cached across
 * the turns of a session.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Config } from "../config/mod.ts";
import {
  type Endpoint,
  inputObject,
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

export const ANTHROPIC_KEY_ENV = "ANTHROPIC_API_KEY";
const DEFAULT_URL = "https://api.anthropic.com";

export type AnthropicProviderOptions = KeyedProviderOptions;

export class AnthropicProvider implements Provider {
  readonly name = "claude";
  readonly model: string;
  readonly supportsToolUse = true;
  readonly #config: Config;
  readonly #options: AnthropicProviderOptions;
  readonly #endpoint: Endpoint;
  #client: Anthropic | undefined;

  constructor(config: Config, options: AnthropicProviderOptions) {
    this.#config = config;
    this.#options = options;
    this.model = config.llm.claude.model;
    const url = config.llm.claude.base_url || DEFAULT_URL;
    this.#endpoint = {
      provider: "Claude",
      url,
      model: this.model,
      keyEnv: ANTHROPIC_KEY_ENV,
      unreachableHint: config.llm.claude.base_url
        ? "Check [llm.claude] base_url in config.toml, or remove it to use https://api.anthropic.com."
        : 'Check your network connection, or set [llm] provider = "ollama" for a local model.',
      notFoundHint: 'Check [llm.claude] model in config.toml (e.g. "claude-sonnet-4-6").',
    };
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    return withRetry(() => this.#attempt(request), this.#config.tools.retry, {
      signal: request.signal,
      onRetry: request.onRetry ?? this.#options.onRetry,
    });
  }

  /** The request body, exported for inspection by tests and `--debug` tooling. */
  buildBody(request: ChatRequest): Anthropic.MessageCreateParamsStreaming {
    const cfg = this.#config.llm.claude;
    const cache = cfg.prompt_cache ? { cache_control: { type: "ephemeral" as const } } : {};
    const body: Anthropic.MessageCreateParamsStreaming = {
      model: this.model,
      max_tokens: cfg.max_tokens,
      messages: toAnthropicMessages(request.messages),
      stream: true,
    };
    if (request.system !== "") {
      body.system = [{ type: "text", text: request.system, ...cache }];
    }
    if (cfg.prompt_cache) markConversationCache(body.messages);
    if (request.tools.length > 0) {
      body.tools = request.tools.map((t, i): Anthropic.Tool => ({
        name: t.name,
        description: t.description,
        input_schema: toolSchema(t.inputSchema),
        ...(i === request.tools.length - 1 ? cache : {}),
      }));
    }
    return body;
  }

  async #client_(): Promise<Anthropic> {
    if (this.#client) return this.#client;
    const { default: AnthropicSdk } = await import("@anthropic-ai/sdk");
    this.#client = new AnthropicSdk({
      apiKey: this.#options.apiKey,
      baseURL: this.#endpoint.url,
      maxRetries: 0,
      // Our own idle timeout (Attempt) governs; the SDK's would cut long streams off.
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
        (await this.#client_()).messages.create(this.buildBody(request), { signal }),
      new StreamAccumulator(),
    );
  }
}

/** Folds the Messages stream events into a ChatResponse; `add` returns text to show. */
class StreamAccumulator implements StreamFolder<Anthropic.RawMessageStreamEvent> {
  #blocks = new Map<
    number,
    { kind: "text"; text: string } | {
      kind: "tool";
      id: string;
      name: string;
      json: string;
      input: unknown;
    }
  >();
  #usage: Usage = { inputTokens: 0, outputTokens: 0 };
  #stopReason = "end_turn";
  #complete = false;

  add(event: Anthropic.RawMessageStreamEvent): string {
    switch (event.type) {
      case "message_start": {
        const u = event.message.usage;
        this.#usage = {
          inputTokens: u.input_tokens ?? 0,
          outputTokens: u.output_tokens ?? 0,
          cacheReadTokens: u.cache_read_input_tokens ?? 0,
          cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
        };
        return "";
      }
      case "content_block_start": {
        const block = event.content_block;
        if (block.type === "text") {
          this.#blocks.set(event.index, { kind: "text", text: block.text });
          return block.text;
        }
        if (block.type === "tool_use") {
          this.#blocks.set(event.index, {
            kind: "tool",
            id: block.id,
            name: block.name,
            json: "",
            input: block.input,
          });
        }
        return "";
      }
      case "content_block_delta": {
        const block = this.#blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === "text_delta" && block?.kind === "text") {
          block.text += delta.text;
          return delta.text;
        }
        if (delta.type === "input_json_delta" && block?.kind === "tool") {
          block.json += delta.partial_json;
        }
        return "";
      }
      case "message_delta": {
        if (event.delta.stop_reason) this.#stopReason = event.delta.stop_reason;
        const u = event.usage;
        if (typeof u.output_tokens === "number") this.#usage.outputTokens = u.output_tokens;
        if (typeof u.input_tokens === "number") this.#usage.inputTokens = u.input_tokens;
        if (typeof u.cache_read_input_tokens === "number") {
          this.#usage.cacheReadTokens = u.cache_read_input_tokens;
        }
        if (typeof u.cache_creation_input_tokens === "number") {
          this.#usage.cacheWriteTokens = u.cache_creation_input_tokens;
        }
        return "";
      }
      case "message_stop":
        this.#complete = true;
        return "";
      default:
        return "";
    }
  }

  finish(): ChatResponse {
    if (!this.#complete) {
      // The connection closed before message_stop: the answer is cut off.
      throw new SyntaxError("the stream ended before message_stop");
    }
    let text = "";
    const toolCalls: ToolCallRequest[] = [];
    for (const [, block] of [...this.#blocks].sort((a, b) => a[0] - b[0])) {
      if (block.kind === "text") text += block.text;
      else {
        const input = block.json === "" ? inputObject(block.input) : parseToolArguments(block.json);
        toolCalls.push({ id: block.id, name: block.name, input });
      }
    }
    const stopReason = toolCalls.length > 0 ? "tool_use" : this.#stopReason;
    // Anthropic counts cached prompt tokens apart from input_tokens; our inputTokens is the whole
    // prompt (as OpenAI reports it), which is what the context budget needs.
    const u = this.#usage;
    const usage: Usage = {
      ...u,
      inputTokens: u.inputTokens + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0),
    };
    return { text, toolCalls, usage, stopReason };
  }
}

/**
 * Our messages as Messages-API params. Tool results go first in their user message (the API
 * requires tool_result blocks before any text there); empty and whitespace-only text blocks are
 * dropped (the API rejects them), and so is a message left with no block; consecutive messages
 * of one role (a turn that failed before the model answered, or an emptied answer between
 * them) are sent as one; assistant text and tool_use blocks keep the model's order.
 */
export function toAnthropicMessages(messages: Message[]): Anthropic.MessageParam[] {
  const out: { role: "user" | "assistant"; content: Anthropic.ContentBlockParam[] }[] = [];
  for (const m of messages) {
    const blocks: Anthropic.ContentBlockParam[] = [];
    for (const part of m.parts) {
      if (part.type === "text") {
        if (part.text.trim() !== "") blocks.push({ type: "text", text: part.text });
      } else if (part.type === "tool_call") {
        blocks.push({
          type: "tool_use",
          id: part.id,
          name: part.name,
          input: inputObject(part.input),
        });
      } else {
        blocks.push({
          type: "tool_result",
          tool_use_id: part.callId,
          content: part.text,
          ...(part.isError ? { is_error: true } : {}),
        });
      }
    }
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === m.role) last.content.push(...blocks);
    else out.push({ role: m.role, content: blocks });
  }
  for (const m of out) {
    if (m.role !== "user") continue;
    const results = m.content.filter((b) => b.type === "tool_result");
    const rest = m.content.filter((b) => b.type !== "tool_result");
    m.content = [...results, ...rest];
  }
  return out;
}

/**
 * The third cache breakpoint: the last block of the last user message, so each turn reads the
 * conversation so far from the cache and writes only what is new (Anthropic's incremental
 * caching for multi-turn conversations; 3 of the 4 allowed breakpoints are used).
 */
function markConversationCache(messages: Anthropic.MessageParam[]): void {
  const last = messages.findLast((m) => m.role === "user");
  if (!last || !Array.isArray(last.content) || last.content.length === 0) return;
  const block = last.content[last.content.length - 1];
  if (block.type === "text" || block.type === "tool_result") {
    last.content[last.content.length - 1] = { ...block, cache_control: { type: "ephemeral" } };
  }
}

/** JSON Schema for the API: `$schema` and `title` removed, `type: "object"` guaranteed. */
function toolSchema(schema: Record<string, unknown>): Anthropic.Tool.InputSchema {
  const { $schema: _s, title: _t, ...rest } = schema;
  return { ...rest, type: "object" } as Anthropic.Tool.InputSchema;
}
