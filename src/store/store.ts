/**
 * The `Store` contract: conversations with their full transcripts, the overflow entries of
 * large tool outputs, and the undo log of file changes. Two implementations pass one shared test suite: SQLite (the product) and
 * in-memory (tests, and sessions that run without a database).
 */
import type { Message } from "../provider/mod.ts";
import type { UndoLog } from "./undo.ts";

export interface Conversation {
  id: string;
  title: string;
  cwd: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

/** One entry of a conversation's plan (the ACP `plan` entry shape). */
export interface PlanEntry {
  content: string;
  status: "pending" | "in_progress" | "completed";
  priority: "high" | "medium" | "low";
}

export interface ConversationSummary extends Conversation {
  messageCount: number;
}

export interface NewConversation {
  /** @default "" */
  title?: string;
  /** @default "" */
  cwd?: string;
}

export interface OverflowSaved {
  /** UUID v4; the model sees it as `overflow:<id>`. */
  id: string;
  /** UTF-8 size of the content that was offered. */
  byteSize: number;
  /** UTF-8 size actually stored (smaller when `truncated`). */
  storedBytes: number;
  /** True when only the first `max_overflow_bytes` were kept. */
  truncated: boolean;
}

export interface OverflowInfo extends OverflowSaved {
  conversationId: string;
  /**
   * Stored size in chars (UTF-16 code units, JavaScript's `length`) and in lines (a final line
   * without "\n" counts).
   */
  chars: number;
  lines: number;
  createdAt: number;
}

export type SliceUnit = "chars" | "lines";

export interface SliceOptions {
  /** 0-based, in `unit`. @default 0 */
  offset?: number;
  /** How many `unit`s; absent means to the end. */
  limit?: number;
  /** @default "chars" */
  unit?: SliceUnit;
}

export interface OverflowSlice {
  text: string;
  unit: SliceUnit;
  /** The slice covers [offset, end) in `unit`s of an entry `total` units long. */
  offset: number;
  end: number;
  total: number;
  info: OverflowInfo;
}

export interface SaveOverflowOptions {
  /** Keep at most this many bytes (cut at a character boundary); 0 means unlimited. @default 0 */
  maxBytes?: number;
}

export interface Store {
  /** The database file, or ":memory:". */
  readonly path: string;
  createConversation(options?: NewConversation): string;
  getConversation(id: string): Conversation | null;
  /** Most recently updated first. */
  listConversations(options?: { limit?: number }): ConversationSummary[];
  /** Appends in order, in one transaction; the conversation must exist. */
  appendMessages(conversationId: string, messages: Message[]): void;
  loadMessages(conversationId: string): Message[];
  /** Replaces the conversation's plan; the conversation must exist. */
  savePlan(conversationId: string, entries: PlanEntry[]): void;
  /** The last plan saved; empty when there is none (or no such conversation). */
  loadPlan(conversationId: string): PlanEntry[];
  renameConversation(id: string, title: string): boolean;
  /** The session mode (slug) the conversation is in; null when none was recorded. */
  conversationMode(id: string): string | null;
  /** Records the conversation's session mode; false when there is no such conversation. */
  setConversationMode(id: string, mode: string): boolean;
  /** Deletes the conversation, its messages and its overflow entries. */
  deleteConversation(id: string): boolean;
  saveOverflow(
    conversationId: string,
    content: string,
    options?: SaveOverflowOptions,
  ): OverflowSaved;
  /**
   * The conversation an overflow entry belongs to; null when the id is unknown or expired. For
   * the owner of the database file (`zeph overflow show`), who may read every conversation in it.
   */
  overflowConversation(id: string): string | null;
  /**
   * The ids of the entries whose id starts with `prefix` (at most `limit`, in id order), for a
   * command line that accepts a prefix of an id, as `--resume` does.
   */
  overflowIdsStartingWith(prefix: string, limit: number): string[];
  /** Null when the id is unknown, expired or belongs to another conversation. */
  loadOverflow(id: string, conversationId: string): string | null;
  overflowInfo(id: string, conversationId: string): OverflowInfo | null;
  /** Reads only the requested part; null like `loadOverflow`. */
  overflowSlice(id: string, conversationId: string, options?: SliceOptions): OverflowSlice | null;
  /** Deletes entries older than `retentionDays`; returns how many. */
  cleanupOverflow(retentionDays: number): number;
  /** The file changes tools made, per conversation, with what reverses them. */
  readonly undo: UndoLog;
  close(): void;
}

export interface StoreOptions {
  /** Clock in milliseconds since the epoch. @default Date.now */
  now?: () => number;
  /**
   * WAL bytes written with no event-loop turn in between past which a write checkpoints inline
   * instead of on the next turn (SQLite store only). @default 64 MiB
   */
  inlineCheckpointBytes?: number;
}
