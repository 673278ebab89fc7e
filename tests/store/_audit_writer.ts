// Appends audit entries forever (until killed); used by audit_test.ts to crash a writer mid-stream.
import { AuditWriter } from "../../src/store/audit.ts";

const writer = new AuditWriter(Deno.args[0]);
const big = "x".repeat(Number(Deno.args[1] ?? "100000"));
for (let i = 0;; i++) {
  await writer.append({
    timestamp: new Date(0).toISOString(),
    tool: "bash",
    subject: `${i} ${big}`,
    decision: "allow",
    policy_match: null,
    caller_id: null,
    result: "success",
    error_category: null,
    exit_code: 0,
    truncated: false,
    duration_ms: i,
  });
}
