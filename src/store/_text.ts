/**
 * Encoding, measuring and paging shared by both store implementations, so they page
 * identically. Entries are kept as UTF-8 bytes; a "char" is a Unicode code point. Two sparse
 * indexes, built while encoding, turn char and line offsets into byte offsets, so a page reads
 * only its own bytes (`substr` on a BLOB counts bytes and needs no scan from the start, unlike
 * `substr` on TEXT, which walked 10 MB of UTF-8 for a page at the end: 16 ms against 3 ms).
 */

/** Lines per entry of the line index (byte offset of the start of every 1024th line). */
export const LINE_INDEX_STEP = 1024;
/** Chars per entry of the char index (byte offset of every 4096th code point). */
export const CHAR_INDEX_STEP = 4096;

export interface TextShape {
  chars: number;
  lines: number;
  /** Byte offset of the start of line `k * LINE_INDEX_STEP`, for each k. */
  lineIndex: number[];
  /** Byte offset of code point `k * CHAR_INDEX_STEP`; empty for ASCII (char offset = byte offset). */
  charIndex: number[];
}

export interface EncodedText {
  /** The UTF-8 to store (lone surrogates became U+FFFD). */
  bytes: Uint8Array;
  /** UTF-8 size of the whole input, before any cut. */
  byteSize: number;
  truncated: boolean;
  shape: TextShape;
}

/**
 * Encodes once and measures the bytes, never the string: one TextEncoder pass is the fastest way
 * V8 offers to learn the UTF-8 size (5 ms for 10 MB of ASCII, where a /[^\x00-\x7F]/ scan took
 * 8–29 ms), and counting on bytes needs no surrogate handling. With `maxBytes` (> 0) only the
 * kept prefix is materialised (`encodeInto` never splits a character); the rest is only
 * counted, in 1 Mi-unit pieces, so a 100 MB output does not cost another 100 MB of memory.
 */
export function encodeForStore(text: string, maxBytes = 0): EncodedText {
  const encoder = new TextEncoder();
  if (maxBytes <= 0 || text.length * 3 <= maxBytes) {
    const bytes = encoder.encode(text);
    const ascii = bytes.length === text.length;
    return {
      bytes,
      byteSize: bytes.length,
      truncated: false,
      shape: ascii ? measureAscii(text, bytes.length) : measureUtf8(bytes),
    };
  }
  const kept = new Uint8Array(maxBytes);
  const { read, written } = encoder.encodeInto(text, kept);
  const bytes = kept.subarray(0, written);
  const rest = read < text.length ? utf8Length(text, read) : 0;
  return {
    bytes,
    byteSize: written + rest,
    truncated: rest > 0,
    shape: written === read ? measureAscii(text, written) : measureUtf8(bytes),
  };
}

const PIECE = 1024 * 1024;

/** UTF-8 length of `text` from code unit `from`, encoded piecewise into one scratch buffer. */
function utf8Length(text: string, from: number): number {
  const encoder = new TextEncoder();
  const scratch = new Uint8Array(PIECE * 3 + 4);
  let total = 0;
  for (let i = from; i < text.length;) {
    let end = Math.min(text.length, i + PIECE);
    // Keep a surrogate pair in one piece, or it would count as two U+FFFD (6 bytes, not 4).
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    total += encoder.encodeInto(text.slice(i, end), scratch).written;
    i = end;
  }
  return total;
}

/**
 * A line ends with "\n" (which belongs to it); a final line without one still counts; empty
 * text has zero lines.
 */
function measureAscii(text: string, length: number): TextShape {
  // ASCII: string offsets are byte offsets, and String#indexOf is 3x faster than
  // Uint8Array#indexOf (8 against 27 ms for the 160,000 lines of 10 MB).
  const lineIndex: number[] = [];
  let lines = 0;
  let start = 0;
  while (start < length) {
    if (lines % LINE_INDEX_STEP === 0) lineIndex.push(start);
    lines++;
    const nl = text.indexOf("\n", start);
    start = nl === -1 || nl >= length ? length : nl + 1;
  }
  return { chars: length, lines, lineIndex, charIndex: [] };
}

function measureUtf8(bytes: Uint8Array): TextShape {
  const lineIndex: number[] = [];
  const charIndex: number[] = [];
  let lines = 0;
  let chars = 0;
  let atLineStart = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: not a new code point
    if (chars % CHAR_INDEX_STEP === 0) charIndex.push(i);
    if (atLineStart) {
      if (lines % LINE_INDEX_STEP === 0) lineIndex.push(i);
      lines++;
      atLineStart = false;
    }
    chars++;
    if (b === 10) atLineStart = true;
  }
  return { chars, lines, lineIndex, charIndex };
}

