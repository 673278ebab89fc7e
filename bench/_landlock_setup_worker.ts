/// <reference lib="deno.worker" />
// Times the Landlock setup as the file worker does it (restrictThread, then FFI revoked) on a
// fresh thread; the thread can do it only once.
import { restrictThread } from "../src/sandbox/mod.ts";

self.onmessage = (event: MessageEvent<string[]>) => {
  const start = performance.now();
  const state = restrictThread(event.data);
  Deno.permissions.revokeSync({ name: "ffi" });
  self.postMessage({ ms: performance.now() - start, state });
};
