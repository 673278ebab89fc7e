/**
 * The tool error taxonomy of the spec: 11 categories, the `[tool_error]` block the model reads,
 * the classifiers that map HTTP statuses and OS errors onto categories, and the outcome a
 * category stands for in results and the audit log.
 * A leaf: tools, providers, sandbox, the agent loop and the front-ends import it; it imports
 * nothing of zeph's.
 */

export const ERROR_CATEGORIES = [
  "tool_not_found",
  "invalid_parameters",
  "type_mismatch",
  "policy_blocked",
  "confirmation_required",
  "permanent_failure",
  "cancelled",
  "rate_limited",
  "server_error",
  "network_error",
  "timeout",
] as const;

export type ErrorCategory = typeof ERROR_CATEGORIES[number];

const RETRYABLE: ReadonlySet<ErrorCategory> = new Set([
  "rate_limited",
  "server_error",
  "network_error",
  "timeout",
]);

/** Infrastructure failures: retried with backoff, never counted as model mistakes. */
export function isRetryable(category: ErrorCategory): boolean {
  return RETRYABLE.has(category);
}

/** Quality failures: the model produced a wrong call; one reformat attempt is made. */
export function needsParameterReformat(category: ErrorCategory): boolean {
  return category === "invalid_parameters" || category === "type_mismatch";
}

/** How a call ended, as results, events and the audit log report it. */
export type Outcome = "success" | "error" | "blocked" | "timeout" | "cancelled";

/** The outcome of a call that failed with `category`: refusals are `blocked`. */
export function outcomeOf(category: ErrorCategory): Exclude<Outcome, "success"> {
  switch (category) {
    case "policy_blocked":
    case "confirmation_required":
      return "blocked";
    case "timeout":
      return "timeout";
    case "cancelled":
      return "cancelled";
    default:
      return "error";
  }
}

const SUGGESTIONS: Record<ErrorCategory, string> = {
  tool_not_found: "Check the tool name against the list of available tools.",
  invalid_parameters: "Review the tool's parameter schema and call it again with valid input.",
  type_mismatch: "Review the tool's parameter schema: a parameter has the wrong type.",
  policy_blocked: "Blocked by security policy. Try an alternative that stays within the policy.",
  confirmation_required:
    "This action requires user confirmation. Ask the user, or try a different approach.",
  permanent_failure: "The resource is unavailable. Try an alternative approach.",
  cancelled: "The operation was cancelled by the user.",
  rate_limited: "Rate limit exceeded. The system will retry if possible.",
  server_error: "The server failed. The system will retry if possible.",
  network_error: "A network error occurred. The system will retry if possible.",
  timeout: "The operation timed out. The system will retry if possible.",
};

export function suggestionFor(category: ErrorCategory): string {
  return SUGGESTIONS[category];
}

export interface ToolErrorOptions {
  /** A more specific hint than the category's default suggestion. */
  hint?: string;
  cause?: unknown;
}

/** The one error type tools throw; the registry turns it into the `[tool_error]` block. */
export class ToolError extends Error {
  readonly category: ErrorCategory;
  readonly hint?: string;

  constructor(category: ErrorCategory, message: string, options: ToolErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = "ToolError";
    this.category = category;
    this.hint = options.hint;
  }

  get retryable(): boolean {
    return isRetryable(this.category);
  }
}

/** A path or command resolved outside the sandbox. */
export class SandboxViolation extends ToolError {
  readonly path: string;
  constructor(path: string, reason = "is outside the allowed paths", hint?: string) {
    super("policy_blocked", `Cannot access ${JSON.stringify(path)}: ${reason}`, {
      hint: hint ?? "Only paths inside the workspace (or [tools.file] allowed_paths) can be used.",
    });
    this.name = "SandboxViolation";
    this.path = path;
  }
}

/** The four-field block of the spec, with the hint (if any) as the suggestion. */
export function formatToolError(error: ToolError): string {
  const message = error.message.replace(/\s*\n\s*/g, " ").trim();
  return [
    "[tool_error]",
    `category: ${error.category}`,
    `error: ${message}`,
    `suggestion: ${error.hint ?? suggestionFor(error.category)}`,
    `retryable: ${error.retryable}`,
  ].join("\n");
}

/** classify_http_status of the spec. */
export function classifyHttpStatus(status: number): ErrorCategory {
  if (status === 400 || status === 422) return "invalid_parameters";
  if (status === 401 || status === 403) return "policy_blocked";
  if (status === 429) return "rate_limited";
  if (status >= 500 && status <= 599) return "server_error";
  return "permanent_failure";
}

/** classify_io_error of the spec, on Deno's error classes. NotFound is a permanent failure. */
export function classifyIoError(error: unknown): ErrorCategory {
  if (error instanceof ToolError) return error.category;
  if (error instanceof Deno.errors.TimedOut) return "timeout";
  if (
    error instanceof Deno.errors.ConnectionRefused ||
    error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.BrokenPipe
  ) return "network_error";
  if (error instanceof Deno.errors.Interrupted || error instanceof Deno.errors.WouldBlock) {
    return "server_error";
  }
  if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
    return "policy_blocked";
  }
  if (error instanceof DOMException && error.name === "AbortError") return "cancelled";
  return "permanent_failure";
}

/** Wraps any thrown value as a ToolError, keeping ToolErrors as they are. */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const category = classifyIoError(error);
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(category, message, { cause: error });
}
