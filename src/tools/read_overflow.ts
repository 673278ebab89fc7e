/**
 * `read_overflow`: reads back a tool output the overflow hook stored, scoped to the current
 * conversation, one page at a time. Its own output is never offloaded again.
 */
import { z } from "zod";
import type { OverflowSlice } from "../store/mod.ts";
import { ToolError } from "../errors/mod.ts";
import { defineTool } from "./tool.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = "overflow:";

/** Lines per page when `unit` is "lines" and no limit is given. */
export const DEFAULT_LINE_PAGE = 1000;

export const ReadOverflowParams = z.object({
  id: z.string().describe(
    'The overflow entry to read: the UUID of an "overflow:<uuid>" reference, with or without the "overflow:" prefix',
  ),
  offset: z.number().int().min(0).optional().describe(
    "Where to start, 0-based, in `unit`s (default 0)",
  ),
  limit: z.number().int().min(1).optional().describe(
    "How many `unit`s to read (default: one page of up to the overflow threshold in chars, or 1000 lines)",
  ),
  unit: z.enum(["chars", "lines"]).default("chars").describe(
    'What offset and limit count: "chars" (characters, the default) or "lines"',
  ),
}).strict();

const DESCRIPTION =
  `Read a tool output that was stored instead of being shown in full: a large output (the result said "Full output stored as overflow:<uuid>"), or the unfiltered output of a command whose output filters shortened (the result said "unfiltered output: overflow:<uuid>").

Parameters: id (the UUID, "overflow:" prefix optional); offset and limit (optional, in characters, or in lines with unit="lines").
Returns: the requested part of the stored output, unchanged. Without a limit a long entry is returned one page at a time; a note at the end says how to read the next page.
Errors: invalid_parameters when id is not a UUID; permanent_failure when the entry is not found or expired (entries belong to the current conversation and are kept for [tools.overflow] retention_days).
Example: {"id": "overflow:0b6f2c1e-3f7a-4d25-9a7e-5c2d9e1f4b10", "offset": 50000, "limit": 50000}`;

export const readOverflowTool = defineTool({
  name: "read_overflow",
  description: DESCRIPTION,
  params: ReadOverflowParams,
  mutates: false,
  // Stored entries never change: a repeated page comes from the cache, and reading one does not
  // invalidate the cached files.
  cacheable: true,
  kind: "read",
  group: "read",
  invocation: { type: "call" },
  subjects: () => [],
  execute(params, ctx) {
    const id = normaliseId(params.id);
    const store = ctx.overflow;
    if (!store) {
      throw new ToolError(
        "permanent_failure",
        "Cannot read overflow: no overflow store is available in this session",
        { hint: "Do not retry; work with the head and tail that were shown." },
      );
    }
    const pageChars = ctx.config.tools.overflow.threshold;
    const limit = params.limit ??
      (params.unit === "lines" ? DEFAULT_LINE_PAGE : pageChars);
    // Without a conversation there is nothing this call may read: the same answer as a miss.
    const slice = ctx.conversationId === null ? null : store.overflowSlice(id, ctx.conversationId, {
      offset: params.offset ?? 0,
      limit,
      unit: params.unit,
    });
    if (!slice) {
      throw new ToolError("permanent_failure", "overflow entry not found or expired", {
        hint:
          "Overflow entries belong to the conversation that created them and expire after [tools.overflow] retention_days; run the command again if you need its output.",
      });
    }
    return Promise.resolve({
      text: slice.text + pageNote(id, slice, params.offset ?? 0),
      raw: {
        id,
        unit: slice.unit,
        offset: slice.offset,
        end: slice.end,
        total: slice.total,
        byteSize: slice.info.byteSize,
        storedBytes: slice.info.storedBytes,
      },
      skipOverflow: true,
    });
  },
});

function normaliseId(input: string): string {
  const trimmed = input.trim();
  const id = trimmed.toLowerCase().startsWith(PREFIX) ? trimmed.slice(PREFIX.length) : trimmed;
  if (!UUID.test(id)) {
    throw new ToolError(
      "invalid_parameters",
      `Cannot read overflow ${JSON.stringify(input.slice(0, 80))}: the id is not a UUID`,
      { hint: 'Copy the id from the "overflow:<uuid>" reference in the tool result.' },
    );
  }
  return id.toLowerCase();
}

/**
 * Nothing when the whole entry came back; otherwise where this page sits and how to go on. The
 * note is separated by a blank line and bracketed so it cannot be mistaken for the output.
 */
function pageNote(id: string, slice: OverflowSlice, requested: number): string {
  const unit = slice.unit;
  const kept = slice.info.truncated
    ? ` Only the first ${slice.info.storedBytes} of ${slice.info.byteSize} bytes were stored.`
    : "";
  if (requested > slice.total || (requested === slice.total && slice.total > 0)) {
    return `\n\n[overflow:${id}: offset ${requested} is at or past the end (${slice.total} ${unit}).${kept}]`;
  }
  if (slice.offset === 0 && slice.end >= slice.total) return kept ? `\n\n[${kept.trim()}]` : "";
  const more = slice.end < slice.total
    ? ` Use read_overflow with id "${id}", offset=${slice.end}${
      unit === "lines" ? ', unit="lines"' : ""
    } to read on.`
    : " This is the end.";
  return `\n\n[overflow:${id}: ${unit} ${slice.offset}–${slice.end} of ${slice.total}.${more}${kept}]`;
}
