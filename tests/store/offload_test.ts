import { expect } from "expect";
import { join } from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { z } from "zod";
import {
  compileRule,
  FilterEngine,
  type FilterStats,
  filterToolOutput,
  loadFilterEngine,
} from "../../src/filter/mod.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import {
  MemoryStore,
  NOTE_COST_FACTOR,
  type OffloadedCall,
  offloadIfLarge,
  type OffloadOptions,
  openStore,
  type Store,
} from "../../src/store/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { readOverflowTool } from "../../src/tools/read_overflow.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { overflowHook } from "../_support/hooks.ts";
import { makeRegistry, scopeFor } from "./_dispatch.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

function sqlite(): { store: Store; dispose: () => void } {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-hook-" });
  const store = openStore(join(dir, "zeph.db"));
  return {
    store,
    dispose: () => {
      store.close();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

Deno.test("overflow hook: output at the threshold passes untouched", async () => {
  const { store, dispose } = sqlite();
  try {
    const conv = store.createConversation();
    const registry = makeRegistry(store);
    const text = "a".repeat(50_000);
    const result = await registry.dispatch(
      { id: "c1", name: "print", input: { text } },
      await scopeFor(conv),
    );
    expect(result.text).toBe(text);
    expect(result.overflowId).toBe(undefined);
  } finally {
    dispose();
  }
});

Deno.test("overflow hook: a big output is stored whole, the model gets head + tail + id", async () => {
  const { store, dispose } = sqlite();
  try {
    const conv = store.createConversation();
    const registry = makeRegistry(store);
    const full = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n");
    const result = await registry.dispatch(
      { id: "c1", name: "print", input: { text: full } },
      await scopeFor(conv),
    );
    expect(result.ok).toBe(true);
    const id = result.overflowId!;
    expect(id).toMatch(new RegExp(`^${UUID}$`));
    expect(store.loadOverflow(id, conv)).toBe(full);
    // The head ends after "line 2610\n" (char 25,000); the tail moves on to the next line start,
    // "line 17728" (output line 17,729), so lines 2,612–17,728 are cut whole.
    const tailStart = full.indexOf("line 17728\n");
    expect(result.text).toBe(
      `${
        full.slice(0, 25_000)
      }\n\n... [output lines 2612–17728 of 20000: 158898 chars cut, showing first and last ~25000 chars] ...\n\n${
        full.slice(tailStart)
      }\n\n[Full output stored as overflow:${id} (${full.length} bytes). Use read_overflow with id "${id}" (and offset/limit) to read it.]`,
    );
  } finally {
    dispose();
  }
});

Deno.test("overflow hook: over max_overflow_bytes only the first bytes are kept, and it says so", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  const config = defaultConfig();
  config.tools.overflow.threshold = 100;
  config.tools.overflow.max_overflow_bytes = 1000;
  const registry = makeRegistry(store, { config });
  const full = "0123456789".repeat(300);
  const result = await registry.dispatch(
    { id: "c1", name: "print", input: { text: full } },
    await scopeFor(conv),
  );
  const id = result.overflowId!;
  expect(store.loadOverflow(id, conv)).toBe(full.slice(0, 1000));
  expect(result.text.split("\n\n").at(-1)).toBe(
    `[Full output is 3000 bytes, over max_overflow_bytes (1000): only the first 1000 bytes are stored as overflow:${id}. Use read_overflow with id "${id}" (and offset/limit) to read it.]`,
  );
});

Deno.test("overflow hook: without a conversation or a store it truncates and says why", async () => {
  const config = defaultConfig();
  config.tools.overflow.threshold = 100;
  const full = "x".repeat(500);
  const cases: [Store | null, string | null, string][] = [
    [new MemoryStore(), null, "no conversation is active"],
    [null, "some-conversation", "no overflow store is available in this session"],
  ];
  for (const [store, conv, reason] of cases) {
    const registry = makeRegistry(store, { config });
    const result = await registry.dispatch(
      { id: "c1", name: "print", input: { text: full } },
      await scopeFor(conv),
    );
    expect(result.overflowId).toBe(undefined);
    expect(result.text).toBe(
      `${"x".repeat(50)}\n\n... [400 chars cut, showing first and last ~50 chars] ...\n\n${
        "x".repeat(50)
      }\n\n[Full output (500 chars) could not be stored: ${reason}. Only the first and last part are shown.]`,
    );
  }
});

Deno.test("overflow hook: a failing store falls back to truncation, the call still succeeds", async () => {
  const { store, dispose } = sqlite();
  const conv = store.createConversation();
  const config = defaultConfig();
  config.tools.overflow.threshold = 100;
  const registry = makeRegistry(store, { config });
  const s = await scopeFor("not-a-conversation");
  const result = await registry.dispatch(
    { id: "c1", name: "print", input: { text: "y".repeat(300) } },
    s,
  );
  expect(result.ok).toBe(true);
  expect(result.text.split("\n\n").at(-1)).toBe(
    `[Full output (300 chars) could not be stored: saving failed (Cannot store overflow for conversation "not-a-conversation": it does not exist. Create the conversation first, or resume one listed by \`zeph sessions\`.). Only the first and last part are shown.]`,
  );
  expect(store.listConversations().map((c) => c.id)).toEqual([conv]);
  dispose();
});

Deno.test("overflow hook: a failed command's unfiltered output is kept when filters removed lines", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  const registry = makeRegistry(store, { filter: true });
  const raw = "compiling a\ncompiling b\nerror: b.ts:3 broken\ncompiling c\n";
  const failed = await registry.dispatch(
    { id: "c1", name: "print", input: { text: raw, failed: true } },
    await scopeFor(conv),
  );
  const id = failed.overflowId!;
  expect(store.loadOverflow(id, conv)).toBe(raw);
  expect(failed.text).toBe(
    `error: b.ts:3 broken\n\n[filtered: 5 → 1 lines; unfiltered output: overflow:${id} (read_overflow)]`,
  );

  // A non-zero exit code without the flag counts as failed too (the filter hook's rule).
  const byExit = await registry.dispatch(
    { id: "c3", name: "print", input: { text: raw, exit_code: 2 } },
    await scopeFor(conv),
  );
  expect(store.loadOverflow(byExit.overflowId!, conv)).toBe(raw);

  // The same output from a command that succeeded: filtered, nothing stored (the 37 characters
  // removed are not worth a note of ~90).
  const ok = await registry.dispatch(
    { id: "c2", name: "print", input: { text: raw } },
    await scopeFor(conv),
  );
  expect(ok.text).toBe("error: b.ts:3 broken");
  expect(ok.overflowId).toBe(undefined);
});

Deno.test("overflow hook: a failed, filtered and still huge output gets both entries", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  const config = defaultConfig();
  config.tools.overflow.threshold = 1000;
  const registry = makeRegistry(store, { config, filter: true });
  const raw = "noise\nerror: x\n".repeat(200);
  const result = await registry.dispatch(
    { id: "c1", name: "print", input: { text: raw, failed: true } },
    await scopeFor(conv),
  );
  const filtered = "error: x\n".repeat(200).slice(0, -1);
  const fullId = result.overflowId!;
  expect(store.loadOverflow(fullId, conv)).toBe(filtered);
  const notes = result.text.split("\n\n").at(-1)!.split("\n");
  expect(notes[0]).toBe(
    `[Full output stored as overflow:${fullId} (${filtered.length} bytes). Use read_overflow with id "${fullId}" (and offset/limit) to read it.]`,
  );
  const rawId = notes[1].match(new RegExp(`overflow:(${UUID})`))![1];
  expect(rawId).not.toBe(fullId);
  expect(store.loadOverflow(rawId, conv)).toBe(raw);
});

