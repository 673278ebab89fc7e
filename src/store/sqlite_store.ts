/** The SQLite `Store`: one file, opened with `openStore`, shared by conversations and overflow. */
import type { DatabaseSync } from "node:sqlite";
import type { Config } from "../config/schema.ts";
import type { Message } from "../provider/types.ts";
import { SqliteConversations } from "./conversations.ts";
import { openDatabase, resolveStorePath } from "./db.ts";
import { SqliteOverflow } from "./overflow.ts";
import type {
  Conversation,
  ConversationSummary,
  NewConversation,
  OverflowInfo,
  OverflowSaved,
  OverflowSlice,
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

export class SqliteStore implements Store {
  readonly path: string;
  /** The connection, for diagnostics and tests; the methods below are the API. */
  readonly db: DatabaseSync;
  #conversations: SqliteConversations;
  #overflow: SqliteOverflow;
  #open = true;

  constructor(path: string, db: DatabaseSync, options: StoreOptions = {}) {
    const now = options.now ?? Date.now;
    this.path = path;
    this.db = db;
    this.#conversations = new SqliteConversations(db, now);
    this.#overflow = new SqliteOverflow(db, now);
  }

  createConversation(options?: NewConversation): string {
    return this.#conversations.create(options);
  }

  getConversation(id: string): Conversation | null {
    return this.#conversations.get(id);
  }

  listConversations(options: { limit?: number } = {}): ConversationSummary[] {
    return this.#conversations.list(options.limit ?? -1);
  }

  appendMessages(conversationId: string, messages: Message[]): void {
    this.#conversations.append(conversationId, messages);
  }

  loadMessages(conversationId: string): Message[] {
    return this.#conversations.load(conversationId);
  }

  renameConversation(id: string, title: string): boolean {
    return this.#conversations.rename(id, title);
  }

  deleteConversation(id: string): boolean {
    return this.#conversations.delete(id);
  }

  saveOverflow(
    conversationId: string,
    content: string,
    options?: SaveOverflowOptions,
  ): OverflowSaved {
    return this.#overflow.save(conversationId, content, options);
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
    return this.#overflow.cleanup(retentionDays);
  }

  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.db.close();
  }
}
