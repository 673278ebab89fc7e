/**
 * The overflow OutputHook (order 20, after the filter hook at 10). Outputs over the threshold are
 * stored whole and the model reads head + tail with the `overflow:<uuid>` reference; raw output
 * that a filter shortened for a failed command is stored too, so nothing a filter hid is lost.
 * It imports only types from the tool layer: the registry calls it, it never calls the registry.
 */
import type { Config } from "../config/schema.ts";
import type { HookInput, OutputHook, ToolResult } from "../tools/registry.ts";
import { truncateHeadTail } from "./_text.ts";
import type { OverflowSaved, Store } from "./store.ts";

/**
 * Builds the hook. `store` may be null (no database in this session): then outputs over the
 * threshold are cut to head + tail with a note that the full output could not be kept. When
 * absent here, `session.services.store` is used.
 *
 * Decision: the entry holds the text the head + tail were cut from (for bash, the filtered
 * output), so read_overflow offsets match what the model saw. The unfiltered output of a failed
 * command is stored as a second entry; of a successful one it is not (the filter dropped noise
 * from a command that worked, and storing it too would double the writes for every big build).
 */
export function overflowHook(store: Store | null, config: Config): OutputHook {
  const settings = config.tools.overflow;
  return {
    name: "overflow",
    order: 20,
    apply(result: ToolResult, input: HookInput): void {
      if (result.output?.skipOverflow) return;
      const activeStore: Store | null = store ?? input.session.services?.store ?? null;
      const conversationId = input.session.conversationId ?? null;
      const notes: string[] = [];

      const stats = result.filterStats;
      const output = result.output;
      const raw = output?.text;
      // The filter hook's own rule for "failed": the flag, else a non-zero exit code.
      const failed = output?.failed ??
        (typeof output?.exitCode === "number" && output.exitCode !== 0);
      if (
        stats && stats.filteredLines < stats.rawLines && failed && raw !== undefined &&
        raw !== result.text
      ) {
        const saved = trySave(activeStore, conversationId, raw, settings.max_overflow_bytes);
        if ("id" in saved) {
          result.overflowId ??= saved.id;
          notes.push(
            `[The command failed and filters removed ${
              stats.rawLines - stats.filteredLines
            } of ${stats.rawLines} lines; the unfiltered output is stored as overflow:${saved.id} (${saved.byteSize} bytes${
              saved.truncated ? `, first ${saved.storedBytes} bytes kept` : ""
            }). Use read_overflow with id "${saved.id}" to read it.]`,
          );
        }
        // Without a store the filtered text stands; the filter stats line already says lines
        // were removed, and there is nowhere to keep them.
      }

      if (result.text.length > settings.threshold) {
        const full = result.text;
        const saved = trySave(activeStore, conversationId, full, settings.max_overflow_bytes);
        const shown = truncateHeadTail(full, settings.threshold);
        if ("id" in saved) {
          result.overflowId = saved.id;
          notes.unshift(storedNote(saved, settings.max_overflow_bytes));
        } else {
          notes.unshift(
            `[Full output (${full.length} chars) could not be stored: ${saved.reason}. Only the first and last part are shown.]`,
          );
        }
        result.text = shown;
      }

      if (notes.length) result.text = `${result.text}\n\n${notes.join("\n")}`;
    },
  };
}

function storedNote(saved: OverflowSaved, maxBytes: number): string {
  const how = `Use read_overflow with id "${saved.id}" (and offset/limit) to read it.`;
  if (saved.truncated) {
    return `[Full output is ${saved.byteSize} bytes, over max_overflow_bytes (${maxBytes}): only the first ${saved.storedBytes} bytes are stored as overflow:${saved.id}. ${how}]`;
  }
  return `[Full output stored as overflow:${saved.id} (${saved.byteSize} bytes). ${how}]`;
}

function trySave(
  store: Store | null,
  conversationId: string | null,
  content: string,
  maxBytes: number,
): OverflowSaved | { reason: string } {
  if (!store) return { reason: "no overflow store is available in this session" };
  if (!conversationId) return { reason: "no conversation is active" };
  try {
    return store.saveOverflow(conversationId, content, { maxBytes });
  } catch (error) {
    // A full disk or a locked database must not turn a successful tool call into a failure.
    return { reason: `saving failed (${(error as Error).message})` };
  }
}
