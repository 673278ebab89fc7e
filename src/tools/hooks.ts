/**
 * The registry's hooks over the lower layers' plain functions: the output filter (order 10),
 * the overflow store (order 20) and the audit log (a final hook). main.ts wires these, and so do
 * the tests and benches that run whole dispatches, so there is one wiring to keep true.
 * Not re-exported by mod.ts: it loads the store (and the filter engine when a result needs it).
 */
import type { Config } from "../config/mod.ts";
import type { FilterEngine } from "../filter/mod.ts";
import { auditRecordOf, type AuditWriter, offloadIfLarge, type Store } from "../store/mod.ts";
import type { FinalHook, OutputHook } from "./registry.ts";

/** The output filter: shrinks a tool's text by the compiled rules (order 10). */
export function filterHook(engine: FilterEngine): OutputHook {
  return lazyFilterHook(() => Promise.resolve(engine));
}

/**
 * The output filter with an engine loaded on first use: only results that name a command
 * (`output.filterCommand`, set by bash) need the rules, so a call of any other tool, and a
 * one-shot `zeph tool read`, never compiles them. `load` runs once; its promise is shared.
 */
export function lazyFilterHook(load: () => Promise<FilterEngine>): OutputHook {
  let engine: Promise<FilterEngine> | null = null;
  return {
    name: "filter",
    order: 10,
    async apply(result) {
      if (!result.output?.filterCommand) return;
      // The filter modules (and re2js) load here too, not with this file.
      const [{ filterToolOutput }, loaded] = await Promise.all([
        import("../filter/mod.ts"),
        engine ??= load(),
      ]);
      filterToolOutput(loaded, result);
    },
  };
}

/**
 * The overflow store: output over the threshold goes to `store` (order 20, after the filter),
 * and so does the unfiltered output of a command the filter shortened (`[tools.filters]
 * keep_unfiltered`).
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
        keepUnfiltered: config.tools.filters.keep_unfiltered,
        summary,
      });
    },
  };
}

/** Options of {@link auditHook}. */
export interface AuditHookOptions {
  /** Stamps the lines. @default the wall clock */
  now?: () => Date;
  /** Where the one warning about a log that cannot be written goes. @default console.error */
  warn?: (message: string) => void;
}

/**
 * The audit log: one line per call, whatever its outcome. A log that cannot be written (a
 * read-only data directory) must not fail the calls; the user is told once, with the fix, rather
 * than after every call.
 */
export function auditHook(log: AuditWriter | null, options: AuditHookOptions = {}): FinalHook {
  const now = options.now ?? (() => new Date());
  const warn = options.warn ?? ((message: string) => console.error(message));
  return {
    name: "audit",
    async record(result, call) {
      await log?.appendOrWarnOnce(auditRecordOf(result, call, { at: now() }), warn);
    },
  };
}
