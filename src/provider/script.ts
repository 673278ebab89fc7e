/**
 * The scripted provider: a JSONL file of model turns replayed in order, so the whole agent runs
 * offline (tests, demos, bug reports). It records every request, streams text through `onText`,
 * fails loudly on an unscripted turn, and checks the tool-call protocol of every request it
 * receives (each tool call answered by exactly one result, no result for an unknown id).
 *
 * Format (stable; documented in README "## Scripted provider"), one JSON object per line:
 *   {"text": "…", "tool_calls": [{"id": "c1", "name": "read", "input": {"path": "a.ts"}}]}
 *   {"error": {"status": 429, "message": "…"}}
 *   optional on any turn: "delay_ms": 200, "usage": {"input_tokens": 10, "output_tokens": 5}
 * An optional first line `{"legacy": true}` makes the provider report `supportsToolUse: false`
 * (the loop then uses the legacy text path: tool calls are written in `text`). Blank lines and
 * lines starting with `#` or `//` are ignored.
 */
import { z } from "zod";
import { readBoundedTextFile, UnreadableFileError } from "../config/lite.ts";
import { classifyHttpStatus } from "../errors/mod.ts";
import {
  type ChatRequest,
  type ChatResponse,
  type Message,
  type Provider,
  ProviderError,
  type ToolCallRequest,
  type ToolDefinitionForModel,
} from "./types.ts";

const ScriptToolCall = z.object({
  id: z.string().min(1).optional().describe("The call id; generated from the line when absent"),
  name: z.string().min(1).describe("The tool id"),
  input: z.unknown().optional().describe("The tool's parameters (an object)"),
}).strict();

const ScriptUsage = z.object({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0),
}).strict();

const ScriptTurnLine = z.object({
  text: z.string().optional(),
  tool_calls: z.array(ScriptToolCall).optional(),
  error: z.object({
    status: z.number().int().min(0).optional(),
    message: z.string().min(1),
  }).strict().optional(),
  delay_ms: z.number().int().min(0).max(600_000).optional(),
  usage: ScriptUsage.optional(),
}).strict().refine((t) => !(t.error && (t.text !== undefined || t.tool_calls)), {
  message: 'a turn is either a model answer ("text"/"tool_calls") or an "error", not both',
});

const ScriptHeader = z.object({
  legacy: z.boolean().describe("true: the provider has no native tool use (legacy text path)"),
  model: z.string().min(1).optional(),
}).strict();

export interface ScriptTurn {
  /** 1-based line number in the script file, for error messages. */
  line: number;
  text: string;
  toolCalls: ToolCallRequest[];
  error?: { status?: number; message: string };
  delayMs: number;
  usage?: { inputTokens: number; outputTokens: number };
}

export interface Script {
  /** Where it came from (a file path, or a label for inline scripts). */
  source: string;
  legacy: boolean;
  model: string;
  turns: ScriptTurn[];
}

/** A malformed script file; the message names the file and the line. */
export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScriptError";
  }
}

/** The loop broke the tool protocol (a bug in zeph, never the model's fault): fatal. */
export class ScriptProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScriptProtocolError";
  }
}

/** Parses and validates a JSONL script; every error names `source:line`. */
export function parseScript(text: string, source = "<script>"): Script {
  const turns: ScriptTurn[] = [];
  let legacy = false;
  let model = "script";
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const at = `${source}:${i + 1}`;
    if (line === "" || line.startsWith("#") || line.startsWith("//")) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new ScriptError(
        `Cannot load script ${at}: invalid JSON (${(error as Error).message}). ` +
          "Each line must be one JSON object, one model turn.",
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ScriptError(`Cannot load script ${at}: a line must be a JSON object`);
    }
    if (Object.hasOwn(value, "legacy")) {
      if (turns.length > 0) {
        throw new ScriptError(
          `Cannot load script ${at}: the {"legacy": …} header must come before the first turn`,
        );
      }
      const header = ScriptHeader.safeParse(value);
      if (!header.success) throw new ScriptError(`Cannot load script ${at}: ${issues(header)}`);
      legacy = header.data.legacy;
      model = header.data.model ?? model;
      continue;
    }
    const parsed = ScriptTurnLine.safeParse(value);
    if (!parsed.success) throw new ScriptError(`Cannot load script ${at}: ${issues(parsed)}`);
    const t = parsed.data;
    const seen = new Set<string>();
    const toolCalls = (t.tool_calls ?? []).map((c, j) => {
      const id = c.id ?? `call_${i + 1}_${j + 1}`;
      if (seen.has(id)) {
        throw new ScriptError(`Cannot load script ${at}: tool call id "${id}" is used twice`);
      }
      seen.add(id);
      return { id, name: c.name, input: c.input ?? {} };
    });
    if (legacy && toolCalls.length > 0) {
      throw new ScriptError(
        `Cannot load script ${at}: a legacy script writes tool calls in "text" ` +
          '(```bash fences or <tool_call>{…}</tool_call>), not in "tool_calls"',
      );
    }
    turns.push({
      line: i + 1,
      text: t.text ?? "",
      toolCalls,
      error: t.error,
      delayMs: t.delay_ms ?? 0,
      usage: t.usage
        ? { inputTokens: t.usage.input_tokens, outputTokens: t.usage.output_tokens }
        : undefined,
    });
  }
  if (turns.length === 0) {
    throw new ScriptError(`Cannot load script ${source}: it has no turns`);
  }
  return { source, legacy, model, turns };
}

