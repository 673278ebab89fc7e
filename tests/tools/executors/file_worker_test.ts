// The file worker's kernel fence: a worker that confines its thread with Landlock changes nothing
// outside its roots even on a path that the Deno permissions let through (a symlink), gives up
// FFI after the setup, and leaves the main thread unconfined; without Landlock the tools work.
import * as path from "node:path";
import { expect } from "expect";
import { WorkerFileExecutor } from "../../../src/tools/executors/worker_executor.ts";
import { openStore } from "../../../src/store/mod.ts";
import { makeHarness, okText, snapshotTree } from "../../_support/file_tools.ts";
import { RAW_FILE_WORKER, unchecked } from "../../_support/raw_worker.ts";

const confined = new WorkerFileExecutor({ confine: "auto", module: RAW_FILE_WORKER });
const unconfined = new WorkerFileExecutor({ confine: "off", module: RAW_FILE_WORKER });
const CONFINED = { name: "worker", make: () => confined };
const UNCONFINED = { name: "worker-off", make: () => unconfined };

/** The unchecked raw changes, each through `ws/link`, a symlink to the outside directory. */
const THROUGH_LINK = [
  { op: "writeTextFileSync", path: "link/planted.txt", data: "x" },
  { op: "writeTextFileSync", path: "link/secret.txt", data: "overwritten" },
  { op: "renameSync", path: "inside.txt", data: "link/moved.txt" },
  { op: "renameSync", path: "link/secret.txt", data: "stolen.txt" },
  { op: "mkdirSync", path: "link/newdir" },
] as const;

async function dirs(ex: typeof CONFINED) {
  const h = await makeHarness(ex);
  await Deno.writeTextFile(`${h.outside}/secret.txt`, "TOP SECRET");
  await h.put({ "inside.txt": "hello" });
  await Deno.symlink(h.outside, `${h.ws}/link`);
  const worker = (ex.make() as WorkerFileExecutor).workerFor([h.ws]);
  const state = await worker.confinement;
  return { h, worker, state };
}

/** Absolute paths for a raw request: the data of a rename is its target. */
function absolute(ws: string, attempt: (typeof THROUGH_LINK)[number]) {
  const data = attempt.op === "renameSync"
    ? path.join(ws, attempt.data)
    : "data" in attempt
    ? attempt.data
    : undefined;
  return { op: attempt.op, path: path.join(ws, attempt.path), data };
}

Deno.test("landlock: the confined worker changes nothing outside its roots, even unchecked through a symlink", async () => {
  const { h, worker, state } = await dirs(CONFINED);
  if (!state.active) {
    console.log(`Landlock is unavailable here (${state.reason}): skipped`);
    return;
  }
  expect(state.abi).toBeGreaterThanOrEqual(1);
  const before = await snapshotTree(h.outside);
  for (const attempt of THROUGH_LINK) {
    const r = await unchecked(worker, { ...absolute(h.ws, attempt) });
    // The Deno permissions pass these (the path as written is inside); the kernel refuses.
    expect({ attempt, ok: r.ok, name: r.ok ? null : r.error.errorName }).toEqual({
      attempt,
      ok: false,
      name: attempt.op === "renameSync"
        ? expect.stringMatching(/^(PermissionDenied|Error)$/)
        : "PermissionDenied",
    });
  }
  expect(await snapshotTree(h.outside)).toEqual(before);
  // Inside the roots the same raw calls work.
  const inside = await unchecked(worker, {
    op: "writeTextFileSync",
    path: `${h.ws}/sub.txt`,
    data: "in",
  });
  expect(inside.ok).toBe(true);
  expect(await h.readWs("sub.txt")).toBe("in");
});

Deno.test("landlock: without it (mode off) the same raw calls go through the symlink: the hole it closes", async () => {
  const { h, worker, state } = await dirs(UNCONFINED);
  expect(state).toEqual({ active: false, reason: '[tools.file.sandbox] mode = "off"' });
  const r = await unchecked(worker, { ...absolute(h.ws, THROUGH_LINK[0]) });
  expect(r.ok).toBe(true);
  expect(await snapshotTree(h.outside)).toEqual({
    "planted.txt": "file:x",
    "secret.txt": "file:TOP SECRET",
  });
});

