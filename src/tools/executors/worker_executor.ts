/**
 * Runs the ten file tools in a Worker whose Deno permissions are read/write on the sandbox roots
 * and nothing else: the second fence behind the JS path check. One worker per set of roots,
 * started on the first call and reused; `close()` terminates them.
 */
import { ToolError } from "../../errors/mod.ts";
import type { ToolExecutor } from "./executor.ts";
import { FILE_TOOL_NAMES, SEARCH_TOOL_NAMES } from "../file_tool_names.ts";
import { openSearchLink, type SearchLink } from "../../search/link.ts";
import type { AnyTool, ToolContext, ToolOutput } from "../tool.ts";
import type { SerializedToolError, WorkerRequest, WorkerResponse } from "./_worker_serve.ts";
import {
  canonicalize,
  isInside,
  landlockBlocker,
  type LandlockState,
  osPath,
} from "../../sandbox/mod.ts";

/** How long a cancelled call may take to stop before its worker is terminated and replaced. */
const ABORT_GRACE_MS = 2000;

interface Pending {
  resolve(response: WorkerResponse): void;
  reject(error: ToolError): void;
}

/** Distributes the worker request union over its members so `id` can be left out of each. */
type RequestBody = WorkerRequest extends infer R ? R extends unknown ? Omit<R, "id"> : never
  : never;

/** `[tools.file.sandbox] mode`: whether the worker confines its thread with Landlock. */
export type ConfineMode = "auto" | "landlock" | "off";

/**
 * A worker's Deno permissions: read and write on the given roots only, nothing else; FFI too
 * when it confines itself, for that setup only (it revokes FFI before its first call).
 */
function fence(roots: readonly string[], ffi: boolean) {
  return {
    read: [...roots],
    write: [...roots],
    net: false,
    run: false,
    env: false,
    ffi,
    sys: false,
    import: false,
  };
}

/** The modules a file worker runs: all ten file tools, or all but grep and find_path. */
const FILE_WORKER_MODULE = new URL("./file_worker.ts", import.meta.url);
const FILE_WORKER_LITE_MODULE = new URL("./file_worker_lite.ts", import.meta.url);

/** How a file worker is started. */
export interface FileWorkerOptions {
  /** `[tools.file.sandbox] mode`. @default "auto" */
  confine?: ConfineMode;
  /** Load the search tools (file_worker.ts), else the lite entry. @default true */
  search?: boolean;
  /**
   * The module the worker runs, under the same fence, instead of either entry. Tests pass one that wraps file_worker.ts
   * with raw file operations, to prove the fence holds without the JS path check.
   * @default file_worker.ts, or file_worker_lite.ts without `search`
   */
  module?: URL;
  /**
   * The directory a one-shot grep (`prestartFileWorker`) will search: if it is large, the
   * search pool's threads start with the worker instead of at the split, so they load while
   * the process starts. @default none
   */
  searchHint?: string;
}

/** One Deno Worker with a fixed permission set; requests are paired with responses by id. */
export class FileWorker {
  readonly roots: readonly string[];
  #worker: Worker;
  /** What the search module needs to search in parallel behind this worker's fence. */
  #search: SearchLink | null;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  /** Cancelled calls still running in the worker, with the timer that stops it if they hang. */
  #abandoned = new Map<number, ReturnType<typeof setTimeout>>();

  /** Called with the answer of a call that was cancelled but still finished (diagnostics). */
  onLateResponse?: (response: WorkerResponse) => void;

  /** The roots' device and inode when the worker started ("" for a root that did not exist). */
  #rootIds: string[];
  #confined: Promise<boolean>;
  /** Whether the worker's thread is confined with Landlock, or why not; settles before any call. */
  readonly confinement: Promise<LandlockState>;

  /** How it confines its thread (`[tools.file.sandbox] mode`). */
  readonly confine: ConfineMode;
  /** The module it runs. */
  readonly module: URL;

