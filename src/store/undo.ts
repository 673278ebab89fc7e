/**
 * The undo log: per conversation, one entry per file change a tool made, newest last, with the
 * saved content (blobs) a restore needs. The store keeps what it is given and bounds the saved
 * bytes per conversation; what a change means and how it is reversed is src/tools/undo.ts's.
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { transaction } from "./db.ts";
import { missing } from "./errors.ts";

/** What the recorder hands over for one change. */
export interface NewUndoEntry {
  callId: string;
  tool: string;
  /** One line for listings: `write "src/a.ts"`. */
  summary: string;
  /** How to reverse it (JSON-serialisable; read back as it was given). */
  changes: unknown;
  /** Saved content the changes refer to by index. */
  blobs: Uint8Array[];
  /** Why this change cannot be reversed (a file too big to keep), or null. */
  note?: string | null;
}

export interface UndoEntry {
  id: number;
  conversationId: string;
  callId: string;
  tool: string;
  summary: string;
  changes: unknown;
  /** Bytes of saved content still held (0 once restored or dropped). */
  storedBytes: number;
  note: string | null;
  /** Milliseconds since the epoch. */
  createdAt: number;
  restoredAt: number | null;
}

export interface UndoLog {
  /**
   * Adds an entry; then, while the conversation's saved bytes exceed `maxConversationBytes`,
   * the oldest entries lose their content (their note says so). The conversation must exist.
   */
  record(
    conversationId: string,
    entry: NewUndoEntry,
    options: { maxConversationBytes: number },
  ): UndoEntry;
  /** Entries not yet restored, newest first; `all` includes restored ones. */
  list(conversationId: string, options?: { all?: boolean; limit?: number }): UndoEntry[];
  /** The saved content of an entry, by index (empty once restored or dropped). */
  blobs(entryId: number): Uint8Array[];
  /** Marks an entry restored and drops its saved content. */
  markRestored(entryId: number): void;
  /** The conversation in workspace `cwd` with the most recent change not yet restored. */
  latestConversation(cwd: string): string | null;
}

/** The note of an entry whose content was dropped for the per-conversation cap. */
export const DROPPED_NOTE =
  "its saved content was dropped to keep the conversation's undo log under [tools.undo] max_conversation_bytes";

interface EntryRow {
  id: number;
  conversation_id: string;
  call_id: string;
  tool: string;
  summary: string;
  changes: string;
  stored_bytes: number;
  note: string | null;
  created_at: number;
  restored_at: number | null;
}

function entryOf(row: EntryRow): UndoEntry {
  return {
    id: Number(row.id),
    conversationId: row.conversation_id,
    callId: row.call_id,
    tool: row.tool,
    summary: row.summary,
    changes: JSON.parse(row.changes),
    storedBytes: Number(row.stored_bytes),
    note: row.note,
    createdAt: Number(row.created_at),
    restoredAt: row.restored_at === null ? null : Number(row.restored_at),
  };
}

function byteSum(blobs: Uint8Array[]): number {
  return blobs.reduce((n, b) => n + b.length, 0);
}

export class SqliteUndoLog implements UndoLog {
  #db: DatabaseSync;
  #now: () => number;
  #written: (bytes: number) => void;
  #hasConversation: StatementSync;
  #insert: StatementSync;
  #insertBlob: StatementSync;
  #total: StatementSync;
  #oldestHolding: StatementSync;
  #drop: StatementSync;
  #dropBlobs: StatementSync;
  #get: StatementSync;
  #list: StatementSync;
  #listAll: StatementSync;
  #blobs: StatementSync;
  #restored: StatementSync;
  #latest: StatementSync;

