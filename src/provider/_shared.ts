/**
 * Private to src/provider: the per-attempt abort/timeout guard and the one mapping from SDK and
 * fetch failures onto ProviderError, shared by the three adapters so every provider says the
 * same thing about keys, unreachable URLs, rate limits and timeouts.
 */
import { classifyHttpStatus } from "../errors/mod.ts";
import {
  type ChatRequest,
  type ChatResponse,
  INVALID_TOOL_INPUT,
  ProviderError,
  type RetryNotice,
} from "./types.ts";

/** What an error message needs to name: the provider, its URL and where its key comes from. */
export interface Endpoint {
  /** Human name: "Claude", "OpenAI", "Ollama". */
  provider: string;
  url: string;
  model: string;
  /** Env var holding the key; absent for keyless providers (Ollama). */
  keyEnv?: string;
  /** How to fix an unreachable URL. */
  unreachableHint: string;
  /** How to fix a 404 (unknown model or endpoint). */
  notFoundHint: string;
}

/**
 * One request attempt: its own AbortController linked to the caller's signal, and an idle timer
 * (`[llm] timeout`) that fires when no byte has arrived for that long. The timer is re-armed on
 * every streamed event, so a slow local model producing a long answer is not cut off, while a
 * server that hangs is.
 */
export class Attempt {
  readonly #controller = new AbortController();
  readonly #parent: AbortSignal;
  readonly timeoutMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  timedOut = false;
  /** Text reached `onText`: a retry would show it twice, so errors are no longer retryable. */
  streamed = false;

  constructor(parent: AbortSignal, timeoutMs: number) {
    this.#parent = parent;
    this.timeoutMs = timeoutMs;
    if (parent.aborted) this.#controller.abort(parent.reason);
    else parent.addEventListener("abort", this.#onParentAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The caller aborted (as opposed to our timeout firing). */
  get cancelled(): boolean {
    return this.#parent.aborted;
  }

  #onParentAbort = () => this.#controller.abort(this.#parent.reason);

  /** Re-arms the idle timer; call on every event received. */
  touch(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.timedOut = true;
      this.#controller.abort(new DOMException("Provider request timed out", "TimeoutError"));
    }, this.timeoutMs);
  }

  /** Forwards a text delta to the front-end and remembers that output was shown. */
  emit(text: string, onText: ((chunk: string) => void) | undefined): void {
    if (text === "") return;
    this.streamed = true;
    onText?.(text);
  }

  /** Throws the right ProviderError if the attempt was aborted; SDK streams may end silently. */
  throwIfAborted(endpoint: Endpoint): void {
    if (this.signal.aborted) throw toProviderError(this.signal.reason, endpoint, this);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#parent.removeEventListener("abort", this.#onParentAbort);
  }
}

/** What an adapter takes besides the config (tests pass a fetch for their local server). */
export interface ProviderOptions {
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  onRetry?: (notice: RetryNotice) => void;
}

/** The same, for a hosted API that needs a key. */
export interface KeyedProviderOptions extends ProviderOptions {
  apiKey: string;
}

/** Folds one provider's stream events into a ChatResponse; `add` returns the text to show. */
export interface StreamFolder<E> {
  add(event: E): string;
  finish(): ChatResponse;
}

/**
 * One streamed attempt, the same for every adapter: `open` starts the stream on the attempt's
 * signal, the idle timer is re-armed on every event, nothing buffered reaches the user after a
 * cancel, and any failure (`mapError` first, for adapter-specific hints) becomes a ProviderError.
 */
export async function streamAttempt<E>(
  request: ChatRequest,
  timeoutMs: number,
  endpoint: Endpoint,
  open: (signal: AbortSignal) => Promise<AsyncIterable<E>>,
  folder: StreamFolder<E>,
  mapError: (error: unknown) => unknown = (error) => error,
): Promise<ChatResponse> {
  const attempt = new Attempt(request.signal, timeoutMs);
  try {
    const stream = await open(attempt.signal);
    for await (const event of stream) {
      // Events already buffered must not reach the user after a cancel.
      attempt.throwIfAborted(endpoint);
      attempt.touch();
      attempt.emit(folder.add(event), request.onText);
    }
    attempt.throwIfAborted(endpoint);
    return folder.finish();
  } catch (error) {
    throw toProviderError(mapError(error), endpoint, attempt);
  } finally {
    attempt.dispose();
  }
}

const UNREACHABLE =
  /connection refused|dns error|failed to lookup|name or service not known|no such host|nodename nor servname|requests to port \d+ are blocked|network is unreachable|no route to host|ECONNREFUSED|ENOTFOUND/i;