  /** It runs grep and find_path (file_worker.ts); else only the other eight (the lite entry). */
  readonly search: boolean;

  constructor(roots: readonly string[], options: FileWorkerOptions = {}) {
    this.roots = [...roots];
    this.search = options.search ?? true;
    this.#rootIds = this.roots.map(identitySync);
    const mode = this.confine = options.confine ?? "auto";
    this.module = options.module ?? (this.search ? FILE_WORKER_MODULE : FILE_WORKER_LITE_MODULE);
    const unavailable = mode === "off" ? null : landlockBlocker();
    this.#worker = new Worker(this.module.href, {
      type: "module",
      // A worker started from this thread loads its modules without read permission, so the
      // roots are all it needs.
      deno: { permissions: fence(roots, mode !== "off" && unavailable === null) },
    } as WorkerOptions);
    this.#worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.#onResponse(event.data);
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(`the file worker crashed: ${event.message}`);
    };
    this.#search = this.search ? openSearchLink(roots, { eagerFor: options.searchHint }) : null;
    if (this.#search) {
      const port = this.#search.port;
      this.#worker.postMessage({ type: "search", id: 0, port } satisfies WorkerRequest, [port]);
    }
    // Sent before any call: the worker handles it synchronously, so every call it then runs
    // runs confined (or refused, in "landlock" mode without it).
    this.confinement = mode === "off"
      ? Promise.resolve({ active: false, reason: '[tools.file.sandbox] mode = "off"' })
      : this.request({
        type: "confine",
        mode,
        roots: [...roots],
        ...(unavailable === null ? {} : { unavailable }),
      }).then(
        (response) =>
          response.ok
            ? response.value as LandlockState
            : { active: false, reason: response.error.message },
        (error: Error) => ({ active: false, reason: error.message }),
      );
    this.#confined = this.confinement.then((state) => state.active);
  }

  /** Whether a root is no longer the directory the worker confined itself to. */
  async rootsReplaced(): Promise<boolean> {
    if (!(await this.#confined)) return false;
    const now = await Promise.all(this.roots.map(identity));
    return now.some((id, i) => id !== this.#rootIds[i]);
  }

  /** Search pool threads running for this worker (started at its first large search, or eagerly). */
  get searchThreads(): number {
    return this.#search?.threads ?? 0;
  }

  /** Whether this worker runs `tool` (the lite one runs no search tool). */
  runs(tool: string): boolean {
    return FILE_TOOL_NAMES.has(tool) && (this.search || !SEARCH_TOOL_NAMES.has(tool));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one request; `signal` abandons it (the worker is told, and replaced if it hangs). */
  request(body: RequestBody, signal?: AbortSignal): Promise<WorkerResponse> {
    if (this.#closed) {
      return Promise.reject(new ToolError("server_error", "The file worker is closed"));
    }
    if (signal?.aborted) {
      return Promise.reject(
        new ToolError("cancelled", "Cannot start the file operation: cancelled"),
      );
    }
    const id = this.#nextId++;
    // A call's cancel flag lives in shared memory: the worker's synchronous walks read it
    // between files, which a message could not reach until they finish.
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    return new Promise<WorkerResponse>((resolve, reject) => {
      const onAbort = () => {
        this.#pending.delete(id);
        Atomics.store(cancel, 0, 1);
        this.#worker.postMessage({ type: "abort", id } satisfies WorkerRequest);
        reject(new ToolError("cancelled", "Cannot finish the file operation: cancelled"));
        // A call stuck in one long operation cannot look at the flag: if it has not stopped
        // after the grace period, the thread is terminated (the next call starts a fresh one).
        this.#abandoned.set(
          id,
          setTimeout(() => {
            this.#abandoned.delete(id);
            this.terminate();
          }, ABORT_GRACE_MS),
        );
      };
      this.#pending.set(id, {
        resolve: (response) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(response);
        },
        reject: (error) => {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      const message = body.type === "call" ? { ...body, id, cancel } : { ...body, id };
      this.#worker.postMessage(message as WorkerRequest);
    });
  }

  #onResponse(response: WorkerResponse): void {
    const timer = this.#abandoned.get(response.id);
    if (timer !== undefined) {
      // A cancelled call stopped in time: keep the worker.
      clearTimeout(timer);
      this.#abandoned.delete(response.id);
      this.onLateResponse?.(response);
      return;
    }
    const pending = this.#pending.get(response.id);
    if (!pending) return;
    this.#pending.delete(response.id);
    pending.resolve(response);
  }

  #fail(message: string): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.terminate();
    for (const p of pending) p.reject(new ToolError("server_error", message));
  }

  terminate(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker.terminate();
    this.#search?.close();
    for (const timer of this.#abandoned.values()) clearTimeout(timer);
    this.#abandoned.clear();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      p.reject(new ToolError("server_error", "The file worker was stopped during the call"));
    }
  }
}

