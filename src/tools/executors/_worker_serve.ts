/**
 * What both file worker entries (file_worker.ts, file_worker_lite.ts) run: the file tools inside
 * a Worker whose Deno permissions are read/write on the allowed roots only (no net, run, env,
 * ffi, sys). The tools still resolve every path with
 * the JS sandbox first (symlinks are checked there; Deno checks the path as written); this
 * thread's permissions are the second fence for anything that slips past that check.
 *
 * Before its first call the worker can confine its own thread with Landlock (a `confine`
 * request): the kernel then refuses every change outside the roots, however a path resolves at
 * the moment of the call. FFI is granted for that setup only and revoked before any tool runs.
 *
 * It runs the tools' executors only (`<tool>_exec.ts`), not their modules with the schemas.
 */
/// <reference lib="deno.worker" />
import type { Config, FileConfig } from "../../config/mod.ts";
import { diskFiles } from "../disk_files.ts";
import type { Execute } from "./_file_executors.ts";
import { type ErrorCategory, ToolError, toToolError } from "../../errors/mod.ts";
import type { ToolContext, ToolDeps, ToolOutput } from "../tool.ts";
import {
  type LandlockState,
  restrictThread,
  Sandbox,
  type SandboxSnapshot,
} from "../../sandbox/mod.ts";
import { confineFsOps } from "../fs_ops.ts";

export interface WorkerCallContext {
  cwd: string;
  sandbox: SandboxSnapshot;
  file: FileConfig;
  callId: string;
  conversationId: string | null;
  callerId: string | null;
}

/**
 * `call` runs a tool; `abort` cancels one; `unchecked` performs a raw file operation with no JS
 * path check at all. It exists so the fence test can prove the Deno permissions hold on their
 * own; it grants nothing the worker's own code could not already do.
 */
export type WorkerRequest =
  | {
    type: "call";
    id: number;
    tool: string;
    params: unknown;
    ctx: WorkerCallContext;
    /** Shared cancel flag (set to 1 by the executor on abort); optional for raw callers. */
    cancel?: Int32Array;
  }
  | { type: "abort"; id: number }
  /**
   * Sent first: confine this thread with Landlock ("landlock": tools refuse to run without it).
   * `unavailable` says why the executor could not grant what the setup needs. Answered with the
   * LandlockState as `value`.
   */
  | {
    type: "confine";
    id: number;
    mode: "auto" | "landlock";
    roots: string[];
    unavailable?: string;
  }
  /** The search module's link for this worker's fence (sent once, no answer). */
  | { type: "search"; id: number; port: MessagePort }
  | {
    type: "unchecked";
    id: number;
    op:
      | "readTextFile"
      | "writeTextFile"
      | "readDir"
      | "remove"
      | "writeTextFileSync"
      | "renameSync"
      | "mkdirSync"
      | "dlopen";
    path: string;
    /** The content to write, or the target of a rename. */
    data?: string;
  };

export interface SerializedToolError {
  category: ErrorCategory;
  message: string;
  hint?: string;
  /** Deno error class name when the failure came from the runtime (e.g. "NotCapable"). */
  errorName?: string;
}

export type WorkerResponse =
  | { id: number; ok: true; output: ToolOutput; value?: unknown }
  | { id: number; ok: false; error: SerializedToolError };

/**
 * The config a file tool sees: `[tools.file]`, the only section file tools read. The worker does
 * not load the config schema (and its defaults) for it: the main thread has already loaded and
 * validated the config, and sends this section with every call.
 */
function configOf(file: FileConfig): Config {
  return { tools: { file } } as Config;
}

/** No file tool runs commands, fetches URLs or reads overflow: this thread may do none of it. */
function unavailable(what: string): never {
  throw new ToolError("policy_blocked", `Cannot ${what}: the file worker has no such access`);
}

const WORKER_DEPS: ToolDeps = {
  files: diskFiles,
  runner: { run: () => Promise.resolve(unavailable("run a command")) },
  web: {
    resolve: () => Promise.resolve(unavailable("resolve a host name")),
    request: () => Promise.resolve(unavailable("make a web request")),
  },
  overflow: null,
  analyzeShell: () => Promise.resolve(unavailable("analyse a shell command")),
};

const running = new Map<number, AbortController>();

/** Why tool calls are refused on this thread ([tools.file.sandbox] mode = "landlock"), or null. */
let refusal: string | null = null;

/**
 * Confines this thread (roots: the fence's write roots), then revokes FFI whatever happened: a
 * thread that still holds FFI runs no tool.
 */
