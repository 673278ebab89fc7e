/**
 * `[tools] summarize_output`: a long tool output is summarised by the session's own model (one
 * request without tools) instead of being cut to head + tail. The overflow hook (tools/hooks.ts)
 * stores the full output either way and falls back to the cut when this rejects.
 */
import type { Provider } from "../provider/mod.ts";
import type { OutputSummarizer } from "../tools/mod.ts";

/**
 * The most of an output sent for summary: longer ones are sent as their head and tail, so the
 * summary request itself stays inside any model's context.
 */
export const MAX_SUMMARY_INPUT_CHARS = 100_000;

const INSTRUCTION =
  "Summarise the tool output below for a coding agent that cannot see it. Keep every file path, " +
  "error message, failing test name, number and exit code that matters; drop repetition and " +
  "progress noise. Answer with the summary only, at most 40 lines.";

/** A summariser that asks `provider` (no tools offered); an empty answer counts as a failure. */
export function providerSummarizer(provider: Provider): OutputSummarizer {
  return async (output, { tool, signal }) => {
    const half = MAX_SUMMARY_INPUT_CHARS / 2;
    const sent = output.length <= MAX_SUMMARY_INPUT_CHARS ? output : `${output.slice(0, half)}\n` +
      `[… ${output.length - MAX_SUMMARY_INPUT_CHARS} characters left out …]\n${
        output.slice(-half)
      }`;
    const response = await provider.chat({
      system: INSTRUCTION,
      messages: [{
        role: "user",
        parts: [{ type: "text", text: `Output of the ${tool} tool:\n\n${sent}` }],
      }],
      tools: [],
      signal,
    });
    const summary = response.text.trim();
    if (!summary) throw new Error("the model returned an empty summary");
    return summary;
  };
}
