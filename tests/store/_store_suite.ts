/**
 * The one suite every `Store` implementation must pass (SQLite and in-memory), as Hono runs one
 * suite against every router. `make` builds a fresh store with the given clock.
 */
import { expect } from "expect";
import type { Message } from "../../src/provider/types.ts";
import { DROPPED_NOTE, type Store, StoreError } from "../../src/store/mod.ts";

export interface StoreFactory {
  make(now: () => number): Promise<Store> | Store;
  /** Removes files after the test. */
  dispose?(): Promise<void> | void;
}

const DAY = 86_400_000;

const TRANSCRIPT: Message[] = [
  { role: "user", parts: [{ type: "text", text: "List the files, then read a.ts 🦕" }] },
  {
    role: "assistant",
    parts: [
      { type: "text", text: "Listing first." },
      { type: "tool_call", id: "call_1", name: "list_directory", input: { path: "." } },
      {
        type: "tool_call",
        id: "call_2",
        name: "read",
        input: { path: "a.ts", offset: 0, nested: { list: [1, 2.5, null, true, "x"] } },
      },
    ],
  },
  {
    role: "user",
    parts: [
      { type: "tool_result", callId: "call_1", text: "[file] a.ts\n[file] b.ts", isError: false },
      {
        type: "tool_result",
        callId: "call_2",
        text: '[tool_error]\ncategory: permanent_failure\nerror: "a.ts" \u0000 \\ not found',
        isError: true,
      },
    ],
  },
  { role: "assistant", parts: [{ type: "text", text: "" }] },
];

