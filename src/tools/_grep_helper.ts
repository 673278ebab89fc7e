/**
 * grep's second thread: reads and matches batches of files the main walk hands it (paths already
 * checked against the sandbox and deny_read there). Started with `permissions: "inherit"`, so in
 * the permission-fenced file worker it holds exactly that worker's read/write-on-roots fence.
 */
/// <reference lib="deno.worker" />
import { type FileMatch, fileMatcher, type GrepSpec, readSmallFile } from "./_grep_core.ts";

/** Slots of the shared Int32Array. */
export const FOUND = 0;
export const DONE = 1;
export const CANCEL = 2;

export interface GrepItem {
  seq: number;
  /** The path read (a symlink's canonical target). */
  file: string;
  /** The path as walked (shown to the model). */
  walked: string;
}

export type HelperRequest =
  | { type: "start"; spec: GrepSpec; shared: Int32Array }
  | { type: "batch"; items: GrepItem[] }
  | { type: "finish" };

export type HelperHit = GrepItem & FileMatch;

let spec: GrepSpec | null = null;
let shared: Int32Array | null = null;
let match: ((bytes: Uint8Array) => FileMatch | null) | null = null;
let hits: HelperHit[] = [];

self.onmessage = (event: MessageEvent<HelperRequest>) => {
  const request = event.data;
  if (request.type === "start") {
    spec = request.spec;
    shared = request.shared;
    match = fileMatcher(spec);
    hits = [];
    return;
  }
  if (request.type === "finish") {
    self.postMessage(hits);
    hits = [];
    return;
  }
  for (const item of request.items) {
    // No stop at the match cap here: the main thread stops walking once the cap is passed, so
    // every batch it handed over precedes the cut and must be searched for walk order to hold.
    if (Atomics.load(shared!, CANCEL) === 1) break;
    const bytes = readSmallFile(item.file);
    const m = bytes && match!(bytes);
    if (m) {
      hits.push({ ...item, ...m });
      Atomics.add(shared!, FOUND, m.matched.length);
    }
  }
  Atomics.add(shared!, DONE, 1);
};
