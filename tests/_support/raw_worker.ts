/**
 * Raw file operations in a fenced file worker, for the fence tests: a worker (or an executor's
 * workers) started with `RAW_FILE_WORKER` answers `unchecked(worker, …)`; the production worker
 * refuses it.
 */
import type { FileWorker } from "../../src/tools/executors/worker_executor.ts";
import type { WorkerResponse } from "../../src/tools/executors/file_worker.ts";

/** The test worker modules: file_worker.ts (or the lite entry) plus raw operations. */
export const RAW_FILE_WORKER = new URL("./raw_file_worker.ts", import.meta.url);
export const RAW_FILE_WORKER_LITE = new URL("./raw_file_worker_lite.ts", import.meta.url);

/** A raw operation with no JS path check; `data` is the content to write or a rename's target. */
export interface RawOperation {
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
  data?: string;
}

/** The request the raw worker handles. */
export interface RawRequest extends RawOperation {
  type: "unchecked";
  id: number;
}

/** Sends one raw operation to `worker`. */
export function unchecked(worker: FileWorker, operation: RawOperation): Promise<WorkerResponse> {
  // The production request type has no raw operations: this request exists only in tests.
  return worker.request(
    { type: "unchecked", ...operation } as unknown as Parameters<
      FileWorker["request"]
    >[0],
  );
}