function idOf(info: Deno.FileInfo): string {
  return `${info.dev}:${info.ino}`;
}

function identitySync(root: string): string {
  try {
    return idOf(Deno.statSync(root));
  } catch {
    return "";
  }
}

async function identity(root: string): Promise<string> {
  return await Deno.stat(root).then(idOf, () => "");
}

/** Rebuilds the ToolError the worker serialised. */
export function deserializeToolError(error: SerializedToolError): ToolError {
  const rebuilt = new ToolError(error.category, error.message, { hint: error.hint });
  if (error.errorName) (rebuilt as ToolError & { errorName?: string }).errorName = error.errorName;
  return rebuilt;
}

function rootsKey(roots: readonly string[]): string {
  return JSON.stringify([...roots].sort());
}

/** Workers started ahead of the executor that will take them over (`prestartFileWorker`). */
const prestarted = new Map<string, FileWorker>();
/** The workers executors started or took over, by roots (the latest per set of roots). */
const executorWorkers = new Map<string, FileWorker>();

/** A prestarted worker: `release()` stops it unless an executor took it over. */
export interface PrestartedWorker {
  readonly worker: FileWorker;
  release(): void;
}

/**
 * Starts the file worker a one-shot call of `tool` in `workspace` will use, before the config,
 * the store and the tools load: the worker's thread loads its modules meanwhile. It is fenced
 * to the workspace, as the sandbox of a config without `[tools.file] allowed_paths` is, and
 * confines itself as `[tools.file.sandbox] mode = "auto"` (the default) says; an executor whose
 * sandbox has other roots, or another mode, starts its own, and `release()` stops this one.
 * A tool other than grep and find_path gets the lite worker, which loads no search engine.
 * Returns null for a tool the file worker does not run.
 */
export async function prestartFileWorker(
  workspace: string,
  tool: string,
  options: Pick<FileWorkerOptions, "module"> & {
    /** The call's parameters as given (unchecked): grep's `path` says what it will search. */
    params?: unknown;
  } = {},
): Promise<PrestartedWorker | null> {
  if (!FILE_TOOL_NAMES.has(tool)) return null;
  const roots = [await canonicalize(workspace)];
  const searchHint = tool === "grep" ? await grepHint(roots[0], options.params) : undefined;
  const key = rootsKey(roots);
  // An executor that got here first (its runtime was built while this awaited) has started
  // the worker the call will use: a second one would only compete with it for the CPUs.
  const taken = executorWorkers.get(key);
  if (
    taken && !taken.closed && taken.runs(tool) &&
    (!options.module || taken.module.href === options.module.href)
  ) {
    return { worker: taken, release() {} };
  }
  const running = prestarted.get(key);
  const worker = running?.runs(tool) ? running : new FileWorker(roots, {
    search: SEARCH_TOOL_NAMES.has(tool),
    searchHint,
    module: options.module,
  });
  if (running !== worker) running?.terminate();
  prestarted.set(key, worker);
  return {
    worker,
    release() {
      if (prestarted.get(key) !== worker) return;
      prestarted.delete(key);
      worker.terminate();
    },
  };
}

