import { expect } from "expect";
import { Config } from "../../src/config/schema.ts";
import { AnthropicProvider } from "../../src/provider/anthropic.ts";
import { createProvider } from "../../src/provider/mod.ts";
import { ProviderError, type RetryNotice } from "../../src/provider/types.ts";
import { SYSTEM } from "./_conversation.ts";
import { caught, closedPortUrl, JSON_HEADERS, request, SSE, withServer } from "./_server.ts";

const KEY = "sk-ant-test-0123456789";

function config(url: string, claude: Record<string, unknown> = {}) {
  return Config.parse({
    llm: { provider: "claude", claude: { base_url: url, ...claude } },
    tools: { retry: { max_attempts: 2, base_ms: 1, max_ms: 5, budget_secs: 30 } },
  });
}

Deno.test("claude: streams text deltas and reports usage with cache tokens", async () => {
  await withServer([{ fixture: "claude/text.sse", headers: SSE }], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const chunks: string[] = [];
    const response = await provider.chat(request({ onText: (t) => chunks.push(t) }));
    expect(chunks).toEqual(["Hello", ", world", "!"]);
    expect(response).toEqual({
      text: "Hello, world!",
      toolCalls: [],
      usage: { inputTokens: 3919, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 1824 },
      stopReason: "end_turn",
    });
    expect(server.requests.length).toBe(1);
    const req = server.requests[0];
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/messages");
    // SDK 1.x sends the key as a bearer token.
    expect(req.headers["authorization"]).toBe(`Bearer ${KEY}`);
    expect(typeof req.headers["anthropic-version"]).toBe("string");
  });
});

Deno.test("claude: request body: model, stream flag, cache markers (system, last tool, last user block), paired results", async () => {
  await withServer([{ fixture: "claude/text.sse", headers: SSE }], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    await provider.chat(request());
    expect(server.requests[0].body).toEqual({
      model: "claude-sonnet-4-6",
      max_tokens: 8192,
      stream: true,
      system: [{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral" } }],
      tools: [
        {
          name: "read",
          description: "Read a file.",
          input_schema: {
            type: "object",
            properties: { path: { type: "string", description: "File path" } },
            required: ["path"],
            additionalProperties: false,
          },
        },
        {
          name: "grep",
          description: "Search file contents.",
          input_schema: {
            type: "object",
            properties: { pattern: { type: "string" }, path: { type: "string" } },
            required: ["pattern"],
          },
          cache_control: { type: "ephemeral" },
        },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "What does a.ts do?" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me look." },
            { type: "tool_use", id: "call_1", name: "read", input: { path: "a.ts" } },
            { type: "tool_use", id: "call_2", name: "grep", input: { pattern: "TODO" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: "export const a = 1;" },
            {
              type: "tool_result",
              tool_use_id: "call_2",
              content: "[tool_error]\ncategory: permanent_failure",
              is_error: true,
              cache_control: { type: "ephemeral" },
            },
          ],
        },
      ],
    });
  });
});

Deno.test("claude: prompt_cache = false sends no cache markers; empty system and tools are omitted", async () => {
  await withServer([
    { fixture: "claude/text.sse", headers: SSE },
    { fixture: "claude/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new AnthropicProvider(config(server.url, { prompt_cache: false }), {
      apiKey: KEY,
    });
    await provider.chat(request());
    const body = server.requests[0].body;
    expect(body.system).toEqual([{ type: "text", text: SYSTEM }]);
    expect(JSON.stringify(body.messages)).not.toContain("cache_control");
    expect(body.tools.map((t: Record<string, unknown>) => "cache_control" in t)).toEqual([
      false,
      false,
    ]);
    await provider.chat(request({ system: "", tools: [] }));
    expect(Object.keys(server.requests[1].body).sort()).toEqual([
      "max_tokens",
      "messages",
      "model",
      "stream",
    ]);
  });
});

