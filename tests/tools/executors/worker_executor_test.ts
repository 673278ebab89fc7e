// The second fence: the file worker's Deno permissions hold even when the JS path check is
// skipped, and the executor's lifecycle (lazy start, reuse, abort, close) works.
import * as path from "node:path";
import { expect } from "expect";
import { defaultConfig } from "../../../src/config/schema.ts";
import { Sandbox } from "../../../src/sandbox/path.ts";
import {
  FileWorker,
  prestartFileWorker,
  WorkerFileExecutor,
} from "../../../src/tools/executors/worker_executor.ts";
import { readTool } from "../../../src/tools/read.ts";
import { grepTool } from "../../../src/tools/grep.ts";
import { defaultToolDeps } from "../../../src/tools/deps.ts";
import { FILE_TOOLS } from "../../../src/tools/file_tools.ts";
import { ToolError } from "../../../src/errors/mod.ts";
import type { ToolContext } from "../../../src/tools/tool.ts";
import { makeHarness, snapshotTree } from "../../_support/file_tools.ts";
import { RAW_FILE_WORKER, RAW_FILE_WORKER_LITE, unchecked } from "../../_support/raw_worker.ts";
import { poolThreads } from "../../../src/search/_threads.ts";

// One worker for the whole module: starting one under `deno test` type-checks its module.
const executor = new WorkerFileExecutor({ module: RAW_FILE_WORKER });
const WORKER = { name: "worker", make: () => executor };

async function dirs() {
  const h = await makeHarness(WORKER);
  await Deno.writeTextFile(`${h.outside}/secret.txt`, "TOP SECRET");
  await h.put({ "inside.txt": "hello" });
  return h;
}

Deno.test("fence: raw reads and writes outside the roots fail with NotCapable", async () => {
  const h = await dirs();
  const worker = executor.workerFor([h.ws]);
  const before = await snapshotTree(h.outside);

  const inside = await unchecked(worker, { op: "readTextFile", path: `${h.ws}/inside.txt` });
  expect(inside).toMatchObject({ ok: true, value: "hello" });

  const attempts = [
    { op: "readTextFile", path: `${h.outside}/secret.txt` },
    { op: "readTextFile", path: `${h.ws}/../outside/secret.txt` },
    { op: "readTextFile", path: "/etc/passwd" },
    { op: "writeTextFile", path: `${h.outside}/planted.txt`, data: "x" },
    { op: "writeTextFile", path: `${h.ws}_evil.txt`, data: "x" },
    { op: "readDir", path: h.outside },
    { op: "remove", path: `${h.outside}/secret.txt` },
  ] as const;
  for (const attempt of attempts) {
    const r = await unchecked(worker, { ...attempt });
    expect({ attempt, ok: r.ok, errorName: r.ok ? null : r.error.errorName }).toEqual({
      attempt,
      ok: false,
      errorName: "NotCapable",
    });
  }
  expect(await snapshotTree(h.outside)).toEqual(before);
  expect(await Deno.stat(`${h.ws}_evil.txt`).catch(() => null)).toBe(null);
});

Deno.test("fence: the production worker runs tool calls only; raw operations are refused", async () => {
  const h = await dirs();
  const production = new WorkerFileExecutor();
  try {
    const worker = production.workerFor([h.ws]);
    for (
      const attempt of [
        { op: "writeTextFile", path: `${h.ws}/raw.txt`, data: "x" },
        { op: "readTextFile", path: `${h.ws}/inside.txt` },
        { op: "dlopen", path: "libc.so.6" },
      ] as const
    ) {
      const r = await unchecked(worker, attempt);
      expect({ attempt, r }).toEqual({
        attempt,
        r: {
          id: expect.any(Number),
          ok: false,
          error: expect.objectContaining({
            category: "server_error",
            message: 'The file worker does not handle "unchecked" requests',
          }),
        },
      });
    }
    expect(await Deno.stat(`${h.ws}/raw.txt`).catch(() => null)).toBe(null);
    // The same worker still runs the tools.
    const ctx = context(h.sandbox, h.ws, new AbortController().signal);
    const read = await production.execute(readTool, { path: "inside.txt", offset: 0 }, ctx);
    expect(read.text).toBe("   1\thello");
  } finally {
    production.close();
  }
});

