/**
 * grep over one file. A file up to `CHUNK_BYTES` is read and matched whole; a larger one is read
 * in chunks cut at line ends, so a cancel takes effect between chunks instead of after the whole
 * file, and a search that runs longer than `PROGRESS_AFTER_MS` reports how far it got. Only the
 * lines the output can show (matches, their context) are kept from a large file.
 */
import { ToolError } from "../errors/mod.ts";
import { BINARY_SNIFF_BYTES, type FileMatch, fileMatcher, type GrepSpec } from "./_entry.ts";
import { CHUNK_BYTES, scanChunks } from "./_chunks.ts";

export { CHUNK_BYTES };

/** A search of one file that runs longer than this reports its progress, then as often. */
export const PROGRESS_AFTER_MS = 1000;

export interface FileSearch {
  path: string;
  spec: GrepSpec;
  /** Context lines shown around each match: kept across chunk ends. */
  context: number;
  signal: AbortSignal;
  /** Told how far a long search got ("120 MB of 200 MB"). */
  onProgress?: (done: number, total: number) => void;
  /** @default CHUNK_BYTES (tests use small chunks) */
  chunkBytes?: number;
  /** @default Date.now */
  now?: () => number;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ToolError("cancelled", "Cannot search: cancelled");
}

/** The matching lines of one file, or null; throws `cancelled` when the signal fired. */
export async function searchFile(s: FileSearch): Promise<FileMatch | null> {
  const chunkBytes = s.chunkBytes ?? CHUNK_BYTES;
  const now = s.now ?? Date.now;
  const file = await Deno.open(s.path);
  try {
    const size = (await file.stat()).size;
    const match = fileMatcher(s.spec);
    if (size <= chunkBytes) {
      const bytes = new Uint8Array(size);
      let n = 0;
      while (n < size) {
        const got = await file.read(bytes.subarray(n));
        if (got === null) break;
        n += got;
      }
      throwIfAborted(s.signal);
      return match(bytes.subarray(0, n));
    }
    const started = now();
    let reported = started;
    const steps = scanChunks({
      match,
      max: s.spec.max,
      context: s.context,
      sniffBytes: BINARY_SNIFF_BYTES,
      chunkBytes,
    });
    for (let step = steps.next(); !step.done;) {
      const { into, done } = step.value;
      const t = now();
      if (s.onProgress && t - started >= PROGRESS_AFTER_MS && t - reported >= PROGRESS_AFTER_MS) {
        reported = t;
        s.onProgress(done, size);
      }
      // A file read can complete without the event loop turning: a timer or signal handler that
      // aborts the search runs only when the loop gets a turn, so give it one per chunk.
      await new Promise((resolve) => setTimeout(resolve, 0));
      throwIfAborted(s.signal);
      const got = await file.read(into);
      throwIfAborted(s.signal);
      step = steps.next(got);
      if (step.done) return step.value;
    }
    return null;
  } finally {
    file.close();
  }
}
