/** The registry's output hook (order 10): filters bash output on its way to the model. */
import type { OutputHook } from "../tools/registry.ts";
import type { FilterEngine, FilterSession } from "./engine.ts";

/**
 * Replaces `result.text` with the filtered text and sets `result.filterStats` when the tool
 * set `output.filterCommand` (bash does). Counters go to `options.session`.
 * @default options.session engine.session
 */
export function filterHook(
  engine: FilterEngine,
  options: { session?: FilterSession } = {},
): OutputHook {
  const session = options.session ?? engine.session;
  return {
    name: "filter",
    order: 10,
    apply(result) {
      const output = result.output;
      if (!output?.filterCommand || !engine.enabled) return;
      const failed = output.failed ??
        (typeof output.exitCode === "number" && output.exitCode !== 0);
      // The tool's bytes are the text's only while no hook before this one rewrote it.
      const utf8 = result.text === output.text ? output.utf8 : undefined;
      const outcome = engine.filter(output.filterCommand, result.text, { failed, utf8 });
      // Up to 2 × max_output_bytes: not held through the hooks after this one.
      delete output.utf8;
      result.text = outcome.text;
      result.filterStats = outcome.stats;
      session.record(outcome);
    },
  };
}
