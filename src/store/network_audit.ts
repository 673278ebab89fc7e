/**
 * The audit line of one decision of the sandbox's network proxy (`[tools.shell.sandbox]
 * allowed_domains`): the same JSONL log as tool calls, under the name `sandbox_network`, so one
 * file shows both what a command was allowed to run and where it was allowed to connect.
 */
import type { ProxyDecision } from "../exec/mod.ts";
import type { AuditEntry } from "./audit.ts";

/** The pseudo tool name of network decisions in the audit log. */
export const NETWORK_AUDIT_TOOL = "sandbox_network";

/** The entry for one proxy decision. */
export function networkAuditRecord(decision: ProxyDecision, options: { at: Date }): AuditEntry {
  const target = decision.host.includes(":")
    ? `[${decision.host}]:${decision.port}`
    : `${decision.host}:${decision.port}`;
  return {
    timestamp: options.at.toISOString(),
    tool: NETWORK_AUDIT_TOOL,
    subject: `${decision.method} ${target}`,
    decision: decision.allowed ? "allow" : "deny",
    policy_match: decision.pattern === null
      ? null
      : `tools.shell.sandbox.allowed_domains ${JSON.stringify(decision.pattern)}`,
    caller_id: null,
    result: decision.allowed ? "success" : "blocked",
    error_category: decision.allowed ? null : "policy_blocked",
    exit_code: null,
    truncated: false,
    duration_ms: 0,
  };
}
