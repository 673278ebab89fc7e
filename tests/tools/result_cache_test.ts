import { expect } from "expect";
import { z } from "zod";
import { defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { FILE_TOOLS } from "../../src/tools/file_tools.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { cacheKey, ResultCache } from "../../src/tools/result_cache.ts";
import { SessionGuards } from "../../src/tools/session_guards.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { call, guardHarness } from "./_guards.ts";

Deno.test("cache key: the tool and its arguments with keys in any order", () => {
  expect(cacheKey("read", { path: "a", offset: 0 })).toBe(
    cacheKey("read", { offset: 0, path: "a" }),
  );
  expect(cacheKey("read", { path: "a", offset: 0 })).not.toBe(
    cacheKey("read", { path: "a", offset: 1 }),
  );
  expect(cacheKey("read", { path: "a" })).not.toBe(cacheKey("grep", { path: "a" }));
  expect(cacheKey("x", { a: { c: 1, b: [2, { e: 3, d: 4 }] } })).toBe(
    cacheKey("x", { a: { b: [2, { d: 4, e: 3 }], c: 1 } }),
  );
});

Deno.test("entries expire after ttl_secs; 0 keeps them; the oldest goes past the size cap", async () => {
  let now = 1000;
  const cache = new ResultCache({ enabled: true, ttlSecs: 5, now: () => now, maxEntries: 2 });
  const put = (key: string) =>
    cache.set(key, { text: key }, { paths: null, stamps: [], generation: cache.generation });
  put("a");
  now += 4999;
  expect(await cache.get("a")).toEqual({ text: "a" });
  now += 1;
  expect(await cache.get("a")).toBeUndefined();
  put("a");
  put("b");
  put("c");
  expect([await cache.get("a"), await cache.get("b"), await cache.get("c")]).toEqual([
    undefined,
    { text: "b" },
    { text: "c" },
  ]);

  const forever = new ResultCache({ enabled: true, ttlSecs: 0, now: () => now });
  forever.set("k", { text: "v" }, { paths: null, stamps: [], generation: 0 });
  now += 10 ** 9;
  expect(await forever.get("k")).toEqual({ text: "v" });

  const off = new ResultCache({ enabled: false, ttlSecs: 0 });
  off.set("k", { text: "v" }, { paths: null, stamps: [], generation: 0 });
  expect([off.size, await off.get("k"), off.misses]).toEqual([0, undefined, 0]);
});

Deno.test("invalidation by path reaches the path, what is under it and what holds it, not siblings", async () => {
  const cache = new ResultCache({ enabled: true, ttlSecs: 0 });
  const put = (key: string, paths: string[] | null) =>
    cache.set(key, { text: key }, {
      paths,
      stamps: paths ? paths.map(() => "missing") : [],
      generation: cache.generation,
    });
  const fill = () => {
    put("file", ["/ws/src/a.ts"]);
    put("dir", ["/ws/src"]);
    put("root", ["/ws"]);
    put("sibling", ["/ws/src2/a.ts"]);
    put("deeper", ["/ws/src/sub/b.ts"]);
    put("web", null);
  };
  const alive = async () => {
    const keys = ["file", "dir", "root", "sibling", "deeper", "web"];
    const found = await Promise.all(keys.map((k) => cache.get(k)));
    return keys.filter((_, i) => found[i]);
  };
  fill();
  cache.invalidatePaths(["/ws/src/a.ts"]);
  expect(await alive()).toEqual(["sibling", "deeper", "web"]);
  fill();
  cache.invalidatePaths(["/ws/src"]);
  expect(await alive()).toEqual(["sibling", "web"]);
  fill();
  cache.invalidateFiles();
  expect(await alive()).toEqual(["web"]);
  fill();
  cache.clear();
  expect(await alive()).toEqual([]);
});

Deno.test("a result computed across an invalidation is not stored", async () => {
  const cache = new ResultCache({ enabled: true, ttlSecs: 0 });
  const generation = cache.generation;
  cache.invalidatePaths(["/elsewhere"]);
  cache.set("k", { text: "old" }, { paths: ["/ws/f"], stamps: ["missing"], generation });
  expect(await cache.get("k")).toBeUndefined();
});

const readF = (id: string) => call(id, "read", { path: "f.txt" });
const textOf = (r: { text: string }) => r.text.replace(/\s+/g, " ");

Deno.test("loop: read, read (cached), edit, read, edit, read — every read after an edit sees it", async () => {
  await using h = await guardHarness({
    turns: [
      { tool_calls: [readF("r1")] },
      { tool_calls: [readF("r2")] },
      { tool_calls: [call("e1", "edit", { path: "f.txt", old_string: "one", new_string: "two" })] },
      { tool_calls: [readF("r3")] },
      {
        tool_calls: [
          call("e2", "edit", { path: "./f.txt", old_string: "two", new_string: "three" }),
        ],
      },
      { tool_calls: [readF("r4")] },
      { text: "done" },
    ],
  });
  await Deno.writeTextFile(`${h.dir}/f.txt`, "one\n");
  expect(await h.prompt()).toBe("end_turn");
  const reads = h.results().filter((r) => r.callId.startsWith("r")).map(textOf);
  expect(reads.map((t) => /\b(one|two|three)\b/.exec(t)?.[1])).toEqual([
    "one",
    "one",
    "two",
    "three",
  ]);
  expect(reads[1]).toBe(reads[0]);
  expect([h.session.guards.cache.hits, h.session.guards.cache.misses]).toEqual([1, 3]);
  expect(h.results().every((r) => !r.isError)).toBe(true);
});

Deno.test("loop: bash `echo x > f` invalidates the cached read of f", async () => {
  await using h = await guardHarness({
    turns: [
      { tool_calls: [readF("r1")] },
      { tool_calls: [call("b1", "bash", { command: "echo changed-by-bash > f.txt" })] },
      { tool_calls: [readF("r2")] },
      { text: "done" },
    ],
  });
  await Deno.writeTextFile(`${h.dir}/f.txt`, "original\n");
  expect(await h.prompt()).toBe("end_turn");
  const [r1, b1, r2] = h.results();
  expect([r1.callId, b1.callId, r2.callId, b1.isError]).toEqual(["r1", "b1", "r2", false]);
  expect(r1.text).toContain("original");
  expect(r2.text).toContain("changed-by-bash");
  expect(r2.text).not.toContain("original");
  expect(h.session.guards.cache.hits).toBe(0);
});

Deno.test("loop: an edit below a searched directory invalidates the cached grep", async () => {
  // The directory itself does not change (no entry added to it): only the invalidation by path
  // can tell that its cached search is out of date.
  await using h = await guardHarness({
    turns: [
      { tool_calls: [call("g1", "grep", { pattern: "needle", path: "src" })] },
      {
        tool_calls: [
          call("e1", "edit", { path: "src/deep/old.txt", old_string: "hay", new_string: "needle" }),
        ],
      },
      { tool_calls: [call("g2", "grep", { pattern: "needle", path: "src" })] },
      { text: "done" },
    ],
  });
  await Deno.mkdir(`${h.dir}/src/deep`, { recursive: true });
  await Deno.writeTextFile(`${h.dir}/src/deep/old.txt`, "hay\n");
  expect(await h.prompt()).toBe("end_turn");
  const byId = Object.fromEntries(h.results().map((r) => [r.callId, r.text]));
  expect(byId.e1).not.toContain("tool_error");
  expect(byId.g1).not.toContain("old.txt");
  expect(byId.g2).toContain("old.txt");
  expect(h.session.guards.cache.hits).toBe(0);
});

Deno.test("loop: bash that keeps the file's size and time still invalidates its cached read", async () => {
  await using h = await guardHarness({
    turns: [
      { tool_calls: [readF("r1")] },
      {
        tool_calls: [
          call("b1", "bash", { command: "printf 'B\\n' > f.txt && touch -r ref.txt f.txt" }),
        ],
      },
      { tool_calls: [readF("r2")] },
      { text: "done" },
    ],
  });
  const when = new Date("2020-01-01T00:00:00Z");
  for (const name of ["f.txt", "ref.txt"]) {
    await Deno.writeTextFile(`${h.dir}/${name}`, "A\n");
    await Deno.utime(`${h.dir}/${name}`, when, when);
  }
  const before = await Deno.stat(`${h.dir}/f.txt`);
  expect(await h.prompt()).toBe("end_turn");
  const after = await Deno.stat(`${h.dir}/f.txt`);
  expect([after.size, after.mtime?.getTime(), after.ino]).toEqual([
    before.size,
    before.mtime?.getTime(),
    before.ino,
  ]);
  const [r1, b1, r2] = h.results();
  expect(b1.isError).toBe(false);
  expect([/\b[AB]\b/.exec(r1.text)?.[0], /\b[AB]\b/.exec(r2.text)?.[0]]).toEqual(["A", "B"]);
});

Deno.test("loop: a tool the cache knows nothing of (an MCP tool, say) drops every file entry", async () => {
  // Declared read-only but not cacheable: the cache cannot know what it touches.
  const opaque = defineTool({
    name: "mcp_fs_touch",
    description: "An opaque third-party tool.",
    params: z.object({ path: z.string() }).strict(),
    mutates: false,
    group: "mcp",
    kind: "other",
    invocation: { type: "call" },
    subjects: () => [],
    async execute(p, ctx) {
      await Deno.writeTextFile(`${ctx.cwd}/${p.path}`, "rewritten by mcp\n");
      return { text: "ok" };
    },
  });
  await using h = await guardHarness({
    tools: [...FILE_TOOLS, opaque],
    turns: [
      { tool_calls: [readF("r1")] },
      { tool_calls: [call("m1", "mcp_fs_touch", { path: "f.txt" })] },
      { tool_calls: [readF("r2")] },
      { text: "done" },
    ],
  });
  await Deno.writeTextFile(`${h.dir}/f.txt`, "before\n");
  expect(await h.prompt()).toBe("end_turn");
  const texts = h.results().map((r) => r.text);
  expect(texts[0]).toContain("before");
  expect(texts[2]).toContain("rewritten by mcp");
});

Deno.test("a file changed behind zeph's back (an editor) is read again, and so in another turn", async () => {
  await using h = await guardHarness({
    turns: [
      { tool_calls: [readF("r1")] },
      { text: "first" },
      { tool_calls: [readF("r2")] },
      { text: "second" },
    ],
  });
  await Deno.writeTextFile(`${h.dir}/f.txt`, "v1\n");
  await h.prompt();
  // Same size, so only the modification time (or the new turn) can tell.
  await Deno.writeTextFile(`${h.dir}/f.txt`, "v2\n");
  await Deno.utime(`${h.dir}/f.txt`, new Date(), new Date(Date.now() + 5000));
  await h.prompt("again");
  expect(h.results().map((r) => /v\d/.exec(r.text)?.[0])).toEqual(["v1", "v2"]);

  // Within one session's cache, without a new turn: the stamps catch it.
  const scope = { cwd: h.dir, sandbox: await Sandbox.create(h.dir), guards: h.session.guards };
  const first = await h.registry.dispatch(readF("d1"), scope);
  expect([first.cached, first.text.includes("v2")]).toEqual([true, true]);
  await Deno.writeTextFile(`${h.dir}/f.txt`, "v3 longer\n");
  const fresh = await h.registry.dispatch(readF("d2"), scope);
  expect([fresh.cached, fresh.text.includes("v3 longer")]).toEqual([undefined, true]);
  expect((await h.registry.dispatch(readF("d3"), scope)).cached).toBe(true);
});

Deno.test("a mutation in one session invalidates another session's cache (ACP sessions share a workspace)", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const config = defaultConfig();
    const registry = new ToolRegistry({
      tools: FILE_TOOLS,
      executor: new LocalExecutor(),
      policy: new PermissionPolicy({
        read: [{ pattern: "*", action: "allow" }],
        grep: [{ pattern: "*", action: "allow" }],
        edit: [{ pattern: "*", action: "allow" }],
      }),
      config,
    });
    const sandbox = await Sandbox.create(dir);
    const a = { cwd: dir, sandbox, guards: SessionGuards.fromConfig(config) };
    const b = { cwd: dir, sandbox, guards: SessionGuards.fromConfig(config) };
    await Deno.writeTextFile(`${dir}/f.txt`, "alpha\n");
    expect((await registry.dispatch(readF("a1"), a)).text).toContain("alpha");
    expect((await registry.dispatch(readF("a2"), a)).cached).toBe(true);
    const edit = await registry.dispatch(
      call("b1", "edit", { path: "f.txt", old_string: "alpha", new_string: "gamma" }),
      b,
    );
    expect(edit.ok).toBe(true);
    const after = await registry.dispatch(readF("a3"), a);
    expect([after.cached, after.text.includes("gamma")]).toEqual([undefined, true]);

    // A search in session a over a directory an edit of session b reaches below: only the
    // invalidation can tell (the directory's own stamp does not change).
    await Deno.mkdir(`${dir}/src/deep`, { recursive: true });
    await Deno.writeTextFile(`${dir}/src/deep/x.txt`, "hay\n");
    const grep = (id: string) => call(id, "grep", { pattern: "needle", path: "src" });
    expect((await registry.dispatch(grep("a4"), a)).text).not.toContain("x.txt");
    expect((await registry.dispatch(grep("a5"), a)).cached).toBe(true);
    const edit2 = await registry.dispatch(
      call("b2", "edit", { path: "src/deep/x.txt", old_string: "hay", new_string: "needle" }),
      b,
    );
    expect(edit2.ok).toBe(true);
    const found = await registry.dispatch(grep("a6"), a);
    expect([found.cached, found.text.includes("x.txt")]).toEqual([undefined, true]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("/clear empties the cache; enabled = false caches nothing", async () => {
  await using h = await guardHarness({
    turns: [{ tool_calls: [readF("r1")] }, { tool_calls: [readF("r2")] }, { text: "done" }],
  });
  await Deno.writeTextFile(`${h.dir}/f.txt`, "x\n");
  await h.prompt();
  expect([h.session.guards.cache.size, h.session.guards.cache.hits]).toEqual([1, 1]);
  h.session.clear();
  expect(h.session.guards.cache.size).toBe(0);

  await using off = await guardHarness({
    config: (c) => (c.tools.result_cache.enabled = false),
    turns: [{ tool_calls: [readF("r1")] }, { tool_calls: [readF("r2")] }, { text: "done" }],
  });
  await Deno.writeTextFile(`${off.dir}/f.txt`, "x\n");
  await off.prompt();
  expect([off.session.guards.cache.size, off.session.guards.cache.hits]).toEqual([0, 0]);
});
