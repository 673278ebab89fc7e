/**
 * Overflow entries in SQLite: UTF-8 bytes in a BLOB, with sparse char and line indexes, so a
 * page is one `substr` of its own bytes: a 50,000-char page of a 10 MB entry moves about 50 KB
 * into JavaScript, not 10 MB. Every lookup matches id AND conversation, so another
 * conversation's id reads as missing.
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { checkRetention, checkSlice, DAY_MS } from "./_checks.ts";
import { encodeForStore, sliceStored } from "./_text.ts";
import { missing } from "./errors.ts";
import type {
  OverflowInfo,
  OverflowSaved,
  OverflowSlice,
  SaveOverflowOptions,
  SliceOptions,
} from "./store.ts";

interface InfoRow {
  id: string;
  conversation_id: string;
  byte_size: number;
  stored_bytes: number;
  char_count: number;
  line_count: number;
  line_index: string;
  char_index: string;
  index_version: number;
  created_at: number;
}

/** `index_version` of entries whose chars are UTF-16 units (migration 3). */
const INDEX_VERSION = 2;

export class SqliteOverflow {
  #now: () => number;
  #exists: StatementSync;
  #insert: StatementSync;
  #info: StatementSync;
  #content: StatementSync;
  #substr: StatementSync;
  #cleanup: StatementSync;
  #owner: StatementSync;
  #prefixed: StatementSync;
  #reindex: StatementSync;
  #db: DatabaseSync;
  #written: () => void;

