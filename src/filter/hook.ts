/** The filter step of a tool call: what main.ts wires as the registry's output hook (order 10). */
import type { FilterCounters, FilterEngine } from "./engine.ts";
import type { FilterStats } from "./types.ts";

/** The parts of a tool result the filter reads and rewrites (the registry's `ToolResult`). */
export interface FilterableResult {
  text: string;
  filterStats?: FilterStats;
  output?: {
    /** The command the rules match against (bash sets it). */
    filterCommand?: string;
    failed?: boolean;
    exitCode?: number | null;
  };
}

/**
 * Replaces `result.text` with the filtered text and sets `result.filterStats` when the tool
 * set `output.filterCommand`. Counts go to `options.counters`.
 * @default options.counters engine.counters
 */
export function filterToolOutput(
  engine: FilterEngine,
  result: FilterableResult,
  options: { counters?: FilterCounters } = {},
): void {
  const output = result.output;
  if (!output?.filterCommand || !engine.enabled) return;
  const failed = output.failed ?? (typeof output.exitCode === "number" && output.exitCode !== 0);
  const outcome = engine.filter(output.filterCommand, result.text, { failed });
  result.text = outcome.text;
  result.filterStats = outcome.stats;
  (options.counters ?? engine.counters).record(outcome);
}