const MAX_SERVER_MESSAGE = 300;

/** Maps anything an adapter caught onto a ProviderError with a message a user can act on. */
export function toProviderError(
  error: unknown,
  endpoint: Endpoint,
  attempt: Attempt,
): ProviderError {
  const mapped = classify(error, endpoint, attempt);
  if (attempt.streamed && mapped.retryable) {
    return new ProviderError(mapped.message, mapped.category, {
      ...mapped.options,
      retryable: false,
      hint: mapped.hint ??
        "Part of the answer was already shown, so the request was not retried; ask again.",
    });
  }
  return mapped;
}

function classify(error: unknown, endpoint: Endpoint, attempt: Attempt): ProviderError {
  const { provider, url } = endpoint;
  if (error instanceof ProviderError) return error;
  if (attempt.cancelled) {
    return new ProviderError(`Request to ${provider} cancelled`, "cancelled", { cause: error });
  }
  if (attempt.timedOut) {
    const secs = Math.round(attempt.timeoutMs / 1000);
    return new ProviderError(
      `${provider} at ${url} did not respond for ${secs} s`,
      "timeout",
      { cause: error, hint: "Raise [llm] timeout in config.toml if the model is slow to answer." },
    );
  }
  const status = httpStatus(error);
  if (status !== undefined) return fromHttpStatus(status, error, endpoint);
  const streamType = streamErrorType(error);
  if (streamType !== undefined) return fromStreamError(streamType, error, endpoint);
  const text = errorChainText(error);
  if (/timeout|timed out/i.test(nameOf(error))) {
    return new ProviderError(`${provider} at ${url} timed out`, "timeout", { cause: error });
  }
  if (UNREACHABLE.test(text)) {
    // A configuration problem, not a transient one: retrying would only delay the message.
    return new ProviderError(
      `Cannot reach ${provider} at ${url}: ${unreachableReason(text)}`,
      "network_error",
      { cause: error, retryable: false, hint: endpoint.unreachableHint },
    );
  }
  if (isNetworkFailure(error)) {
    return new ProviderError(
      `Connection to ${provider} at ${url} failed: ${lastMessage(error)}`,
      "network_error",
      { cause: error },
    );
  }
  if (error instanceof SyntaxError) {
    return new ProviderError(
      `${provider} sent a malformed response: ${error.message}`,
      "server_error",
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`${provider} request failed: ${message}`, "permanent_failure", {
    cause: error,
  });
}

function fromHttpStatus(status: number, error: unknown, endpoint: Endpoint): ProviderError {
  const { provider, url, keyEnv, model } = endpoint;
  const detail = `HTTP ${status}: ${serverMessage(error)}`;
  const base = { status, cause: error };
  if (status === 401 || status === 403) {
    const verb = status === 401 ? "was rejected" : "is not allowed to make this request";
    const message = keyEnv
      ? `Cannot call ${provider}: the API key in ${keyEnv} ${verb} (${detail})`
      : `Cannot call ${provider} at ${url}: the server refused the request (${detail})`;
    const hint = keyEnv
      ? `Set ${keyEnv} to a valid key for ${url}${
        status === 403 ? ` with access to model "${model}"` : ""
      }.`
      : "Check the server's authentication settings.";
    return new ProviderError(message, "policy_blocked", { ...base, hint });
  }
  if (status === 429) {
    return new ProviderError(`${provider} rate limit exceeded (${detail})`, "rate_limited", {
      ...base,
      retryAfterMs: retryAfterMs(error),
    });
  }
  if (status >= 500) {
    return new ProviderError(`${provider} server error (${detail})`, "server_error", {
      ...base,
      retryAfterMs: retryAfterMs(error),
    });
  }
  if (status === 408) {
    return new ProviderError(`${provider} request timed out (${detail})`, "timeout", base);
  }
  if (status === 404) {
    return new ProviderError(
      `${provider} at ${url} does not know model "${model}" or the endpoint (${detail})`,
      "permanent_failure",
      { ...base, hint: endpoint.notFoundHint },
    );
  }
  // A provider's 4xx is a fault of our request (context too long, bad model options), never a
  // model mistake in a tool call, so it is not classified as invalid_parameters.
  const category = classifyHttpStatus(status) === "invalid_parameters"
    ? "permanent_failure"
    : classifyHttpStatus(status);
  return new ProviderError(`${provider} rejected the request (${detail})`, category, base);
}

/** Errors delivered inside a 200 stream (Anthropic `event: error`, OpenAI `{"error":…}`). */
function fromStreamError(type: string, error: unknown, endpoint: Endpoint): ProviderError {
  const detail = `${type}: ${serverMessage(error)}`;
  if (/rate_limit/.test(type)) {
    return new ProviderError(
      `${endpoint.provider} rate limit exceeded (${detail})`,
      "rate_limited",
      {
        cause: error,
      },
    );
  }
  if (/authentication|permission/.test(type)) {
    return fromHttpStatus(type.startsWith("auth") ? 401 : 403, error, endpoint);
  }
  if (/invalid_request|not_found|request_too_large/.test(type)) {
    return new ProviderError(
      `${endpoint.provider} rejected the request (${detail})`,
      "permanent_failure",
      { cause: error },
    );
  }
  return new ProviderError(`${endpoint.provider} server error (${detail})`, "server_error", {
    cause: error,
  });
}

function httpStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as { status?: unknown; status_code?: unknown };
  if (typeof e.status === "number") return e.status;
  if (typeof e.status_code === "number") return e.status_code;
  return undefined;
}

