// The overflow and audit hooks as main.ts wires them onto the registry, for tests that run whole
// dispatches through them.
import type { Config } from "../../src/config/schema.ts";
import { auditRecordOf, type AuditWriter } from "../../src/store/audit.ts";
import { offloadIfLarge, type Store } from "../../src/store/mod.ts";
import type { FinalHook, OutputHook } from "../../src/tools/registry.ts";

/** The overflow output hook (order 20, after the filter at 10). */
export function overflowHook(store: Store | null, config: Config): OutputHook {
  return {
    name: "overflow",
    order: 20,
    apply: (result, call) =>
      offloadIfLarge(store, result, {
        conversationId: call.scope.conversationId ?? null,
        settings: config.tools.overflow,
      }),
  };
}

/** The audit final hook; `now` stamps the entries. */
export function auditHook(log: AuditWriter | null, now: () => Date = () => new Date()): FinalHook {
  return {
    name: "audit",
    record: (result, call) => log?.append(auditRecordOf(result, call, { at: now() })),
  };
}
