/**
 * A local HTTP server on 127.0.0.1 that replays recorded provider responses, one per request,
 * and records every request it receives. Bodies are sent in small chunks so the SDKs' SSE and
 * NDJSON parsers see events split at arbitrary byte boundaries, as on a real network.
 */
import * as path from "node:path";
import { type ChatRequest, ProviderError } from "../../src/provider/types.ts";
import { HISTORY, SYSTEM, TOOLS } from "./_conversation.ts";

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A fixture under tests/fixtures/provider/, or a literal body. */
  fixture?: string;
  body?: string;
  /** Bytes per chunk written. @default 17 */
  chunkSize?: number;
  /** Never answer; wait for the client to go away. */
  hang?: boolean;
  /** Send the body, then keep the connection open without finishing. */
  stall?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  // deno-lint-ignore no-explicit-any
  body: any;
}

export interface ReplayServer {
  url: string;
  requests: RecordedRequest[];
  /** Resolves when the n-th request (1-based) has arrived. */
  received(n: number): Promise<void>;
  close(): Promise<void>;
}

const FIXTURES = path.join(import.meta.dirname!, "..", "fixtures", "provider");

export function fixture(name: string): string {
  return Deno.readTextFileSync(path.join(FIXTURES, name));
}

export function startReplayServer(replies: Reply[]): ReplayServer {
  const requests: RecordedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  let next = 0;
  // Held replies end when the client goes away or, at the latest, when the server closes.
  const closing = new AbortController();
  const released = (_req: Request) => closing.signal;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch { /* keep the raw text */ }
    requests.push({
      method: req.method,
      path: new URL(req.url).pathname,
      headers: Object.fromEntries(req.headers),
      body,
    });
    for (const w of waiters.filter((w) => requests.length >= w.n)) w.resolve();
    const reply = replies[next++];
    if (!reply) {
      return new Response(JSON.stringify({ error: "unscripted request" }), { status: 599 });
    }
    if (reply.hang) {
      await new Promise<void>((resolve) =>
        released(req).addEventListener("abort", () => resolve())
      );
      return new Response(null, { status: 499 });
    }
    const payload = reply.fixture ? fixture(reply.fixture) : reply.body ?? "";
    const bytes = new TextEncoder().encode(payload);
    const size = reply.chunkSize ?? 17;
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) {
          if (reply.stall) {
            return new Promise<void>((resolve) => {
              released(req).addEventListener("abort", () => {
                controller.close();
                resolve();
              });
            });
          }
          controller.close();
          return;
        }
        controller.enqueue(bytes.slice(offset, offset + size));
        offset += size;
      },
    });
    return new Response(stream, { status: reply.status ?? 200, headers: reply.headers });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    received(n) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    async close() {
      closing.abort();
      await server.shutdown();
    },
  };
}

/** A URL on 127.0.0.1 where nothing listens. */
export function closedPortUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

export const SSE = { "content-type": "text/event-stream" };
export const JSON_HEADERS = { "content-type": "application/json" };
export const NDJSON = { "content-type": "application/x-ndjson" };

/** A chat request over the shared conversation, with overrides. */
export function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    system: SYSTEM,
    messages: HISTORY,
    tools: TOOLS,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Runs `fn` against a replay server and always closes it. */
export async function withServer(
  replies: Reply[],
  fn: (server: ReturnType<typeof startReplayServer>) => Promise<void>,
) {
  const server = startReplayServer(replies);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** The ProviderError a promise rejects with (any other outcome fails the test). */
export async function caught(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected a ProviderError");
}
