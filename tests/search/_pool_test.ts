import { expect } from "expect";
import * as path from "node:path";
import { Sandbox } from "../../src/sandbox/path.ts";
import type { GrepHit } from "../../src/search/_entry.ts";
import {
  type GrepJob,
  GrepPool,
  localGrepPool,
  runJob,
  searchTree,
  type TreeSearch,
} from "../../src/search/_pool.ts";
import { ToolError } from "../../src/errors/mod.ts";

/** 12 directories of 3 nested levels, 25 files each; every 7th file has 1–3 "hit" lines. */
async function tree(): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_gp_" }));
  let n = 0;
  for (let d = 0; d < 12; d++) {
    for (let f = 0; f < 25; f++) {
      const dir = path.join(root, `d${String(d).padStart(2, "0")}`, f % 2 ? "x" : "y/z");
      await Deno.mkdir(dir, { recursive: true });
      const lines = ["a", "b", "c"].map((
        l,
        i,
      ) => (n % 7 === 0 && i <= n % 3 ? `hit ${n} ${l}` : l));
      await Deno.writeTextFile(
        path.join(dir, `f${String(f).padStart(2, "0")}.txt`),
        lines.join("\n"),
      );
      n++;
    }
  }
  await Deno.writeTextFile(path.join(root, ".gitignore"), "d03/\n");
  return root;
}

/** What the output uses of a hit: the paths, the matching lines and their text. */
function shown(hits: GrepHit[]) {
  return hits.map((h) => ({
    walked: h.walked,
    file: h.file,
    lines: h.matched.map((n) => [n, h.lines[n]]),
    count: h.lines.length,
  }));
}

async function search(root: string, max: number, extra: Partial<TreeSearch>) {
  return await searchTree({
    start: root,
    top: root,
    spec: { pattern: "hit \\d+", caseSensitive: true, max },
    filter: { prefix: root.length + 1 },
    context: 0,
    sandbox: await Sandbox.create(root),
    signal: new AbortController().signal,
    pool: null,
    ...extra,
  });
}

