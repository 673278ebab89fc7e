import { expect } from "expect";
import type { RetryConfig } from "../../src/config/schema.ts";
import { backoffDelay, sleep, withRetry } from "../../src/provider/retry.ts";
import { ProviderError, type RetryNotice } from "../../src/provider/types.ts";

const CONFIG: RetryConfig = { max_attempts: 3, base_ms: 100, max_ms: 1000, budget_secs: 30 };

/** Fails with the given errors in turn, then returns "ok"; counts the calls. */
function flaky(errors: ProviderError[]) {
  let calls = 0;
  const fn = () => {
    const e = errors[calls++];
    return e ? Promise.reject(e) : Promise.resolve("ok");
  };
  return { fn, calls: () => calls };
}

const busy = () => new ProviderError("busy", "server_error");

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

Deno.test("backoffDelay: full jitter under min(base·2^n, max)", () => {
  const table: [number, number, number][] = [
    // attempt, random, delay
    [0, 0.999, 99],
    [1, 0.5, 100],
    [2, 0.999, 399],
    [3, 0.999, 799],
    [4, 0.999, 999],
    [20, 0.5, 500],
    [3, 0, 0],
  ];
  for (const [attempt, r, delay] of table) {
    expect([attempt, backoffDelay(attempt, CONFIG, () => r)]).toEqual([attempt, delay]);
  }
});

Deno.test("withRetry: retries retryable errors up to max_attempts, reporting each retry", async () => {
  const { fn, calls } = flaky([busy(), new ProviderError("slow", "rate_limited")]);
  const notices: RetryNotice[] = [];
  const result = await withRetry(fn, { ...CONFIG, base_ms: 2, max_ms: 4 }, {
    onRetry: (n) => notices.push(n),
    random: () => 0.5,
  });
  expect(result).toBe("ok");
  expect(calls()).toBe(3);
  expect(notices.map((n) => [n.attempt, n.maxAttempts, n.delayMs, n.error.category])).toEqual([
    [1, 3, 1, "server_error"],
    [2, 3, 2, "rate_limited"],
  ]);
});

Deno.test("withRetry: the last error stands after max_attempts retries; 0 disables retry", async () => {
  const errors = [busy(), busy(), busy(), busy(), busy()];
  const many = flaky(errors);
  expect(await rejection(withRetry(many.fn, { ...CONFIG, base_ms: 1, max_ms: 1 }))).toBe(errors[3]);
  expect(many.calls()).toBe(4);
  const none = flaky([busy()]);
  expect(await rejection(withRetry(none.fn, { ...CONFIG, max_attempts: 0 }))).toBeInstanceOf(
    ProviderError,
  );
  expect(none.calls()).toBe(1);
});

Deno.test("withRetry: non-retryable categories, overrides and foreign errors are thrown at once", async () => {
  const cases: unknown[] = [
    new ProviderError("bad key", "policy_blocked"),
    new ProviderError("gone", "permanent_failure"),
    new ProviderError("partial output", "server_error", { retryable: false }),
    new TypeError("bug"),
  ];
  for (const error of cases) {
    let calls = 0;
    const got = await rejection(withRetry(() => {
      calls++;
      return Promise.reject(error);
    }, CONFIG));
    expect([got, calls]).toEqual([error, 1]);
  }
});

Deno.test("withRetry: retry-after wins over a shorter jitter, capped at max_ms", async () => {
  const delays: number[] = [];
  const { fn } = flaky([
    new ProviderError("slow", "rate_limited", { retryAfterMs: 3 }),
    new ProviderError("slow", "rate_limited", { retryAfterMs: 60_000 }),
  ]);
  await withRetry(fn, { ...CONFIG, base_ms: 1, max_ms: 5 }, {
    onRetry: (n) => delays.push(n.delayMs),
    random: () => 0,
  });
  expect(delays).toEqual([3, 5]);
});

Deno.test("withRetry: a retry that would overrun budget_secs is not made", async () => {
  let clock = 0;
  const { fn, calls } = flaky([busy(), busy()]);
  const error = await rejection(withRetry(
    () => {
      clock += 29_950; // each attempt "takes" almost the whole budget
      return fn();
    },
    { ...CONFIG, base_ms: 100, max_ms: 100 },
    { now: () => clock, random: () => 0.999 },
  ));
  expect([error instanceof ProviderError, calls()]).toEqual([true, 1]);
});

Deno.test("withRetry: aborting during the backoff sleep cancels promptly", async () => {
  const controller = new AbortController();
  const { fn, calls } = flaky([busy(), busy()]);
  const pending = rejection(
    withRetry(fn, { ...CONFIG, base_ms: 60_000, max_ms: 60_000, budget_secs: 0 }, {
      signal: controller.signal,
      random: () => 0.999,
      onRetry: () => queueMicrotask(() => controller.abort()),
    }),
  );
  const error = await pending as ProviderError;
  expect([error.category, error.message, calls()]).toEqual(["cancelled", "Request cancelled", 1]);
});

Deno.test("withRetry: an already aborted signal never calls fn", async () => {
  const controller = new AbortController();
  controller.abort();
  const { fn, calls } = flaky([]);
  const error = await rejection(withRetry(fn, CONFIG, { signal: controller.signal }));
  expect([(error as ProviderError).category, calls()]).toEqual(["cancelled", 0]);
});

Deno.test("sleep: resolves after the delay, rejects on abort", async () => {
  await sleep(1);
  const controller = new AbortController();
  const pending = rejection(sleep(60_000, controller.signal));
  controller.abort();
  expect(((await pending) as ProviderError).category).toBe("cancelled");
});
