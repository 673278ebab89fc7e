/**
 * A test-only lite file worker: file_worker_lite.ts (loaded as is, under the same fence) plus
 * "unchecked" requests (_raw_operations.ts). The production worker refuses them.
 */
/// <reference lib="deno.worker" />
import "../../src/tools/executors/file_worker_lite.ts";
import { addRawOperations } from "./_raw_operations.ts";

addRawOperations();
