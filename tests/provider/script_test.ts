import { expect } from "expect";
import {
  checkProtocol,
  loadScript,
  MAX_SCRIPT_FILE_BYTES,
  parseScript,
  ScriptError,
  ScriptProtocolError,
  ScriptProvider,
} from "../../src/provider/script.ts";
import { type ChatRequest, type Message, ProviderError } from "../../src/provider/types.ts";

function request(messages: Message[], extra: Partial<ChatRequest> = {}): ChatRequest {
  return { system: "sys", messages, tools: [], signal: new AbortController().signal, ...extra };
}

const user = (text: string): Message => ({ role: "user", parts: [{ type: "text", text }] });

Deno.test("parseScript: turns, generated ids, comments, header", () => {
  const script = parseScript(
    [
      '{"legacy": false, "model": "demo"}',
      "# a comment",
      "",
      '{"text": "hi", "tool_calls": [{"name": "read", "input": {"path": "a"}}, {"id": "x", "name": "grep"}]}',
      '{"error": {"status": 503, "message": "down"}, "delay_ms": 5}',
      '{"text": "bye", "usage": {"input_tokens": 3, "output_tokens": 1}}',
    ].join("\n"),
    "s.jsonl",
  );
  expect(script).toEqual({
    source: "s.jsonl",
    legacy: false,
    model: "demo",
    turns: [
      {
        line: 4,
        text: "hi",
        toolCalls: [
          { id: "call_4_1", name: "read", input: { path: "a" } },
          { id: "x", name: "grep", input: {} },
        ],
        error: undefined,
        delayMs: 0,
        usage: undefined,
      },
      {
        line: 5,
        text: "",
        toolCalls: [],
        error: { status: 503, message: "down" },
        delayMs: 5,
        usage: undefined,
      },
      {
        line: 6,
        text: "bye",
        toolCalls: [],
        error: undefined,
        delayMs: 0,
        usage: { inputTokens: 3, outputTokens: 1 },
      },
    ],
  });
});

Deno.test("parseScript: every error names the file and line", () => {
  const cases: [string, string][] = [
    ['{"text": "a"}\n{"text": ', "Cannot load script s.jsonl:2: invalid JSON"],
    ['["a"]', "Cannot load script s.jsonl:1: a line must be a JSON object"],
    ['{"txt": "a"}', 'Cannot load script s.jsonl:1: Unrecognized key: "txt"'],
    ['{"tool_calls": [{"id": "a"}]}', "Cannot load script s.jsonl:1: tool_calls.0.name:"],
    ['{"text": "a", "error": {"message": "x"}}', "is either a model answer"],
    [
      '{"tool_calls": [{"id": "a", "name": "r"}, {"id": "a", "name": "r"}]}',
      'id "a" is used twice',
    ],
    ['{"text": "a"}\n{"legacy": true}', 's.jsonl:2: the {"legacy": …} header must come before'],
    ['{"legacy": true}\n{"tool_calls": [{"name": "bash"}]}', "s.jsonl:2: a legacy script writes"],
    ["# only a comment", "Cannot load script s.jsonl: it has no turns"],
  ];
  for (const [text, message] of cases) {
    expect(() => parseScript(text, "s.jsonl")).toThrow(ScriptError);
    expect(() => parseScript(text, "s.jsonl")).toThrow(message);
  }
});

Deno.test("loadScript: a missing file is a clear error", async () => {
  await expect(loadScript("/nonexistent/zeph.jsonl")).rejects.toThrow(
    'Cannot read script "/nonexistent/zeph.jsonl"',
  );
});

Deno.test("ScriptProvider: replays turns, streams text, records requests", async () => {
  const provider = new ScriptProvider(
    parseScript(
      '{"text": "one two three", "tool_calls": [{"id": "c1", "name": "read"}]}\n{"text": "end"}',
    ),
  );
  const chunks: string[] = [];
  const messages = [user("hi")];
  const first = await provider.chat(request(messages, { onText: (c) => chunks.push(c) }));
  expect(first).toEqual({
    text: "one two three",
    toolCalls: [{ id: "c1", name: "read", input: {} }],
    usage: undefined,
    stopReason: "tool_use",
  });
  expect(chunks).toEqual(["one ", "two ", "three"]);
  messages.push({
    role: "assistant",
    parts: [{ type: "tool_call", id: "c1", name: "read", input: {} }],
  });
  messages.push({
    role: "user",
    parts: [{ type: "tool_result", callId: "c1", text: "x", isError: false }],
  });
  const second = await provider.chat(request(messages));
  expect(second.stopReason).toBe("end_turn");
  expect(provider.requests.length).toBe(2);
  expect(provider.requests[0].messages).toEqual([user("hi")]);
  expect(provider.requests[1].messages.length).toBe(3);
  await expect(provider.chat(request(messages))).rejects.toThrow(
    "Script <script> has no turn 3: the agent asked for one more model turn than the 2 scripted",
  );
});

Deno.test("ScriptProvider: error turns are ProviderErrors classified by status", async () => {
  const provider = new ScriptProvider(
    parseScript(
      '{"error": {"status": 429, "message": "slow down"}}\n{"error": {"message": "reset"}}',
    ),
  );
  const first = await provider.chat(request([user("a")])).catch((e) => e);
  expect(first).toBeInstanceOf(ProviderError);
  expect([first.message, first.category, first.options.status]).toEqual([
    "slow down",
    "rate_limited",
    429,
  ]);
  const second = await provider.chat(request([user("a")])).catch((e) => e);
  expect([second.message, second.category]).toEqual(["reset", "network_error"]);
});