  /** `written` runs after a write no caller made: an old row's re-index on read. */
  constructor(db: DatabaseSync, now: () => number, written: () => void = () => {}) {
    this.#db = db;
    this.#now = now;
    this.#written = written;
    this.#exists = db.prepare("SELECT 1 AS one FROM conversations WHERE id = ?");
    this.#insert = db.prepare(
      `INSERT INTO tool_overflow
         (id, conversation_id, content, byte_size, stored_bytes, char_count, line_count,
          line_index, char_index, index_version, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ${INDEX_VERSION}, ?)`,
    );
    this.#info = db.prepare(
      `SELECT id, conversation_id, byte_size, stored_bytes, char_count, line_count, line_index,
              char_index, index_version, created_at
         FROM tool_overflow WHERE id = ? AND conversation_id = ?`,
    );
    this.#reindex = db.prepare(
      `UPDATE tool_overflow
          SET char_count = ?, line_count = ?, line_index = ?, char_index = ?, index_version = ?
        WHERE id = ?`,
    );
    this.#content = db.prepare(
      // SQLite turns the bytes into TEXT and node:sqlite into a string faster than TextDecoder.
      "SELECT CAST(content AS TEXT) AS content FROM tool_overflow WHERE id = ? AND conversation_id = ?",
    );
    this.#substr = db.prepare(
      "SELECT substr(content, ?, ?) AS bytes FROM tool_overflow WHERE id = ?",
    );
    this.#cleanup = db.prepare("DELETE FROM tool_overflow WHERE created_at < ?");
    this.#owner = db.prepare("SELECT conversation_id FROM tool_overflow WHERE id = ?");
    // A range on the primary key: every id that starts with the prefix sorts between the prefix
    // and the prefix followed by U+FFFF (ids are ASCII).
    this.#prefixed = db.prepare(
      "SELECT id FROM tool_overflow WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
    );
  }

  save(conversationId: string, content: string, options?: SaveOverflowOptions): OverflowSaved {
    if (!this.#exists.get(conversationId)) throw missing("store overflow for", conversationId);
    const p = encodeForStore(content, options?.maxBytes);
    const id = crypto.randomUUID();
    this.#insert.run(
      id,
      conversationId,
      p.bytes,
      p.byteSize,
      p.bytes.length,
      p.shape.chars,
      p.shape.lines,
      JSON.stringify(p.shape.lineIndex),
      JSON.stringify(p.shape.charIndex),
      this.#now(),
    );
    return { id, byteSize: p.byteSize, storedBytes: p.bytes.length, truncated: p.truncated };
  }

  conversationOf(id: string): string | null {
    const row = this.#owner.get(id) as { conversation_id: string } | undefined;
    return row ? String(row.conversation_id) : null;
  }

  idsStartingWith(prefix: string, limit: number): string[] {
    const rows = this.#prefixed.all(prefix, `${prefix}\uffff`, limit) as { id: string }[];
    return rows.map((row) => String(row.id));
  }

  load(id: string, conversationId: string): string | null {
    const row = this.#content.get(id, conversationId) as { content: string } | undefined;
    return row ? String(row.content) : null;
  }

  info(id: string, conversationId: string): OverflowInfo | null {
    // In a read transaction, as slice(): a re-index write that meets another connection's
    // write lock then fails at once (and is retried on a later read) instead of waiting out
    // the busy timeout, and a concurrent cleanup cannot delete the row between the reads.
    this.#db.exec("BEGIN");
    try {
      const row = this.#row(id, conversationId);
      return row ? toInfo(row) : null;
    } finally {
      this.#db.exec("COMMIT");
    }
  }

  /** The entry's row; one written before migration 3 is re-indexed first (see there). */
  #row(id: string, conversationId: string): InfoRow | undefined {
    const row = this.#info.get(id, conversationId) as InfoRow | undefined;
    if (!row || Number(row.index_version) >= INDEX_VERSION || row.char_index === "[]") return row;
    // Non-ASCII and indexed by code point: measure again from the same bytes (decoding and
    // re-encoding valid UTF-8 gives the same bytes back).
    const { shape } = encodeForStore(this.load(id, conversationId) ?? "");
    const lineIndex = JSON.stringify(shape.lineIndex);
    const charIndex = JSON.stringify(shape.charIndex);
    try {
      this.#reindex.run(shape.chars, shape.lines, lineIndex, charIndex, INDEX_VERSION, id);
      this.#written();
    } catch {
      // Locked by another process (or read-only): serve the new index now, write it next time.
    }
    return {
      ...row,
      char_count: shape.chars,
      line_count: shape.lines,
      line_index: lineIndex,
      char_index: charIndex,
      index_version: INDEX_VERSION,
    };
  }

  slice(id: string, conversationId: string, options?: SliceOptions): OverflowSlice | null {
    const slice = checkSlice(options);
    // One read transaction, so a concurrent cleanup cannot delete the entry between the reads.
    this.#db.exec("BEGIN");
    try {
      const row = this.#row(id, conversationId);
      if (!row) return null;
      const info = toInfo(row);
      const shape = {
        chars: info.chars,
        lines: info.lines,
        lineIndex: JSON.parse(row.line_index) as number[],
        charIndex: JSON.parse(row.char_index) as number[],
      };
      const read = (start: number, length: number): Uint8Array => {
        const row = this.#substr.get(start + 1, length, id) as { bytes: Uint8Array | null };
        return row.bytes ?? new Uint8Array();
      };
      return { ...sliceStored(read, shape, info.storedBytes, slice), unit: slice.unit, info };
    } finally {
      this.#db.exec("COMMIT");
    }
  }

  cleanup(retentionDays: number): number {
    checkRetention(retentionDays);
    const removed = Number(this.#cleanup.run(this.#now() - retentionDays * DAY_MS).changes);
    // Give the pages back (auto_vacuum = INCREMENTAL on files this zeph created).
    if (removed > 0) this.#db.exec("PRAGMA incremental_vacuum");
    return removed;
  }
}

function toInfo(row: InfoRow): OverflowInfo {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    byteSize: Number(row.byte_size),
    storedBytes: Number(row.stored_bytes),
    truncated: Number(row.stored_bytes) < Number(row.byte_size),
    chars: Number(row.char_count),
    lines: Number(row.line_count),
    createdAt: Number(row.created_at),
  };
}
