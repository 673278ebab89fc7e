// Undo through the real dispatch boundary: real tools, both file executors (in-thread and the
// permission-fenced worker), a real SQLite store and real temp directories.
import { expect } from "expect";
import * as path from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { openStore, type SqliteStore } from "../../src/store/mod.ts";
import { FILE_TOOLS } from "../../src/tools/file_tools.ts";
import {
  formatUndoList,
  formatUndoReport,
  parseUndoCount,
  ToolRegistry,
  type ToolResult,
  undoChanges,
  undoHook,
  type UndoReport,
} from "../../src/tools/mod.ts";
import { allowAllPolicy, EXECUTORS, snapshotTree } from "../_support/file_tools.ts";

const executors = EXECUTORS.map((e) => ({ name: e.name, executor: e.make() }));
// One workspace per module, emptied between tests: the fenced worker is tied to its roots and
// starting another one type-checks its module again.
const BASE = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_undo_" }));
globalThis.addEventListener("unload", () => {
  for (const e of executors) void e.executor.close?.();
  Deno.removeSync(BASE, { recursive: true });
});

interface Bench {
  ws: string;
  store: SqliteStore;
  sandbox: Sandbox;
  conversationId: string;
  dispatch(tool: string, input: unknown, conversationId?: string | null): Promise<ToolResult>;
  undo(count?: number): Promise<UndoReport>;
  put(files: Record<string, string>): Promise<void>;
  tree(): Promise<Record<string, string>>;
}

async function withBench(
  executor: (typeof executors)[number]["executor"],
  fn: (b: Bench) => Promise<void>,
  undo: Partial<ReturnType<typeof defaultConfig>["tools"]["undo"]> = {},
): Promise<void> {
  const base = BASE;
  const ws = path.join(base, "ws");
  await Deno.remove(base, { recursive: true });
  await Deno.mkdir(ws, { recursive: true });
  const store = openStore(path.join(base, "zeph.db"));
  try {
    const sandbox = await Sandbox.create(ws);
    const config = defaultConfig();
    config.tools.undo = { ...config.tools.undo, ...undo };
    const registry = new ToolRegistry({
      tools: FILE_TOOLS,
      executor,
      policy: allowAllPolicy(),
      config,
    });
    registry.addExecuteHook(undoHook(store.undo, config.tools.undo));
    const conversationId = store.createConversation({ cwd: ws });
    let n = 0;
    await fn({
      ws,
      store,
      sandbox,
      conversationId,
      dispatch: (tool, input, conversation = conversationId) =>
        registry.dispatch({ id: `call_${++n}`, name: tool, input }, {
          cwd: ws,
          sandbox,
          conversationId: conversation,
        }),
      undo: (count = 1) =>
        undoChanges({
          log: store.undo,
          conversationId,
          sandbox,
          count,
          clock: () => "10:02",
        }),
      async put(files) {
        for (const [rel, content] of Object.entries(files)) {
          const p = path.join(ws, rel);
          await Deno.mkdir(path.dirname(p), { recursive: true });
          await Deno.writeTextFile(p, content);
        }
      },
      tree: () => snapshotTree(ws),
    });
  } finally {
    store.close();
  }
}

function ok(result: ToolResult): ToolResult {
  if (!result.ok) throw new Error(`expected success, got:\n${result.text}`);
  return result;
}

interface RoundTrip {
  name: string;
  files: Record<string, string>;
  calls: [string, unknown][];
}

