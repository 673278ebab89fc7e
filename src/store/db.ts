/**
 * Opening the SQLite file: where it lives, the pragmas every connection needs, and the numbered
 * migrations recorded in `user_version`. Only this file and the SQLite store touch node:sqlite.
 */
import { DatabaseSync } from "node:sqlite";
import { dirname, join } from "node:path";
import type { Config } from "../config/mod.ts";
import { cannotWrite, StoreError } from "./errors.ts";
import { type Migration, MIGRATIONS } from "./migrations.ts";

/** `$XDG_DATA_HOME/zeph`, else `~/.local/share/zeph`. */
export function defaultDataDir(env: (name: string) => string | undefined = Deno.env.get): string {
  const xdg = env("XDG_DATA_HOME");
  if (xdg) return join(xdg, "zeph");
  const home = env("HOME") ?? env("USERPROFILE");
  if (!home) {
    throw new StoreError(
      "Cannot locate the data directory: neither XDG_DATA_HOME nor HOME is set",
      {
        hint: "Set [memory] sqlite_path in config.toml, or set XDG_DATA_HOME",
      },
    );
  }
  return join(home, ".local", "share", "zeph");
}

/** What a missing data directory leaves out, and the one warning that says so. */
export interface DataDirShortfall {
  /** The store needs the default directory (`[memory] sqlite_path` is empty). */
  store: boolean;
  /** The enabled audit log needs it (`[tools.audit] path` is empty). */
  audit: boolean;
  warning: string;
}

/**
 * Null when the data directory can be found or nothing needs it. A container often has no HOME:
 * zeph then runs without what needs the directory, with one warning naming every way to fix it,
 * rather than guessing a shared location such as /tmp for transcripts that may hold secrets.
 */
export function dataDirShortfall(
  config: Config,
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): DataDirShortfall | null {
  if (env("XDG_DATA_HOME") || env("HOME") || env("USERPROFILE")) return null;
  const store = config.memory.sqlite_path.trim() === "";
  const audit = config.tools.audit.enabled && config.tools.audit.path.trim() === "";
  if (!store && !audit) return null;
  const lost = [
    ...(store ? ["conversations and large tool outputs are not saved"] : []),
    ...(audit ? ["tool calls are not audited"] : []),
  ].join(" and ");
  const keys = [
    ...(store ? ["[memory] sqlite_path (or ZEPH_MEMORY_SQLITE_PATH)"] : []),
    ...(audit ? ["[tools.audit] path (or ZEPH_TOOLS_AUDIT_PATH)"] : []),
  ].join(" and ");
  return {
    store,
    audit,
    warning: `Neither HOME nor XDG_DATA_HOME is set, so ${lost}. ` +
      `Set XDG_DATA_HOME or HOME, or set ${keys} in config.toml.`,
  };
}

/** `[memory] sqlite_path`, or `zeph.db` in the default data directory when it is empty. */
export function resolveStorePath(
  config: Config,
  env: (name: string) => string | undefined = Deno.env.get,
): string {
  const configured = config.memory.sqlite_path.trim();
  if (configured === ":memory:") return configured;
  if (configured) {
    if (configured === "~" || configured.startsWith("~/")) {
      const home = env("HOME") ?? "";
      return join(home, configured.slice(1));
    }
    return configured;
  }
  return join(defaultDataDir(env), "zeph.db");
}

/**
 * The pragmas, chosen for one writer with occasional readers (CLI + ACP on the same file):
 * WAL so readers never block the writer; synchronous=NORMAL, which in WAL mode loses no committed
 * transaction when the process is killed (only on power loss); a busy timeout instead of
 * immediate SQLITE_BUSY; a WAL size limit because a 10 MB overflow write otherwise leaves a WAL of
 * that size behind forever.
 */
const CONNECTION_PRAGMAS = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  "PRAGMA foreign_keys = ON",
  "PRAGMA journal_size_limit = 67108864",
];

/**
 * Only effective on a new, empty file: 16 KiB pages write a large overflow entry faster than
 * 4 KiB pages (bench/README.md), and incremental auto-vacuum lets the retention cleanup give the
 * space of deleted entries back.
 */
const NEW_FILE_PRAGMAS = ["PRAGMA page_size = 16384", "PRAGMA auto_vacuum = INCREMENTAL"];

