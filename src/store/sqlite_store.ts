/** The SQLite `Store`: one file, opened with `openStore`, shared by conversations and overflow. */
import type { DatabaseSync } from "node:sqlite";
import type { Config } from "../config/mod.ts";
import type { Message } from "../provider/mod.ts";
import { SqliteConversations } from "./conversations.ts";
import { openDatabase, resolveStorePath } from "./db.ts";
import { SqliteOverflow } from "./overflow.ts";
import { SqliteUndoLog } from "./undo.ts";
import type {
  Conversation,
  ConversationSummary,
  NewConversation,
  OverflowInfo,
  OverflowSaved,
  OverflowSlice,
  PlanEntry,
  SaveOverflowOptions,
  SliceOptions,
  Store,
  StoreOptions,
} from "./store.ts";

/** Opens (creating and migrating as needed) the database at `path`. Throws `StoreError`. */
export function openStore(path: string, options: StoreOptions = {}): SqliteStore {
  return new SqliteStore(path, openDatabase(path), options);
}

/**
 * What the composition root calls at start-up: opens the configured file (`[memory] sqlite_path`,
 * default `$XDG_DATA_HOME/zeph/zeph.db`) and deletes overflow entries older than
 * `[tools.overflow] retention_days`.
 */
export function openConfiguredStore(
  config: Config,
  options: StoreOptions & { env?: (name: string) => string | undefined } = {},
): SqliteStore {
  const store = openStore(resolveStorePath(config, options.env), options);
  try {
    store.cleanupOverflow(config.tools.overflow.retention_days);
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}

/**
 * WAL frames written since the last checkpoint past which a write checkpoints at once instead of
 * waiting for the event loop (a burst of writes with no await in between).
 */
const INLINE_CHECKPOINT_BYTES = 64 * 1024 * 1024;

/**
 * Checkpoints run off the write path. SQLite's automatic checkpoint runs inside the commit that
 * crosses 1,000 WAL pages, so every second 10 MB overflow save would pay for copying and fsync
 * on top of its own write. Here it is off; a write schedules one PASSIVE checkpoint on the
 * next turn of the event loop, which in the agent is while the model request is in flight, and
 * a burst of writes past `INLINE_CHECKPOINT_BYTES` checkpoints inline. Closing the store
 * checkpoints what is left (SQLite does on the last close).
 */
export class SqliteStore implements Store {
  readonly path: string;
  /** The connection, for diagnostics and tests; the methods below are the API. */
  readonly db: DatabaseSync;
  #conversations: SqliteConversations;
  #overflow: SqliteOverflow;
  readonly undo: SqliteUndoLog;
  #open = true;
  #wal: boolean;
  #checkpointTimer: ReturnType<typeof setTimeout> | undefined;
  #uncheckpointed = 0;
  #inlineCheckpointBytes: number;

  constructor(path: string, db: DatabaseSync, options: StoreOptions = {}) {
    const now = options.now ?? Date.now;
    this.path = path;
    this.db = db;
    this.#conversations = new SqliteConversations(db, now);
    this.#overflow = new SqliteOverflow(db, now, () => this.#written(0));
    this.undo = new SqliteUndoLog(db, now, (bytes) => this.#written(bytes));
    this.#inlineCheckpointBytes = options.inlineCheckpointBytes ?? INLINE_CHECKPOINT_BYTES;
    const mode = db.prepare("PRAGMA journal_mode").get() as { journal_mode: string };
    this.#wal = String(mode.journal_mode).toLowerCase() === "wal";
    if (this.#wal) db.exec("PRAGMA wal_autocheckpoint = 0");
  }

  /** Copies the WAL into the database file now (PASSIVE: never waits for readers). */
  checkpoint(): void {
    if (this.#checkpointTimer !== undefined) clearTimeout(this.#checkpointTimer);
    this.#checkpointTimer = undefined;
    this.#uncheckpointed = 0;
    if (!this.#open || !this.#wal) return;
    try {
      this.db.exec("PRAGMA wal_checkpoint(PASSIVE)");
    } catch {
      // Busy or read-only: the next write schedules another one, and close() checkpoints.
    }
  }

  /** After a write of about `bytes`: checkpoint on the next event-loop turn, or now. */
  #written(bytes: number): void {
    if (!this.#wal) return;
    this.#uncheckpointed += bytes;
    if (this.#uncheckpointed >= this.#inlineCheckpointBytes) return this.checkpoint();
    if (this.#checkpointTimer !== undefined) return;
    const timer = setTimeout(() => this.checkpoint(), 0);
    // Never what keeps a CLI process alive.
    Deno.unrefTimer(timer);
    this.#checkpointTimer = timer;
  }

  createConversation(options?: NewConversation): string {
    const id = this.#conversations.create(options);
    this.#written(0);
    return id;
  }

  getConversation(id: string): Conversation | null {
    return this.#conversations.get(id);
  }

  listConversations(options: { limit?: number } = {}): ConversationSummary[] {
    return this.#conversations.list(options.limit ?? -1);
  }

  appendMessages(conversationId: string, messages: Message[]): void {
    this.#conversations.append(conversationId, messages);
    this.#written(0);
  }

  loadMessages(conversationId: string): Message[] {
    return this.#conversations.load(conversationId);
  }

  savePlan(conversationId: string, entries: PlanEntry[]): void {
    this.#conversations.savePlan(conversationId, entries);
    this.#written(0);
  }

  loadPlan(conversationId: string): PlanEntry[] {
    return this.#conversations.loadPlan(conversationId);
  }

  renameConversation(id: string, title: string): boolean {
    const renamed = this.#conversations.rename(id, title);
    this.#written(0);
    return renamed;
  }

  conversationMode(id: string): string | null {
    return this.#conversations.mode(id);
  }

  setConversationMode(id: string, mode: string): boolean {
    const set = this.#conversations.setMode(id, mode);
    this.#written(0);
    return set;
  }

  deleteConversation(id: string): boolean {
    const deleted = this.#conversations.delete(id);
    this.#written(0);
    return deleted;
  }

  saveOverflow(
    conversationId: string,
    content: string,
    options?: SaveOverflowOptions,
  ): OverflowSaved {
    const saved = this.#overflow.save(conversationId, content, options);
    this.#written(saved.storedBytes);
    return saved;
  }

  overflowConversation(id: string): string | null {
    return this.#overflow.conversationOf(id);
  }

  overflowIdsStartingWith(prefix: string, limit: number): string[] {
    return this.#overflow.idsStartingWith(prefix, limit);
  }

  loadOverflow(id: string, conversationId: string): string | null {
    return this.#overflow.load(id, conversationId);
  }

  overflowInfo(id: string, conversationId: string): OverflowInfo | null {
    return this.#overflow.info(id, conversationId);
  }

  overflowSlice(id: string, conversationId: string, options?: SliceOptions): OverflowSlice | null {
    return this.#overflow.slice(id, conversationId, options);
  }

  cleanupOverflow(retentionDays: number): number {
    const removed = this.#overflow.cleanup(retentionDays);
    if (removed > 0) this.#written(0);
    return removed;
  }

  close(): void {
    if (!this.#open) return;
    if (this.#checkpointTimer !== undefined) clearTimeout(this.#checkpointTimer);
    this.#checkpointTimer = undefined;
    this.#open = false;
    this.db.close();
  }
}
