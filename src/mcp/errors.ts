/**
 * The spec's McpErrorCode: MCP call failures classified for retry decisions, and from there onto
 * zeph's error categories, so the loop retries what is retryable (transient, rate limited,
 * server error) and nothing else.
 */
import { type ErrorCategory, ToolError } from "../errors/mod.ts";

export const MCP_ERROR_CODES = [
  "transient",
  "rate_limited",
  "invalid_input",
  "auth_failure",
  "server_error",
  "not_found",
  "policy_blocked",
] as const;

export type McpErrorCode = typeof MCP_ERROR_CODES[number];

const RETRYABLE: ReadonlySet<McpErrorCode> = new Set(["transient", "rate_limited", "server_error"]);

export function isRetryableMcpCode(code: McpErrorCode): boolean {
  return RETRYABLE.has(code);
}

/** The category a code stands for; a timed-out call is `timeout` whatever its code. */
export function categoryOfMcpCode(code: McpErrorCode): ErrorCategory {
  switch (code) {
    case "transient":
      return "network_error";
    case "rate_limited":
      return "rate_limited";
    case "invalid_input":
      return "invalid_parameters";
    case "auth_failure":
    case "policy_blocked":
      return "policy_blocked";
    case "server_error":
      return "server_error";
    case "not_found":
      return "permanent_failure";
  }
}

/** A failed MCP call: the registry reads its category; `code` is the MCP classification. */
export class McpCallError extends ToolError {
  readonly code: McpErrorCode;
  readonly serverId: string;
  constructor(
    serverId: string,
    code: McpErrorCode,
    message: string,
    options: { category?: ErrorCategory; hint?: string; cause?: unknown } = {},
  ) {
    super(options.category ?? categoryOfMcpCode(code), message, options);
    this.name = "McpCallError";
    this.code = code;
    this.serverId = serverId;
  }
}

/** JSON-RPC error codes of MCP (and the SDK's own: -32000 connection closed, -32001 timeout). */
const JSONRPC_CODES: ReadonlyMap<number, McpErrorCode> = new Map([
  [-32700, "server_error"], // parse error: the server could not read what we sent
  [-32600, "invalid_input"],
  [-32601, "not_found"],
  [-32602, "invalid_input"],
  [-32603, "server_error"],
  [-32000, "transient"],
  [-32001, "transient"],
  [-32002, "not_found"], // resource not found
]);

/**
 * The code of a thrown value: JSON-RPC errors by their code, HTTP failures by their status
 * (StreamableHTTPError carries it), connection failures are transient, anything else a server
 * error.
 */
export function mcpCodeOf(error: unknown): McpErrorCode {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === "string" ? e.message : String(error);
  if (typeof e?.code === "number") {
    const byStatus = e.code >= 400 && e.code <= 599 ? httpCode(e.code) : null;
    if (byStatus) return byStatus;
    const known = JSONRPC_CODES.get(e.code);
    if (known) return known;
  }
  const status = /\bHTTP (\d{3})\b|\bstatus(?: code)?:? (\d{3})\b|\((\d{3})\)/i.exec(message);
  if (status) {
    const code = httpCode(Number(status[1] ?? status[2] ?? status[3]));
    if (code) return code;
  }
  if (
    error instanceof TypeError || error instanceof Deno.errors.ConnectionRefused ||
    error instanceof Deno.errors.ConnectionReset ||
    /ECONNREFUSED|ECONNRESET|fetch failed|connection (closed|refused|reset)|socket/i.test(message)
  ) return "transient";
  return "server_error";
}

function httpCode(status: number): McpErrorCode | null {
  if (status === 401 || status === 403) return "auth_failure";
  if (status === 404) return "not_found";
  if (status === 408) return "transient";
  if (status === 429) return "rate_limited";
  if (status === 400 || status === 422) return "invalid_input";
  if (status >= 500) return "server_error";
  return null;
}

/**
 * The code of a result with `isError: true`: the tool ran and reported a failure. A report that
 * names a rate limit, an authorisation failure, a missing thing or a temporary outage gets that
 * code; any other is `invalid_input` (the same call would fail the same way), so it is not
 * retried.
 */
export function mcpCodeOfToolError(text: string): McpErrorCode {
  if (/rate.?limit|too many requests|\b429\b/i.test(text)) return "rate_limited";
  if (/unauthori[sz]ed|forbidden|authenticat|\b40[13]\b/i.test(text)) return "auth_failure";
  if (/temporar|unavailable|try again|\b50[234]\b/i.test(text)) return "transient";
  if (/not found|no such|does not exist|\b404\b/i.test(text)) return "not_found";
  return "invalid_input";
}
