/**
 * Offloading of large tool outputs, which main.ts runs as the registry's overflow output hook
 * (after the filters). Outputs over the threshold are stored whole and the model reads head +
 * tail with the `overflow:<uuid>` reference; raw output that a filter shortened is stored too
 * (`[tools.filters] keep_unfiltered`), so every elision has a way back.
 */
import type { Config } from "../config/mod.ts";
import { truncateHeadTail } from "./_text.ts";
import type { OverflowSaved, Store } from "./store.ts";

/** What offloading reads and rewrites of a finished call; the registry's ToolResult fits it. */
export interface OffloadedCall {
  /** What the model reads: cut to head + tail and given notes here. */
  text: string;
  overflowId?: string;
  filterStats?: {
    rawLines: number;
    filteredLines: number;
    /** What the filter removed beyond sanitising; absent: the raw text's length minus the shown one's. */
    removedChars?: number;
    /** The shown text says lines were left out (a fold marker). */
    elided?: boolean;
  };
  /** The tool's own output, before the filters. */
  output?: { text: string; failed?: boolean; exitCode?: number | null; skipOverflow?: boolean };
}

export interface OffloadOptions {
  /** Entries belong to a conversation; without one nothing is stored. */
  conversationId: string | null;
  settings: Config["tools"]["overflow"];
  /**
   * `[tools.filters] keep_unfiltered`: whose unfiltered output is stored when a filter shortened
   * it. @default "always"
   */
  keepUnfiltered?: Config["tools"]["filters"]["keep_unfiltered"];
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
 * output), so read_overflow offsets match what the model saw. The unfiltered output is a second
 * entry: of a failed command whenever the filter removed anything; of a passing one (mode
 * "always") when the text shows a fold, or what the filter removed is worth the note that points
 * to it (see {@link keepsUnfiltered}) — a fold in a listing or a log hides data the model cannot
 * get back without running the command again, while dropped blank lines and redraws hide nothing.
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
  const raw = call.output?.text;
  if (stats && raw !== undefined && raw !== call.text) {
    const removed = stats.removedChars ?? Math.max(0, raw.length - call.text.length);
    const mode = options.keepUnfiltered ?? "always";
    if (keepsUnfiltered(mode, failedCall(call), stats, removed)) {
      const saved = trySave(store, conversationId, raw, settings.max_overflow_bytes);
      // Without a store the filtered text stands: the filter's stats say lines were removed, and
      // there is nowhere to keep them.
      if ("id" in saved) {
        call.overflowId ??= saved.id;
        notes.push(unfilteredNote(stats, saved));
      }
    }
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

/** The filter hook's own rule for "failed": the flag, else a non-zero exit code. */
function failedCall(call: OffloadedCall): boolean {
  const output = call.output;
  return output?.failed ?? (typeof output?.exitCode === "number" && output.exitCode !== 0);
}

/**
 * A passing command's unfiltered output is stored when the filter removed at least this many
 * times the length of the note that points to it: the note is then at most a small part of what
 * the filter saved.
 */
export const NOTE_COST_FACTOR = 4;

/** An id as long as a stored entry's, to measure a note before storing. */
const SAMPLE_ID = "00000000-0000-0000-0000-000000000000";

/**
 * Whether the unfiltered output is stored. A failed command's is whenever the filter removed a
 * line or a character beyond sanitising (what it hid may be the cause); a passing one's only in
 * mode "always", and when the text shows a fold (no "… N more" without a way back) or the removal
 * outweighs the note (a filter that only dropped blank lines or progress redraws removed nothing
 * to recover; one that dropped a few noise lines, too little to pay for the note).
 */
function keepsUnfiltered(
  mode: NonNullable<OffloadOptions["keepUnfiltered"]>,
  failed: boolean,
  stats: NonNullable<OffloadedCall["filterStats"]>,
  removed: number,
): boolean {
  if (mode === "never") return false;
  if (failed) return stats.filteredLines < stats.rawLines || removed > 0 || !!stats.elided;
  if (mode !== "always") return false;
  if (stats.elided) return true;
  const note = unfilteredNote(stats, { id: SAMPLE_ID, truncated: false });
  return removed >= NOTE_COST_FACTOR * note.length;
}

/**
 * The one line that says the unfiltered output is kept, the same for failed and passing
 * commands: `[filtered: 121 → 22 lines; unfiltered output: overflow:<uuid> (read_overflow)]`.
 */
function unfilteredNote(
  stats: NonNullable<OffloadedCall["filterStats"]>,
  saved: Pick<OverflowSaved, "id" | "truncated"> & Partial<OverflowSaved>,
): string {
  const kept = saved.truncated
    ? `, first ${saved.storedBytes} of ${saved.byteSize} bytes kept (max_overflow_bytes)`
    : "";
  return `[filtered: ${stats.rawLines} → ${stats.filteredLines} lines; unfiltered output${kept}: overflow:${saved.id} (read_overflow)]`;
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
