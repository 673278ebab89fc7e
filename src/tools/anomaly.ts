/**
 * The anomaly detector (spec "Anomaly detection", `[tools.anomaly]`): per tool, a sliding window
 * of its last `window_size` outcomes. When the window is full and the share of failures exceeds
 * `failure_threshold`, a critical alert goes to the user and, with `auto_block`, the tool is
 * blocked for the session (hidden from the model, refused) until the user unblocks it.
 * What counts:
 * - a failure is a call that ended in error: bad parameters, a tool that failed, an unknown tool;
 * - infrastructure failures (rate limits, server and network errors, timeouts) go to a window of
 *   their own: above the threshold they raise a warning, and never block, because the tool is
 *   not at fault;
 * - refusals (policy, the user, confirmation) and cancels are not the tool's outcome and are not
 *   counted; neither is a command that ran and exited non-zero (the tool worked).
 * After an alert the tool's window starts over, so one bad streak raises one alert.
 */
import { type ErrorCategory, isRetryable } from "../errors/mod.ts";
import type { Outcome } from "../errors/mod.ts";

export interface AnomalySettings {
  enabled: boolean;
  window_size: number;
  failure_threshold: number;
  auto_block: boolean;
}

export interface AnomalyAlert {
  tool: string;
  /** `critical`: the tool's own failures; `warning`: infrastructure failures. */
  severity: "critical" | "warning";
  blocked: boolean;
  message: string;
}

/** What a finished call contributes to the windows. */
export type CountedOutcome = "success" | "failure" | "infrastructure" | null;

/** How a call's outcome counts (null: not counted). */
export function countedOutcome(
  result: { ok: boolean; outcome: Outcome; category?: ErrorCategory },
): CountedOutcome {
  if (result.ok) return "success";
  if (result.outcome === "blocked" || result.outcome === "cancelled") return null;
  if (result.outcome === "timeout" || (result.category && isRetryable(result.category))) {
    return "infrastructure";
  }
  return "failure";
}

export class AnomalyDetector {
  readonly settings: AnomalySettings;
  #quality = new Map<string, boolean[]>();
  #infra = new Map<string, boolean[]>();
  #blocked = new Set<string>();

  constructor(settings: AnomalySettings) {
    this.settings = settings;
  }

  /** Records one finished call of `tool`; returns the alert it raises, if any. */
  record(tool: string, outcome: CountedOutcome): AnomalyAlert | null {
    if (!this.settings.enabled || outcome === null) return null;
    if (outcome === "success") {
      // A success is a sample in both windows: it dilutes tool failures and outages alike.
      const quality = this.#push(this.#quality, tool, false);
      const infra = this.#push(this.#infra, tool, false);
      return quality ?? infra;
    }
    return outcome === "failure"
      ? this.#push(this.#quality, tool, true)
      : this.#push(this.#infra, tool, true);
  }

  isBlocked(tool: string): boolean {
    return this.#blocked.has(tool);
  }

  /** The blocked tools, sorted. */
  blocked(): string[] {
    return [...this.#blocked].sort();
  }

  /** Lifts a block (`/unblock <tool>`); false when the tool was not blocked. */
  unblock(tool: string): boolean {
    this.#quality.delete(tool);
    return this.#blocked.delete(tool);
  }

  /** Forgets every window and block (a new session). */
  reset(): void {
    this.#quality.clear();
    this.#infra.clear();
    this.#blocked.clear();
  }

  #push(windows: Map<string, boolean[]>, tool: string, failed: boolean): AnomalyAlert | null {
    const size = this.settings.window_size;
    const window = windows.get(tool) ?? [];
    window.push(failed);
    if (window.length > size) window.shift();
    windows.set(tool, window);
    if (window.length < size) return null;
    const failures = window.filter(Boolean).length;
    const ratio = failures / size;
    if (ratio <= this.settings.failure_threshold) return null;
    windows.delete(tool);
    const share = `${failures} of its last ${size} calls (${Math.round(ratio * 100)}% > ` +
      `failure_threshold ${this.settings.failure_threshold})`;
    if (windows === this.#infra) {
      return {
        tool,
        severity: "warning",
        blocked: false,
        message: `Tool "${tool}" hit infrastructure failures (rate limits, network or server ` +
          `errors, timeouts) in ${share}. It stays available: check the network or the service.`,
      };
    }
    const block = this.settings.auto_block;
    if (block) this.#blocked.add(tool);
    return {
      tool,
      severity: "critical",
      blocked: block,
      message: `Tool "${tool}" failed ${share}. ` +
        (block
          ? `It is blocked for this session: the model no longer sees it. Type /unblock ${tool} ` +
            "to allow it again."
          : "It stays available ([tools.anomaly] auto_block = false)."),
    };
  }
}
