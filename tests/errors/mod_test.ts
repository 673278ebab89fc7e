import { expect } from "expect";
import {
  classifyHttpStatus,
  classifyIoError,
  ERROR_CATEGORIES,
  formatToolError,
  isRetryable,
  outcomeOf,
  SandboxViolation,
  ToolError,
  toToolError,
} from "../../src/errors/mod.ts";

Deno.test("the [tool_error] block: category, one-line error, suggestion, retryable", () => {
  expect(formatToolError(new ToolError("timeout", "Command timed out\n  after 30 s"))).toBe([
    "[tool_error]",
    "category: timeout",
    "error: Command timed out after 30 s",
    "suggestion: The operation timed out. The system will retry if possible.",
    "retryable: true",
  ].join("\n"));
  expect(
    formatToolError(new ToolError("permanent_failure", "File gone", { hint: "Use find_path." })),
  ).toBe([
    "[tool_error]",
    "category: permanent_failure",
    "error: File gone",
    "suggestion: Use find_path.",
    "retryable: false",
  ].join("\n"));
});

Deno.test("exactly the 11 categories; only infrastructure failures are retryable", () => {
  expect(ERROR_CATEGORIES.length).toBe(11);
  expect(ERROR_CATEGORIES.filter(isRetryable)).toEqual([
    "rate_limited",
    "server_error",
    "network_error",
    "timeout",
  ]);
});

Deno.test("classifyHttpStatus follows the spec table", () => {
  const cases: [number, string][] = [
    [400, "invalid_parameters"],
    [422, "invalid_parameters"],
    [401, "policy_blocked"],
    [403, "policy_blocked"],
    [404, "permanent_failure"],
    [429, "rate_limited"],
    [500, "server_error"],
    [503, "server_error"],
    [302, "permanent_failure"],
  ];
  expect(cases.map(([s]) => classifyHttpStatus(s))).toEqual(cases.map((c) => c[1]));
});

Deno.test("classifyIoError and toToolError map Deno errors onto categories", () => {
  const cases: [unknown, string][] = [
    [new Deno.errors.TimedOut("t"), "timeout"],
    [new Deno.errors.ConnectionRefused("c"), "network_error"],
    [new Deno.errors.Interrupted("i"), "server_error"],
    [new Deno.errors.PermissionDenied("p"), "policy_blocked"],
    [new Deno.errors.NotFound("n"), "permanent_failure"],
    [new DOMException("a", "AbortError"), "cancelled"],
    [new SandboxViolation("/etc/passwd"), "policy_blocked"],
  ];
  expect(cases.map(([e]) => classifyIoError(e))).toEqual(cases.map((c) => c[1]));
  const kept = new ToolError("rate_limited", "slow down");
  expect(toToolError(kept)).toBe(kept);
  const wrapped = toToolError(new Deno.errors.NotFound("gone"));
  expect([wrapped.category, wrapped.message]).toEqual(["permanent_failure", "gone"]);
  expect(new SandboxViolation("/etc/passwd").message).toBe(
    'Cannot access "/etc/passwd": is outside the allowed paths',
  );
});

Deno.test("outcomeOf: refusals are blocked, timeouts and cancellations keep their name", () => {
  expect(Object.fromEntries(ERROR_CATEGORIES.map((c) => [c, outcomeOf(c)]))).toEqual({
    tool_not_found: "error",
    invalid_parameters: "error",
    type_mismatch: "error",
    policy_blocked: "blocked",
    confirmation_required: "blocked",
    permanent_failure: "error",
    cancelled: "cancelled",
    rate_limited: "error",
    server_error: "error",
    network_error: "error",
    timeout: "timeout",
  });
});