/**
 * The directory a one-shot grep will search, canonical and inside the workspace; undefined for
 * anything else (a file, a path outside, one that does not resolve), which starts no thread early.
 */
async function grepHint(workspace: string, params: unknown): Promise<string | undefined> {
  const given = (params as { path?: unknown } | null)?.path;
  const wanted = typeof given === "string" ? given : ".";
  try {
    const dir = await canonicalize(osPath.resolve(workspace, wanted));
    return isInside(dir, workspace) && (await Deno.stat(dir)).isDirectory ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Runs exactly the ten file tools in permission-restricted workers. */
export class WorkerFileExecutor implements ToolExecutor {
  readonly name = "file_worker";
  #workers = new Map<string, FileWorker>();
  readonly #options: FileWorkerOptions;

  /** How its workers start (`confine`: `[tools.file.sandbox] mode`). */
  constructor(options: FileWorkerOptions = {}) {
    this.#options = { confine: options.confine ?? "auto", module: options.module };
  }
  handles(tool: AnyTool): boolean {
    return FILE_TOOL_NAMES.has(tool.name);
  }

  /** Whether `worker` runs the module this executor's workers run (either production entry). */
  #runs(worker: FileWorker): boolean {
    const custom = this.#options.module;
    if (custom) return worker.module.href === custom.href;
    return worker.module.href === FILE_WORKER_MODULE.href ||
      worker.module.href === FILE_WORKER_LITE_MODULE.href;
  }

  /**
   * The worker for a set of roots: a prestarted one for exactly these roots, else started
   * lazily; replaced if it was stopped.
   */
  workerFor(roots: readonly string[]): FileWorker {
    const key = rootsKey(roots);
    let worker = this.#workers.get(key);
    if (!worker || worker.closed) {
      // A worker prestarted for these roots is taken over if it starts the same way.
      const early = prestarted.get(key);
      prestarted.delete(key);
      if (early && !early.closed && early.confine === this.#options.confine && this.#runs(early)) {
        worker = early;
      } else {
        early?.terminate();
        worker = new FileWorker(roots, this.#options);
      }
      this.#workers.set(key, worker);
      executorWorkers.set(key, worker);
    }
    return worker;
  }

  async execute(tool: AnyTool, params: unknown, ctx: ToolContext): Promise<ToolOutput> {
    if (!this.handles(tool)) {
      throw new Error(`The file worker executor does not run tool "${tool.name}"`);
    }
    if (ctx.signal.aborted) throw new ToolError("cancelled", `Cannot run ${tool.name}: cancelled`);
    const sandbox = ctx.sandbox.snapshot();
    // Deno checks the path as written: give the worker the canonical cwd so relative paths
    // resolve under the roots it may read.
    const cwd = await canonicalize(ctx.cwd);
    let worker = this.workerFor(sandbox.roots);
    if (!worker.runs(tool.name)) {
      // A prestarted lite worker, taken over, meets a search tool: a full worker replaces it.
      worker.terminate();
      worker = this.workerFor(sandbox.roots);
    }
    if (await worker.rootsReplaced()) {
      // Landlock holds the directories it was given, not their names: a root removed and made
      // again (or renamed) is a new directory, which only a fresh worker can write in.
      worker.terminate();
      worker = this.workerFor(sandbox.roots);
    }
    const response = await worker.request({
      type: "call",
      tool: tool.name,
      params,
      ctx: {
        cwd,
        sandbox,
        file: ctx.config.tools.file,
        callId: ctx.callId,
        conversationId: ctx.conversationId,
        callerId: ctx.callerId,
      },
    }, ctx.signal);
    if (!response.ok) throw deserializeToolError(response.error);
    return response.output;
  }

  close(): void {
    for (const [key, worker] of this.#workers) {
      worker.terminate();
      if (executorWorkers.get(key) === worker) executorWorkers.delete(key);
    }
    this.#workers.clear();
  }
}
