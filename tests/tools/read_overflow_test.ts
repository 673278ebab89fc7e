import { expect } from "expect";
import { join } from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { MemoryStore, openStore, type Store } from "../../src/store/mod.ts";
import { readOverflowTool } from "../../src/tools/read_overflow.ts";
import { toolJsonSchema } from "../../src/tools/tool.ts";
import { makeRegistry, scopeFor } from "../store/_dispatch.ts";

function withSqlite(fn: (store: Store) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = Deno.makeTempDirSync({ prefix: "zeph-ro-" });
    const store = openStore(join(dir, "zeph.db"));
    try {
      await fn(store);
    } finally {
      store.close();
      Deno.removeSync(dir, { recursive: true });
    }
  };
}

const read = (input: Record<string, unknown>) => ({ id: "r1", name: "read_overflow", input });

Deno.test(
  "read_overflow: round trip from a big output, with and without the prefix",
  withSqlite(async (store) => {
    const conv = store.createConversation();
    const registry = makeRegistry(store);
    const s = await scopeFor(conv);
    const full = "é🦕 " + "0123456789\n".repeat(3000); // 33,004 chars: under one page
    const config = defaultConfig();
    config.tools.overflow.threshold = 1000;
    const small = makeRegistry(store, { config });
    const big = await small.dispatch({ id: "c1", name: "print", input: { text: full } }, s);
    const id = big.overflowId!;
    for (const ref of [id, `overflow:${id}`, ` OVERFLOW:${id.toUpperCase()} `]) {
      const result = await registry.dispatch(read({ id: ref }), s);
      expect(result.ok).toBe(true);
      expect(result.text).toBe(full);
      expect(result.overflowId).toBe(undefined);
      expect(result.output?.skipOverflow).toBe(true);
    }
  }),
);

Deno.test(
  "read_overflow: pages through a 10 MB entry in threshold-sized pages",
  withSqlite(async (store) => {
    const conv = store.createConversation();
    const registry = makeRegistry(store);
    const s = await scopeFor(conv);
    const line = "the quick brown fox jumps over the lazy dog 0123456789\n";
    const full = line.repeat(Math.ceil((10 * 1024 * 1024) / line.length));
    const id = store.saveOverflow(conv, full, { maxBytes: 0 }).id;

    const first = await registry.dispatch(read({ id }), s);
    expect(first.text).toBe(
      `${
        full.slice(0, 50_000)
      }\n\n[overflow:${id}: chars 0–50000 of ${full.length}. Use read_overflow with id "${id}", offset=50000 to read on.]`,
    );
    // The page is not truncated again although it is at the threshold.
    const lastOffset = full.length - 10;
    const last = await registry.dispatch(read({ id, offset: lastOffset }), s);
    expect(last.text).toBe(
      `${
        full.slice(lastOffset)
      }\n\n[overflow:${id}: chars ${lastOffset}–${full.length} of ${full.length}. This is the end.]`,
    );
    const lines = await registry.dispatch(
      read({ id, offset: 150_000, limit: 2, unit: "lines" }),
      s,
    );
    const totalLines = full.length / line.length;
    expect(lines.text).toBe(
      `${line}${line}\n\n[overflow:${id}: lines 150000–150002 of ${totalLines}. Use read_overflow with id "${id}", offset=150002, unit="lines" to read on.]`,
    );
    const past = await registry.dispatch(read({ id, offset: full.length + 1 }), s);
    expect(past.text).toBe(
      `\n\n[overflow:${id}: offset ${
        full.length + 1
      } is at or past the end (${full.length} chars).]`,
    );
  }),
);

Deno.test("read_overflow: another conversation's id reads exactly like a missing one", async () => {
  const store = new MemoryStore();
  const mine = store.createConversation();
  const theirs = store.createConversation();
  const id = store.saveOverflow(theirs, "secret output").id;
  const registry = makeRegistry(store);
  const expected = [
    "[tool_error]",
    "category: permanent_failure",
    "error: overflow entry not found or expired",
    "suggestion: Overflow entries belong to the conversation that created them and expire after [tools.overflow] retention_days; run the command again if you need its output.",
    "retryable: false",
  ].join("\n");
  const cross = await registry.dispatch(read({ id }), await scopeFor(mine));
  const missing = await registry.dispatch(
    read({ id: crypto.randomUUID() }),
    await scopeFor(mine),
  );
  const noConversation = await registry.dispatch(read({ id }), await scopeFor(null));
  for (const result of [cross, missing, noConversation]) {
    expect([result.ok, result.category, result.text]).toEqual([
      false,
      "permanent_failure",
      expected,
    ]);
  }
  // The owner still reads it.
  const own = await registry.dispatch(read({ id }), await scopeFor(theirs));
  expect(own.text).toBe("secret output");
});