function confine(request: Extract<WorkerRequest, { type: "confine" }>): LandlockState {
  let state: LandlockState = { active: false, reason: "the setup failed" };
  try {
    state = request.unavailable !== undefined
      ? { active: false, reason: request.unavailable }
      : restrictThread(request.roots);
  } catch (error) {
    state = { active: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    if (request.unavailable === undefined) {
      Deno.permissions.revokeSync({ name: "ffi" });
      if (Deno.permissions.querySync({ name: "ffi" }).state === "granted") {
        refusal = "the file worker could not give up its FFI permission after the setup";
      }
    }
  }
  if (state.active) confineFsOps();
  else if (request.mode === "landlock") {
    refusal ??= `[tools.file.sandbox] mode = "landlock" but ${state.reason}`;
  }
  return state;
}

function serialize(error: unknown): SerializedToolError {
  const te = toToolError(error);
  const cause = te.cause ?? error;
  return {
    category: te.category,
    message: te.message,
    hint: te.hint,
    errorName: cause instanceof Error ? cause.name : undefined,
  };
}

async function runCall(request: Extract<WorkerRequest, { type: "call" }>): Promise<ToolOutput> {
  const execute = Object.hasOwn(executors, request.tool) ? executors[request.tool] : undefined;
  if (!execute) throw new Error(`The file worker does not run tool "${request.tool}"`);
  if (refusal) {
    throw new ToolError("policy_blocked", `Cannot run ${request.tool}: ${refusal}`, {
      hint:
        'Run zeph where Landlock works (Linux 5.13+), or set [tools.file.sandbox] mode = "auto".',
    });
  }
  const controller = new AbortController();
  const cancel = request.cancel;
  if (cancel) {
    // Synchronous loops poll `signal.aborted`; make it also read the shared flag.
    const signal = controller.signal;
    const native = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")!.get!;
    Object.defineProperty(signal, "aborted", {
      get: () => native.call(signal) || Atomics.load(cancel, 0) === 1,
    });
  }
  running.set(request.id, controller);
  const ctx: ToolContext = {
    cwd: request.ctx.cwd,
    sandbox: Sandbox.restore(request.ctx.sandbox),
    signal: controller.signal,
    config: configOf(request.ctx.file),
    callId: request.ctx.callId,
    conversationId: request.ctx.conversationId,
    callerId: request.ctx.callerId,
    now: () => Date.now(),
    emit: () => {},
    ...WORKER_DEPS,
  };
  try {
    return await execute(request.params as never, ctx);
  } finally {
    running.delete(request.id);
  }
}

async function runUnchecked(
  request: Extract<WorkerRequest, { type: "unchecked" }>,
): Promise<unknown> {
  switch (request.op) {
    case "readTextFile":
      return await Deno.readTextFile(request.path);
    case "writeTextFile":
      return await Deno.writeTextFile(request.path, request.data ?? "");
    case "readDir":
      return (await Array.fromAsync(Deno.readDir(request.path))).map((e) => e.name);
    case "remove":
      return await Deno.remove(request.path, { recursive: true });
    // Sync variants run on this thread itself, where Landlock (when on) applies.
    case "writeTextFileSync":
      return Deno.writeTextFileSync(request.path, request.data ?? "");
    case "renameSync":
      return Deno.renameSync(request.path, request.data ?? "");
    case "mkdirSync":
      return Deno.mkdirSync(request.path);
    case "dlopen":
      Deno.dlopen(request.path, {}).close();
      return "opened";
  }
}

/** The tools this worker runs, by name. */
let executors: Readonly<Record<string, Execute>> = {};
/** Hands the search engine its link; absent in a worker that runs no search tool. */
let useSearchLink: ((port: MessagePort) => void) | undefined;

/** Answers requests on this thread with `tools` (and `searchLink` for `search` requests). */
export function serveFileTools(
  tools: Readonly<Record<string, Execute>>,
  searchLink?: (port: MessagePort) => void,
): void {
  executors = tools;
  useSearchLink = searchLink;
  self.onmessage = onMessage;
}

async function onMessage(event: MessageEvent<WorkerRequest>): Promise<void> {
  const request = event.data;
  if (request.type === "abort") {
    running.get(request.id)?.abort();
    return;
  }
  if (request.type === "search") {
    if (useSearchLink) useSearchLink(request.port);
    else request.port.close();
    return;
  }
  if (request.type === "confine") {
    // Synchronous, so it is done before the next message (the first call) is looked at.
    self.postMessage(
      {
        id: request.id,
        ok: true,
        output: { text: "" },
        value: confine(request),
      } satisfies WorkerResponse,
    );
    return;
  }
  let response: WorkerResponse;
  try {
    if (request.type === "call") {
      response = { id: request.id, ok: true, output: await runCall(request) };
    } else {
      const value = await runUnchecked(request);
      response = { id: request.id, ok: true, output: { text: "" }, value };
    }
  } catch (error) {
    response = { id: request.id, ok: false, error: serialize(error) };
  }
  self.postMessage(response);
}