Deno.test("overflow hook with the real filter hook: a failed build's elided lines stay readable", async () => {
  const engine = new FilterEngine([
    compileRule({
      name: "cargo-noise",
      match: { prefix: "cargo build" },
      strategy: { type: "strip_noise", patterns: ["^\\s*Compiling "] },
    }, "test"),
  ]);
  const raw = [
    ...Array.from({ length: 40 }, (_, i) => `   Compiling crate${i} v0.1.0`),
    "error[E0425]: cannot find value `x` in this scope",
    "[exit code 101]",
  ].join("\n");
  const build = defineTool({
    name: "build",
    description: "Pretends to run cargo build.",
    params: z.object({}).strict(),
    mutates: false,
    kind: "execute",
    group: "command",
    invocation: { type: "call" },
    subjects: () => [],
    execute: () =>
      Promise.resolve({ text: raw, failed: true, exitCode: 101, filterCommand: "cargo build" }),
  });
  const config = defaultConfig();
  const store = new MemoryStore();
  const registry = new ToolRegistry({
    tools: [build, readOverflowTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(),
    config,
    deps: { overflow: store },
  });
  registry.addOutputHook({
    name: "filter",
    order: 10,
    apply: (result) => filterToolOutput(engine, result),
  });
  registry.addOutputHook(overflowHook(store, config));
  const conv = store.createConversation();
  const s = await scopeFor(conv);
  const result = await registry.dispatch({ id: "b1", name: "build", input: {} }, s);
  const id = result.overflowId!;
  expect(result.filterStats?.filteredLines).toBe(2);
  expect(result.text).toBe(
    "error[E0425]: cannot find value `x` in this scope\n[exit code 101]\n\n" +
      `[filtered: 42 → 2 lines; unfiltered output: overflow:${id} (read_overflow)]`,
  );
  const back = await registry.dispatch({ id: "r1", name: "read_overflow", input: { id } }, s);
  expect(back.text).toBe(raw);
});

Deno.test("offloadIfLarge: a plain call, no registry; skipOverflow and a missing conversation", () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  const settings = { ...defaultConfig().tools.overflow, threshold: 10 };
  const big: OffloadedCall = { text: "0123456789abcdef", output: { text: "0123456789abcdef" } };
  offloadIfLarge(store, big, { conversationId: conv, settings });
  expect(store.loadOverflow(big.overflowId!, conv)).toBe("0123456789abcdef");
  expect(big.text).toContain(`Full output stored as overflow:${big.overflowId} (16 bytes)`);

  const skipped = { text: "0123456789abcdef", output: { text: "x", skipOverflow: true } };
  offloadIfLarge(store, skipped, { conversationId: conv, settings });
  expect(skipped).toEqual({ text: "0123456789abcdef", output: { text: "x", skipOverflow: true } });

  const orphan: OffloadedCall = { text: "0123456789abcdef" };
  offloadIfLarge(store, orphan, { conversationId: null, settings });
  expect(orphan.overflowId).toBe(undefined);
  expect(orphan.text).toContain("could not be stored: no conversation is active");
});

