/**
 * The registry's hooks over the lower layers' plain functions: the output filter (order 10),
 * the overflow store (order 20) and the audit log (a final hook). main.ts wires these, and so do
 * the tests and benches that run whole dispatches, so there is one wiring to keep true.
 * Not re-exported by mod.ts: it loads the filter engine and the store.
 */
import type { Config } from "../config/mod.ts";
import { type FilterEngine, filterToolOutput } from "../filter/mod.ts";
import { auditRecordOf, type AuditWriter, offloadIfLarge, type Store } from "../store/mod.ts";
import type { FinalHook, OutputHook } from "./registry.ts";

/** The output filter: shrinks a tool's text by the compiled rules (order 10). */
export function filterHook(engine: FilterEngine): OutputHook {
  return { name: "filter", order: 10, apply: (result) => filterToolOutput(engine, result) };
}

/**
 * The overflow store: output over the threshold goes to `store` (order 20, after the filter).
 * With `[tools] summarize_output` and a caller that can summarise (an agent session), the model
 * reads a summary instead of the head + tail cut; a failed summary falls back to the cut.
 */
export function overflowHook(store: Store | null, config: Config): OutputHook {
  const settings = config.tools.overflow;
  return {
    name: "overflow",
    order: 20,
    apply: async (result, call) => {
      const summarize = config.tools.summarize_output ? call.scope.summarize : undefined;
      let summary: { text: string } | { failed: string } | undefined;
      if (summarize && !result.output?.skipOverflow && result.text.length > settings.threshold) {
        try {
          const signal = call.scope.signal ?? new AbortController().signal;
          summary = { text: await summarize(result.text, { tool: result.tool, signal }) };
        } catch (error) {
          summary = { failed: error instanceof Error ? error.message : String(error) };
        }
      }
      offloadIfLarge(store, result, {
        conversationId: call.scope.conversationId ?? null,
        settings,
        summary,
      });
    },
  };
}

/** The audit log: one line per call, whatever its outcome; `now` stamps the lines. */
export function auditHook(log: AuditWriter | null, now: () => Date = () => new Date()): FinalHook {
  return {
    name: "audit",
    record: (result, call) => log?.append(auditRecordOf(result, call, { at: now() })),
  };
}