Deno.test("read_overflow: invalid ids and parameters are refused before any lookup", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  const registry = makeRegistry(store);
  const s = await scopeFor(conv);
  for (const id of ["", "overflow:", "../../etc/passwd", "1234", `${crypto.randomUUID()}x`]) {
    const result = await registry.dispatch(read({ id }), s);
    expect([result.ok, result.category, result.error]).toEqual([
      false,
      "invalid_parameters",
      `Cannot read overflow ${JSON.stringify(id)}: the id is not a UUID`,
    ]);
  }
  const negative = await registry.dispatch(read({ id: crypto.randomUUID(), offset: -1 }), s);
  expect(negative.category).toBe("invalid_parameters");
  expect(negative.error).toMatch(/^Invalid parameters for tool "read_overflow":\n- offset: /);
  const unit = await registry.dispatch(read({ id: crypto.randomUUID(), unit: "bytes" }), s);
  expect(unit.category).toBe("invalid_parameters");
});

Deno.test("read_overflow: a session without a store says so", async () => {
  const registry = makeRegistry(null);
  const result = await registry.dispatch(
    read({ id: crypto.randomUUID() }),
    await scopeFor("c"),
  );
  expect([result.category, result.error]).toEqual([
    "permanent_failure",
    "Cannot read overflow: no overflow store is available in this session",
  ]);
});

Deno.test("read_overflow: the declaration the model sees", () => {
  expect({
    name: readOverflowTool.name,
    kind: readOverflowTool.kind,
    mutates: readOverflowTool.mutates,
    invocation: readOverflowTool.invocation,
    subjects: readOverflowTool.subjects({ id: "x", unit: "chars" }),
  }).toEqual({
    name: "read_overflow",
    kind: "read",
    mutates: false,
    invocation: { type: "call" },
    subjects: [],
  });
  const schema = toolJsonSchema(readOverflowTool) as {
    properties: Record<string, unknown>;
    required: string[];
  };
  expect(Object.keys(schema.properties)).toEqual(["id", "offset", "limit", "unit"]);
  expect(schema.required).toEqual(["id"]);
});

Deno.test(
  "read_overflow: following the page notes through an emoji-heavy entry reads it exactly once",
  withSqlite(async (store) => {
    const conv = store.createConversation();
    const s = await scopeFor(conv);
    // Pairs at every offset parity, BMP and ASCII between them, a U+FEFF at the start.
    const pieces = ["🦕", "🦕é", "🦕é😀", "a😀"];
    const full = "\uFEFF" + Array.from({ length: 800 }, (_, i) => pieces[i % 4] + "x").join("") +
      "🦕";
    const id = store.saveOverflow(conv, full).id;
    for (const threshold of [1, 2, 3, 1001]) {
      const config = defaultConfig();
      config.tools.overflow.threshold = threshold;
      const registry = makeRegistry(store, { config });
      let text = "";
      let offset = 0;
      let pages = 0;
      for (;;) {
        const result = await registry.dispatch(read({ id, offset }), s);
        expect(result.ok).toBe(true);
        const note = /\n\n\[overflow:[^\]]*chars (\d+)–(\d+) of (\d+)\.([^\]]*)\]$/.exec(
          result.text,
        );
        expect(note).not.toBe(null);
        const [, from, to, total, rest] = note!;
        expect([Number(from), Number(total)]).toEqual([offset, full.length]);
        text += result.text.slice(0, note!.index);
        pages++;
        if (rest.includes("This is the end.")) break;
        const next = Number(/offset=(\d+)/.exec(rest)![1]);
        expect(next).toBe(Number(to));
        expect(next).toBeGreaterThan(offset);
        offset = next;
      }
      expect(text === full).toBe(true);
      expect(pages).toBeGreaterThanOrEqual(Math.ceil(full.length / (threshold + 1)));
    }
  }),
);