Deno.test("claude: tool results go before text in a user message", async () => {
  await withServer([{ fixture: "claude/text.sse", headers: SSE }], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    await provider.chat(request({
      messages: [{
        role: "user",
        parts: [
          { type: "text", text: "Also check b.ts" },
          { type: "tool_result", callId: "c9", text: "ok", isError: false },
        ],
      }],
    }));
    expect(server.requests[0].body.messages).toEqual([{
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "c9", content: "ok" },
        { type: "text", text: "Also check b.ts", cache_control: { type: "ephemeral" } },
      ],
    }]);
  });
});

Deno.test("claude: whitespace-only text is not sent back (the API rejects such blocks and empty messages)", () => {
  const provider = new AnthropicProvider(config("http://127.0.0.1:9", { prompt_cache: false }), {
    apiKey: KEY,
  });
  const body = provider.buildBody(request({
    messages: [
      { role: "user", parts: [{ type: "text", text: "look" }] },
      {
        role: "assistant",
        parts: [
          { type: "text", text: "\n\n" },
          { type: "tool_call", id: "w1", name: "read", input: { path: "a.ts" } },
        ],
      },
      { role: "user", parts: [{ type: "tool_result", callId: "w1", text: "x", isError: false }] },
      { role: "assistant", parts: [{ type: "text", text: " \n" }] },
      { role: "user", parts: [{ type: "text", text: "and?" }] },
    ],
  }));
  expect(body.messages).toEqual([
    { role: "user", content: [{ type: "text", text: "look" }] },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "w1", name: "read", input: { path: "a.ts" } }],
    },
    // The emptied assistant message goes; the two user messages around it become one turn.
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "w1", content: "x" },
        { type: "text", text: "and?" },
      ],
    },
  ]);
});

Deno.test("claude: a tool call whose JSON arrives split across chunks is reassembled", async () => {
  await withServer([{ fixture: "claude/tool_split.sse", headers: SSE }], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const chunks: string[] = [];
    const response = await provider.chat(request({ onText: (t) => chunks.push(t) }));
    expect(chunks).toEqual(["I'll read ", "the file."]);
    expect(response).toEqual({
      text: "I'll read the file.",
      toolCalls: [{
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        name: "read",
        input: { path: "src/main.ts", offset: 10 },
      }],
      usage: { inputTokens: 2296, outputTokens: 89, cacheReadTokens: 1824, cacheWriteTokens: 0 },
      stopReason: "tool_use",
    });
  });
});

Deno.test("claude: two tool calls in one response keep their order and ids", async () => {
  await withServer([{ fixture: "claude/two_tools.sse", headers: SSE }], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const response = await provider.chat(request());
    expect(response.toolCalls).toEqual([
      { id: "toolu_01A", name: "read", input: { path: "a.ts" } },
      { id: "toolu_01B", name: "grep", input: { pattern: "TODO", path: "src" } },
    ]);
    expect(response.text).toBe("");
  });
});

Deno.test("claude: 429 is retried with backoff, honouring retry-after within max_ms", async () => {
  await withServer([
    {
      status: 429,
      fixture: "claude/rate_limit.json",
      headers: { ...JSON_HEADERS, "retry-after": "1" },
    },
    { fixture: "claude/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const notices: RetryNotice[] = [];
    const response = await provider.chat(request({ onRetry: (n) => notices.push(n) }));
    expect(response.text).toBe("Hello, world!");
    expect(server.requests.length).toBe(2);
    expect(notices.map((n) => [n.attempt, n.maxAttempts, n.delayMs, n.error.category])).toEqual([
      [1, 2, 5, "rate_limited"],
    ]);
    expect(notices[0].error.message).toBe(
      "Claude rate limit exceeded (HTTP 429: Number of request tokens has exceeded your " +
        "per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response " +
        "headers for current usage.)",
    );
  });
});

Deno.test("claude: 500 is retried max_attempts times, then fails with server_error", async () => {
  const reply = { status: 500, fixture: "claude/server_error.json", headers: JSON_HEADERS };
  await withServer([reply, reply, reply, reply], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const notices: RetryNotice[] = [];
    const error = await caught(provider.chat(request({ onRetry: (n) => notices.push(n) })));
    expect([error.category, error.message, error.options.status]).toEqual([
      "server_error",
      "Claude server error (HTTP 500: Internal server error)",
      500,
    ]);
    expect(server.requests.length).toBe(3);
    expect(notices.map((n) => n.attempt)).toEqual([1, 2]);
  });
});