Deno.test("grep pool: the same hits as one thread, for every cap and split point", async () => {
  const root = await tree();
  try {
    const pool = localGrepPool()!;
    for (const max of [1, 4, 30, 1000]) {
      const alone = shown(await search(root, max, {}));
      expect(alone.length).toBeGreaterThan(0);
      for (const splitAfter of [0, 1, 40]) {
        const before = pool.dispatched;
        const parallel = shown(await search(root, max, { pool, splitAfter }));
        expect({ max, splitAfter, parallel }).toEqual({ max, splitAfter, parallel: alone });
        // A cap reached before the split point never starts the pool.
        expect(pool.dispatched - before).toBe(splitAfter === 40 && max <= 4 ? 0 : 1);
      }
    }
    // With no cap in the way, every hit of the 11 searched directories (d03 is .gitignored).
    const all = await search(root, 1000, {});
    expect(all.every((h) => !h.walked.includes("/d03/"))).toBe(true);
    expect(all.length).toBe(Math.ceil(300 / 7) - 4);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("grep pool: a search cancelled after the split stops, and the pool stays usable", async () => {
  const root = await tree();
  try {
    const pool = localGrepPool()!;
    const controller = new AbortController();
    const signal = controller.signal;
    // The calling thread's loop is synchronous: cancel as the file worker does, through a flag
    // the loop polls, here set after a few polls past the split.
    let polls = 0;
    const native = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")!.get!;
    Object.defineProperty(signal, "aborted", {
      get: () => {
        if (++polls === 30) controller.abort();
        return native.call(signal);
      },
    });
    const before = pool.dispatched;
    const error = await search(root, 1000, { pool, splitAfter: 5, signal }).catch((e) => e);
    expect(pool.dispatched - before).toBe(1); // it was cancelled after the split
    expect(error).toBeInstanceOf(ToolError);
    expect([error.category, error.message]).toEqual(["cancelled", "Cannot search: cancelled"]);
    const again = shown(await search(root, 1000, { pool, splitAfter: 5 }));
    expect(again).toEqual(shown(await search(root, 1000, {})));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("grep pool: a search waiting on a thread that dies or is closed fails, never hangs", async () => {
  // Threads that take jobs and never answer; `fail` is what a crash or exit reports.
  let fail: (message: string) => void = () => {};
  const terminated: number[] = [];
  const make = () =>
    new GrepPool((_onResult, onFail) => {
      fail = onFail;
      return [1, 2].map((k) => ({
        post: () => {},
        hold: () => {},
        terminate: () => void terminated.push(k),
      }));
    });
  const crashed = make();
  const waiting = crashed.collect(1, [1, 2]);
  fail("A grep thread crashed: boom");
  const error = await waiting.catch((e) => e);
  expect([error.category, error.message]).toEqual(["server_error", "A grep thread crashed: boom"]);
  expect([crashed.closed, terminated]).toEqual([true, [1, 2]]);

  const closed = make();
  const pending = closed.collect(7, [2]);
  closed.close();
  const stopped = await pending.catch((e) => e);
  expect([stopped.category, stopped.message]).toEqual([
    "server_error",
    "The grep threads were stopped during the search",
  ]);
  // A cancelled wait ends at once too.
  const cancelled = make();
  const controller = new AbortController();
  const wait = cancelled.collect(3, [1], controller.signal);
  controller.abort();
  const aborted = await wait.catch((e) => e);
  expect([aborted.category, aborted.message]).toEqual(["cancelled", "Cannot search: cancelled"]);
  cancelled.close();
});

Deno.test("grep pool: a subdirectory search keeps its ancestors' .gitignore rules", async () => {
  const root = await tree();
  try {
    await Deno.writeTextFile(path.join(root, ".gitignore"), "d03/\nx/\n");
    const pool = localGrepPool()!;
    const start = path.join(root, "d05");
    const at = (extra: Partial<TreeSearch>) =>
      search(root, 1000, { start, filter: { prefix: start.length + 1 }, ...extra });
    const alone = await at({});
    expect(alone.length).toBeGreaterThan(0);
    expect(alone.filter((h) => h.walked.startsWith(`${start}/x/`))).toEqual([]);
    for (const splitAfter of [0, 3]) {
      expect(shown(await at({ pool, splitAfter }))).toEqual(shown(alone));
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** A pool of one fake thread that claims the first unit of every job and never answers. */
function claimingPool(onJob: (job: GrepJob, control: Int32Array) => void): GrepPool {
  return new GrepPool(() => [{
    post: (message) => {
      const control = new Int32Array(message.job.control);
      // Claim the next unit as searchUnits does: counter, then the claim mark (thread 1 → 2).
      const i = Atomics.add(control, 0, 1);
      Atomics.store(control, 4 + i, 2);
      onJob(message.job, control);
    },
    hold: () => {},
    terminate: () => {},
  }]);
}

Deno.test("grep pool: a search cancelled while it waits for a thread tells the threads to stop", async () => {
  const root = await tree();
  try {
    let control: Int32Array | undefined;
    const pool = claimingPool((_job, c) => void (control = c));
    const controller = new AbortController();
    const searching = searchTree({
      start: root,
      top: root,
      spec: { pattern: "hit \\d+", caseSensitive: true, max: 1000 },
      filter: { prefix: root.length + 1 },
      context: 0,
      sandbox: await Sandbox.create(root),
      signal: controller.signal,
      pool,
      splitAfter: 0,
    });
    // The calling thread searched every other unit and now waits for the thread's unit.
    expect(Atomics.load(control!, 1)).toBe(0);
    controller.abort();
    const error = await searching.catch((e) => e);
    expect([error.category, error.message]).toEqual(["cancelled", "Cannot search: cancelled"]);
    // The stop word is set, so the thread drops its unit instead of searching it to the end.
    expect(Atomics.load(control!, 1)).not.toBe(0);
    pool.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("grep pool: a thread that fails before claiming a unit fails the search, never truncates it", async () => {
  const root = await tree();
  try {
    // A thread that cannot start the job (here: a pattern it cannot compile) answers with an
    // error and stops the other threads; it claimed nothing, so no one waits for its answer.
    const pool = new GrepPool((onResult) => [{
      post: (message) => {
        const broken = { ...message.job, spec: { ...message.job.spec, pattern: "(" } };
        const result = runJob(broken, message.thread, new Map());
        queueMicrotask(() => onResult(result));
      },
      hold: () => {},
      terminate: () => {},
    }]);
    const error = await search(root, 1000, { pool, splitAfter: 5 }).catch((e) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect([error.category, error.message]).toEqual([
      "server_error",
      "A grep thread failed: the search was stopped",
    ]);
    pool.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("grep pool: asked for only past the split point; the walk goes on while it is coming", async () => {
  const root = await tree();
  try {
    const pool = localGrepPool()!;
    const alone = shown(await search(root, 1000, {}));
    // A tree smaller than the split point never asks (no thread is started for it).
    let asks = 0;
    const counted = () => {
      asks++;
      return Promise.resolve(pool);
    };
    expect(shown(await search(root, 1000, { pool: counted, splitAfter: 10_000 }))).toEqual(alone);
    expect(asks).toBe(0);
    // Past it, one ask; the pool that answers gets the rest of the tree.
    const before = pool.dispatched;
    expect(shown(await search(root, 1000, { pool: counted, splitAfter: 5 }))).toEqual(alone);
    expect([asks, pool.dispatched - before]).toEqual([1, 1]);
    // A pool that never answers: the calling thread searches the whole tree alone, no hang.
    let never = 0;
    const silent = () => {
      never++;
      return new Promise<GrepPool | null>(() => {});
    };
    expect(shown(await search(root, 1000, { pool: silent, splitAfter: 5 }))).toEqual(alone);
    expect([never, pool.dispatched - before]).toEqual([1, 1]);
    // An ask that fails is a pool of none.
    const failing = () => Promise.reject(new Error("no threads"));
    const notices: string[] = [];
    const onNotice = (message: string) => void notices.push(message);
    expect(shown(await search(root, 1000, { pool: failing, splitAfter: 5, onNotice }))).toEqual(
      alone,
    );
    expect(notices).toEqual(["no threads; searched on one thread instead"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
