/**
 * Raw file operations for the test file workers (raw_file_worker.ts, raw_file_worker_lite.ts):
 * "unchecked" requests, with no JS path check at all, answered on the worker's own fenced
 * thread, so the fence tests can prove that the Deno permissions and Landlock hold on their own.
 */
/// <reference lib="deno.worker" />
import type { WorkerResponse } from "../../src/tools/executors/file_worker.ts";
import type { RawRequest } from "./raw_worker.ts";

async function runUnchecked(request: RawRequest): Promise<unknown> {
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

/**
 * Wraps the file worker this thread runs (its entry, imported before this call, has set
 * `self.onmessage`) with "unchecked" requests; every other request goes to it unchanged.
 */
export function addRawOperations(): void {
  // The production handler uses no `this`.
  const production = self.onmessage as (event: MessageEvent) => unknown;
  self.onmessage = async (event: MessageEvent) => {
    const request = event.data as RawRequest | { type: string };
    if (request.type !== "unchecked") return production(event);
    let response: WorkerResponse;
    const raw = request as RawRequest;
    try {
      response = { id: raw.id, ok: true, output: { text: "" }, value: await runUnchecked(raw) };
    } catch (error) {
      const e = error as Error;
      response = {
        id: raw.id,
        ok: false,
        error: { category: "server_error", message: e.message, errorName: e.name },
      };
    }
    self.postMessage(response);
  };
}