function streamErrorType(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as { type?: unknown; error?: unknown; name?: unknown };
  if (e.name !== "APIError" && !String(e.constructor?.name).endsWith("APIError")) return undefined;
  if (typeof e.type === "string" && e.type) return e.type;
  const body = e.error as { type?: unknown; error?: { type?: unknown } } | undefined;
  const t = body?.error?.type ?? body?.type;
  return typeof t === "string" && t ? t : e.error !== undefined ? "api_error" : undefined;
}

/** The server's own explanation, from the parsed error body when there is one. */
function serverMessage(error: unknown): string {
  const e = error as { error?: unknown; message?: unknown };
  let message: unknown = undefined;
  if (typeof e.error === "string") message = e.error;
  else if (typeof e.error === "object" && e.error !== null) {
    const body = e.error as { message?: unknown; error?: { message?: unknown } | string };
    message = typeof body.error === "object" ? body.error?.message : body.error ?? body.message;
    if (typeof message !== "string") message = body.message;
  }
  if (typeof message !== "string" || message === "") {
    message = typeof e.message === "string" ? e.message : String(error);
  }
  const text = (message as string).replace(/\s+/g, " ").trim();
  return text.length > MAX_SERVER_MESSAGE ? `${text.slice(0, MAX_SERVER_MESSAGE)}…` : text;
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { headers?: unknown }).headers;
  if (!(headers instanceof Headers)) return undefined;
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  const secs = Number(value);
  if (value.trim() !== "" && Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function nameOf(error: unknown): string {
  return error instanceof Error ? `${error.name} ${error.constructor.name}` : "";
}

function causes(error: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = error;
  while (e !== undefined && e !== null && out.length < 8) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

function errorChainText(error: unknown): string {
  return causes(error).map((e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)))
    .join(" <- ");
}

function lastMessage(error: unknown): string {
  const chain = causes(error);
  const last = chain[chain.length - 1];
  return last instanceof Error ? last.message : String(last);
}

function isNetworkFailure(error: unknown): boolean {
  return causes(error).some((e) =>
    e instanceof TypeError ||
    /APIConnectionError|ConnectionReset|ConnectionAborted|BrokenPipe|UnexpectedEof/.test(
      nameOf(e),
    )
  );
}

function unreachableReason(text: string): string {
  if (/dns|lookup|name or service|no such host|nodename|ENOTFOUND/i.test(text)) {
    return "the host name does not resolve";
  }
  if (/blocked/i.test(text)) return "requests to that port are blocked";
  if (/unreachable|no route/i.test(text)) return "the network is unreachable";
  return "connection refused";
}

/** Parses streamed tool-call arguments; malformed JSON becomes the INVALID_TOOL_INPUT object. */
export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch (error) {
    return {
      [INVALID_TOOL_INPUT]: { raw, error: error instanceof Error ? error.message : String(error) },
    };
  }
}

/** The JSON an adapter sends back for a past call: the model's own raw text when it was bad. */
export function argumentsJson(input: unknown): string {
  const bad = input as Record<string, { raw?: unknown }> | null;
  const raw = bad?.[INVALID_TOOL_INPUT]?.raw;
  if (typeof raw === "string") return raw;
  return JSON.stringify(input ?? {});
}

/** Tool-call input as an object, as every wire format requires ({} for anything else). */
export function inputObject(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? input as Record<string, unknown>
    : {};
}