Deno.test("fence: a tool call whose JS sandbox is forged wide open is still refused", async () => {
  const h = await dirs();
  const worker = executor.workerFor([h.ws]);
  // The worker only has the permissions of [ws]; the call claims roots ["/"] so the JS check
  // passes, and the Deno permission check is what stops it.
  const forged = { ...(await Sandbox.create(h.ws)).snapshot(), roots: ["/"] };
  const ctx = {
    cwd: h.ws,
    sandbox: forged,
    file: defaultConfig().tools.file,
    callId: "c1",
    conversationId: null,
    callerId: null,
  };
  const read = await worker.request({
    type: "call",
    tool: "read",
    params: { path: `${h.outside}/secret.txt`, offset: 0 },
    ctx,
  });
  expect(read).toEqual({
    id: read.id,
    ok: false,
    error: {
      category: "policy_blocked",
      message: `Cannot read "${h.outside}/secret.txt": outside the file permissions of the sandbox`,
      hint: "Only paths inside the workspace (or [tools.file] allowed_paths) can be used.",
      errorName: "NotCapable",
    },
  });
  const write = await worker.request({
    type: "call",
    tool: "write",
    params: { path: `${h.outside}/planted.txt`, content: "x" },
    ctx,
  });
  expect(write.ok ? null : [write.error.category, write.error.errorName]).toEqual([
    "policy_blocked",
    "NotCapable",
  ]);
  expect(await snapshotTree(h.outside)).toEqual({ "secret.txt": "file:TOP SECRET" });
});

Deno.test("fence: Deno checks the path as written, so the JS realpath check must stay first", async () => {
  const h = await dirs();
  await Deno.symlink(`${h.outside}/secret.txt`, `${h.ws}/link`);
  const worker = executor.workerFor([h.ws]);
  // Without the JS check, the symlink is followed: this is the hole the JS check closes.
  const raw = await unchecked(worker, { op: "readTextFile", path: `${h.ws}/link` });
  expect(raw).toMatchObject({ ok: true, value: "TOP SECRET" });
  const viaTool = await h.dispatch("read", { path: "link" });
  expect([viaTool.category, viaTool.error]).toEqual([
    "policy_blocked",
    'Cannot access "link": is outside the allowed paths',
  ]);
});

function context(sandbox: Sandbox, cwd: string, signal: AbortSignal): ToolContext {
  return {
    cwd,
    sandbox,
    signal,
    config: defaultConfig(),
    callId: "c",
    conversationId: null,
    callerId: null,
    now: () => Date.now(),
    emit: () => {},
    ...defaultToolDeps(),
  };
}

Deno.test("executor: handles exactly the ten file tools, errors come back as ToolError", async () => {
  const h = await dirs();
  expect(FILE_TOOLS.filter((t) => executor.handles(t)).map((t) => t.name)).toEqual([
    "read",
    "write",
    "edit",
    "find_path",
    "grep",
    "list_directory",
    "create_directory",
    "delete_path",
    "move_path",
    "copy_path",
  ]);
  const other = { ...readTool, name: "bash" };
  expect(executor.handles(other)).toBe(false);
  const ctx = context(h.sandbox, h.ws, new AbortController().signal);
  const error = await executor.execute(readTool, { path: "nope.txt", offset: 0 }, ctx).catch((e) =>
    e
  );
  expect(error).toBeInstanceOf(ToolError);
  expect([error.category, error.message, error.hint]).toEqual([
    "permanent_failure",
    'Cannot read "nope.txt": no such file or directory',
    "Check the path with list_directory or find_path.",
  ]);
  expect(await executor.execute(readTool, { path: "inside.txt", offset: 0 }, ctx)).toEqual({
    text: "   1\thello",
    locations: [{ path: `${h.ws}/inside.txt`, line: 1 }],
    truncated: false,
  });
});

Deno.test("executor: a cancelled call stops in the worker, which stays usable", async () => {
  const h = await dirs();
  for (let d = 0; d < 20; d++) {
    const dir = path.join(h.ws, "big", `d${d}`);
    await Deno.mkdir(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      await Deno.writeTextFile(path.join(dir, `f${f}.txt`), `line ${f}\nneedle ${d}\n`);
    }
  }
  const worker = executor.workerFor([h.ws]);
  const late: unknown[] = [];
  // The cancelled call answers on its own schedule: its first awaits (realpath, stat) can finish
  // after the next request's read, so the test waits for the answer instead of assuming order.
  const firstLate = new Promise<void>((resolve) => {
    worker.onLateResponse = (r) => {
      late.push(r);
      resolve();
    };
  });
  const controller = new AbortController();
  const pending = worker.request({
    type: "call",
    tool: "grep",
    params: { pattern: "needle", path: ".", case_sensitive: true, context: 0 },
    ctx: {
      cwd: h.ws,
      sandbox: h.sandbox.snapshot(),
      file: defaultConfig().tools.file,
      callId: "c",
      conversationId: null,
      callerId: null,
    },
  }, controller.signal);
  // The message is already posted: the abort reaches the running walk through the shared flag.
  controller.abort();
  const error = await pending.catch((e) => e);
  expect(error).toBeInstanceOf(ToolError);
  expect([error.category, error.message]).toEqual([
    "cancelled",
    "Cannot finish the file operation: cancelled",
  ]);
  // The worker still answers other requests.
  const next = await unchecked(worker, { op: "readTextFile", path: `${h.ws}/inside.txt` });
  expect(next).toMatchObject({ ok: true, value: "hello" });
  expect(worker.closed).toBe(false);
  // The walk itself stopped with "cancelled" (it did not run to the end with matches).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const noAnswer = new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000)));
  await Promise.race([firstLate, noAnswer]); // no answer in 10 s: `late` stays empty and fails
  clearTimeout(timer);
  expect(late).toEqual([{
    id: expect.any(Number),
    ok: false,
    error: { category: "cancelled", message: "Cannot search: cancelled", errorName: "ToolError" },
  }]);
  worker.onLateResponse = undefined;
  // Through the registry, a signal aborted before the call is refused up front.
  const aborted = new AbortController();
  aborted.abort();
  const refused = await h.dispatch("read", { path: "inside.txt" }, { signal: aborted.signal });
  expect([refused.category, refused.outcome]).toEqual(["cancelled", "cancelled"]);
});

