/**
 * Offloading of large tool outputs, which main.ts runs as the registry's overflow output hook
 * (after the filters). Outputs over the threshold are stored whole and the model reads head +
 * tail with the `overflow:<uuid>` reference; raw output that a filter shortened for a failed
 * command is stored too, so nothing a filter hid is lost.
 */
import type { Config } from "../config/mod.ts";
import { truncateHeadTail } from "./_text.ts";
import type { OverflowSaved, Store } from "./store.ts";

/** What offloading reads and rewrites of a finished call; the registry's ToolResult fits it. */
export interface OffloadedCall {
  /** What the model reads: cut to head + tail and given notes here. */
  text: string;
  overflowId?: string;
  filterStats?: { rawLines: number; filteredLines: number };
  /** The tool's own output, before the filters. */
  output?: { text: string; failed?: boolean; exitCode?: number | null; skipOverflow?: boolean };
}

export interface OffloadOptions {
  /** Entries belong to a conversation; without one nothing is stored. */
  conversationId: string | null;
  settings: Config["tools"]["overflow"];
  /**
   * `[tools] summarize_output`: the model's summary of the output, shown instead of the head +
   * tail cut; or why no summary could be had (the cut is shown and the note says why).
   */
  summary?: { text: string } | { failed: string };
}

/**
 * Stores what does not fit and rewrites `call.text` and `call.overflowId`. `store` may be null
 * (no database in this session): then outputs over the threshold are cut to head + tail with a
 * note that the full output could not be kept.
 *
 * Decision: the entry holds the text the head + tail were cut from (for bash, the filtered
 * output), so read_overflow offsets match what the model saw. The unfiltered output of a failed
 * command is stored as a second entry; of a successful one it is not (the filter dropped noise
 * from a command that worked, and storing it too would double the writes for every big build).
 */
export function offloadIfLarge(
  store: Pick<Store, "saveOverflow"> | null,
  call: OffloadedCall,
  options: OffloadOptions,
): void {
  const { conversationId, settings } = options;
  if (call.output?.skipOverflow) return;
  const notes: string[] = [];

  const stats = call.filterStats;
  const output = call.output;
  const raw = output?.text;
  // The filter hook's own rule for "failed": the flag, else a non-zero exit code.
  const failed = output?.failed ??
    (typeof output?.exitCode === "number" && output.exitCode !== 0);
  if (
    stats && stats.filteredLines < stats.rawLines && failed && raw !== undefined &&
    raw !== call.text
  ) {
    const saved = trySave(store, conversationId, raw, settings.max_overflow_bytes);
    if ("id" in saved) {
      call.overflowId ??= saved.id;
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

  if (call.text.length > settings.threshold) {
    const full = call.text;
    const saved = trySave(store, conversationId, full, settings.max_overflow_bytes);
    const summary = options.summary;
    const shown = summary && "text" in summary
      ? `[Summary of the full output (${full.length} chars), written by the model]\n${summary.text}`
      : truncateHeadTail(full, settings.threshold);
    if (summary && "failed" in summary) {
      notes.push(
        `[summarize_output: the summary request failed (${summary.failed}); the first and last part are shown instead.]`,
      );
    }
    if ("id" in saved) {
      call.overflowId = saved.id;
      notes.unshift(storedNote(saved, settings.max_overflow_bytes));
    } else {
      notes.unshift(
        `[Full output (${full.length} chars) could not be stored: ${saved.reason}. ${
          summary && "text" in summary
            ? "Only the summary above is left of it."
            : "Only the first and last part are shown."
        }]`,
      );
    }
    call.text = shown;
  }

  if (notes.length) call.text = `${call.text}\n\n${notes.join("\n")}`;
}

function storedNote(saved: OverflowSaved, maxBytes: number): string {
  const how = `Use read_overflow with id "${saved.id}" (and offset/limit) to read it.`;
  if (saved.truncated) {
    return `[Full output is ${saved.byteSize} bytes, over max_overflow_bytes (${maxBytes}): only the first ${saved.storedBytes} bytes are stored as overflow:${saved.id}. ${how}]`;
  }
  return `[Full output stored as overflow:${saved.id} (${saved.byteSize} bytes). ${how}]`;
}

function trySave(
  store: Pick<Store, "saveOverflow"> | null,
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