/** Each tool kind: the tree after undoing every call is the tree before the first. */
const ROUND_TRIPS: RoundTrip[] = [
  {
    name: "write of a new file in new directories",
    files: { "keep.txt": "k" },
    calls: [["write", { path: "a/b/new.txt", content: "hello\n" }]],
  },
  {
    name: "write over an existing file",
    files: { "a.txt": "before\n" },
    calls: [["write", { path: "a.txt", content: "after\n" }]],
  },
  {
    name: "edit",
    files: { "greet.ts": "return `hello`;\n" },
    calls: [["edit", { path: "greet.ts", old_string: "hello", new_string: "hi" }]],
  },
  {
    name: "delete_path of a file",
    files: { "gone.txt": "bye\n" },
    calls: [["delete_path", { path: "gone.txt" }]],
  },
  {
    name: "delete_path of a directory tree",
    files: { "d/x.txt": "x", "d/e/y.txt": "y", "d/e/f/z.txt": "z" },
    calls: [["delete_path", { path: "d", recursive: true }]],
  },
  {
    name: "move_path into new directories",
    files: { "src/old.ts": "code\n" },
    calls: [["move_path", { source: "src/old.ts", destination: "lib/deep/new.ts" }]],
  },
  {
    name: "move_path of a directory",
    files: { "pkg/a.ts": "a", "pkg/sub/b.ts": "b" },
    calls: [["move_path", { source: "pkg", destination: "renamed" }]],
  },
  {
    name: "copy_path over an existing file",
    files: { "a.txt": "source\n", "b.txt": "destination\n" },
    calls: [["copy_path", { source: "a.txt", destination: "b.txt" }]],
  },
  {
    name: "copy_path of a directory",
    files: { "tpl/a.txt": "a", "tpl/s/b.txt": "b" },
    calls: [["copy_path", { source: "tpl", destination: "out/copy" }]],
  },
  {
    name: "create_directory with parents",
    files: {},
    calls: [["create_directory", { path: "x/y/z" }]],
  },
  {
    name: "a sequence of every kind, undone newest first",
    files: { "a.txt": "1\n", "dir/b.txt": "b" },
    calls: [
      ["write", { path: "a.txt", content: "2\n" }],
      ["edit", { path: "a.txt", old_string: "2", new_string: "3" }],
      ["create_directory", { path: "made" }],
      ["copy_path", { source: "a.txt", destination: "made/a.txt" }],
      ["move_path", { source: "made", destination: "moved" }],
      ["delete_path", { path: "dir", recursive: true }],
    ],
  },
];

for (const { name: executorName, executor } of executors) {
  for (const c of ROUND_TRIPS) {
    Deno.test(`undo: ${c.name} is recorded and undone [${executorName}]`, async () => {
      await withBench(executor, async (b) => {
        await b.put(c.files);
        const before = await b.tree();
        for (const [tool, input] of c.calls) ok(await b.dispatch(tool, input));
        expect(await b.tree()).not.toEqual(before);
        expect(b.store.undo.list(b.conversationId).map((e) => e.tool)).toEqual(
          c.calls.map(([tool]) => tool).reverse(),
        );
        const report = await b.undo(c.calls.length);
        expect({ refused: report.refused, restored: report.restored.length }).toEqual({
          refused: null,
          restored: c.calls.length,
        });
        expect(await b.tree()).toEqual(before);
        expect(b.store.undo.list(b.conversationId)).toEqual([]);
      });
    });
  }
}

const [local] = executors;

Deno.test("undo: a file's mode bits and a symlink in a deleted tree come back", async () => {
  await withBench(local.executor, async (b) => {
    await b.put({ "d/run.sh": "#!/bin/sh\n", "d/target.txt": "t" });
    await Deno.chmod(path.join(b.ws, "d/run.sh"), 0o750);
    await Deno.symlink("target.txt", path.join(b.ws, "d/link"));
    await Deno.chmod(path.join(b.ws, "d"), 0o710);
    const before = await b.tree();
    ok(await b.dispatch("delete_path", { path: "d", recursive: true }));
    await b.undo();
    expect(await b.tree()).toEqual(before);
    expect((await Deno.stat(path.join(b.ws, "d/run.sh"))).mode! & 0o777).toBe(0o750);
    expect((await Deno.stat(path.join(b.ws, "d"))).mode! & 0o777).toBe(0o710);
  });
});