Deno.test("executor: close terminates the worker; a later call starts a new one", async () => {
  const h = await dirs();
  const local = new WorkerFileExecutor({ module: RAW_FILE_WORKER });
  const first = local.workerFor([h.ws]);
  expect(local.workerFor([h.ws])).toBe(first);
  local.close();
  expect(first.closed).toBe(true);
  const rejected = await unchecked(first, { op: "readDir", path: h.ws }).catch((
    e,
  ) => e);
  expect([rejected.category, rejected.message]).toEqual([
    "server_error",
    "The file worker is closed",
  ]);
  const second = local.workerFor([h.ws]);
  expect(second).not.toBe(first);
  expect(second).toBeInstanceOf(FileWorker);
  local.close();
});

Deno.test("prestart: the executor takes over a worker started early for its roots", async () => {
  const h = await dirs();
  expect(await prestartFileWorker(h.ws, "bash")).toBe(null);
  const early = (await prestartFileWorker(h.ws, "read", { module: RAW_FILE_WORKER }))!;
  const local = new WorkerFileExecutor({ module: RAW_FILE_WORKER });
  try {
    expect(local.workerFor([h.ws])).toBe(early.worker);
    // Taken over: release() leaves it running for the executor, which stops it on close.
    early.release();
    expect(early.worker.closed).toBe(false);
    const read = await unchecked(early.worker, { op: "readTextFile", path: `${h.ws}/inside.txt` });
    expect(read).toMatchObject({ ok: true, value: "hello" });
  } finally {
    local.close();
  }
  expect(early.worker.closed).toBe(true);
});

Deno.test("prestart: a lite worker for read is fenced, and a search tool gets a full worker instead", async () => {
  const h = await dirs();
  const early = (await prestartFileWorker(h.ws, "read", { module: RAW_FILE_WORKER_LITE }))!;
  expect([early.worker.search, early.worker.runs("read"), early.worker.runs("grep")]).toEqual([
    false,
    true,
    false,
  ]);
  // The lite entry is fenced like the full one: the same Deno permissions.
  for (const op of ["readTextFile", "writeTextFile"] as const) {
    const outside = await unchecked(early.worker, {
      op,
      path: `${h.outside}/secret.txt`,
      data: "x",
    });
    expect(outside).toMatchObject({ ok: false, error: { errorName: "NotCapable" } });
  }
  // grep replaces the lite worker started early; a full one also runs the other tools.
  const full = (await prestartFileWorker(h.ws, "grep"))!;
  expect([full.worker.search, early.worker.closed]).toEqual([true, true]);
  expect((await prestartFileWorker(h.ws, "write"))!.worker).toBe(full.worker);
  full.release();
  const lite = (await prestartFileWorker(h.ws, "write"))!;
  expect(lite.worker.search).toBe(false);
  const local = new WorkerFileExecutor();
  try {
    const sandbox = await Sandbox.create(h.ws);
    const signal = new AbortController().signal;
    const read = await local.execute(
      readTool,
      readTool.params.parse({ path: "inside.txt" }),
      context(sandbox, h.ws, signal),
    );
    expect(read.text).toBe("   1\thello");
    expect(local.workerFor([h.ws])).toBe(lite.worker);
    const found = await local.execute(
      grepTool,
      grepTool.params.parse({ pattern: "hel+o" }),
      context(sandbox, h.ws, signal),
    );
    expect(found.text).toContain("inside.txt");
    expect(lite.worker.closed).toBe(true);
    expect(local.workerFor([h.ws]).search).toBe(true);
  } finally {
    local.close();
    lite.release();
  }
});

