/**
 * Events the agent loop emits. The CLI renders them, `--json` prints them as JSONL, and the
 * ACP front-end maps them onto `session/update` notifications.
 */
import type { ErrorCategory } from "../errors/mod.ts";
import type { Usage } from "../provider/mod.ts";
import type { PlanEntry } from "../store/mod.ts";
import type { ToolKind, ToolResult } from "../tools/mod.ts";

export type AgentEvent =
  | { type: "text"; text: string }
  | {
    type: "tool_start";
    callId: string;
    tool: string;
    kind: ToolKind;
    input: unknown;
    /** Command or path(s), for titles. */
    subjects: string[];
  }
  | {
    type: "tool_output";
    callId: string;
    tool: string;
    stream: "stdout" | "stderr";
    chunk: string;
  }
  | { type: "tool_end"; result: ToolResult }
  | {
    type: "notice";
    /** `debug` notices are shown by the CLI only with ZEPH_LOG=debug (and always in --json). */
    level: "debug" | "info" | "warn" | "error";
    /** max_iterations, doom_loop, context_budget, quota, repetition, provider_error, … */
    code: string;
    message: string;
    /** For provider errors: the taxonomy category (network_error → "is it running?"). */
    category?: ErrorCategory;
  }
  /** The whole plan after an update_plan call (front-ends replace what they show). */
  | { type: "plan"; entries: PlanEntry[] }
  | { type: "usage"; usage: Usage }
  | { type: "turn_end"; stopReason: StopReason };

export type StopReason =
  | "end_turn"
  | "max_iterations"
  | "doom_loop"
  | "context_budget"
  | "quota"
  | "cancelled"
  | "error";

export type EventSink = (event: AgentEvent) => void;