Deno.test("undo: a file changed since zeph wrote it is refused with the reason; older entries stay", async () => {
  await withBench(local.executor, async (b) => {
    await b.put({ "greet.ts": "v0\n" });
    ok(await b.dispatch("write", { path: "other.ts", content: "o\n" }));
    ok(await b.dispatch("write", { path: "greet.ts", content: "v1\n" }));
    await Deno.writeTextFile(path.join(b.ws, "greet.ts"), "the user's edit\n");
    const report = await b.undo(2);
    expect(report.restored).toEqual([]);
    expect(report.refused?.reason).toBe(
      '"greet.ts" changed since zeph wrote it at 10:02; not restored',
    );
    expect(formatUndoReport(report)).toBe(
      'Refused: "greet.ts" changed since zeph wrote it at 10:02; not restored\n' +
        "2 changes are still recorded (zeph undo --list).",
    );
    expect(await Deno.readTextFile(path.join(b.ws, "greet.ts"))).toBe("the user's edit\n");
    expect(await Deno.readTextFile(path.join(b.ws, "other.ts"))).toBe("o\n");
    expect(b.store.undo.list(b.conversationId).length).toBe(2);
  });
});

Deno.test("undo: a file deleted since, or a path taken again, is refused", async () => {
  await withBench(local.executor, async (b) => {
    ok(await b.dispatch("write", { path: "new.txt", content: "n\n" }));
    await Deno.remove(path.join(b.ws, "new.txt"));
    expect((await b.undo()).refused?.reason).toBe(
      '"new.txt" no longer exists since zeph wrote it at 10:02; not restored',
    );
    await b.put({ "gone.txt": "g" });
    const b2 = await b.dispatch("delete_path", { path: "gone.txt" });
    ok(b2);
    await b.put({ "gone.txt": "the user's new file" });
    expect((await b.undo()).refused?.reason).toBe(
      '"gone.txt" was created again since zeph deleted it at 10:02; not restored',
    );
    expect(await Deno.readTextFile(path.join(b.ws, "gone.txt"))).toBe("the user's new file");
  });
});

Deno.test("undo: content over max_file_bytes is not kept; the entry says so and is refused", async () => {
  await withBench(local.executor, async (b) => {
    await b.put({ "big.txt": "x".repeat(100) });
    ok(await b.dispatch("write", { path: "big.txt", content: "small\n" }));
    const [entry] = b.store.undo.list(b.conversationId);
    expect(entry.note).toBe(
      '"big.txt" (100 bytes) is larger than [tools.undo] max_file_bytes (10 bytes), too big to keep',
    );
    expect(entry.storedBytes).toBe(0);
    expect(formatUndoList([entry], { clock: () => "10:02" })).toBe(
      '  1  10:02  write "big.txt"  (cannot be undone: "big.txt" (100 bytes) is larger than ' +
        "[tools.undo] max_file_bytes (10 bytes), too big to keep)",
    );
    expect((await b.undo()).refused?.reason).toBe(
      'write "big.txt" at 10:02 cannot be undone: "big.txt" (100 bytes) is larger than ' +
        "[tools.undo] max_file_bytes (10 bytes), too big to keep",
    );
    expect(await Deno.readTextFile(path.join(b.ws, "big.txt"))).toBe("small\n");
  }, { max_file_bytes: 10 });
});

Deno.test("undo: a directory tree over the per-conversation cap is recorded as too big", async () => {
  await withBench(local.executor, async (b) => {
    await b.put({ "d/a.txt": "a".repeat(600), "d/b.txt": "b".repeat(600) });
    ok(await b.dispatch("delete_path", { path: "d", recursive: true }));
    const [entry] = b.store.undo.list(b.conversationId);
    expect(entry.note).toBe("it is larger than 1000 bytes");
    expect((await b.undo()).refused?.reason).toContain("cannot be undone");
  }, { max_conversation_bytes: 1000 });
});

