import { expect } from "expect";
import { Config } from "../../src/config/schema.ts";
import { createProvider } from "../../src/provider/mod.ts";
import { OllamaProvider } from "../../src/provider/ollama.ts";
import { ProviderError, type RetryNotice } from "../../src/provider/types.ts";
import { FUNCTION_TOOLS, SYSTEM } from "./_conversation.ts";
import { caught, closedPortUrl, JSON_HEADERS, NDJSON, request, withServer } from "./_server.ts";

function config(
  url: string,
  ollama: Record<string, unknown> = {},
  llm: Record<string, unknown> = {},
) {
  return Config.parse({
    llm: { provider: "ollama", ollama: { base_url: url, ...ollama }, ...llm },
    tools: { retry: { max_attempts: 2, base_ms: 1, max_ms: 5, budget_secs: 30 } },
  });
}

Deno.test("ollama: streams NDJSON text; usage from the final done message", async () => {
  await withServer([{ fixture: "ollama/text.ndjson", headers: NDJSON }], async (server) => {
    const provider = new OllamaProvider(config(server.url));
    const chunks: string[] = [];
    const response = await provider.chat(request({ onText: (t) => chunks.push(t) }));
    expect(chunks).toEqual(["Hello", ", world", "!"]);
    expect(response).toEqual({
      text: "Hello, world!",
      toolCalls: [],
      usage: { inputTokens: 26, outputTokens: 4 },
      stopReason: "end_turn",
    });
    expect([server.requests[0].method, server.requests[0].path]).toEqual(["POST", "/api/chat"]);
  });
});

Deno.test("ollama: native tools, tool results as role tool with tool_name", async () => {
  await withServer([{ fixture: "ollama/text.ndjson", headers: NDJSON }], async (server) => {
    const provider = new OllamaProvider(config(server.url));
    expect(provider.supportsToolUse).toBe(true);
    await provider.chat(request());
    expect(server.requests[0].body).toEqual({
      model: "qwen3:8b",
      stream: true,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "What does a.ts do?" },
        {
          role: "assistant",
          content: "Let me look.",
          tool_calls: [
            { function: { name: "read", arguments: { path: "a.ts" } } },
            { function: { name: "grep", arguments: { pattern: "TODO" } } },
          ],
        },
        { role: "tool", content: "export const a = 1;", tool_name: "read" },
        { role: "tool", content: "[tool_error]\ncategory: permanent_failure", tool_name: "grep" },
      ],
      tools: FUNCTION_TOOLS,
    });
  });
});

Deno.test("ollama: tool_use = false is the legacy path: no tools on the wire", async () => {
  await withServer([{ fixture: "ollama/text.ndjson", headers: NDJSON }], async (server) => {
    const provider = new OllamaProvider(config(server.url, { tool_use: false }));
    expect(provider.supportsToolUse).toBe(false);
    await provider.chat(request());
    expect(Object.keys(server.requests[0].body).sort()).toEqual(["messages", "model", "stream"]);
  });
});

Deno.test("ollama: num_ctx > 0 is sent as options.num_ctx", async () => {
  await withServer([{ fixture: "ollama/text.ndjson", headers: NDJSON }], async (server) => {
    const provider = new OllamaProvider(config(server.url, { num_ctx: 32768 }));
    await provider.chat(request({ tools: [] }));
    expect(server.requests[0].body.options).toEqual({ num_ctx: 32768 });
  });
});

Deno.test("ollama: two tool calls get unique generated ids, in order", async () => {
  await withServer([
    { fixture: "ollama/tools.ndjson", headers: NDJSON },
    { fixture: "ollama/tools.ndjson", headers: NDJSON },
  ], async (server) => {
    const provider = new OllamaProvider(config(server.url));
    const first = await provider.chat(request());
    const second = await provider.chat(request());
    expect(first.toolCalls.map((c) => [c.name, c.input])).toEqual([
      ["read", { path: "a.ts" }],
      ["grep", { pattern: "TODO", path: "src" }],
    ]);
    const ids = [...first.toolCalls, ...second.toolCalls].map((c) => c.id);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(4);
    expect([first.stopReason, first.usage]).toEqual([
      "tool_use",
      { inputTokens: 310, outputTokens: 41 },
    ]);
  });
});

