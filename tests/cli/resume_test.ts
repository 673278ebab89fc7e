import { expect } from "expect";
import * as path from "node:path";
import { enclosingDirs, findResumed, resumeHeader, resumeWorkspace } from "../../src/cli/resume.ts";
import { MemoryStore } from "../../src/store/mod.ts";
import { withWorkspace, zeph } from "./_run.ts";

function storeWith(conversations: { title: string; cwd: string }[]) {
  let t = 1_000;
  const store = new MemoryStore({ now: () => t++ });
  const ids = conversations.map((c) => store.createConversation(c));
  return { store, ids };
}

Deno.test("findResumed takes a full id, a unique prefix, or the latest of the workspace", () => {
  const { store, ids } = storeWith([
    { title: "a", cwd: "/w1" },
    { title: "b", cwd: "/w2" },
    { title: "c", cwd: "/w1" },
  ]);
  expect(findResumed(store, { cwd: "/w1" })).toBeNull();
  expect(findResumed(store, { id: ids[1], cwd: "/w1" })?.title).toBe("b");
  expect(findResumed(store, { id: ids[1].slice(0, 30), cwd: "/w1" })?.id).toBe(ids[1]);
  expect(findResumed(store, { latest: true, cwd: "/w1" })?.title).toBe("c");
  expect(() => findResumed(store, { latest: true, cwd: "/w3" })).toThrow(
    "No conversation to continue in /w3. List them all with: zeph sessions",
  );
  expect(() => findResumed(store, { id: "zzz", cwd: "/w1" })).toThrow(
    'No conversation "zzz". List them with: zeph sessions',
  );
  expect(() => findResumed(null, { id: "x", cwd: "/w1" })).toThrow("Cannot resume");
  expect(() => findResumed(store, { id: ids[0], latest: true, cwd: "/w1" })).toThrow(
    "Use either --resume <id> or --continue, not both.",
  );
});

Deno.test("--continue from a subdirectory takes the nearest enclosing workspace's latest", () => {
  const { store } = storeWith([
    { title: "root", cwd: "/w" },
    { title: "app", cwd: "/w/app" },
    { title: "other", cwd: "/x" },
    { title: "root again", cwd: "/w" },
  ]);
  expect(findResumed(store, { latest: true, cwd: "/w/app/src/deep" })?.title).toBe("app");
  expect(findResumed(store, { latest: true, cwd: "/w/lib" })?.title).toBe("root again");
  expect(findResumed(store, { latest: true, cwd: "/w" })?.title).toBe("root again");
  expect(() => findResumed(store, { latest: true, cwd: "/y/z" })).toThrow(
    "No conversation to continue in /y/z. List them all with: zeph sessions",
  );
});

Deno.test("enclosingDirs lists a directory and its parents, nearest first", () => {
  expect(enclosingDirs("/a/b/c")).toEqual(["/a/b/c", "/a/b", "/a", "/"]);
  expect(enclosingDirs("/")).toEqual(["/"]);
});

Deno.test("an ambiguous prefix lists the conversations it matches", () => {
  // 17 ids over 16 hex digits: at least two share their first character.
  const { store, ids } = storeWith(
    Array.from({ length: 17 }, (_, i) => ({ title: `t${i}`, cwd: "/w" })),
  );
  expect(() => findResumed(store, { id: " ", cwd: "/w" })).toThrow("--resume needs");
  const first = ids.map((id) => id[0]);
  const shared = first.find((c, i) => first.indexOf(c) !== i)!;
  const matching = ids.map((id, i) => ({ id, i })).filter((x) => x.id[0] === shared).reverse();
  let message = "";
  try {
    findResumed(store, { id: shared, cwd: "/w" });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message.split("\n")).toEqual([
    `The prefix "${shared}" matches ${matching.length} conversations; give more of the id:`,
    ...matching.map((x) => `  ${x.id}  t${x.i}  /w`),
  ]);
});

Deno.test("resumeWorkspace continues in the stored workspace unless --cwd names another or it is gone", () => {
  const here = Deno.cwd();
  const tmp = Deno.makeTempDirSync();
  try {
    const conv = { id: "i", title: "t", cwd: tmp, createdAt: 0, updatedAt: 0 };
    expect(resumeWorkspace(conv, { cwd: here, cwdGiven: false })).toEqual({
      cwd: tmp,
      note: `Continuing in the conversation's workspace ${tmp}.`,
    });
    expect(resumeWorkspace(conv, { cwd: here, cwdGiven: true })).toEqual({
      cwd: here,
      note: `The conversation was in ${tmp}; it continues in ${here} as --cwd asks.`,
    });
    expect(resumeWorkspace(conv, { cwd: tmp, cwdGiven: false })).toEqual({ cwd: tmp, note: null });
    const gone = { ...conv, cwd: path.join(tmp, "gone") };
    expect(resumeWorkspace(gone, { cwd: here, cwdGiven: false })).toEqual({
      cwd: here,
      note: `The conversation's workspace ${gone.cwd} no longer exists; it continues in ${here}.`,
    });
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
});

Deno.test("resumeHeader shows the conversation and its last exchange, escapes stripped and cut short", () => {
  const conv = {
    id: "abc",
    title: "fix it",
    cwd: "/w",
    createdAt: 0,
    updatedAt: Date.UTC(2026, 0, 2, 3, 4),
  };
  const header = resumeHeader(conv, [
    { role: "user", parts: [{ type: "text", text: "old" }] },
    { role: "assistant", parts: [{ type: "text", text: "old answer" }] },
    { role: "user", parts: [{ type: "text", text: "new \u001b[31mred\u001b[0m\nline" }] },
    { role: "assistant", parts: [{ type: "tool_call", id: "1", name: "read", input: {} }] },
    { role: "user", parts: [{ type: "tool_result", callId: "1", text: "x", isError: false }] },
    { role: "assistant", parts: [{ type: "text", text: "y".repeat(400) }] },
  ]);
  expect(header).toBe(
    "Resuming abc · fix it · /w\n6 messages, last active 2026-01-02 03:04 UTC\n" +
      "  you: new [31mred [0m line\n" + `  zeph: ${"y".repeat(299)}…\n`,
  );
});

Deno.test("zeph --resume <prefix> from another directory continues in the conversation's workspace", async () => {
  await withWorkspace(async (ws, home) => {
    const script = path.join(home, "s.jsonl");
    await Deno.writeTextFile(script, '{"text":"hello"}\n');
    const first = await zeph(["-p", "make a plan", "--provider", "script", "--script", script], {
      cwd: ws,
      home,
    });
    const id = /zeph --resume (\S+)\)/.exec(first.stderr)![1];
    const elsewhere = path.join(home, "elsewhere");
    await Deno.mkdir(elsewhere);
    await Deno.writeTextFile(script, '{"text":"again"}\n');
    const resumed = await zeph(
      ["--resume", id.slice(0, 8), "-p", "go on", "--provider", "script", "--script", script],
      { cwd: elsewhere, home },
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("again\n");
    expect(resumed.stderr.split("\n").slice(0, 5)).toEqual([
      `Continuing in the conversation's workspace ${ws}.`,
      `Resuming ${id} · make a plan · ${ws}`,
      expect.stringMatching(/^2 messages, last active \d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
      "  you: make a plan",
      "  zeph: hello",
    ]);
    const cont = await zeph(["-c", "-p", "more", "--provider", "script", "--script", script], {
      cwd: ws,
      home,
    });
    expect(cont.stderr).toContain(`Resuming ${id} · make a plan · ${ws}\n4 messages`);
    expect(cont.stderr).toContain("  you: go on\n  zeph: again\n");
  });
});
