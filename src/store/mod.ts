/**
 * The store: one SQLite file (conversations, their full transcripts, overflow entries of large
 * tool outputs, the undo log of file changes), its numbered migrations, the in-memory twin used by tests, the offloading of
 * large outputs and the JSONL audit log (main.ts runs them as the registry's overflow and final
 * hooks). It must not import the agent, the front-ends or a provider (types only), nor the
 * tools, and never decides what a tool may do.
 */
export {
  type AuditedCall,
  type AuditedResult,
  type AuditEntry,
  type AuditLogRead,
  auditRecordOf,
  AuditWriter,
  openAuditLog,
  readAuditLog,
  redactSecrets,
  resolveAuditPath,
} from "./audit.ts";
export {
  type DataDirShortfall,
  dataDirShortfall,
  defaultDataDir,
  openDatabase,
  resolveStorePath,
  userVersion,
} from "./db.ts";
export { StoreError } from "./errors.ts";
export { NETWORK_AUDIT_TOOL, networkAuditRecord } from "./network_audit.ts";
export { MemoryStore } from "./memory_store.ts";
export { type Migration, MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";
export {
  NOTE_COST_FACTOR,
  type OffloadedCall,
  offloadIfLarge,
  type OffloadOptions,
} from "./offload.ts";
export { openConfiguredStore, openStore, SqliteStore } from "./sqlite_store.ts";
export type * from "./store.ts";
export {
  DROPPED_NOTE,
  MemoryUndoLog,
  type NewUndoEntry,
  SqliteUndoLog,
  type UndoEntry,
  type UndoLog,
} from "./undo.ts";