Deno.test("ScriptProvider: a delay ends early on abort with a cancelled error", async () => {
  const provider = new ScriptProvider(parseScript('{"text": "late", "delay_ms": 60000}'));
  const controller = new AbortController();
  const pending = provider.chat(request([user("a")], { signal: controller.signal }));
  controller.abort();
  const error = await pending.catch((e) => e);
  expect([error.name, error.category]).toEqual(["ProviderError", "cancelled"]);
});

Deno.test("ScriptProvider: legacy header and the override", () => {
  const script = parseScript('{"legacy": true}\n{"text": "```bash\\nls\\n```"}');
  expect(new ScriptProvider(script).supportsToolUse).toBe(false);
  expect(new ScriptProvider(script, { supportsToolUse: true }).supportsToolUse).toBe(true);
});

Deno.test("checkProtocol: each call needs exactly one result, results need a call", () => {
  const calls: Message = {
    role: "assistant",
    parts: [
      { type: "tool_call", id: "a", name: "read", input: {} },
      { type: "tool_call", id: "b", name: "read", input: {} },
    ],
  };
  const result = (id: string) => ({
    type: "tool_result" as const,
    callId: id,
    text: "",
    isError: false,
  });
  const ok: Message[] = [user("x"), calls, { role: "user", parts: [result("a"), result("b")] }];
  expect(() => checkProtocol(ok, 1)).not.toThrow();
  const cases: [Message[], string][] = [
    [[user("x"), calls], "the last message has 2 unanswered tool call(s)"],
    [
      [user("x"), calls, { role: "user", parts: [result("a")] }],
      'tool call "b" (read) has 0 results',
    ],
    [
      [user("x"), calls, { role: "user", parts: [result("a"), result("b"), result("b")] }],
      'tool call "b" (read) has 2 results',
    ],
    [
      [user("x"), calls, { role: "user", parts: [result("a"), result("b"), result("z")] }],
      'message 3 has a result for unknown call id "z"',
    ],
    [
      [user("x"), { role: "user", parts: [result("a")] }],
      'message 2 has a result for unknown call id "a"',
    ],
    [[user("x"), calls, user("y")], 'tool call "a" (read) has 0 results'],
  ];
  for (const [messages, message] of cases) {
    expect(() => checkProtocol(messages, 7)).toThrow(ScriptProtocolError);
    expect(() => checkProtocol(messages, 7)).toThrow(
      `Tool protocol violated in request 7: ${message}`,
    );
  }
});

Deno.test("ScriptProvider: a protocol violation in a request fails the call", async () => {
  const provider = new ScriptProvider(parseScript('{"text": "a"}'));
  const bad: Message[] = [
    user("x"),
    { role: "assistant", parts: [{ type: "tool_call", id: "a", name: "read", input: {} }] },
    user("y"),
  ];
  await expect(provider.chat(request(bad))).rejects.toThrow(ScriptProtocolError);
  const lax = new ScriptProvider(parseScript('{"text": "a"}'), { strict: false });
  expect((await lax.chat(request(bad))).text).toBe("a");
});

Deno.test("loadScript: only a regular UTF-8 file within 64 MiB; BOM and CRLF accepted", async () => {
  const dir = await Deno.makeTempDir({ prefix: "zeph_script_" });
  try {
    const good = `${dir}/good.jsonl`;
    await Deno.writeFile(
      good,
      new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...new TextEncoder().encode('{"text":"a"}\r\n{"text":"b"}\r\n'),
      ]),
    );
    expect((await loadScript(good)).turns.map((t) => t.text)).toEqual(["a", "b"]);
    const fifo = `${dir}/fifo.jsonl`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const zero = `${dir}/zero.jsonl`;
    await Deno.symlink("/dev/zero", zero);
    const bad = `${dir}/bad.jsonl`;
    await Deno.writeFile(bad, new Uint8Array([0x7b, 0x7d, 0x0a, 0xff]));
    const big = `${dir}/big.jsonl`;
    const file = await Deno.open(big, { write: true, create: true });
    await file.truncate(MAX_SCRIPT_FILE_BYTES + 1);
    file.close();
    const cases: [string, string][] = [
      [fifo, `Cannot read script "${fifo}": it is a FIFO (named pipe), not a regular file.`],
      [zero, `Cannot read script "${zero}": it is a character device, not a regular file.`],
      [dir, `Cannot read script "${dir}": it is a directory, not a regular file.`],
      [bad, `Cannot read script "${bad}": invalid UTF-8 at byte offset 3.`],
      [
        big,
        `Cannot read script "${big}": ${
          MAX_SCRIPT_FILE_BYTES + 1
        } bytes, larger than the 64 MiB limit.`,
      ],
    ];
    for (const [path, message] of cases) {
      const error = await loadScript(path).then(() => null, (e) => e);
      expect([path, error instanceof ScriptError, String(error?.message)]).toEqual([
        path,
        true,
        expect.stringContaining(message),
      ]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