Deno.test("claude: 401 names ANTHROPIC_API_KEY, never the key, and is not retried", async () => {
  await withServer([
    { status: 401, fixture: "claude/auth_error.json", headers: JSON_HEADERS },
    { fixture: "claude/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const error = await caught(provider.chat(request()));
    expect([error.category, error.message, error.hint]).toEqual([
      "policy_blocked",
      "Cannot call Claude: the API key in ANTHROPIC_API_KEY was rejected (HTTP 401: invalid x-api-key)",
      `Set ANTHROPIC_API_KEY to a valid key for ${server.url}.`,
    ]);
    expect(JSON.stringify([error.message, error.hint])).not.toContain(KEY);
    expect(server.requests.length).toBe(1);
  });
});

Deno.test("claude: connection refused names the URL and is not retried", async () => {
  const url = closedPortUrl();
  const provider = new AnthropicProvider(config(url), { apiKey: KEY });
  const notices: RetryNotice[] = [];
  const error = await caught(provider.chat(request({ onRetry: (n) => notices.push(n) })));
  expect([error.category, error.message, error.hint]).toEqual([
    "network_error",
    `Cannot reach Claude at ${url}: connection refused`,
    "Check [llm.claude] base_url in config.toml, or remove it to use https://api.anthropic.com.",
  ]);
  expect(notices).toEqual([]);
});

Deno.test("claude: an error event after streamed text is not retried (no duplicated output)", async () => {
  await withServer([
    { fixture: "claude/overloaded_midstream.sse", headers: SSE },
    { fixture: "claude/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const chunks: string[] = [];
    const error = await caught(provider.chat(request({ onText: (t) => chunks.push(t) })));
    expect([error.category, error.message, error.retryable]).toEqual([
      "server_error",
      "Claude server error (overloaded_error: Overloaded)",
      false,
    ]);
    expect(chunks).toEqual(["Partial answer"]);
    expect(server.requests.length).toBe(1);
  });
});

Deno.test("claude: aborting the signal cancels a pending request promptly", async () => {
  await withServer([{ hang: true }], async (server) => {
    const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
    const controller = new AbortController();
    const pending = caught(provider.chat(request({ signal: controller.signal })));
    await server.received(1);
    controller.abort();
    const error = await pending;
    expect([error.category, error.message]).toEqual(["cancelled", "Request to Claude cancelled"]);
  });
});

Deno.test("claude: aborting mid-stream cancels instead of returning a truncated answer", async () => {
  await withServer(
    [{ fixture: "claude/tool_split.sse", headers: SSE, stall: true }],
    async (server) => {
      const provider = new AnthropicProvider(config(server.url), { apiKey: KEY });
      const controller = new AbortController();
      const error = await caught(provider.chat(request({
        signal: controller.signal,
        onText: () => controller.abort(),
      })));
      expect(error.category).toBe("cancelled");
    },
  );
});

Deno.test("claude: a missing ANTHROPIC_API_KEY fails before any request", () => {
  const cfg = config("http://127.0.0.1:9");
  let error: unknown;
  try {
    createProvider(cfg, { env: () => undefined });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ProviderError);
  const e = error as ProviderError;
  expect([e.category, e.message, e.hint]).toEqual([
    "policy_blocked",
    "Cannot use Claude: the environment variable ANTHROPIC_API_KEY is not set",
    'Export ANTHROPIC_API_KEY=<your key>, or set [llm] provider = "ollama" in config.toml to use ' +
    'a local model (current: [llm] provider = "claude").',
  ]);
  const provider = createProvider(cfg, {
    env: (n) => (n === "ANTHROPIC_API_KEY" ? KEY : undefined),
  });
  expect([provider.name, provider.model, provider.supportsToolUse]).toEqual([
    "claude",
    "claude-sonnet-4-6",
    true,
  ]);
});
