/**
 * Numbered schema migrations. Migration N moves the schema from version N-1 to N and is recorded
 * in `PRAGMA user_version`; never edit a released migration, append a new one.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "conversations, messages, tool_overflow",
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL DEFAULT '',
        cwd TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX idx_conversations_updated_at ON conversations(updated_at);

      CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        parts TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (conversation_id, seq)
      );

      CREATE TABLE tool_overflow (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        content BLOB NOT NULL,
        byte_size INTEGER NOT NULL,
        stored_bytes INTEGER NOT NULL,
        char_count INTEGER NOT NULL,
        line_count INTEGER NOT NULL,
        line_index TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX idx_tool_overflow_conversation ON tool_overflow(conversation_id);
      CREATE INDEX idx_tool_overflow_created_at ON tool_overflow(created_at);
    `,
  },
  {
    version: 2,
    name: "overflow content as UTF-8 BLOB with a char index",
    // Version 1 stored content as TEXT and indexed lines by char; entries are short-lived
    // caches (retention_days), so they are dropped rather than converted.
    sql: `
      DELETE FROM tool_overflow;
      ALTER TABLE tool_overflow ADD COLUMN char_index TEXT NOT NULL DEFAULT '[]';
    `,
  },
  {
    version: 3,
    name: "overflow char index in UTF-16 units",
    // Entries written before this version count chars in code points and index every 4096th
    // code point; they keep version 1 and are re-indexed from their bytes on first read (only
    // non-ASCII entries differ), so nothing is dropped.
    sql: `
      ALTER TABLE tool_overflow ADD COLUMN index_version INTEGER NOT NULL DEFAULT 1;
    `,
  },
  {
    version: 4,
    name: "the plan of a conversation",
    // The whole plan as JSON, replaced by each update_plan call; NULL until the first one.
    sql: `
      ALTER TABLE conversations ADD COLUMN plan TEXT;
    `,
  },
  {
    version: 5,
    name: "conversation session mode",
    // NULL: never switched, so a loaded session starts in [agent] default_mode.
    sql: `
      ALTER TABLE conversations ADD COLUMN mode TEXT;
    `,
  },
  {
    version: 6,
    name: "undo log of file changes",
    // One row per file change a tool made; the content a restore needs is in undo_blobs, so
    // listings never read it.
    sql: `
      CREATE TABLE undo_entries (
        id INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        summary TEXT NOT NULL,
        changes TEXT NOT NULL,
        stored_bytes INTEGER NOT NULL,
        note TEXT,
        created_at INTEGER NOT NULL,
        restored_at INTEGER
      );
      CREATE INDEX idx_undo_entries_conversation ON undo_entries(conversation_id, id);

      CREATE TABLE undo_blobs (
        entry_id INTEGER NOT NULL REFERENCES undo_entries(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (entry_id, idx)
      );
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
