import { expect } from "expect";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import {
  dataDirShortfall,
  defaultDataDir,
  type Migration,
  MIGRATIONS,
  openDatabase,
  openStore,
  resolveStorePath,
  SCHEMA_VERSION,
  StoreError,
  userVersion,
} from "../../src/store/mod.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

function withDir(fn: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-db-" });
  try {
    fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("defaultDataDir and resolveStorePath follow XDG, HOME and [memory] sqlite_path", () => {
  const cases: [Record<string, string>, string, string][] = [
    [{ XDG_DATA_HOME: "/x/data", HOME: "/home/u" }, "", "/x/data/zeph/zeph.db"],
    [{ HOME: "/home/u" }, "", "/home/u/.local/share/zeph/zeph.db"],
    [{ HOME: "/home/u" }, "/var/zeph.db", "/var/zeph.db"],
    [{ HOME: "/home/u" }, "~/db/z.db", "/home/u/db/z.db"],
    [{ HOME: "/home/u" }, "  rel/z.db ", "rel/z.db"],
  ];
  for (const [env, configured, expected] of cases) {
    const config = defaultConfig();
    config.memory.sqlite_path = configured;
    expect(resolveStorePath(config, envOf(env))).toBe(expected);
  }
  expect(defaultDataDir(envOf({ XDG_DATA_HOME: "/d" }))).toBe("/d/zeph");
  expect(() => defaultDataDir(envOf({}))).toThrow(
    "Cannot locate the data directory: neither XDG_DATA_HOME nor HOME is set",
  );
});

Deno.test("openDatabase creates the parent dir, sets the pragmas and records the schema", () => {
  withDir((dir) => {
    const path = join(dir, "a", "b", "zeph.db");
    const db = openDatabase(path);
    const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get()!)[0];
    expect({
      journal_mode: pragma("journal_mode"),
      foreign_keys: pragma("foreign_keys"),
      busy_timeout: pragma("busy_timeout"),
      synchronous: pragma("synchronous"),
      journal_size_limit: pragma("journal_size_limit"),
      page_size: pragma("page_size"),
      auto_vacuum: pragma("auto_vacuum"),
      user_version: pragma("user_version"),
    }).toEqual({
      journal_mode: "wal",
      foreign_keys: 1,
      busy_timeout: 5000,
      synchronous: 1,
      journal_size_limit: 67108864,
      page_size: 16384,
      auto_vacuum: 2,
      user_version: SCHEMA_VERSION,
    });
    const tables = db.prepare(
      "SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name",
    ).all().map((r) => r.name);
    expect(tables).toEqual([
      "conversations",
      "idx_conversations_updated_at",
      "idx_tool_overflow_conversation",
      "idx_tool_overflow_created_at",
      "idx_undo_entries_conversation",
      "messages",
      "tool_overflow",
      "undo_blobs",
      "undo_entries",
    ]);
    if (Deno.build.os !== "windows") {
      expect(Deno.statSync(path).mode! & 0o777).toBe(0o600);
      expect(Deno.statSync(`${path}-wal`).mode! & 0o777).toBe(0o600);
    }
    db.close();
    // Reopening applies nothing twice.
    const again = openDatabase(path);
    expect(userVersion(again)).toBe(SCHEMA_VERSION);
    again.close();
  });
});

Deno.test("migrations run in order, once, each recorded in user_version", () => {
  withDir((dir) => {
    const path = join(dir, "zeph.db");
    openDatabase(path).close();
    const next: Migration[] = [
      ...MIGRATIONS,
      {
        version: SCHEMA_VERSION + 1,
        name: "test column",
        sql: "ALTER TABLE conversations ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0",
      },
    ];
    const db = openDatabase(path, next);
    expect(userVersion(db)).toBe(SCHEMA_VERSION + 1);
    const columns = db.prepare("PRAGMA table_info(conversations)").all().map((c) => c.name);
    expect(columns).toEqual([
      "id",
      "title",
      "cwd",
      "created_at",
      "updated_at",
      "plan",
      "mode",
      "pinned",
    ]);
    db.close();
    openDatabase(path, next).close(); // would fail with "duplicate column" if re-run
  });
});

Deno.test("migration 4 gives existing conversations an empty plan, and plans persist across opens", () => {
  withDir((dir) => {
    const path = join(dir, "zeph.db");
    const v3 = openDatabase(path, MIGRATIONS.slice(0, 3));
    v3.exec("INSERT INTO conversations VALUES ('c1', 'old', '', 1, 1);");
    v3.close();
    const store = openStore(path);
    expect(store.loadPlan("c1")).toEqual([]);
    store.savePlan("c1", [{ content: "Ship it", status: "pending", priority: "high" }]);
    store.close();
    const again = openStore(path);
    expect(again.loadPlan("c1")).toEqual([{
      content: "Ship it",
      status: "pending",
      priority: "high",
    }]);
    again.close();
  });
});

Deno.test("migration 2 drops version-1 overflow rows (stored as TEXT) and keeps the rest", () => {
  withDir((dir) => {
    const path = join(dir, "zeph.db");
    const v1 = openDatabase(path, MIGRATIONS.slice(0, 1));
    v1.exec(`INSERT INTO conversations VALUES ('c1', 'kept', '', 1, 1);
      INSERT INTO tool_overflow VALUES ('o1', 'c1', 'old text', 8, 8, 8, 1, '[0]', 1);`);
    v1.close();
    const store = openStore(path);
    expect(userVersion(store.db)).toBe(SCHEMA_VERSION);
    expect(store.getConversation("c1")?.title).toBe("kept");
    expect(store.db.prepare("SELECT count(*) AS n FROM tool_overflow").get()).toEqual(
      Object.assign(Object.create(null), { n: 0 }),
    );
    const saved = store.saveOverflow("c1", "new entry");
    expect(store.loadOverflow(saved.id, "c1")).toBe("new entry");
    store.close();
  });
});

Deno.test("migration 3 keeps code-point-indexed overflow rows and re-indexes them on first read", () => {
  withDir((dir) => {
    const path = join(dir, "zeph.db");
    const v2 = openDatabase(path, MIGRATIONS.slice(0, 2));
    // As version 2 wrote them: chars in code points, char_index = byte offset of every 4096th
    // code point. "é🦕" is 2 code points, 3 UTF-16 units, 6 bytes.
    const content = "é🦕\n".repeat(3000);
    const bytes = new TextEncoder().encode(content);
    const oldCharIndex: number[] = [];
    const oldLineIndex: number[] = [];
    let at = 0;
    [...content].forEach((cp, i) => {
      if (i % 4096 === 0) oldCharIndex.push(at);
      if (i % (1024 * 3) === 0) oldLineIndex.push(at); // 3 code points a line
      at += new TextEncoder().encode(cp).length;
    });
    const insert = v2.prepare(
      `INSERT INTO tool_overflow (id, conversation_id, content, byte_size, stored_bytes, char_count,
         line_count, line_index, char_index, created_at) VALUES (?, 'c1', ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    v2.exec("INSERT INTO conversations VALUES ('c1', 'kept', '', 1, 1)");
    const id = "0b6c7a52-1d1f-4a47-9b39-6b2f1a7f0c11";
    insert.run(
      id,
      bytes,
      bytes.length,
      bytes.length,
      9000,
      3000,
      JSON.stringify(oldLineIndex),
      JSON.stringify(oldCharIndex),
      Date.now(),
    );
    expect(oldCharIndex).toEqual([0, 9557, 19116]); // byte offsets of code points 0, 4096, 8192
    const ascii = "1b6c7a52-1d1f-4a47-9b39-6b2f1a7f0c11";
    insert.run(ascii, new TextEncoder().encode("abc\n"), 4, 4, 4, 1, "[0]", "[]", Date.now());
    v2.close();

    const store = openStore(path);
    expect(store.overflowInfo(id, "c1")).toMatchObject({ chars: content.length, lines: 3000 });
    const page = store.overflowSlice(id, "c1", { offset: 4097, limit: 7 })!;
    expect([page.text, page.offset, page.end]).toEqual([content.slice(4097, 4104), 4097, 4104]);
    const lines = store.overflowSlice(id, "c1", { offset: 2047, limit: 2, unit: "lines" })!;
    expect(lines.text).toBe("é🦕\né🦕\n");
    const row = store.db.prepare(
      "SELECT char_count, index_version FROM tool_overflow WHERE id = ?",
    ).get(id);
    expect({ ...row }).toEqual({ char_count: content.length, index_version: 2 });
    // ASCII rows need nothing: chars are bytes under both versions.
    expect(store.overflowSlice(ascii, "c1", { offset: 1, limit: 2 })!.text).toBe("bc");
    store.close();
  });
});

Deno.test("a failing migration rolls back and names itself", () => {
  withDir((dir) => {
    const path = join(dir, "zeph.db");
    const broken: Migration[] = [...MIGRATIONS, {
      version: SCHEMA_VERSION + 1,
      name: "broken",
      sql: "CREATE TABLE extra (x); SELECT * FROM no_such_table;",
    }];
    expect(() => openDatabase(path, broken)).toThrow(
      `Cannot migrate the store "${path}" to schema version ${
        SCHEMA_VERSION + 1
      } (broken): no such table: no_such_table`,
    );
    const db = new DatabaseSync(path);
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'extra'").get())
      .toEqual(Object.assign(Object.create(null), { n: 0 }));
    db.close();
  });
});

Deno.test("a database from a newer zeph is refused with a clear error", () => {
  withDir((dir) => {
    const path = join(dir, "zeph.db");
    const raw = new DatabaseSync(path);
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    let error: unknown;
    try {
      openStore(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toBe(
      `Cannot open the store "${path}": its schema version ${
        SCHEMA_VERSION + 5
      } is newer than this zeph knows (${SCHEMA_VERSION}). Upgrade zeph, or set [memory] sqlite_path to another file.`,
    );
  });
});

Deno.test("a file that is not a database is refused with a clear error", () => {
  withDir((dir) => {
    const path = join(dir, "zeph.db");
    Deno.writeTextFileSync(path, "this is not sqlite ".repeat(100));
    expect(() => openStore(path)).toThrow(
      `Cannot open the store "${path}": file is not a database. The file is not a zeph database or is damaged; move it away or set [memory] sqlite_path to another file`,
    );
  });
});

Deno.test("a path whose parent cannot be created is refused with a clear error", () => {
  withDir((dir) => {
    const file = join(dir, "file");
    Deno.writeTextFileSync(file, "");
    expect(() => openStore(join(file, "sub", "zeph.db"))).toThrow(
      /^Cannot create the directory of the store ".*\/file\/sub\/zeph.db": .*Set \[memory\] sqlite_path to a writable location\.$/,
    );
  });
});

Deno.test("foreign keys are enforced: messages need their conversation", () => {
  withDir((dir) => {
    const store = openStore(join(dir, "zeph.db"));
    expect(() =>
      store.db.prepare(
        "INSERT INTO messages (conversation_id, seq, role, parts, created_at) VALUES ('x', 0, 'user', '[]', 0)",
      ).run()
    ).toThrow("FOREIGN KEY constraint failed");
    store.close();
  });
});

Deno.test("a store held locked by another connection is reported as locked, not as unwritable", () => {
  withDir((dir) => {
    const path = join(dir, "z.db");
    openDatabase(path).close();
    const holder = new DatabaseSync(path);
    // Leave WAL so an exclusive transaction keeps readers out too.
    holder.exec("PRAGMA journal_mode = DELETE");
    holder.exec("BEGIN EXCLUSIVE");
    try {
      expect(() => openDatabase(path, MIGRATIONS, { busyTimeoutMs: 100 })).toThrow(
        `Cannot open the store "${path}": it is locked by another zeph process. ` +
          "Wait for the other zeph to finish its write, or set [memory] sqlite_path to another file",
      );
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  });
});

Deno.test("dataDirShortfall names what a missing HOME leaves out and every key that fixes it", () => {
  const config = defaultConfig();
  expect(dataDirShortfall(config, envOf({ HOME: "/home/u" }))).toBeNull();
  expect(dataDirShortfall(config, envOf({ XDG_DATA_HOME: "/x" }))).toBeNull();
  expect(dataDirShortfall(config, envOf({}))).toEqual({
    store: true,
    audit: true,
    warning: "Neither HOME nor XDG_DATA_HOME is set, so conversations and large tool outputs " +
      "are not saved and tool calls are not audited. Set XDG_DATA_HOME or HOME, or set " +
      "[memory] sqlite_path (or ZEPH_MEMORY_SQLITE_PATH) and [tools.audit] path " +
      "(or ZEPH_TOOLS_AUDIT_PATH) in config.toml.",
  });
  const placed = defaultConfig();
  placed.memory.sqlite_path = "/data/z.db";
  placed.tools.audit.path = "/data/audit.jsonl";
  expect(dataDirShortfall(placed, envOf({}))).toBeNull();
  placed.tools.audit.path = "";
  placed.tools.audit.enabled = false;
  expect(dataDirShortfall(placed, envOf({}))).toBeNull();
});

Deno.test("a store that cannot be written carries one start-up warning: path, reason, key", () => {
  withDir((dir) => {
    Deno.writeTextFileSync(join(dir, "file"), "");
    const cases = [
      // The directory would have to be created under a regular file.
      [join(dir, "file", "sub", "z.db"), "not a directory"],
      // SQLite's "unable to open database file" is replaced by the system's reason.
      [dir, "is a directory"],
    ];
    for (const [path, reason] of cases) {
      let error: StoreError | undefined;
      try {
        openStore(path);
      } catch (e) {
        error = e as StoreError;
      }
      expect(error?.warning).toBe(
        `Cannot write the store ${JSON.stringify(path)} (${reason}), so conversations and ` +
          "large tool outputs are not saved; set [memory] sqlite_path (or " +
          "ZEPH_MEMORY_SQLITE_PATH) to a writable file.",
      );
    }
  });
});

Deno.test("a store error is sentences: the message, then the hint with its full stop", () => {
  withDir((dir) => {
    const file = join(dir, "file");
    Deno.writeTextFileSync(file, "not a database, but long enough to be read as one by SQLite");
    let message = "";
    try {
      openStore(file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `Cannot open the store "${file}": file is not a database. The file is not a zeph database ` +
        "or is damaged; move it away or set [memory] sqlite_path to another file.",
    );
  });
});