Deno.test("undo: nothing is recorded without a conversation, when off, for a no-op or a failed call", async () => {
  await withBench(local.executor, async (b) => {
    await b.put({ "same.txt": "same\n" });
    ok(await b.dispatch("write", { path: "free.txt", content: "x" }, null));
    ok(await b.dispatch("write", { path: "same.txt", content: "same\n" }));
    ok(await b.dispatch("create_directory", { path: "." }));
    const failed = await b.dispatch("edit", {
      path: "missing.txt",
      old_string: "a",
      new_string: "b",
    });
    expect(failed.ok).toBe(false);
    ok(await b.dispatch("read", { path: "same.txt" }));
    expect(b.store.undo.list(b.conversationId)).toEqual([]);
    expect(formatUndoReport(await b.undo())).toBe("Nothing to undo.");
  });
  await withBench(local.executor, async (b) => {
    ok(await b.dispatch("write", { path: "a.txt", content: "x" }));
    expect(b.store.undo.list(b.conversationId)).toEqual([]);
  }, { enabled: false });
});

Deno.test("undo: a restore never follows a directory swapped for a symlink since", async () => {
  await withBench(local.executor, async (b) => {
    const outside = path.join(path.dirname(b.ws), "outside");
    await Deno.mkdir(outside);
    await b.put({ "d/f.txt": "f" });
    ok(await b.dispatch("delete_path", { path: "d", recursive: true }));
    // The deleted directory's place is now a link out of the workspace: the restore of "d"
    // sees a path that changed (something is there again) and refuses.
    await Deno.symlink(outside, path.join(b.ws, "d"));
    expect((await b.undo()).refused?.reason).toContain("not restored");
    expect([...Deno.readDirSync(outside)]).toEqual([]);
  });
});

Deno.test("undo: the count is a positive whole number", () => {
  expect([undefined, "", " 3 "].map(parseUndoCount)).toEqual([1, 1, 3]);
  for (const bad of ["0", "-1", "1.5", "two"]) {
    expect(() => parseUndoCount(bad)).toThrow(
      `Cannot undo "${bad}" changes: give a positive whole number, e.g. undo 2.`,
    );
  }
});

Deno.test("undo: a change that cannot be recorded is reported as a notice on the call, which still succeeds", async () => {
  await withBench(local.executor, async (b) => {
    const registry = new ToolRegistry({
      tools: FILE_TOOLS,
      executor: local.executor,
      policy: allowAllPolicy(),
      config: defaultConfig(),
    });
    registry.addExecuteHook(undoHook(b.store.undo, defaultConfig().tools.undo));
    const notices: string[] = [];
    const result = await registry.dispatch(
      { id: "c1", name: "write", input: { path: "a.txt", content: "x" } },
      {
        cwd: b.ws,
        sandbox: b.sandbox,
        conversationId: "not-stored",
        emit: (e) => e.type === "notice" && notices.push(`${e.callId}: ${e.message}`),
      },
    );
    expect(result.ok).toBe(true);
    expect(notices).toEqual([
      'c1: this change is not recorded for undo: Cannot record a change in conversation "not-stored": ' +
      "it does not exist. Create the conversation first, or resume one listed by `zeph sessions`.",
    ]);
  });
});

Deno.test("undo: directories a write created are not removed once the user put a file in them", async () => {
  await withBench(local.executor, async (b) => {
    ok(await b.dispatch("write", { path: "a/b/greet.ts", content: "hi\n" }));
    await b.put({ "a/notes.txt": "the user's" });
    expect((await b.undo()).refused?.reason).toBe(
      '"a" (made for "a/b/greet.ts") changed since zeph wrote it at 10:02; not restored',
    );
    expect(await b.tree()).toEqual({
      a: "dir",
      "a/b": "dir",
      "a/b/greet.ts": "file:hi\n",
      "a/notes.txt": "file:the user's",
    });
  });
});
