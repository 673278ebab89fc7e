import { expect } from "expect";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { openConfiguredStore, openStore } from "../../src/store/mod.ts";
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
              char_count, line_count, line_index, char_index
         FROM tool_overflow WHERE id = ?`,
    ).get(saved.id);
    expect({ ...row }).toEqual({
      type: "blob",
      length: 8,
      byte_size: 8,
      stored_bytes: 8,
      char_count: 5,
      line_count: 2,
      line_index: "[0]",
      char_index: "[0]",
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
