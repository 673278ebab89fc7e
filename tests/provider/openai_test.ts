import { expect } from "expect";
import { Config } from "../../src/config/schema.ts";
import { createProvider } from "../../src/provider/mod.ts";
import { OpenAiProvider } from "../../src/provider/openai.ts";
import {
  INVALID_TOOL_INPUT,
  invalidToolInput,
  ProviderError,
  type RetryNotice,
} from "../../src/provider/types.ts";
import { FUNCTION_TOOLS, SYSTEM } from "./_conversation.ts";
import { caught, closedPortUrl, JSON_HEADERS, request, SSE, withServer } from "./_server.ts";

const KEY = "sk-test-0123456789abcdef";

function config(url: string, openai: Record<string, unknown> = {}) {
  return Config.parse({
    llm: { provider: "openai", openai: { base_url: url, ...openai } },
    tools: { retry: { max_attempts: 2, base_ms: 1, max_ms: 5, budget_secs: 30 } },
  });
}

Deno.test("openai: streams text deltas; usage from the include_usage chunk", async () => {
  await withServer([{ fixture: "openai/text.sse", headers: SSE }], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const chunks: string[] = [];
    const response = await provider.chat(request({ onText: (t) => chunks.push(t) }));
    expect(chunks).toEqual(["Hello", ", world", "!"]);
    expect(response).toEqual({
      text: "Hello, world!",
      toolCalls: [],
      usage: { inputTokens: 1843, outputTokens: 4, cacheReadTokens: 1792 },
      stopReason: "end_turn",
    });
    const req = server.requests[0];
    expect([req.method, req.path, req.headers["authorization"]]).toEqual([
      "POST",
      "/v1/chat/completions",
      `Bearer ${KEY}`,
    ]);
  });
});

Deno.test("openai: request body has system first, function tools, tool messages paired by id", async () => {
  await withServer([{ fixture: "openai/text.sse", headers: SSE }], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    await provider.chat(request());
    expect(server.requests[0].body).toEqual({
      model: "gpt-4.1",
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 8192,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "What does a.ts do?" },
        {
          role: "assistant",
          content: "Let me look.",
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "read", arguments: '{"path":"a.ts"}' },
            },
            {
              id: "call_2",
              type: "function",
              function: { name: "grep", arguments: '{"pattern":"TODO"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "export const a = 1;" },
        {
          role: "tool",
          tool_call_id: "call_2",
          content: "[tool_error]\ncategory: permanent_failure",
        },
      ],
      tools: FUNCTION_TOOLS,
    });
  });
});

Deno.test("openai: two tool calls split across chunks are joined by index", async () => {
  await withServer([{ fixture: "openai/two_tools_split.sse", headers: SSE }], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const chunks: string[] = [];
    const response = await provider.chat(request({ onText: (t) => chunks.push(t) }));
    expect(chunks).toEqual([]);
    expect(response).toEqual({
      text: "",
      toolCalls: [
        { id: "call_DdmO9pD3xa9XTPNJ32zg2hcA", name: "read", input: { path: "src/main.ts" } },
        { id: "call_Kx2vV0m1pQ8sT3uB7nWz4yRc", name: "grep", input: { pattern: "TODO" } },
      ],
      usage: { inputTokens: 620, outputTokens: 48, cacheReadTokens: 0 },
      stopReason: "tool_use",
    });
  });
});

Deno.test("openai: malformed argument JSON becomes a call carrying the parse error, sent back verbatim", async () => {
  await withServer([
    { fixture: "openai/malformed_args.sse", headers: SSE },
    { fixture: "openai/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const response = await provider.chat(request());
    expect(response.toolCalls.length).toBe(1);
    const call = response.toolCalls[0];
    expect([call.id, call.name, Object.keys(call.input as object)]).toEqual([
      "call_bad1",
      "read",
      [INVALID_TOOL_INPUT],
    ]);
    const bad = invalidToolInput(call.input);
    expect(bad?.raw).toBe('{"path": "a.ts"');
    expect(typeof bad?.error).toBe("string");
    expect(bad!.error.length).toBeGreaterThan(0);
    // The history goes back with the model's own text, not our marker object.
    await provider.chat(request({
      messages: [
        { role: "user", parts: [{ type: "text", text: "go" }] },
        { role: "assistant", parts: [{ type: "tool_call", ...call }] },
        {
          role: "user",
          parts: [{ type: "tool_result", callId: call.id, text: "[tool_error] …", isError: true }],
        },
      ],
    }));
    expect(server.requests[1].body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "call_bad1",
          type: "function",
          function: { name: "read", arguments: '{"path": "a.ts"' },
        }],
      },
      { role: "tool", tool_call_id: "call_bad1", content: "[tool_error] …" },
    ]);
  });
});