  constructor(db: DatabaseSync, now: () => number, written: (bytes: number) => void) {
    this.#db = db;
    this.#now = now;
    this.#written = written;
    const columns =
      "id, conversation_id, call_id, tool, summary, changes, stored_bytes, note, created_at, restored_at";
    this.#hasConversation = db.prepare("SELECT 1 AS ok FROM conversations WHERE id = ?");
    this.#insert = db.prepare(
      `INSERT INTO undo_entries (conversation_id, call_id, tool, summary, changes, stored_bytes,
         note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${columns}`,
    );
    this.#insertBlob = db.prepare("INSERT INTO undo_blobs (entry_id, idx, data) VALUES (?, ?, ?)");
    this.#total = db.prepare(
      "SELECT coalesce(sum(stored_bytes), 0) AS n FROM undo_entries WHERE conversation_id = ?",
    );
    this.#oldestHolding = db.prepare(
      `SELECT id, stored_bytes FROM undo_entries WHERE conversation_id = ? AND stored_bytes > 0
         ORDER BY id LIMIT 1`,
    );
    this.#drop = db.prepare(
      "UPDATE undo_entries SET stored_bytes = 0, note = coalesce(?, note) WHERE id = ?",
    );
    this.#dropBlobs = db.prepare("DELETE FROM undo_blobs WHERE entry_id = ?");
    this.#get = db.prepare(`SELECT ${columns} FROM undo_entries WHERE id = ?`);
    this.#list = db.prepare(
      `SELECT ${columns} FROM undo_entries WHERE conversation_id = ? AND restored_at IS NULL
         ORDER BY id DESC LIMIT ?`,
    );
    this.#listAll = db.prepare(
      `SELECT ${columns} FROM undo_entries WHERE conversation_id = ? ORDER BY id DESC LIMIT ?`,
    );
    this.#blobs = db.prepare("SELECT data FROM undo_blobs WHERE entry_id = ? ORDER BY idx");
    this.#restored = db.prepare("UPDATE undo_entries SET restored_at = ? WHERE id = ?");
    this.#latest = db.prepare(
      `SELECT e.conversation_id AS id FROM undo_entries e
         JOIN conversations c ON c.id = e.conversation_id
        WHERE c.cwd = ? AND e.restored_at IS NULL ORDER BY e.id DESC LIMIT 1`,
    );
  }

  record(
    conversationId: string,
    entry: NewUndoEntry,
    options: { maxConversationBytes: number },
  ): UndoEntry {
    if (!this.#hasConversation.get(conversationId)) {
      throw missing("record a change in", conversationId);
    }
    const bytes = byteSum(entry.blobs);
    const id = transaction(this.#db, () => {
      const row = this.#insert.get(
        conversationId,
        entry.callId,
        entry.tool,
        entry.summary,
        JSON.stringify(entry.changes ?? null),
        bytes,
        entry.note ?? null,
        this.#now(),
      ) as unknown as EntryRow;
      entry.blobs.forEach((blob, i) => this.#insertBlob.run(row.id, i, blob));
      while (this.#totalOf(conversationId) > options.maxConversationBytes) {
        const oldest = this.#oldestHolding.get(conversationId) as { id: number } | undefined;
        if (!oldest) break;
        this.#dropBlobs.run(oldest.id);
        this.#drop.run(DROPPED_NOTE, oldest.id);
      }
      return Number(row.id);
    });
    this.#written(bytes);
    return entryOf(this.#get.get(id) as unknown as EntryRow);
  }

  #totalOf(conversationId: string): number {
    return Number((this.#total.get(conversationId) as { n: number }).n);
  }

  list(conversationId: string, options: { all?: boolean; limit?: number } = {}): UndoEntry[] {
    const statement = options.all ? this.#listAll : this.#list;
    return (statement.all(conversationId, options.limit ?? -1) as unknown as EntryRow[])
      .map(entryOf);
  }

  blobs(entryId: number): Uint8Array[] {
    return (this.#blobs.all(entryId) as { data: Uint8Array }[]).map((r) => r.data);
  }

  markRestored(entryId: number): void {
    transaction(this.#db, () => {
      this.#restored.run(this.#now(), entryId);
      this.#dropBlobs.run(entryId);
      this.#drop.run(null, entryId);
    });
    this.#written(0);
  }

  latestConversation(cwd: string): string | null {
    const row = this.#latest.get(cwd) as { id: string } | undefined;
    return row?.id ?? null;
  }
}

/** The in-memory twin, for the in-memory store; the same contract, the same test suite. */
export class MemoryUndoLog implements UndoLog {
  #now: () => number;
  #cwdOf: (conversationId: string) => string | null;
  #entries: { entry: UndoEntry; changes: string; blobs: Uint8Array[] }[] = [];
  #nextId = 1;

  constructor(now: () => number, cwdOf: (conversationId: string) => string | null) {
    this.#now = now;
    this.#cwdOf = cwdOf;
  }

  record(
    conversationId: string,
    entry: NewUndoEntry,
    options: { maxConversationBytes: number },
  ): UndoEntry {
    if (this.#cwdOf(conversationId) === null) {
      throw missing("record a change in", conversationId);
    }
    const blobs = entry.blobs.map((b) => b.slice());
    const stored: UndoEntry = {
      id: this.#nextId++,
      conversationId,
      callId: entry.callId,
      tool: entry.tool,
      summary: entry.summary,
      changes: null,
      storedBytes: byteSum(blobs),
      note: entry.note ?? null,
      createdAt: this.#now(),
      restoredAt: null,
    };
    this.#entries.push({ entry: stored, changes: JSON.stringify(entry.changes ?? null), blobs });
    const mine = this.#entries.filter((e) => e.entry.conversationId === conversationId);
    let total = mine.reduce((n, e) => n + e.entry.storedBytes, 0);
    for (const e of mine) {
      if (total <= options.maxConversationBytes) break;
      if (e.entry.storedBytes === 0) continue;
      total -= e.entry.storedBytes;
      e.entry.storedBytes = 0;
      e.entry.note = DROPPED_NOTE;
      e.blobs = [];
    }
    return this.#copy(this.#entries[this.#entries.length - 1]);
  }

  #copy(e: { entry: UndoEntry; changes: string }): UndoEntry {
    return { ...e.entry, changes: JSON.parse(e.changes) };
  }

  list(conversationId: string, options: { all?: boolean; limit?: number } = {}): UndoEntry[] {
    const found = this.#entries
      .filter((e) => e.entry.conversationId === conversationId)
      .filter((e) => options.all || e.entry.restoredAt === null)
      .reverse();
    const limit = options.limit ?? -1;
    return (limit < 0 ? found : found.slice(0, limit)).map((e) => this.#copy(e));
  }

  blobs(entryId: number): Uint8Array[] {
    return this.#entries.find((e) => e.entry.id === entryId)?.blobs.map((b) => b.slice()) ?? [];
  }

  markRestored(entryId: number): void {
    const e = this.#entries.find((e) => e.entry.id === entryId);
    if (!e) return;
    e.entry.restoredAt = this.#now();
    e.entry.storedBytes = 0;
    e.blobs = [];
  }

  latestConversation(cwd: string): string | null {
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const e = this.#entries[i].entry;
      if (e.restoredAt === null && this.#cwdOf(e.conversationId) === cwd) return e.conversationId;
    }
    return null;
  }

  /** Drops the entries of a deleted conversation, as SQLite's cascade does. */
  forget(conversationId: string): void {
    this.#entries = this.#entries.filter((e) => e.entry.conversationId !== conversationId);
  }
}
