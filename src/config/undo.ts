/**
 * `[tools.undo]`: what the undo log of file changes keeps. Its own file so the schema's other
 * tables stay untouched by it.
 */
import { z } from "zod";

/** The most one saved file may hold: a restore reads it back whole. */
const MAX_UNDO_FILE_BYTES = 256 * 1024 * 1024;

export const UndoConfig = z.object({
  /** Record every file tool's change so `/undo` and `zeph undo` can reverse it. */
  enabled: z.boolean().default(true),
  /** Content before a change is kept only for files up to this size (bytes). */
  max_file_bytes: z.number().int().min(0).max(MAX_UNDO_FILE_BYTES, {
    message: `expected at most ${MAX_UNDO_FILE_BYTES} bytes (256 MiB)`,
  }).default(1024 * 1024),
  /**
   * Saved content per conversation (bytes); past it the oldest changes lose theirs and can no
   * longer be undone.
   */
  max_conversation_bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(
    64 * 1024 * 1024,
  ),
}).strict();
export type UndoConfig = z.infer<typeof UndoConfig>;
