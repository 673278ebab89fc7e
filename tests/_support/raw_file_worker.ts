/**
 * A test-only file worker: the production one (file_worker.ts, loaded as is, under the same
 * fence) plus "unchecked" requests, raw file operations with no JS path check at all. The fence
 * tests send them to prove that the Deno permissions and Landlock hold on their own; the
 * production worker refuses them.
 */
/// <reference lib="deno.worker" />
import "../../src/tools/executors/file_worker.ts";
import type { WorkerResponse } from "../../src/tools/executors/file_worker.ts";
import type { RawRequest } from "./raw_worker.ts";

// The production handler is an arrow function: it needs no `this`.
const production = self.onmessage as (event: MessageEvent) => unknown;

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
