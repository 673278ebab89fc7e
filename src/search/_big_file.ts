/**
 * grep over one file. A file up to `CHUNK_BYTES` is read and matched whole; a larger one is read
 * in chunks cut at line ends, so a cancel takes effect between chunks instead of after the whole
 * file, and a search that runs longer than `PROGRESS_AFTER_MS` reports how far it got. Only the
 * lines the output can show (matches, their context) are kept from a large file.
 */
import { ToolError } from "../errors/mod.ts";
import { BINARY_SNIFF_BYTES, type FileMatch, fileMatcher, type GrepSpec } from "./_entry.ts";

/** Files larger than this are searched chunk by chunk (and chunks are about this large). */
export const CHUNK_BYTES = 8 << 20;
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

const NL = 10;
const decoder = new TextDecoder();

/** Lines in `bytes` (a last line without its newline counts). */
function lineCount(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, i + 1)) n++;
  return bytes.length && bytes[bytes.length - 1] !== NL ? n + 1 : n;
}

/** The first and last `k` lines of `bytes` (context across chunk ends). */
function edgeLines(bytes: Uint8Array, k: number): { head: string[]; tail: string[] } {
  const body = bytes[bytes.length - 1] === NL ? bytes.subarray(0, bytes.length - 1) : bytes;
  let headEnd = -1;
  for (let i = 0; i < k && headEnd < body.length; i++) {
    const next = body.indexOf(NL, headEnd + 1);
    headEnd = next === -1 ? body.length : next;
  }
  let tailStart = body.length;
  for (let i = 0; i < k && tailStart > -1; i++) {
    // lastIndexOf counts a negative start from the end: the first line has no newline before it.
    tailStart = tailStart === 0 ? -1 : body.lastIndexOf(NL, tailStart - 1);
  }
  const text = (from: number, to: number) =>
    decoder.decode(body.subarray(from, Math.max(from, to)));
  return {
    head: k ? text(0, headEnd).split("\n") : [],
    tail: k ? text(tailStart + 1, body.length).split("\n") : [],
  };
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
    const max = s.spec.max;
    const context = s.context;
    const started = now();
    let reported = started;
    let buf = new Uint8Array(chunkBytes);
    let carry = 0;
    let done = 0;
    let base = 0;
    let first = true;
    const lines: string[] = [];
    const matched: number[] = [];
    for (;;) {
      // A file read can complete without the event loop turning: a timer or signal handler that
      // aborts the search runs only when the loop gets a turn, so give it one per chunk.
      await new Promise((resolve) => setTimeout(resolve, 0));
      throwIfAborted(s.signal);
      const got = await file.read(buf.subarray(carry));
      throwIfAborted(s.signal);
      const eof = got === null;
      const filled = carry + (got ?? 0);
      if (filled === 0) break;
      if (first && buf.subarray(0, Math.min(filled, BINARY_SNIFF_BYTES)).indexOf(0) !== -1) {
        return null;
      }
      first = false;
      const end = eof ? filled : buf.lastIndexOf(NL, filled - 1) + 1;
      if (end === 0 && filled < buf.length) {
        carry = filled;
        continue;
      }
      if (end === 0) {
        // One line longer than the buffer: a larger buffer holds it.
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf.subarray(0, filled));
        buf = bigger;
        carry = filled;
        continue;
      }
      const chunk = buf.subarray(0, end);
      const count = lineCount(chunk);
      const m = match(chunk);
      if (m) {
        for (const j of m.matched) {
          if (matched.length > max) break;
          matched.push(base + j);
          const to = Math.min(count - 1, j + context);
          for (let k = Math.max(0, j - context); k <= to; k++) {
            lines[base + k] = m.lines[k];
          }
        }
      }
      if (context) {
        const { head, tail } = edgeLines(chunk, Math.min(context, count));
        head.forEach((l, k) => lines[base + k] ??= l);
        tail.forEach((l, k) => lines[base + count - tail.length + k] ??= l);
      }
      base += count;
      done += end;
      lines.length = base;
      if (matched.length > max) break;
      const t = now();
      if (s.onProgress && t - started >= PROGRESS_AFTER_MS && t - reported >= PROGRESS_AFTER_MS) {
        reported = t;
        s.onProgress(done, size);
      }
      if (eof) break;
      // The cut-off start of the next line moves to the front of the buffer.
      buf.copyWithin(0, end, filled);
      carry = filled - end;
    }
    return matched.length ? { lines, matched } : null;
  } finally {
    file.close();
  }
}
