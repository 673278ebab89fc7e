/**
 * Retry with full-jitter backoff for provider requests, per `[tools.retry]`: the delay before
 * retry n (0-based) is uniform in [0, min(base_ms · 2^min(n,10), max_ms)]; `max_attempts` is the
 * number of retries after the first try (0 disables); `budget_secs` caps the wall-clock time
 * spent (0 = unlimited). Only ProviderErrors whose `retryable` is true are retried.
 */
import type { RetryConfig } from "../config/mod.ts";
import { ProviderError, type RetryNotice } from "./types.ts";

export interface RetryOptions {
  /** Aborting stops the wait at once with a `cancelled` ProviderError. */
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  /** @default Math.random */
  random?: () => number;
  /** @default Date.now */
  now?: () => number;
}

/** The full-jitter delay before retry `attempt` (0-based). */
export function backoffDelay(
  attempt: number,
  config: Pick<RetryConfig, "base_ms" | "max_ms">,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(config.base_ms * 2 ** Math.min(attempt, 10), config.max_ms);
  return Math.floor(random() * ceiling);
}

/**
 * Runs `fn` and retries it on retryable ProviderErrors. A server's retry-after is honoured when
 * it asks for longer than the jittered delay, capped at `max_ms` so a hostile or confused header
 * cannot park the agent; the budget is checked before each retry and, once it would be exceeded,
 * the last error stands.
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  config: RetryConfig,
  options: RetryOptions = {},
): Promise<T> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const started = now();
  for (let attempt = 0;; attempt++) {
    throwIfCancelled(options.signal);
    try {
      return await fn(attempt);
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable) throw error;
      if (options.signal?.aborted) throw cancelled(options.signal);
      if (attempt >= config.max_attempts) throw error;
      let delayMs = backoffDelay(attempt, config, random);
      const retryAfter = error.options.retryAfterMs;
      if (retryAfter !== undefined && retryAfter > delayMs) {
        delayMs = Math.min(retryAfter, config.max_ms);
      }
      if (config.budget_secs > 0 && now() - started + delayMs > config.budget_secs * 1000) {
        throw error;
      }
      options.onRetry?.({
        attempt: attempt + 1,
        maxAttempts: config.max_attempts,
        delayMs,
        error,
      });
      await sleep(delayMs, options.signal);
    }
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled(signal);
}

function cancelled(signal: AbortSignal): ProviderError {
  return new ProviderError("Request cancelled", "cancelled", { cause: signal.reason });
}

/** A sleep that ends early, with a `cancelled` ProviderError, when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
