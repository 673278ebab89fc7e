import { expect } from "expect";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { MIGRATIONS, openConfiguredStore, openDatabase, openStore } from "../../src/store/mod.ts";
import { storeSuite } from "./_store_suite.ts";

let dir = "";
storeSuite("SqliteStore", {
  make(now) {
    dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
    return openStore(join(dir, "nested", "zeph.db"), { now });
  },
  dispose() {
    Deno.removeSync(dir, { recursive: true });
  },
});

Deno.test("SqliteStore: data survives closing and reopening the file", () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const path = join(dir, "zeph.db");
    const first = openStore(path);
    const id = first.createConversation({ title: "kept" });
    first.appendMessages(id, [{ role: "user", parts: [{ type: "text", text: "hello" }] }]);
    const saved = first.saveOverflow(id, "z".repeat(70_000));
    first.close();
    const second = openStore(path);
    expect(second.getConversation(id)?.title).toBe("kept");
    expect(second.loadMessages(id)).toEqual([
      { role: "user", parts: [{ type: "text", text: "hello" }] },
    ]);
    expect(second.loadOverflow(saved.id, id)).toBe("z".repeat(70_000));
    second.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("SqliteStore: retention cleanup uses the stored created_at", () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const path = join(dir, "zeph.db");
    const store = openStore(path);
    const id = store.createConversation();
    const old = store.saveOverflow(id, "old output");
    const fresh = store.saveOverflow(id, "fresh output");
    // Age one entry by hand, as if it had been written 8 days ago.
    const other = new DatabaseSync(path);
    other.prepare("UPDATE tool_overflow SET created_at = created_at - ? WHERE id = ?")
      .run(8 * 86_400_000, old.id);
    other.close();
    expect(store.cleanupOverflow(7)).toBe(1);
    expect(store.loadOverflow(old.id, id)).toBe(null);
    expect(store.loadOverflow(fresh.id, id)).toBe("fresh output");
    store.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("SqliteStore: content is UTF-8 in the BLOB column, sizes and indexes recorded", () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const store = openStore(join(dir, "zeph.db"));
    const id = store.createConversation();
    const saved = store.saveOverflow(id, "ab🦕\nc");
    const row = store.db.prepare(
      `SELECT typeof(content) AS type, length(content) AS length, byte_size, stored_bytes,
              char_count, line_count, line_index, char_index, index_version
         FROM tool_overflow WHERE id = ?`,
    ).get(saved.id);
    expect({ ...row }).toEqual({
      type: "blob",
      length: 8,
      byte_size: 8,
      stored_bytes: 8,
      char_count: 6, // UTF-16 units: the dinosaur is a surrogate pair
      line_count: 2,
      line_index: "[0]",
      char_index: "[0,0]", // pairs of (char, byte): one piece, starting at 0
      index_version: 2,
    });
    store.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("openConfiguredStore opens the configured file and runs the retention cleanup", () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const config = defaultConfig();
    const env = (name: string) => (name === "XDG_DATA_HOME" ? dir : undefined);
    let now = 1_700_000_000_000;
    const first = openConfiguredStore(config, { env, now: () => now });
    expect(first.path).toBe(join(dir, "zeph", "zeph.db"));
    const conv = first.createConversation();
    const saved = first.saveOverflow(conv, "kept for a week");
    first.close();

    now += 6 * 86_400_000;
    const second = openConfiguredStore(config, { env, now: () => now });
    expect(second.loadOverflow(saved.id, conv)).toBe("kept for a week");
    second.close();

    now += 1 * 86_400_000 + 1;
    const third = openConfiguredStore(config, { env, now: () => now });
    expect(third.loadOverflow(saved.id, conv)).toBe(null);
    expect(third.getConversation(conv)?.id).toBe(conv);
    third.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("SqliteStore: a write's checkpoint runs on the next event-loop turn, not inside it", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const path = join(dir, "zeph.db");
    const store = openStore(path);
    const id = store.createConversation();
    await new Promise((resolve) => setTimeout(resolve, 5)); // the create's checkpoint
    const before = Deno.statSync(path).size;
    const saved = store.saveOverflow(id, "x".repeat(2 * 1024 * 1024));
    // The 2 MiB are in the WAL only: the database file has not grown yet.
    expect(Deno.statSync(path).size).toBe(before);
    expect(Deno.statSync(`${path}-wal`).size).toBeGreaterThan(2 * 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(Deno.statSync(path).size).toBeGreaterThanOrEqual(before + 2 * 1024 * 1024);
    expect(store.loadOverflow(saved.id, id)?.length).toBe(2 * 1024 * 1024);
    store.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("SqliteStore: a burst of writes with no turn between checkpoints inline past the limit", () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const path = join(dir, "zeph.db");
    const store = openStore(path, { inlineCheckpointBytes: 3 * 1024 * 1024 });
    const id = store.createConversation();
    const size = () => Deno.statSync(path).size;
    const start = size();
    store.saveOverflow(id, "a".repeat(2 * 1024 * 1024));
    expect(size()).toBe(start); // 2 MiB: under the limit, left for the next turn
    store.saveOverflow(id, "b".repeat(2 * 1024 * 1024));
    expect(size()).toBeGreaterThanOrEqual(start + 4 * 1024 * 1024); // 4 MiB: checkpointed inline
    store.close();
    // Closing with a checkpoint still pending loses nothing.
    const reopened = openStore(path);
    expect(reopened.db.prepare("SELECT count(*) AS n FROM tool_overflow").get()).toEqual(
      Object.assign(Object.create(null), { n: 2 }),
    );
    reopened.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

/** A database at schema version 2 holding one non-ASCII overflow row indexed by code point. */
function oldRow(path: string, content: string): string {
  const v2 = openDatabase(path, MIGRATIONS.slice(0, 2));
  const bytes = new TextEncoder().encode(content);
  v2.exec("INSERT INTO conversations VALUES ('c1', 'old', '', 1, 1)");
  const id = "0b6c7a52-1d1f-4a47-9b39-6b2f1a7f0c11";
  v2.prepare(
    `INSERT INTO tool_overflow (id, conversation_id, content, byte_size, stored_bytes, char_count,
       line_count, line_index, char_index, created_at) VALUES (?, 'c1', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, bytes, bytes.length, bytes.length, [...content].length, 1, "[0]", "[0,0]", Date.now());
  v2.close();
  return id;
}

Deno.test("SqliteStore: re-indexing an old overflow row on read schedules a checkpoint", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const path = join(dir, "zeph.db");
    const id = oldRow(path, "🦕".repeat(5000));
    const store = openStore(path);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(store.overflowInfo(id, "c1")?.chars).toBe(10_000); // re-indexed: a write
    const written = Deno.statSync(`${path}-wal`).size;
    expect(written).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The checkpoint ran: a new write starts the WAL over instead of appending to it.
    store.createConversation();
    expect(Deno.statSync(`${path}-wal`).size).toBe(written);
    store.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("SqliteStore: an old row read while another connection writes is served and re-indexed later", () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-store-" });
  try {
    const path = join(dir, "zeph.db");
    const content = "é🦕\n".repeat(3000);
    const id = oldRow(path, content);
    const reader = openStore(path);
    const writer = openStore(path);
    writer.db.exec("BEGIN IMMEDIATE");
    writer.createConversation();
    // The reader cannot write the new index now (the writer holds the lock): it serves it anyway.
    const page = reader.overflowSlice(id, "c1", { offset: 4095, limit: 4 })!;
    expect([page.text, page.offset, page.end, page.total]).toEqual([
      content.slice(4095, 4099),
      4095,
      4099,
      content.length,
    ]);
    const version = () =>
      ({ ...reader.db.prepare("SELECT index_version FROM tool_overflow").get() }).index_version;
    expect(version()).toBe(1);
    // So does the info read (in its own read transaction, like the page read).
    expect(reader.overflowInfo(id, "c1")?.chars).toBe(content.length);
    expect(version()).toBe(1);
    writer.db.exec("COMMIT");
    expect(reader.overflowInfo(id, "c1")?.chars).toBe(content.length);
    expect(version()).toBe(2);
    expect(writer.overflowSlice(id, "c1", { offset: 4095, limit: 4 })?.text).toBe(
      content.slice(4095, 4099),
    );
    reader.close();
    writer.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
