/**
 * The chunk loop of a file too large to read whole: chunks cut at line ends are matched one by
 * one, and only the lines the output can show (matches and their context) are kept, so memory
 * stays at one chunk plus those lines. A generator, so the single-file search (_big_file.ts,
 * async) and a directory walk's large files (`scanFileSync`) share it: it yields the part of its
 * buffer to fill and is resumed with the number of bytes read (null at the end of the file).
 */
import { closeSync, openSync, readSync } from "node:fs";

/** Files larger than this are searched chunk by chunk (and chunks are about this large). */
export const CHUNK_BYTES = 8 << 20;

/** The matching lines of a text (`lines` is sparse for a chunked file: only what is shown). */
export interface ChunkMatch {
  lines: string[];
  /** 0-based indexes of the matching lines, ascending. */
  matched: number[];
}

export interface ChunkScan {
  /** Matches a whole chunk (bytes ending at a line end): null when nothing matches. */
  match(bytes: Uint8Array): ChunkMatch | null;
  /** Matching lines wanted: the scan stops once it has more. */
  max: number;
  /** Context lines kept around each match, across chunk ends too. */
  context: number;
  /** A NUL byte in the first this many bytes makes the file binary (null). */
  sniffBytes: number;
  /** @default CHUNK_BYTES */
  chunkBytes?: number;
}

/** What the scan asks for: bytes into `into`; `done` bytes of the file were matched so far. */
export interface ChunkRequest {
  into: Uint8Array;
  done: number;
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

/** The scan of one file; returns its matches (null: none, or binary). */
export function* scanChunks(
  s: ChunkScan,
): Generator<ChunkRequest, ChunkMatch | null, number | null> {
  const { max, context } = s;
  let buf = new Uint8Array(s.chunkBytes ?? CHUNK_BYTES);
  let carry = 0;
  let done = 0;
  let base = 0;
  let first = true;
  const lines: string[] = [];
  const matched: number[] = [];
  for (;;) {
    const got = yield { into: buf.subarray(carry), done };
    const eof = got === null;
    const filled = carry + (got ?? 0);
    if (filled === 0) break;
    if (first && buf.subarray(0, Math.min(filled, s.sniffBytes)).indexOf(0) !== -1) return null;
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
    const m = s.match(chunk);
    if (m) {
      for (const j of m.matched) {
        if (matched.length > max) break;
        matched.push(base + j);
        const to = Math.min(count - 1, j + context);
        for (let k = Math.max(0, j - context); k <= to; k++) lines[base + k] = m.lines[k];
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
    if (matched.length > max || eof) break;
    // The cut-off start of the next line moves to the front of the buffer.
    buf.copyWithin(0, end, filled);
    carry = filled - end;
  }
  return matched.length ? { lines, matched } : null;
}

/**
 * A large file met in a directory walk, scanned chunk by chunk with synchronous reads (the walk
 * is synchronous). `stopped` is asked between chunks: a cancel or the match cap ends the scan.
 * Null when it has no match, is binary, cannot be read or the scan was stopped.
 */
export function scanFileSync(
  file: string,
  scan: ChunkScan,
  stopped: () => boolean = () => false,
): ChunkMatch | null {
  let fd = -1;
  try {
    fd = openSync(file, "r");
    let position = 0;
    const steps = scanChunks(scan);
    for (let step = steps.next();;) {
      if (step.done) return step.value;
      if (stopped()) return null;
      const into = step.value.into;
      const got = readSync(fd, into, 0, into.length, position);
      position += got;
      step = steps.next(got === 0 && into.length > 0 ? null : got);
    }
  } catch {
    return null; // unreadable files are skipped, as in the rest of the walk
  } finally {
    if (fd !== -1) closeSync(fd);
  }
}