export function storeSuite(name: string, factory: StoreFactory): void {
  const test = (title: string, fn: (store: Store, clock: { t: number }) => Promise<void> | void) =>
    Deno.test(`${name}: ${title}`, async () => {
      const clock = { t: 1_700_000_000_000 };
      const store = await factory.make(() => clock.t);
      try {
        await fn(store, clock);
      } finally {
        store.close();
        await factory.dispose?.();
      }
    });

  test("creates, gets, renames and lists conversations, newest first", (store, clock) => {
    const a = store.createConversation({ title: "first", cwd: "/work/a" });
    clock.t += 1000;
    const b = store.createConversation();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(store.getConversation(a)).toEqual({
      id: a,
      title: "first",
      cwd: "/work/a",
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_000,
    });
    expect(store.getConversation(b)).toEqual({
      id: b,
      title: "",
      cwd: "",
      createdAt: 1_700_000_001_000,
      updatedAt: 1_700_000_001_000,
    });
    expect(store.listConversations().map((c) => c.id)).toEqual([b, a]);
    clock.t += 1000;
    expect(store.renameConversation(a, "renamed")).toBe(true);
    expect(store.renameConversation("no-such-id", "x")).toBe(false);
    expect(store.listConversations({ limit: 1 })).toEqual([{
      id: a,
      title: "renamed",
      cwd: "/work/a",
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_002_000,
      messageCount: 0,
    }]);
    expect(store.getConversation("missing")).toBe(null);
  });

  test("keeps a conversation's session mode without touching its updated time", (store, clock) => {
    const id = store.createConversation();
    expect(store.conversationMode(id)).toBe(null);
    clock.t += 1000;
    expect(store.setConversationMode(id, "ask")).toBe(true);
    expect(store.setConversationMode(id, "architect")).toBe(true);
    expect(store.conversationMode(id)).toBe("architect");
    expect(store.getConversation(id)!.updatedAt).toBe(1_700_000_000_000);
    expect(store.setConversationMode("no-such-id", "ask")).toBe(false);
    expect(store.conversationMode("no-such-id")).toBe(null);
    store.deleteConversation(id);
    expect(store.conversationMode(id)).toBe(null);
  });

  test("stores the full transcript losslessly and in order across appends", (store, clock) => {
    const id = store.createConversation();
    store.appendMessages(id, TRANSCRIPT.slice(0, 2));
    clock.t += 5;
    store.appendMessages(id, TRANSCRIPT.slice(2));
    store.appendMessages(id, []);
    expect(store.loadMessages(id)).toEqual(TRANSCRIPT);
    expect(store.listConversations()[0]).toEqual({
      id,
      title: "",
      cwd: "",
      createdAt: 1_700_000_000_000,
      updatedAt: 1_700_000_000_005,
      messageCount: 4,
    });
    // What was loaded is a copy: mutating it changes nothing stored.
    const loaded = store.loadMessages(id);
    loaded[0].parts.push({ type: "text", text: "mutated" });
    expect(store.loadMessages(id)).toEqual(TRANSCRIPT);
    expect(store.loadMessages("other")).toEqual([]);
  });

  test("keeps lone surrogates in messages exactly", (store) => {
    const id = store.createConversation();
    const odd: Message[] = [{ role: "user", parts: [{ type: "text", text: "a\uD800b\uDFFFc" }] }];
    store.appendMessages(id, odd);
    expect(store.loadMessages(id)).toEqual(odd);
  });

  test("refuses messages for a missing conversation and malformed messages", (store) => {
    expect(() => store.appendMessages("nope", TRANSCRIPT)).toThrow(
      'Cannot append messages to conversation "nope": it does not exist',
    );
    const id = store.createConversation();
    const bad = [{ role: "system", parts: [] }] as unknown as Message[];
    expect(() => store.appendMessages(id, bad)).toThrow(StoreError);
    expect(() => store.appendMessages(id, bad)).toThrow(
      `Cannot append message 0 to conversation "${id}": role "system" is not "user" or "assistant"`,
    );
    const badPart = [{ role: "user", parts: [{ type: "image" }] }] as unknown as Message[];
    expect(() => store.appendMessages(id, [...TRANSCRIPT, ...badPart])).toThrow(
      `Cannot append message 4 to conversation "${id}": part type "image" is not text, tool_call or tool_result`,
    );
    // A rejected batch stores nothing.
    expect(store.loadMessages(id)).toEqual([]);
  });

  test("saves and loads overflow within its conversation only", (store) => {
    const a = store.createConversation();
    const b = store.createConversation();
    const content = "line 1\nline 2 — ü 🦕\n".repeat(1000);
    const saved = store.saveOverflow(a, content);
    const bytes = new TextEncoder().encode(content).length;
    expect(saved).toEqual({ id: saved.id, byteSize: bytes, storedBytes: bytes, truncated: false });
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(store.loadOverflow(saved.id, a)).toBe(content);
    expect(store.loadOverflow(saved.id, b)).toBe(null);
    expect(store.loadOverflow(crypto.randomUUID(), a)).toBe(null);
    expect(store.overflowInfo(saved.id, b)).toBe(null);
    expect(store.overflowConversation(saved.id)).toBe(a);
    expect(store.overflowConversation(crypto.randomUUID())).toBe(null);
    expect(store.overflowSlice(saved.id, b, { limit: 10 })).toBe(null);
    expect(store.overflowInfo(saved.id, a)).toEqual({
      id: saved.id,
      conversationId: a,
      byteSize: bytes,
      storedBytes: bytes,
      truncated: false,
      chars: content.length,
      lines: 2000,
      createdAt: 1_700_000_000_000,
    });
    expect(() => store.saveOverflow("nope", "x")).toThrow(
      'Cannot store overflow for conversation "nope": it does not exist',
    );
  });

  test("finds overflow ids by prefix, in id order, at most limit", (store) => {
    const a = store.createConversation();
    const b = store.createConversation();
    const ids = [store.saveOverflow(a, "x").id, store.saveOverflow(b, "y").id].sort();
    expect(store.overflowIdsStartingWith(ids[0], 10)).toEqual([ids[0]]);
    expect(store.overflowIdsStartingWith(ids[1].slice(0, 30), 10)).toEqual([ids[1]]);
    expect(store.overflowIdsStartingWith("", 10)).toEqual(ids);
    expect(store.overflowIdsStartingWith("", 1)).toEqual([ids[0]]);
    expect(store.overflowIdsStartingWith("zz", 10)).toEqual([]);
    // A prefix is not a pattern.
    expect(store.overflowIdsStartingWith("%", 10)).toEqual([]);
  });

  test("keeps only the first maxBytes, never splitting a character", (store) => {
    const id = store.createConversation();
    // "é" is 2 bytes: 5 bytes fit "abé" + one byte of the next "é", which must be dropped.
    const saved = store.saveOverflow(id, "abééé", { maxBytes: 5 });
    expect(saved).toEqual({ id: saved.id, byteSize: 8, storedBytes: 4, truncated: true });
    expect(store.loadOverflow(saved.id, id)).toBe("abé");
    const ascii = store.saveOverflow(id, "x".repeat(100), { maxBytes: 10 });
    expect(ascii).toEqual({ id: ascii.id, byteSize: 100, storedBytes: 10, truncated: true });
    expect(store.loadOverflow(ascii.id, id)).toBe("x".repeat(10));
    // A long remainder is counted exactly, in pieces that never split a surrogate pair (after
    // "x" the pairs sit so that a piece boundary falls between the two halves of one).
    for (
      const [content, kept, bytes] of [
        ["a" + "🦕".repeat(600_000), "a🦕🦕", 1 + 2_400_000],
        ["a🦕🦕x" + "🦕".repeat(600_000), "a🦕🦕", 10 + 2_400_000],
      ] as const
    ) {
      const big = store.saveOverflow(id, content, { maxBytes: 9 });
      expect(big).toEqual({ id: big.id, byteSize: bytes, storedBytes: 9, truncated: true });
      expect(store.loadOverflow(big.id, id)).toBe(kept);
    }
    const fits = store.saveOverflow(id, "é".repeat(50), { maxBytes: 100 });
    expect(fits).toEqual({ id: fits.id, byteSize: 100, storedBytes: 100, truncated: false });
    const unlimited = store.saveOverflow(id, "y".repeat(100), { maxBytes: 0 });
    expect(unlimited.truncated).toBe(false);
    expect(store.overflowInfo(ascii.id, id)?.truncated).toBe(true);
  });

  test("stores lone surrogates in overflow as U+FFFD, as SQLite does", (store) => {
    const id = store.createConversation();
    const saved = store.saveOverflow(id, "a\uD800b\n🦕\uDFFF");
    expect(saved).toEqual({ id: saved.id, byteSize: 13, storedBytes: 13, truncated: false });
    expect(store.loadOverflow(saved.id, id)).toBe("a\uFFFDb\n🦕\uFFFD");
    const info = store.overflowInfo(saved.id, id)!;
    expect([info.chars, info.lines]).toEqual([7, 2]);
    expect(store.overflowSlice(saved.id, id, { offset: 4, limit: 3 })?.text).toBe("🦕\uFFFD");
    // A bound inside the pair widens the page to the whole character.
    const half = store.overflowSlice(saved.id, id, { offset: 4, limit: 1 })!;
    expect([half.text, half.offset, half.end]).toEqual(["🦕", 4, 6]);
    const second = store.overflowSlice(saved.id, id, { offset: 5, limit: 1 })!;
    expect([second.text, second.offset, second.end]).toEqual(["🦕", 4, 6]);
  });

  test("pages by chars and lines; the pages put together are the content", (store) => {
    const id = store.createConversation();
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `${i} ${i % 7 === 0 ? "🦕é" : "x".repeat(i % 13)}`,
    );
    const content = lines.join("\n"); // no final newline: the last line still counts
    const saved = store.saveOverflow(id, content);
    const chars = content; // chars are UTF-16 units

    // Paging on from each page's end: a page that would end inside a pair takes the whole pair.
    let rebuilt = "";
    let pages = 0;
    for (let offset = 0; offset < chars.length; pages++) {
      const page = store.overflowSlice(saved.id, id, { offset, limit: 4999 })!;
      const expected = unitPage(content, offset, 4999);
      expect([page.text, page.offset, page.end, page.total, page.unit]).toEqual([
        expected.text,
        expected.offset,
        expected.end,
        chars.length,
        "chars",
      ]);
      if (page.end < chars.length) expect(page.end - page.offset).toBeGreaterThanOrEqual(4999);
      rebuilt += page.text;
      offset = page.end;
    }
    expect(rebuilt).toBe(content);
    expect(pages).toBeLessThanOrEqual(Math.ceil(chars.length / 4999));

    rebuilt = "";
    for (let offset = 0; offset < 3000; offset += 700) {
      const page = store.overflowSlice(saved.id, id, { offset, limit: 700, unit: "lines" })!;
      const expected = lines.slice(offset, offset + 700).join("\n") +
        (offset + 700 < 3000 ? "\n" : "");
      expect(page.text).toBe(expected);
      expect([page.offset, page.end, page.total]).toEqual([
        offset,
        Math.min(3000, offset + 700),
        3000,
      ]);
      rebuilt += page.text;
    }
    expect(rebuilt).toBe(content);

    // Line pages that start past several index steps (1024 lines each) and cross one.
    expect(store.overflowSlice(saved.id, id, { offset: 2047, limit: 3, unit: "lines" })!.text)
      .toBe(`${lines[2047]}\n${lines[2048]}\n${lines[2049]}\n`);
    for (const at of [1023, 1024, 2048]) {
      expect(store.overflowSlice(saved.id, id, { offset: at, limit: 1, unit: "lines" })!.text)
        .toBe(`${lines[at]}\n`);
    }
    expect(store.overflowSlice(saved.id, id, { offset: 2999, unit: "lines" })!.text).toBe(
      lines[2999],
    );
    const past = store.overflowSlice(saved.id, id, { offset: 5000, limit: 10, unit: "lines" })!;
    expect([past.text, past.offset, past.end, past.total]).toEqual(["", 3000, 3000, 3000]);
    const pastChars = store.overflowSlice(saved.id, id, { offset: chars.length + 5 })!;
    expect([pastChars.text, pastChars.offset, pastChars.end]).toEqual([
      "",
      chars.length,
      chars.length,
    ]);
    expect(store.overflowSlice(saved.id, id)!.text).toBe(content);
    expect(() => store.overflowSlice(saved.id, id, { offset: -1 })).toThrow(
      "Cannot read overflow: offset -1 is not a non-negative integer",
    );
  });

  test("char pages of multi-byte text are exact around the char-index steps", (store) => {
    const id = store.createConversation();
    // 5 units a line, so the index steps (every 4096 units) fall before, inside and after the
    // pair in turn.
    const content = "é🦕a\n".repeat(5000);
    const saved = store.saveOverflow(id, content);
    const offsets = [0, 1, 2, 3, 4095, 4096, 4097, 8191, 8192, 8193, 12_287, 12_288, 24_999];
    for (const offset of offsets) {
      for (const limit of [1, 2, 3, 4095, 4096, 9000, undefined]) {
        const page = store.overflowSlice(saved.id, id, { offset, limit })!;
        const expected = unitPage(content, offset, limit);
        expect([offset, limit, page.text === expected.text, page.offset, page.end]).toEqual([
          offset,
          limit,
          true,
          expected.offset,
          expected.end,
        ]);
      }
    }
  });

  test("pages lines longer than one read chunk", (store) => {
    const id = store.createConversation();
    const lines = ["a".repeat(300_000), "b", "é".repeat(600_000), "", "d"];
    const content = lines.join("\n");
    const saved = store.saveOverflow(id, content);
    for (let i = 0; i < lines.length; i++) {
      const page = store.overflowSlice(saved.id, id, { offset: i, limit: 1, unit: "lines" })!;
      expect(page.text === lines[i] + (i < lines.length - 1 ? "\n" : "")).toBe(true);
    }
    const middle = store.overflowSlice(saved.id, id, { offset: 1, limit: 3, unit: "lines" })!;
    expect(middle.text === `b\n${lines[2]}\n\n`).toBe(true);
  });

  test("keeps a U+FEFF (byte-order mark) at the start of the entry, of a page and of a line", (store) => {
    const id = store.createConversation();
    const lines = ["\uFEFFhead é\n", "x".repeat(5000) + "\n", "\uFEFFsecond 🦕\n", "\uFEFF"];
    const content = lines.join("");
    const saved = store.saveOverflow(id, content);
    expect(store.loadOverflow(saved.id, id)).toBe(content);
    const all = store.overflowSlice(saved.id, id, { offset: 0, limit: content.length })!;
    expect({ text: all.text, offset: all.offset, end: all.end, total: all.total }).toEqual({
      text: content,
      offset: 0,
      end: content.length,
      total: content.length,
    });
    // A page that starts on the char-index piece holding the second mark, and the first page.
    const at = content.indexOf("\uFEFFsecond");
    expect(store.overflowSlice(saved.id, id, { offset: at, limit: 3 })?.text).toBe("\uFEFFse");
    expect(store.overflowSlice(saved.id, id, { offset: 0, limit: 3 })?.text).toBe("\uFEFFhe");
    for (let i = 0; i < lines.length; i++) {
      const page = store.overflowSlice(saved.id, id, { offset: i, limit: 1, unit: "lines" })!;
      expect(page.text).toBe(lines[i]);
    }
    expect(store.overflowSlice(saved.id, id, { unit: "lines", limit: 9 })?.text).toBe(content);
  });

  test("counts lines the same with or without a final newline, and empty content", (store) => {
    const id = store.createConversation();
    const withNl = store.saveOverflow(id, "a\nb\n");
    const without = store.saveOverflow(id, "a\nb");
    const empty = store.saveOverflow(id, "");
    expect(store.overflowInfo(withNl.id, id)?.lines).toBe(2);
    expect(store.overflowInfo(without.id, id)?.lines).toBe(2);
    expect(store.overflowInfo(empty.id, id)).toEqual({
      id: empty.id,
      conversationId: id,
      byteSize: 0,
      storedBytes: 0,
      truncated: false,
      chars: 0,
      lines: 0,
      createdAt: 1_700_000_000_000,
    });
    expect(store.overflowSlice(withNl.id, id, { offset: 1, limit: 1, unit: "lines" })?.text).toBe(
      "b\n",
    );
  });

  test(
    "keeps one plan per conversation: replaced whole, cleared, refused for a missing one",
    (store, clock) => {
      const a = store.createConversation();
      const b = store.createConversation();
      expect(store.loadPlan(a)).toEqual([]);
      const first = [
        { content: "Read the parser", status: "completed" as const, priority: "medium" as const },
        { content: "Fix it", status: "in_progress" as const, priority: "high" as const },
      ];
      clock.t += 1000;
      store.savePlan(a, first);
      expect(store.loadPlan(a)).toEqual(first);
      expect(store.loadPlan(b)).toEqual([]);
      expect(store.getConversation(a)!.updatedAt).toBe(clock.t);
      const second = [{
        content: "Run the tests",
        status: "pending" as const,
        priority: "low" as const,
      }];
      store.savePlan(a, second);
      expect(store.loadPlan(a)).toEqual(second);
      store.savePlan(a, []);
      expect(store.loadPlan(a)).toEqual([]);
      expect(() => store.savePlan("nope", second)).toThrow(
        'Cannot save the plan of conversation "nope": it does not exist',
      );
      store.savePlan(b, second);
      expect(store.deleteConversation(b)).toBe(true);
      expect(store.loadPlan(b)).toEqual([]);
    },
  );

  test("deleting a conversation deletes its messages and overflow", (store) => {
    const a = store.createConversation();
    const b = store.createConversation();
    store.appendMessages(a, TRANSCRIPT);
    const ofA = store.saveOverflow(a, "a".repeat(10));
    const ofB = store.saveOverflow(b, "b".repeat(10));
    expect(store.deleteConversation(a)).toBe(true);
    expect(store.deleteConversation(a)).toBe(false);
    expect(store.getConversation(a)).toBe(null);
    expect(store.loadMessages(a)).toEqual([]);
    expect(store.loadOverflow(ofA.id, a)).toBe(null);
    expect(store.loadOverflow(ofB.id, b)).toBe("b".repeat(10));
    expect(store.listConversations().map((c) => c.id)).toEqual([b]);
  });

  test("cleanup removes entries older than the retention only", (store, clock) => {
    const id = store.createConversation();
    const old = store.saveOverflow(id, "old");
    clock.t += 3 * DAY;
    const recent = store.saveOverflow(id, "recent");
    clock.t += 4 * DAY + 1; // old is 7 days + 1 ms old, recent 4 days + 1 ms
    expect(store.cleanupOverflow(7)).toBe(1);
    expect(store.loadOverflow(old.id, id)).toBe(null);
    expect(store.loadOverflow(recent.id, id)).toBe("recent");
    expect(store.cleanupOverflow(7)).toBe(0);
    expect(store.cleanupOverflow(0)).toBe(1);
    expect(store.loadOverflow(recent.id, id)).toBe(null);
    expect(() => store.cleanupOverflow(-1)).toThrow(
      "Cannot clean up overflow: retention of -1 days is not a number >= 0",
    );
    // The conversation itself is kept.
    expect(store.getConversation(id)?.id).toBe(id);
  });

  test(
    "undo log: records entries with their content, lists newest first, restores once",
    (store, clock) => {
      const id = store.createConversation({ cwd: "/ws" });
      const other = store.createConversation({ cwd: "/ws" });
      const bytes = (s: string) => new TextEncoder().encode(s);
      const cap = { maxConversationBytes: 1000 };
      const first = store.undo.record(id, {
        callId: "c1",
        tool: "write",
        summary: 'write "a.txt"',
        changes: [{ type: "path", path: "/ws/a.txt", after: "file:1", before: { kind: "absent" } }],
        blobs: [],
      }, cap);
      clock.t += 1000;
      const second = store.undo.record(id, {
        callId: "c2",
        tool: "edit",
        summary: 'edit "a.txt"',
        changes: [{ type: "path", path: "/ws/a.txt", after: "file:2", before: { blob: 0 } }],
        blobs: [bytes("old\n"), new Uint8Array([0, 255, 1])],
      }, cap);
      expect(second).toEqual({
        id: second.id,
        conversationId: id,
        callId: "c2",
        tool: "edit",
        summary: 'edit "a.txt"',
        changes: [{ type: "path", path: "/ws/a.txt", after: "file:2", before: { blob: 0 } }],
        storedBytes: 7,
        note: null,
        createdAt: 1_700_000_001_000,
        restoredAt: null,
      });
      expect(store.undo.list(id).map((e) => e.callId)).toEqual(["c2", "c1"]);
      expect(store.undo.list(other)).toEqual([]);
      expect(store.undo.blobs(second.id)).toEqual([bytes("old\n"), new Uint8Array([0, 255, 1])]);
      expect(store.undo.latestConversation("/ws")).toBe(id);
      expect(store.undo.latestConversation("/elsewhere")).toBe(null);
      store.undo.markRestored(second.id);
      expect(store.undo.list(id).map((e) => e.callId)).toEqual(["c1"]);
      expect(store.undo.list(id, { all: true }).map((e) => [e.callId, e.restoredAt, e.storedBytes]))
        .toEqual([["c2", clock.t, 0], ["c1", null, 0]]);
      expect(store.undo.blobs(second.id)).toEqual([]);
      expect(store.undo.blobs(first.id)).toEqual([]);
    },
  );

  test("undo log: past the per-conversation cap the oldest entries lose their content", (store) => {
    const id = store.createConversation({ cwd: "/ws" });
    const other = store.createConversation({ cwd: "/ws" });
    const blob = (n: number) => new Uint8Array(n).fill(7);
    const entry = (callId: string, n: number) => ({
      callId,
      tool: "write",
      summary: callId,
      changes: [],
      blobs: [blob(n)],
    });
    const cap = { maxConversationBytes: 250 };
    store.undo.record(other, entry("x", 200), cap);
    store.undo.record(id, entry("a", 100), cap);
    store.undo.record(id, entry("b", 100), cap);
    const c = store.undo.record(id, entry("c", 100), cap);
    expect(store.undo.list(id).map((e) => [e.callId, e.storedBytes, e.note])).toEqual([
      ["c", 100, null],
      ["b", 100, null],
      ["a", 0, DROPPED_NOTE],
    ]);
    expect(store.undo.blobs(c.id)).toEqual([blob(100)]);
    // Another conversation's entries count against its own cap only.
    expect(store.undo.list(other).map((e) => e.storedBytes)).toEqual([200]);
  });

  test("undo log: refuses a missing conversation; deleting the conversation deletes its log", (store) => {
    const entry = { callId: "c", tool: "write", summary: "s", changes: [], blobs: [] };
    expect(() => store.undo.record("nope", entry, { maxConversationBytes: 10 })).toThrow(
      StoreError,
    );
    const id = store.createConversation({ cwd: "/ws" });
    store.undo.record(id, entry, { maxConversationBytes: 10 });
    expect(store.deleteConversation(id)).toBe(true);
    expect(store.undo.list(id, { all: true })).toEqual([]);
    expect(store.undo.latestConversation("/ws")).toBe(null);
  });
}

/**
 * The char page the stores must return: UTF-16 units [offset, offset + limit), widened by one
 * unit at a bound that falls inside a surrogate pair.
 */
export function unitPage(
  text: string,
  offset: number,
  limit: number | undefined,
): { text: string; offset: number; end: number } {
  let start = Math.min(offset, text.length);
  let end = limit === undefined ? text.length : Math.min(text.length, start + limit);
  if (end <= start) return { text: "", offset: start, end: start };
  const low = (i: number) => (text.charCodeAt(i) & 0xfc00) === 0xdc00;
  if (start > 0 && low(start)) start--;
  if (end < text.length && low(end)) end++;
  return { text: text.slice(start, end), offset: start, end };
}
