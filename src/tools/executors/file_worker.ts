/**
 * The file worker's entry: all ten file tools, in a Worker whose Deno permissions are the
 * sandbox roots only (_worker_serve.ts). grep and find_path bring the search engine, whose pool
 * threads the unfenced side starts over the search link. A thread this fenced cannot import a
 * module later (that needs read permission on zeph's own files), so a worker runs what its entry
 * loads: file_worker_lite.ts is the same worker without the search tools.
 */
/// <reference lib="deno.worker" />
import { useSearchLink } from "../../search/mod.ts";
import { executeFindPath } from "../find_path_exec.ts";
import { executeGrep } from "../grep_exec.ts";
import { PATH_EXECUTORS } from "./_file_executors.ts";
import { serveFileTools } from "./_worker_serve.ts";

export type {
  SerializedToolError,
  WorkerCallContext,
  WorkerRequest,
  WorkerResponse,
} from "./_worker_serve.ts";

serveFileTools(
  { ...PATH_EXECUTORS, grep: executeGrep, find_path: executeFindPath },
  useSearchLink,
);
