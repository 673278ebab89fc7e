/**
 * Ollama's `/api/chat` with streaming (`ollama` package, imported on first use), the default
 * provider of a local-first agent. Native tool calling when `[llm.ollama] tool_use = true`;
 * otherwise `supportsToolUse` is false and the loop takes the legacy text path (catalog in the
 * system prompt, fenced blocks in the answer), so no tools are sent.
 */
import type {
  ChatResponse as OllamaChunk,
  Message as OllamaMessage,
  Ollama,
  Tool as OllamaTool,
} from "ollama";
import type { Config } from "../config/mod.ts";
import {
  type Endpoint,
  inputObject,
  type ProviderOptions,
  streamAttempt,
  type StreamFolder,
} from "./_shared.ts";
import { withRetry } from "./retry.ts";
import type { ChatRequest, ChatResponse, Message, Provider, ToolCallRequest } from "./types.ts";

export type OllamaProviderOptions = ProviderOptions;

interface OllamaChatBody {
  model: string;
  messages: OllamaMessage[];
  stream: true;
  tools?: OllamaTool[];
  options?: { num_ctx: number };
}

export class OllamaProvider implements Provider {
  readonly name = "ollama";
  readonly model: string;
  readonly supportsToolUse: boolean;
  readonly #config: Config;
  readonly #options: OllamaProviderOptions;
  readonly #endpoint: Endpoint;

  constructor(config: Config, options: OllamaProviderOptions = {}) {
    this.#config = config;
    this.#options = options;
    this.model = config.llm.ollama.model;
    this.supportsToolUse = config.llm.ollama.tool_use;
    this.#endpoint = {
      provider: "Ollama",
      url: config.llm.ollama.base_url,
      model: this.model,
      unreachableHint: "Start Ollama (`ollama serve`), set [llm.ollama] base_url to where it " +
        'runs, or set [llm] provider = "claude" or "openai" in config.toml.',
      notFoundHint: `Run \`ollama pull ${this.model}\`, or set [llm.ollama] model in config.toml.`,
    };
  }

  chat(request: ChatRequest): Promise<ChatResponse> {
    return withRetry(() => this.#attempt(request), this.#config.tools.retry, {
      signal: request.signal,
      onRetry: request.onRetry ?? this.#options.onRetry,
    });
  }

  /** The request body, exported for inspection by tests. */
  buildBody(request: ChatRequest): OllamaChatBody {
    const messages: OllamaMessage[] = [];
    if (request.system !== "") messages.push({ role: "system", content: request.system });
    messages.push(...toOllamaMessages(request.messages));
    const body: OllamaChatBody = { model: this.model, messages, stream: true };
    // Ollama's default window is small and it truncates the prompt silently past it.
    const numCtx = this.#config.llm.ollama.num_ctx;
    if (numCtx > 0) body.options = { num_ctx: numCtx };
    if (this.supportsToolUse && request.tools.length > 0) {
      body.tools = request.tools.map((t) => ({
        type: "function",
        function: {
          name: t.name,
          description: t.description,
          parameters: toolSchema(t.inputSchema) as OllamaTool["function"]["parameters"],
        },
      }));
    }
    return body;
  }

  /** A client per attempt: the package takes no signal, so it goes in through `fetch`. */
  async #client(signal: AbortSignal): Promise<Ollama> {
    const { Ollama } = await import("ollama");
    const baseFetch = this.#options.fetch ?? globalThis.fetch;
    return new Ollama({
      host: this.#endpoint.url,
      fetch: (input, init) =>
        baseFetch(input, {
          ...init,
          signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
        }),
    });
  }

  async #attempt(request: ChatRequest): Promise<ChatResponse> {
    return await streamAttempt(
      request,
      this.#config.llm.timeout * 1000,
      this.#endpoint,
      async (signal) => {
        const stream = await (await this.#client(signal)).chat(this.buildBody(request));
        signal.addEventListener("abort", () => stream.abort(), { once: true });
        return stream;
      },
      new OllamaFolder(),
      (error) => ollamaHint(error, this.model),
    );
  }
}

/** Folds Ollama's chat chunks: text, tool calls (given ids of ours), and the final `done`. */
class OllamaFolder implements StreamFolder<OllamaChunk> {
  #text = "";
  #toolCalls: ToolCallRequest[] = [];
  #done: { reason: string; input: number; output: number } | undefined;

  add(chunk: OllamaChunk): string {
    const content = chunk.message?.content ?? "";
    this.#text += content;
    for (const call of chunk.message?.tool_calls ?? []) {
      this.#toolCalls.push({
        // Ollama sends no call ids (or sequential ones, "0", "1", which would collide across
        // turns and fake dependencies between calls): ours are unique.
        id: `call_${crypto.randomUUID()}`,
        name: call.function.name,
        input: inputObject(call.function.arguments),
      });
    }
    if (chunk.done) {
      this.#done = {
        reason: chunk.done_reason ?? "stop",
        input: chunk.prompt_eval_count ?? 0,
        output: chunk.eval_count ?? 0,
      };
    }
    return content;
  }

  finish(): ChatResponse {
    const done = this.#done;
    if (!done) throw new SyntaxError("the stream ended before the final `done` message");
    const toolCalls = this.#toolCalls;
    return {
      text: this.#text,
      toolCalls,
      usage: { inputTokens: done.input, outputTokens: done.output },
      stopReason: toolCalls.length > 0
        ? "tool_use"
        : done.reason === "length"
        ? "max_tokens"
        : done.reason === "stop"
        ? "end_turn"
        : done.reason,
    };
  }
}

/** Ollama's "model does not support tools" deserves the one setting that fixes it. */
function ollamaHint(error: unknown, model: string): unknown {
  const e = error as { status_code?: unknown; error?: unknown };
  if (e?.status_code === 400 && typeof e.error === "string" && /support tools/i.test(e.error)) {
    return Object.assign(
      new Error(`Ollama model "${model}" does not support tool calling: ${e.error}`),
      {
        status_code: 400,
        error:
          `${e.error} — use a model with tool support (e.g. qwen3:8b, llama3.1) or set [llm.ollama] tool_use = false`,
      },
    );
  }
  return error;
}

/**
 * Our messages as Ollama chat messages: tool results become `role: "tool"` messages carrying the
 * called tool's name (`tool_name`; Ollama has no call ids, so the name and the order pair them).
 */
export function toOllamaMessages(messages: Message[]): OllamaMessage[] {
  const names = new Map<string, string>();
  const out: OllamaMessage[] = [];
  for (const m of messages) {
    const text = m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    if (m.role === "assistant") {
      const calls = m.parts.flatMap((p) => {
        if (p.type !== "tool_call") return [];
        names.set(p.id, p.name);
        return [{ function: { name: p.name, arguments: inputObject(p.input) } }];
      });
      out.push({
        role: "assistant",
        content: text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
      continue;
    }
    for (const p of m.parts) {
      if (p.type === "tool_result") {
        const name = names.get(p.callId);
        out.push({ role: "tool", content: p.text, ...(name ? { tool_name: name } : {}) });
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
