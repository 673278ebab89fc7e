/**
 * The output as UTF-8, a chunk of whole lines at a time: what the security pass scans and what
 * the engine hands the first stage with each line (`LineSink`), encoded once. A chunk holds
 * about `CHUNK` characters, so memory stays bounded whatever the output's size; the buffer
 * belongs to one walk and is reused from chunk to chunk.
 */

/** Characters encoded per step (lines never span two steps). */
export const CHUNK = 1 << 20;
/** A step longer than this (a huge line) is not encoded, so the buffer stays small. */
export const MAX_ENCODED = 4 * CHUNK;

/**
 * Receives one chunk: its text (whole lines, each with its newline except perhaps the last),
 * the offset of that text in the whole, and its UTF-8 in `bytes[0..length)` followed by a
 * newline at `bytes[length]` — or `bytes` null when the chunk is not encoded: it is one line
 * of over `MAX_ENCODED` characters, or the text (any part of it) has a lone surrogate, which
 * UTF-8 cannot carry, or the caller asked for no encoding. `bytes` is overwritten by the next
 * chunk: keep nothing of it.
 */
export type ChunkSink = (
  text: string,
  offset: number,
  bytes: Uint8Array | null,
  length: number,
) => void;

const utf8 = new TextEncoder();

/**
 * Where the text `new TextDecoder().decode(bytes)` gives starts in `bytes`: after a leading BOM
 * (EF BB BF), which the decoder drops.
 */
export function textStart(bytes: Uint8Array): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** Calls `fn` with `text` cut into chunks of whole lines, in order, encoded when `encode`. */
export function forEachChunk(text: string, encode: boolean, fn: ChunkSink): void {
  const n = text.length;
  encode &&= isWellFormed(text);
  let buffer = new Uint8Array(0);
  let start = 0;
  while (start < n) {
    let end = start + CHUNK >= n ? n : text.indexOf("\n", start + CHUNK);
    end = end < 0 ? n : end + 1;
    if (end - start > MAX_ENCODED) {
      // A huge line crosses the step: the lines before it form a chunk of their own (encoded),
      // the huge line the next one.
      const before = text.lastIndexOf("\n", start + CHUNK - 1);
      if (before >= start) end = before + 1;
    }
    const chunk = start === 0 && end === n ? text : text.slice(start, end);
    const offset = start;
    start = end;
    if (!encode || chunk.length > MAX_ENCODED) {
      fn(chunk, offset, null, 0);
      continue;
    }
    if (buffer.length < chunk.length * 3 + 1) buffer = new Uint8Array(chunk.length * 3 + 1);
    const length = utf8.encodeInto(chunk, buffer).written;
    buffer[length] = 10;
    fn(chunk, offset, buffer, length);
  }
}

/**
 * No lone surrogate (`String.prototype.isWellFormed`; the fallback for older runtimes says
 * false for any surrogate, which only costs the encoding).
 */
export function isWellFormed(text: string): boolean {
  const check = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return check ? check.call(text) : !/[\uD800-\uDFFF]/.test(text);
}