/** Opens (creating the parent directory and file if needed) and migrates the database. */
export function openDatabase(
  path: string,
  migrations: readonly Migration[] = MIGRATIONS,
  options: {
    /** How long a statement waits for another process's lock. @default 5000 */
    busyTimeoutMs?: number;
  } = {},
): DatabaseSync {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (path !== ":memory:") {
    try {
      Deno.mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw new StoreError(
        `Cannot create the directory of the store ${JSON.stringify(path)}: ${
          (error as Error).message
        }`,
        {
          hint: "Set [memory] sqlite_path to a writable location",
          cause: error,
          warning: cannotWrite("store", path, error),
        },
      );
    }
  }
  const created = path !== ":memory:" && !exists(path);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
  } catch (error) {
    throw openError(path, error);
  }
  try {
    // The busy timeout comes first: another process creating the same new file holds its lock
    // while this one reads the schema, and without it that read fails at once.
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    const retryUntil = Date.now() + busyTimeoutMs;
    retryWhileLocked(retryUntil, () => {
      const fresh = userVersion(db) === 0 && tableCount(db) === 0;
      if (fresh) { for (const pragma of NEW_FILE_PRAGMAS) db.exec(pragma); }
      for (const pragma of CONNECTION_PRAGMAS) db.exec(pragma);
    });
    retryWhileLocked(retryUntil, () => migrate(db, path, migrations));
    if (created) keepPrivate(path);
  } catch (error) {
    db.close();
    throw error instanceof StoreError ? error : openError(path, error);
  }
  return db;
}

/**
 * Runs a start-up step again while SQLite reports a lock. Some steps do not wait through the busy
 * timeout: switching a new file to WAL needs the file to itself, and SQLite gives up at once
 * rather than risk a deadlock when a reader holds a lock it must upgrade. Retries stop once the
 * busy timeout has passed since opening began.
 */
function retryWhileLocked(until: number, step: () => void): void {
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!isLocked(error) || Date.now() >= until) throw error;
      sleepSync(25 + Math.floor(Math.random() * 50));
    }
  }
}

function isLocked(error: unknown): boolean {
  const cause = error instanceof StoreError ? error.cause : error;
  return /database is locked|SQLITE_BUSY|database table is locked/i.test(
    (cause as Error)?.message ?? String(cause),
  );
}

/** Opening is synchronous (the store's API is), so the pause between retries blocks too. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Transcripts and tool outputs may hold secrets: a new database is readable by its owner only. */
function keepPrivate(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      Deno.chmodSync(file, 0o600);
    } catch {
      // Not supported (Windows) or not there (no WAL yet): nothing to tighten.
    }
  }
}

function openError(path: string, error: unknown): StoreError {
  const message = (error as Error).message ?? String(error);
  const notDb = /not a database|file is encrypted|malformed/i.test(message);
  if (isLocked(error)) {
    return new StoreError(
      `Cannot open the store ${JSON.stringify(path)}: it is locked by another zeph process`,
      {
        hint:
          "Wait for the other zeph to finish its write, or set [memory] sqlite_path to another file",
        cause: error,
      },
    );
  }
  return new StoreError(
    `Cannot open the store ${JSON.stringify(path)}: ${message}`,
    {
      hint: notDb
        ? "The file is not a zeph database or is damaged; move it away or set [memory] sqlite_path to another file"
        : "Check that the path is writable, or set [memory] sqlite_path to another file",
      cause: error,
      ...(notDb ? {} : { warning: cannotWrite("store", path, osCause(path, error)) }),
    },
  );
}

/**
 * SQLite says only "unable to open database file"; opening the file the way SQLite does gives
 * the system's reason (a read-only file system, a directory in the way). Nothing is created
 * where SQLite could not create the file.
 */
function osCause(path: string, error: unknown): unknown {
  if (!/unable to open database file/i.test((error as Error)?.message ?? "")) return error;
  try {
    Deno.openSync(path, { read: true, write: true }).close();
  } catch (reason) {
    if (!(reason instanceof Deno.errors.NotFound)) return reason;
    try {
      Deno.openSync(path, { write: true, createNew: true, mode: 0o600 }).close();
      Deno.removeSync(path);
    } catch (createReason) {
      return createReason;
    }
  }
  return error;
}

export function userVersion(db: DatabaseSync): number {
  const row = db.prepare("PRAGMA user_version").get() as { user_version: number };
  return Number(row.user_version);
}

function tableCount(db: DatabaseSync): number {
  const row = db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number };
  return Number(row.n);
}

/** Applies the missing migrations, each in its own transaction with its version bump. */
function migrate(db: DatabaseSync, path: string, migrations: readonly Migration[]): void {
  const known = migrations.length ? migrations[migrations.length - 1].version : 0;
  const current = userVersion(db);
  if (current > known) {
    throw new StoreError(
      `Cannot open the store ${
        JSON.stringify(path)
      }: its schema version ${current} is newer than this zeph knows (${known})`,
      { hint: "Upgrade zeph, or set [memory] sqlite_path to another file" },
    );
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    // IMMEDIATE takes the write lock first, so two processes opening a new file at once do not
    // both run the migration: the second waits (busy_timeout) and then sees the new version.
    db.exec("BEGIN IMMEDIATE");
    try {
      if (userVersion(db) < migration.version) {
        db.exec(migration.sql);
        db.exec(`PRAGMA user_version = ${migration.version}`);
      }
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw new StoreError(
        `Cannot migrate the store ${
          JSON.stringify(path)
        } to schema version ${migration.version} (${migration.name}): ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** Runs `fn` in a write transaction (BEGIN IMMEDIATE), rolling back if it throws. */
export function transaction<T>(db: DatabaseSync, fn: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const value = fn();
    db.exec("COMMIT");
    return value;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