Deno.test("prestart: a worker started early is fenced to the workspace and stopped when not taken over", async () => {
  const h = await dirs();
  const early = (await prestartFileWorker(h.ws, "grep", { module: RAW_FILE_WORKER }))!;
  // Fenced like the sandbox of a config without allowed_paths: the workspace only.
  const outside = await unchecked(early.worker, {
    op: "readTextFile",
    path: `${h.outside}/secret.txt`,
  });
  expect(outside).toMatchObject({ ok: false, error: { errorName: "NotCapable" } });
  // An executor whose sandbox has other roots (allowed_paths) starts its own worker.
  const local = new WorkerFileExecutor({ module: RAW_FILE_WORKER });
  try {
    const own = local.workerFor([h.ws, h.outside]);
    expect(own).not.toBe(early.worker);
    early.release();
    expect(early.worker.closed).toBe(true);
    expect(own.closed).toBe(false);
    // A later executor for the workspace does not get the stopped one.
    expect(local.workerFor([h.ws])).not.toBe(early.worker);
  } finally {
    local.close();
  }
});

Deno.test("prestart: an executor confining its worker otherwise starts its own and stops the early one", async () => {
  const h = await dirs();
  const early = (await prestartFileWorker(h.ws, "read", { module: RAW_FILE_WORKER }))!;
  expect(early.worker.confine).toBe("auto");
  const off = new WorkerFileExecutor({ confine: "off" });
  try {
    const own = off.workerFor([h.ws]);
    expect(own).not.toBe(early.worker);
    expect(own.confine).toBe("off");
    expect(early.worker.closed).toBe(true);
    early.release(); // nothing left to stop
    expect(own.closed).toBe(false);
  } finally {
    off.close();
  }
});

Deno.test("prestart: an executor that started the worker first keeps it, and no second one starts", async () => {
  const h = await dirs();
  const local = new WorkerFileExecutor({ module: RAW_FILE_WORKER });
  try {
    // The runtime was built while the prestart awaited: the executor's worker is the one.
    const own = local.workerFor([h.ws]);
    const early = (await prestartFileWorker(h.ws, "grep", { module: RAW_FILE_WORKER }))!;
    expect(early.worker).toBe(own);
    early.release(); // the executor's: left running
    expect(own.closed).toBe(false);
    expect(local.workerFor([h.ws])).toBe(own);
  } finally {
    local.close();
  }
  // Once the executor is closed, a prestart starts a fresh worker again.
  const again = (await prestartFileWorker(h.ws, "grep", { module: RAW_FILE_WORKER }))!;
  try {
    expect(again.worker.closed).toBe(false);
  } finally {
    again.release();
  }
  expect(again.worker.closed).toBe(true);
});

Deno.test("prestart: a one-shot grep of a large tree starts its search threads with the worker; a small one at the first large search", async () => {
  const h = await dirs();
  await Deno.mkdir(`${h.ws}/big`);
  for (let i = 0; i < 1000; i++) await Deno.writeTextFile(`${h.ws}/big/f${i}.txt`, "x\n");
  const threadsFor = async (params: unknown) => {
    const early = (await prestartFileWorker(h.ws, "grep", { module: RAW_FILE_WORKER, params }))!;
    try {
      return early.worker.searchThreads;
    } finally {
      early.release();
    }
  };
  // The workspace (no path: grep's default) and big/ are large; a file, a small directory,
  // a path outside the workspace (even a large one) and a missing one start nothing early.
  await Deno.mkdir(`${h.outside}/big`);
  for (let i = 0; i < 1000; i++) await Deno.writeTextFile(`${h.outside}/big/f${i}.txt`, "x\n");
  // A symlink inside the workspace to that large directory outside starts nothing either.
  await Deno.symlink(`${h.outside}/big`, `${h.ws}/link`);
  expect([
    await threadsFor({ pattern: "x" }),
    await threadsFor({ pattern: "x", path: "big" }),
    await threadsFor({ pattern: "x", path: "big/f1.txt" }),
    await threadsFor({ pattern: "x", path: "big/.." }),
    await threadsFor({ pattern: "x", path: `${h.outside}/big` }),
    await threadsFor({ pattern: "x", path: "missing" }),
    await threadsFor({ pattern: "x", path: "link" }),
  ]).toEqual([poolThreads(), poolThreads(), 0, poolThreads(), 0, 0, 0]);
  const read = (await prestartFileWorker(h.ws, "read", { module: RAW_FILE_WORKER_LITE }))!;
  const local = new WorkerFileExecutor({ module: RAW_FILE_WORKER });
  try {
    expect(read.worker.searchThreads).toBe(0);
    const other = local.workerFor([h.outside]);
    expect([other.search, other.searchThreads]).toEqual([true, 0]);
  } finally {
    read.release();
    local.close();
  }
});
