/**
 * A test-only file worker: the production one (file_worker.ts, loaded as is, under the same
 * fence) plus "unchecked" requests (_raw_operations.ts). The production worker refuses them.
 */
/// <reference lib="deno.worker" />
import "../../src/tools/executors/file_worker.ts";
import { addRawOperations } from "./_raw_operations.ts";

addRawOperations();