// ---- The unfiltered output of passing commands ([tools.filters] keep_unfiltered) ----

/** A path listing the built-in find rule groups by directory, with `… (+91 more)` per directory. */
const LISTING = Array.from({ length: 3000 }, (_, i) => `src/dir${i % 30}/file${i}.ts`).join("\n") +
  "\n";
/** Six distinct lines with runs of blank lines: the filter only collapses the runs. */
const BLANKS = [
  "Configuring the project in release mode",
  "Found compiler gcc 12.2 at /usr/bin/gcc",
  "Checking for header unistd.h: yes",
  "Writing Makefile for the tools directory",
  "All targets are up to date now",
  "Install prefix is /usr/local",
].join("\n\n\n\n\n") + "\n\n\n";
/** One progress line redrawn a hundred times between two status lines. */
const REDRAWS = "Fetching index\n" +
  Array.from({ length: 100 }, (_, i) => `Downloading: ${i + 1}%`).join("\r") +
  "\nFetched 1 index\n";

const builtin = loadFilterEngine(defaultConfig(), { configDir: null }).then((l) => l.engine);

/** One bash-shaped call through the real filter and offloadIfLarge. */
async function filtered(
  store: Store | null,
  conversationId: string | null,
  command: string,
  raw: string,
  options: {
    exitCode?: number;
    mode?: OffloadOptions["keepUnfiltered"];
    settings?: Partial<ReturnType<typeof defaultConfig>["tools"]["overflow"]>;
  } = {},
): Promise<OffloadedCall & { filterStats?: FilterStats }> {
  const exitCode = options.exitCode ?? 0;
  const call: OffloadedCall & { filterStats?: FilterStats } = {
    text: raw,
    output: { text: raw, filterCommand: command, exitCode, failed: exitCode !== 0 } as
      & NonNullable<OffloadedCall["output"]>
      & { filterCommand: string },
  };
  filterToolOutput(await builtin, call);
  offloadIfLarge(store, call, {
    conversationId,
    settings: { ...defaultConfig().tools.overflow, ...options.settings },
    ...(options.mode ? { keepUnfiltered: options.mode } : {}),
  });
  return call;
}

const NOTE = new RegExp(
  `\\n\\n\\[filtered: (\\d+) → (\\d+) lines; unfiltered output: overflow:(${UUID}) \\(read_overflow\\)\\]$`,
);

Deno.test("keep_unfiltered: a passing command whose listing was folded keeps its raw output, one note says where", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  const call = await filtered(store, conv, "find src -type f", LISTING);
  expect(call.text).toContain("… (+91 more)");
  const [, rawLines, shownLines, id] = NOTE.exec(call.text)!;
  expect([rawLines, shownLines]).toEqual(["3000", String(call.filterStats!.filteredLines)]);
  expect(call.overflowId).toBe(id);
  expect(store.loadOverflow(id, conv)).toBe(LISTING);
  // The note is the only line added, and it is short.
  expect(call.text.split("\n\n[filtered: ")).toHaveLength(2);
  expect(call.text.length - call.text.lastIndexOf("\n\n")).toBeLessThan(120);
});

