/**
 * Runs the ten file tools in a Worker whose Deno permissions are read/write on the sandbox roots
 * and nothing else: the second fence behind the JS path check. One worker per set of roots,
 * started on the first call and reused; `close()` terminates them.
 */
import { ToolError } from "../../errors/mod.ts";
import type { ToolExecutor } from "./executor.ts";
import { FILE_TOOL_NAMES } from "../file_tool_names.ts";
import { openSearchLink, type SearchLink } from "../../search/link.ts";
import type { AnyTool, ToolContext, ToolOutput } from "../tool.ts";
import type { SerializedToolError, WorkerRequest, WorkerResponse } from "./file_worker.ts";
import { canonicalize } from "../../sandbox/mod.ts";

/** How long a cancelled call may take to stop before its worker is terminated and replaced. */
const ABORT_GRACE_MS = 2000;

interface Pending {
  resolve(response: WorkerResponse): void;
  reject(error: ToolError): void;
}

/** Distributes the worker request union over its members so `id` can be left out of each. */
type RequestBody = WorkerRequest extends infer R ? R extends unknown ? Omit<R, "id"> : never
  : never;

/** A worker's Deno permissions: read and write on the given roots only, nothing else. */
function fence(roots: readonly string[]) {
  return {
    read: [...roots],
    write: [...roots],
    net: false,
    run: false,
    env: false,
    ffi: false,
    sys: false,
    import: false,
  };
}

/** One Deno Worker with a fixed permission set; requests are paired with responses by id. */
export class FileWorker {
  readonly roots: readonly string[];
  #worker: Worker;
  /** What the search module needs to search in parallel behind this worker's fence. */
  #search: SearchLink;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  /** Cancelled calls still running in the worker, with the timer that stops it if they hang. */
  #abandoned = new Map<number, ReturnType<typeof setTimeout>>();

  /** Called with the answer of a call that was cancelled but still finished (diagnostics). */
  onLateResponse?: (response: WorkerResponse) => void;

  constructor(roots: readonly string[]) {
    this.roots = [...roots];
    this.#worker = new Worker(new URL("./file_worker.ts", import.meta.url).href, {
      type: "module",
      // A worker started from this thread loads its modules without read permission, so the
      // roots are all it needs.
      deno: { permissions: fence(roots) },
    } as WorkerOptions);
    this.#worker.onmessage = (event: MessageEvent<WorkerResponse>) => this.#onResponse(event.data);
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(`the file worker crashed: ${event.message}`);
    };
    this.#search = openSearchLink(roots);
    const port = this.#search.port;
    this.#worker.postMessage({ type: "search", id: 0, port } satisfies WorkerRequest, [port]);
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
    this.#search.close();
    for (const timer of this.#abandoned.values()) clearTimeout(timer);
    this.#abandoned.clear();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) {
      p.reject(new ToolError("server_error", "The file worker was stopped during the call"));
    }
  }
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

/** A prestarted worker: `release()` stops it unless an executor took it over. */
export interface PrestartedWorker {
  readonly worker: FileWorker;
  release(): void;
}

/**
 * Starts the file worker a one-shot call of `tool` in `workspace` will use, before the config,
 * the store and the tools load: the worker's thread loads its modules meanwhile. It is fenced
 * to the workspace, as the sandbox of a config without `[tools.file] allowed_paths` is; an
 * executor whose sandbox has other roots starts its own, and `release()` stops this one.
 * Returns null for a tool the file worker does not run.
 */
export async function prestartFileWorker(
  workspace: string,
  tool: string,
): Promise<PrestartedWorker | null> {
  if (!FILE_TOOL_NAMES.has(tool)) return null;
  const roots = [await canonicalize(workspace)];
  const key = rootsKey(roots);
  const worker = prestarted.get(key) ?? new FileWorker(roots);
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

/** Runs exactly the ten file tools in permission-restricted workers. */
export class WorkerFileExecutor implements ToolExecutor {
  readonly name = "file_worker";
  #workers = new Map<string, FileWorker>();
  handles(tool: AnyTool): boolean {
    return FILE_TOOL_NAMES.has(tool.name);
  }

  /**
   * The worker for a set of roots: a prestarted one for exactly these roots, else started
   * lazily; replaced if it was stopped.
   */
  workerFor(roots: readonly string[]): FileWorker {
    const key = rootsKey(roots);
    let worker = this.#workers.get(key);
    if (!worker || worker.closed) {
      const early = prestarted.get(key);
      prestarted.delete(key);
      worker = early && !early.closed ? early : new FileWorker(roots);
      this.#workers.set(key, worker);
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
    const worker = this.workerFor(sandbox.roots);
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
    for (const worker of this.#workers.values()) worker.terminate();
    this.#workers.clear();
  }
}
