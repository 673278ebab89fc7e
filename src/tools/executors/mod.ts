/**
 * Executors run a validated, permitted call: in this thread (local), in the permission-fenced
 * file worker (the ten file tools), or through the first of several that handles the tool
 * (composite). They decide where a tool runs, never whether it may: the registry has done that.
 * Editor-backed executors live with the ACP front-end and implement the same interface.
 */
export { CompositeExecutor, LocalExecutor, type ToolExecutor } from "./executor.ts";
export {
  type ConfineMode,
  FileWorker,
  type PrestartedWorker,
  prestartFileWorker,
  WorkerFileExecutor,
} from "./worker_executor.ts";