Deno.test("ollama: unreachable server says how to start Ollama or pick another provider", async () => {
  const url = closedPortUrl();
  const provider = new OllamaProvider(config(url));
  const notices: RetryNotice[] = [];
  const error = await caught(provider.chat(request({ onRetry: (n) => notices.push(n) })));
  expect([error.category, error.message, error.hint]).toEqual([
    "network_error",
    `Cannot reach Ollama at ${url}: connection refused`,
    "Start Ollama (`ollama serve`), set [llm.ollama] base_url to where it runs, or set [llm] " +
    'provider = "claude" or "openai" in config.toml.',
  ]);
  expect(notices).toEqual([]);
});

Deno.test("ollama: a model that is not pulled gets the pull command", async () => {
  await withServer([
    { status: 404, fixture: "ollama/model_not_found.json", headers: JSON_HEADERS },
  ], async (server) => {
    const provider = new OllamaProvider(config(server.url));
    const error = await caught(provider.chat(request()));
    expect([error.category, error.message, error.hint]).toEqual([
      "permanent_failure",
      `Ollama at ${server.url} does not know model "qwen3:8b" or the endpoint ` +
      `(HTTP 404: model "qwen3:8b" not found, try pulling it first)`,
      "Run `ollama pull qwen3:8b`, or set [llm.ollama] model in config.toml.",
    ]);
    expect(server.requests.length).toBe(1);
  });
});

Deno.test("ollama: a model without tool support points at tool_use = false", async () => {
  await withServer(
    [{ status: 400, fixture: "ollama/no_tools.json", headers: JSON_HEADERS }],
    async (server) => {
      const provider = new OllamaProvider(config(server.url));
      const error = await caught(provider.chat(request()));
      expect([error.category, error.retryable]).toEqual(["permanent_failure", false]);
      expect(error.message).toContain("set [llm.ollama] tool_use = false");
    },
  );
});

Deno.test("ollama: 503 then success is retried; 500s exhaust into server_error", async () => {
  const fail = { status: 503, body: '{"error":"server busy"}', headers: JSON_HEADERS };
  await withServer([fail, { fixture: "ollama/text.ndjson", headers: NDJSON }], async (server) => {
    const provider = new OllamaProvider(config(server.url));
    const notices: RetryNotice[] = [];
    const response = await provider.chat(request({ onRetry: (n) => notices.push(n) }));
    expect([response.text, server.requests.length, notices.length]).toEqual([
      "Hello, world!",
      2,
      1,
    ]);
  });
  await withServer([fail, fail, fail], async (server) => {
    const provider = new OllamaProvider(config(server.url));
    const error = await caught(provider.chat(request()));
    expect([error.category, error.message, server.requests.length]).toEqual([
      "server_error",
      "Ollama server error (HTTP 503: server busy)",
      3,
    ]);
  });
});

Deno.test("ollama: a silent server hits [llm] timeout", async () => {
  await withServer([{ hang: true }], async (server) => {
    const cfg = config(server.url, {}, { timeout: 1 });
    cfg.tools.retry.max_attempts = 0;
    const provider = new OllamaProvider(cfg);
    const error = await caught(provider.chat(request()));
    expect([error.category, error.message, error.hint]).toEqual([
      "timeout",
      `Ollama at ${server.url} did not respond for 1 s`,
      "Raise [llm] timeout in config.toml if the model is slow to answer.",
    ]);
  });
});

Deno.test("ollama: cancelling mid-stream ends the request with cancelled", async () => {
  await withServer(
    [{ fixture: "ollama/text.ndjson", headers: NDJSON, stall: true }],
    async (server) => {
      const provider = new OllamaProvider(config(server.url));
      const controller = new AbortController();
      const chunks: string[] = [];
      const error = await caught(provider.chat(request({
        signal: controller.signal,
        onText: (t) => {
          chunks.push(t);
          controller.abort();
        },
      })));
      expect([error.category, chunks]).toEqual(["cancelled", ["Hello"]]);
    },
  );
});

Deno.test("createProvider: ollama needs no key; script needs the injected factory", () => {
  const provider = createProvider(config("http://127.0.0.1:11434"), { env: () => undefined });
  expect([provider.name, provider.model, provider.supportsToolUse]).toEqual([
    "ollama",
    "qwen3:8b",
    true,
  ]);
  const scripted = Config.parse({ llm: { provider: "script" } });
  let error: unknown;
  try {
    createProvider(scripted);
  } catch (e) {
    error = e;
  }
  expect((error as ProviderError).message).toBe(
    "Cannot use the scripted provider: no script was given",
  );
  const fake = { ...provider, name: "script" };
  expect(createProvider(scripted, { script: () => fake })).toBe(fake);
});