/** Script files above this size are refused: a script is replayed from memory. */
export const MAX_SCRIPT_FILE_BYTES = 64 * 1024 * 1024;

/** Reads and validates a script file. */
export async function loadScript(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readBoundedTextFile(path, { maxBytes: MAX_SCRIPT_FILE_BYTES, what: "script" });
  } catch (error) {
    if (error instanceof UnreadableFileError) throw new ScriptError(error.message);
    throw error;
  }
  return parseScript(text, path);
}

function issues(result: { error?: z.ZodError }): string {
  return (result.error?.issues ?? [])
    .map((i) => `${i.path.length ? i.path.join(".") + ": " : ""}${i.message}`)
    .join("; ");
}

export interface ScriptProviderOptions {
  /** Overrides the script's header (`--legacy` on the command line). */
  supportsToolUse?: boolean;
  /** Check the tool protocol of each request. @default true */
  strict?: boolean;
}

/** A recorded request: a deep copy, so later mutation of the transcript does not rewrite it. */
export interface RecordedRequest {
  system: string;
  messages: Message[];
  /** The tools as sent: tests assert the list and each schema request by request. */
  tools: ToolDefinitionForModel[];
}

export class ScriptProvider implements Provider {
  readonly name = "script";
  readonly model: string;
  readonly supportsToolUse: boolean;
  readonly script: Script;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  #next = 0;
  #strict: boolean;

  constructor(script: Script, options: ScriptProviderOptions = {}) {
    this.script = script;
    this.model = script.model;
    this.supportsToolUse = options.supportsToolUse ?? !script.legacy;
    this.#strict = options.strict ?? true;
  }

  /** Turns not yet replayed. */
  get remaining(): number {
    return this.script.turns.length - this.#next;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push({
      system: request.system,
      messages: structuredClone(request.messages),
      tools: structuredClone(request.tools),
    });
    if (this.#strict) checkProtocol(request.messages, this.requests.length);
    const n = this.#next;
    const turn = this.script.turns[n];
    if (!turn) {
      throw new ProviderError(
        `Script ${this.script.source} has no turn ${n + 1}: the agent asked for one more model ` +
          `turn than the ${this.script.turns.length} scripted`,
        "permanent_failure",
        { hint: "Add a line to the script (a turn without tool_calls ends the loop)." },
      );
    }
    this.#next++;
    if (turn.delayMs > 0) await sleep(turn.delayMs, request.signal);
    if (request.signal.aborted) {
      throw new ProviderError("The model request was cancelled", "cancelled");
    }
    if (turn.error) {
      const status = turn.error.status;
      throw new ProviderError(
        turn.error.message,
        status ? classifyHttpStatus(status) : "network_error",
        { status },
      );
    }
    if (turn.text && request.onText) {
      for (const chunk of chunks(turn.text)) request.onText(chunk);
    }
    return {
      text: turn.text,
      toolCalls: turn.toolCalls.map((c) => ({ ...c, input: structuredClone(c.input) })),
      usage: turn.usage,
      stopReason: turn.toolCalls.length ? "tool_use" : "end_turn",
    };
  }
}

/** Streams like a real model: a few chunks per answer, split at word boundaries. */
function chunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * Every assistant tool call must be answered by exactly one `tool_result` in the next message
 * (a user message), and a result must answer a call of the assistant message just before it.
 */
export function checkProtocol(messages: Message[], requestNumber: number): void {
  const fail = (why: string) => {
    throw new ScriptProtocolError(`Tool protocol violated in request ${requestNumber}: ${why}`);
  };
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const results = m.parts.filter((p) => p.type === "tool_result");
    if (m.role === "assistant" && results.length) fail(`message ${i + 1} (assistant) has results`);
    const calls = m.parts.filter((p) => p.type === "tool_call");
    if (m.role === "user" && calls.length) fail(`message ${i + 1} (user) has tool calls`);
    if (m.role === "user" && results.length) {
      const prev = messages[i - 1];
      const expected = new Set(
        prev?.role === "assistant"
          ? prev.parts.flatMap((p) => p.type === "tool_call" ? [p.id] : [])
          : [],
      );
      for (const r of results) {
        if (!expected.has(r.callId)) {
          fail(`message ${i + 1} has a result for unknown call id "${r.callId}"`);
        }
      }
    }
    if (calls.length === 0) continue;
    const next = messages[i + 1];
    if (!next) fail(`the last message has ${calls.length} unanswered tool call(s)`);
    if (next.role !== "user") fail(`tool calls of message ${i + 1} are not followed by results`);
    const counts = new Map<string, number>();
    for (const p of next.parts) {
      if (p.type === "tool_result") counts.set(p.callId, (counts.get(p.callId) ?? 0) + 1);
    }
    for (const c of calls) {
      const n = counts.get(c.id) ?? 0;
      if (n !== 1) fail(`tool call "${c.id}" (${c.name}) has ${n} results, expected exactly 1`);
    }
  }
}