/** Reads up to `length` bytes from byte `start` of a stored entry (fewer at the end). */
export type ByteReader = (start: number, length: number) => Uint8Array;

export interface StoredSlice {
  text: string;
  offset: number;
  end: number;
  total: number;
}

/** The [offset, offset+limit) part of an entry in chars or whole lines, via `read` only. */
export function sliceStored(
  read: ByteReader,
  shape: TextShape,
  storedBytes: number,
  slice: { offset: number; limit: number | undefined; unit: "chars" | "lines" },
): StoredSlice {
  if (slice.unit === "chars") {
    const start = Math.min(slice.offset, shape.chars);
    const end = slice.limit === undefined
      ? shape.chars
      : Math.min(shape.chars, start + slice.limit);
    const text = end > start ? readChars(read, shape, storedBytes, start, end) : "";
    return { text, offset: start, end, total: shape.chars };
  }
  const first = Math.min(slice.offset, shape.lines);
  const last = slice.limit === undefined ? shape.lines : Math.min(shape.lines, first + slice.limit);
  return {
    text: readLines(read, shape, storedBytes, first, last),
    offset: first,
    end: last,
    total: shape.lines,
  };
}

/** Chars [start, end), in one read from the char-index entry at or before `start`. */
function readChars(
  read: ByteReader,
  shape: TextShape,
  storedBytes: number,
  start: number,
  end: number,
): string {
  const decoder = new TextDecoder();
  if (shape.chars === storedBytes) return decoder.decode(read(start, end - start));
  const k = Math.floor(start / CHAR_INDEX_STEP);
  const from = shape.charIndex[k];
  // At most 4 bytes per code point; to the end of the entry when the slice reaches it.
  const length = end === shape.chars
    ? storedBytes - from
    : Math.min(storedBytes - from, (end - k * CHAR_INDEX_STEP) * 4);
  const bytes = read(from, length);
  let cp = k * CHAR_INDEX_STEP;
  let i = 0;
  let startByte = cp === start ? 0 : -1;
  const stop = end === shape.chars ? start : end; // past `start`, the rest is wanted whole
  while (cp < stop && i < bytes.length) {
    i++;
    while (i < bytes.length && (bytes[i] & 0xc0) === 0x80) i++;
    cp++;
    if (cp === start) startByte = i;
  }
  const endByte = end === shape.chars ? bytes.length : i;
  return decoder.decode(bytes.subarray(startByte, endByte));
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Lines [first, last) in one forward pass of chunk reads from the line-index entry at or before
 * `first`: a page of 1,000 lines usually sits inside the first 1 MiB chunk, so it costs one read.
 */
function readLines(
  read: ByteReader,
  shape: TextShape,
  storedBytes: number,
  first: number,
  last: number,
): string {
  if (first >= last) return "";
  const k = Math.floor(first / LINE_INDEX_STEP);
  let at = shape.lineIndex[k];
  let line = k * LINE_INDEX_STEP;
  let collecting = line === first;
  const decoder = new TextDecoder();
  let text = "";
  while (line < last && at < storedBytes) {
    const chunk = read(at, CHUNK_BYTES);
    if (chunk.length === 0) break;
    let start = collecting ? 0 : -1;
    let pos = 0;
    while (line < last) {
      const nl = chunk.indexOf(10, pos);
      if (nl === -1) {
        pos = chunk.length; // the line goes on in the next chunk
        break;
      }
      pos = nl + 1;
      line++;
      if (!collecting && line === first) {
        collecting = true;
        start = pos;
      }
    }
    // Streaming decode: a character split across two chunks is joined, not replaced.
    if (collecting) text += decoder.decode(chunk.subarray(start, pos), { stream: true });
    at += chunk.length;
  }
  return text + decoder.decode();
}

/** Head + tail of `text` within `max` chars, with the marker line between them. */
export function truncateHeadTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.max(1, Math.floor(max / 2));
  let headEnd = half;
  // Never split a surrogate pair at either cut.
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  let tailStart = text.length - half;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const dropped = tailStart - headEnd;
  return `${
    text.slice(0, headEnd)
  }\n\n... [truncated ${dropped} chars, showing first and last ~${half} chars] ...\n\n${
    text.slice(tailStart)
  }`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