Deno.test("landlock: the worker gives up FFI after the setup", async () => {
  const { worker } = await dirs(CONFINED);
  const r = await unchecked(worker, { op: "dlopen", path: "libc.so.6" });
  expect(r.ok ? "opened" : r.error.errorName).toBe("NotCapable");
});

Deno.test("landlock: the main thread stays unconfined (its store and audit log live outside)", async () => {
  const { h, state } = await dirs(CONFINED);
  expect(typeof state.active).toBe("boolean");
  const store = openStore(`${h.outside}/zeph.db`);
  const id = store.createConversation({ title: "t" });
  expect(store.getConversation(id)?.title).toBe("t");
  store.close();
  await Deno.writeTextFile(`${h.outside}/audit.jsonl`, "{}\n", { append: true });
  Deno.writeTextFileSync(`${h.outside}/sync.txt`, "main");
  expect(Object.keys(await snapshotTree(h.outside)).sort()).toEqual(
    expect.arrayContaining(["audit.jsonl", "secret.txt", "sync.txt", "zeph.db"]),
  );
});

for (const ex of [CONFINED, UNCONFINED]) {
  Deno.test(`landlock: every changing tool works inside the roots [${ex.name}]`, async () => {
    const { h } = await dirs(ex);
    okText(await h.dispatch("write", { path: "a/f.txt", content: "one\n" }));
    okText(await h.dispatch("edit", { path: "a/f.txt", old_string: "one", new_string: "two" }));
    okText(await h.dispatch("copy_path", { source: "a", destination: "b" }));
    okText(await h.dispatch("copy_path", { source: "a/f.txt", destination: "c.txt" }));
    okText(await h.dispatch("move_path", { source: "b", destination: "d/b" }));
    okText(await h.dispatch("create_directory", { path: "e/f" }));
    okText(await h.dispatch("delete_path", { path: "inside.txt" }));
    const tree = await snapshotTree(h.ws);
    delete tree["link"];
    expect(tree).toEqual({
      "a": "dir",
      "a/f.txt": "file:two\n",
      "c.txt": "file:two\n",
      "d": "dir",
      "d/b": "dir",
      "d/b/f.txt": "file:two\n",
      "e": "dir",
      "e/f": "dir",
    });
  });
}

Deno.test("landlock: a root made again is a new directory; the executor starts a fresh worker", async () => {
  const { h, worker, state } = await dirs(CONFINED);
  if (!state.active) return;
  await Deno.remove(h.ws, { recursive: true });
  await Deno.mkdir(h.ws);
  expect(await worker.rootsReplaced()).toBe(true);
  okText(await h.dispatch("write", { path: "x.txt", content: "x" }));
  expect(await h.readWs("x.txt")).toBe("x");
  expect(confined.workerFor([h.ws])).not.toBe(worker);
});

Deno.test("landlock: a root that does not exist yet gets no rule; once made, a fresh worker covers it", async () => {
  const { h, state } = await dirs(CONFINED);
  if (!state.active) return;
  const later = `${h.base}/later`;
  const executor = new WorkerFileExecutor({ module: RAW_FILE_WORKER });
  try {
    const worker = executor.workerFor([h.ws, later]);
    expect(await worker.confinement).toEqual(state);
    await Deno.mkdir(later);
    // The old worker's rules do not include it; the executor sees the new directory and restarts.
    const raw = await unchecked(worker, {
      op: "writeTextFileSync",
      path: `${later}/x.txt`,
      data: "x",
    });
    expect(raw.ok ? "written" : raw.error.errorName).toBe("PermissionDenied");
    expect(await worker.rootsReplaced()).toBe(true);
  } finally {
    executor.close();
  }
});