Deno.test("keep_unfiltered: a passing command that lost only blank lines or progress redraws stores nothing, says nothing", async () => {
  for (const [command, raw] of [["./configure", BLANKS], ["./fetch.sh", REDRAWS]]) {
    const store = new MemoryStore();
    const conv = store.createConversation();
    const call = await filtered(store, conv, command, raw);
    // The filter did shorten it (lines or characters), but removed nothing beyond sanitising.
    expect(call.text.length).toBeLessThan(raw.length);
    expect(call.filterStats!.removedChars).toBe(0);
    expect(call.text).not.toContain("overflow:");
    expect(call.overflowId).toBe(undefined);
    expect(store.overflowIdsStartingWith("", 10)).toEqual([]);
  }
});

Deno.test("keep_unfiltered: a failed command keeps its raw output as before, with the same short note", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  // Even the blank-line runs of a failed command are kept: what a filter hid may be the cause.
  const call = await filtered(store, conv, "./configure", `${BLANKS}[exit code 1]`, {
    exitCode: 1,
  });
  const [, rawLines, shownLines, id] = NOTE.exec(call.text)!;
  expect([rawLines, shownLines]).toEqual(["29", "12"]);
  expect(store.loadOverflow(id, conv)).toBe(`${BLANKS}[exit code 1]`);
});

Deno.test('keep_unfiltered = "failures" keeps only failed commands\' raw output, "never" none', async () => {
  for (const mode of ["failures", "never"] as const) {
    const store = new MemoryStore();
    const conv = store.createConversation();
    const passing = await filtered(store, conv, "find src -type f", LISTING, { mode });
    expect(passing.text).toContain("… (+91 more)");
    expect(passing.text).not.toContain("overflow:");
    const failing = await filtered(store, conv, "find src -type f", LISTING, {
      mode,
      exitCode: 1,
    });
    if (mode === "failures") {
      expect(store.loadOverflow(NOTE.exec(failing.text)![3], conv)).toBe(LISTING);
    } else {
      expect(failing.text).not.toContain("overflow:");
      expect(store.overflowIdsStartingWith("", 10)).toEqual([]);
    }
  }
});

Deno.test("keep_unfiltered: without a store or a conversation the folded text stands, no note, no error", async () => {
  const cases: [Store | null, string | null][] = [[null, "c"], [new MemoryStore(), null]];
  for (const [store, conv] of cases) {
    const call = await filtered(store, conv, "find src -type f", LISTING);
    expect(call.text).toContain("… (+91 more)");
    expect(call.text).not.toContain("overflow:");
    expect(call.text).not.toContain("could not be stored");
    expect(call.overflowId).toBe(undefined);
  }
});

Deno.test("keep_unfiltered: over max_overflow_bytes the first bytes are kept and the note says so", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  const call = await filtered(store, conv, "find src -type f", LISTING, {
    settings: { max_overflow_bytes: 10_000 },
  });
  const id = call.overflowId!;
  expect(call.text.split("\n\n").at(-1)).toBe(
    `[filtered: 3000 → ${
      call.filterStats!.filteredLines
    } lines; unfiltered output, first 10000 of ${LISTING.length} bytes kept (max_overflow_bytes): overflow:${id} (read_overflow)]`,
  );
  expect(store.loadOverflow(id, conv)).toBe(LISTING.slice(0, 10_000));
});

Deno.test("keep_unfiltered: a fold always gets its way back; lines dropped without a marker only when they outweigh the note", async () => {
  const store = new MemoryStore();
  const conv = store.createConversation();
  // 16 similar lines: the generic pass folds 11 of them, under 200 characters, with a marker.
  const lines = Array.from({ length: 16 }, (_, i) => `wrote out/part-${i}.bin`).join("\n");
  const fold = await filtered(store, conv, "./build.sh", lines);
  expect(fold.text).toContain("… 11 lines like these folded …");
  expect(fold.filterStats!.elided).toBe(true);
  expect(fold.filterStats!.removedChars).toBeLessThan(NOTE_COST_FACTOR * 90);
  expect(store.loadOverflow(NOTE.exec(fold.text)![3], conv)).toBe(lines);

  // cargo build drops its `Compiling` lines without a marker: five (130 characters) are not
  // worth a note of ~105, forty (1,100) are.
  const build = (n: number) =>
    Array.from({ length: n }, (_, i) => `   Compiling crate${i} v0.1.${i}`).join("\n") +
    "\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.21s\n";
  const few = await filtered(store, conv, "cargo build", build(5));
  expect(few.text).toBe("    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.21s");
  expect(few.filterStats).toMatchObject({ removedChars: 130, elided: false });
  expect(few.overflowId).toBe(undefined);
  const many = await filtered(store, conv, "cargo build", build(40));
  expect(many.filterStats).toMatchObject({ removedChars: 1100, elided: false });
  expect(store.loadOverflow(NOTE.exec(many.text)![3], conv)).toBe(build(40));
});