Deno.test("openai: the official endpoint gets max_completion_tokens", () => {
  const provider = new OpenAiProvider(config(""), { apiKey: KEY });
  const body = provider.buildBody(request({ tools: [] }));
  expect([body.max_completion_tokens, "max_tokens" in body, "tools" in body]).toEqual([
    8192,
    false,
    false,
  ]);
});

Deno.test("openai: 429 then success is retried", async () => {
  await withServer([
    { status: 429, fixture: "openai/rate_limit.json", headers: JSON_HEADERS },
    { fixture: "openai/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const notices: RetryNotice[] = [];
    const response = await provider.chat(request({ onRetry: (n) => notices.push(n) }));
    expect(response.text).toBe("Hello, world!");
    expect(server.requests.length).toBe(2);
    expect(notices.map((n) => [n.attempt, n.error.category, n.error.options.status])).toEqual([
      [1, "rate_limited", 429],
    ]);
  });
});

Deno.test("openai: 500 is retried, then fails with server_error", async () => {
  const reply = { status: 500, fixture: "openai/server_error.json", headers: JSON_HEADERS };
  await withServer([reply, reply, reply], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const error = await caught(provider.chat(request()));
    expect([error.category, error.message]).toEqual([
      "server_error",
      "OpenAI server error (HTTP 500: The server had an error while processing your request. " +
      "Sorry about that!)",
    ]);
    expect(server.requests.length).toBe(3);
  });
});

Deno.test("openai: 401 names OPENAI_API_KEY and is not retried", async () => {
  await withServer([
    { status: 401, fixture: "openai/auth_error.json", headers: JSON_HEADERS },
  ], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const error = await caught(provider.chat(request()));
    expect([error.category, error.message.split(" (HTTP")[0], error.hint]).toEqual([
      "policy_blocked",
      "Cannot call OpenAI: the API key in OPENAI_API_KEY was rejected",
      `Set OPENAI_API_KEY to a valid key for ${server.url}/v1.`,
    ]);
    expect(error.message).not.toContain(KEY);
    expect(server.requests.length).toBe(1);
  });
});

Deno.test("openai: an unreachable compatible base URL is named in the error", async () => {
  const url = `${closedPortUrl()}/v1`;
  const provider = new OpenAiProvider(config(url), { apiKey: KEY });
  const error = await caught(provider.chat(request()));
  expect([error.category, error.message, error.hint]).toEqual([
    "network_error",
    `Cannot reach OpenAI at ${url}: connection refused`,
    "Check that the server at [llm.openai] base_url is running, or fix the URL in config.toml.",
  ]);
});

Deno.test("openai: cancelling while waiting for the server", async () => {
  await withServer([{ hang: true }], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const controller = new AbortController();
    const pending = caught(provider.chat(request({ signal: controller.signal })));
    await server.received(1);
    controller.abort();
    expect((await pending).category).toBe("cancelled");
  });
});

Deno.test("openai: missing key is an error for api.openai.com, optional for a compatible URL", async () => {
  let error: unknown;
  try {
    createProvider(config(""), { env: () => undefined });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).message).toBe(
    "Cannot use OpenAI: the environment variable OPENAI_API_KEY is not set",
  );
  await withServer([{ fixture: "openai/text.sse", headers: SSE }], async (server) => {
    const provider = createProvider(config(`${server.url}/v1`), { env: () => undefined });
    await provider.chat(request());
    expect(server.requests[0].headers["authorization"]).toBe("Bearer no-key");
  });
});

Deno.test("openai: an error object mid-stream after text fails without a retry", async () => {
  await withServer([
    { fixture: "openai/error_midstream.sse", headers: SSE },
    { fixture: "openai/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const chunks: string[] = [];
    const error = await caught(provider.chat(request({ onText: (t) => chunks.push(t) })));
    expect([error.category, error.message, error.retryable, chunks]).toEqual([
      "server_error",
      "OpenAI server error (server_error: The server had an error processing your request.)",
      false,
      ["Working on"],
    ]);
    expect(server.requests.length).toBe(1);
  });
});

Deno.test("openai: a stream cut before any text is retried", async () => {
  await withServer([
    { fixture: "openai/cut_before_text.sse", headers: SSE },
    { fixture: "openai/text.sse", headers: SSE },
  ], async (server) => {
    const provider = new OpenAiProvider(config(`${server.url}/v1`), { apiKey: KEY });
    const notices: RetryNotice[] = [];
    const response = await provider.chat(request({ onRetry: (n) => notices.push(n) }));
    expect([response.text, server.requests.length]).toEqual(["Hello, world!", 2]);
    expect(notices.map((n) => [n.error.category, n.error.message])).toEqual([
      ["server_error", "OpenAI sent a malformed response: the stream ended before a finish_reason"],
    ]);
  });
});
