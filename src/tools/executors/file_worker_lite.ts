/**
 * The file worker without grep and find_path (file_worker.ts has all ten tools): it loads no
 * search engine, no npm package and no `node:` module, so a one-shot call of another file tool
 * starts its fenced thread at about the cost of an empty worker.
 */
/// <reference lib="deno.worker" />
import { PATH_EXECUTORS } from "./_file_executors.ts";
import { serveFileTools } from "./_worker_serve.ts";

serveFileTools(PATH_EXECUTORS);
