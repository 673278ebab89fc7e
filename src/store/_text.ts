/**
 * Text measures shared by both store implementations so they page identically. A "char" is a
 * Unicode code point, because that is what SQLite's `substr`/`length` count on TEXT values;
 * content is made well-formed (lone surrogates → U+FFFD) before it is stored, as SQLite would.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** Lines per entry of the sparse line index (the code-point offset of every 1024th line). */
export const LINE_INDEX_STEP = 1024;

/** Code points in a well-formed string. */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      pairs++;
      i++;
    }
  }
  return text.length - pairs;
}

/** The code-unit index of code point `cp` (clamped to the end). */
function codeUnitIndex(text: string, cp: number): number {
  if (!SURROGATE.test(text)) return Math.min(cp, text.length);
  let i = 0;
  for (let n = 0; n < cp && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
  }
  return i;
}

/** `substr` in code points, as SQLite does it. */
export function sliceCodePoints(text: string, start: number, length: number): string {
  if (!SURROGATE.test(text)) return text.slice(start, start + length);
  const from = codeUnitIndex(text, start);
  const to = from + codeUnitIndex(text.slice(from), length);
  return text.slice(from, to);
}

export interface TextShape {
  chars: number;
  lines: number;
  /** Code-point offset of the start of line `k * LINE_INDEX_STEP`, for each k. */
  lineIndex: number[];
}

export interface EncodedText {
  /** The UTF-8 to store (lone surrogates became U+FFFD, as SQLite would make them). */
  bytes: Uint8Array;
  /** UTF-8 size of the whole input, before any cut. */
  byteSize: number;
  truncated: boolean;
  shape: TextShape;
}

/**
 * Encodes once and measures the bytes, never the string: one TextEncoder pass is the fastest way
 * V8 offers to learn the UTF-8 size (5 ms for 10 MB of ASCII, where a /[^\x00-\x7F]/ scan took
 * 8–29 ms), and counting on bytes needs no surrogate handling. Over `maxBytes` (> 0) the bytes
 * are cut at a character boundary.
 */
export function encodeForStore(text: string, maxBytes = 0): EncodedText {
  const all = new TextEncoder().encode(text);
  const ascii = all.length === text.length;
  let bytes = all;
  if (maxBytes > 0 && all.length > maxBytes) {
    let end = maxBytes;
    while (end > 0 && (all[end] & 0xc0) === 0x80) end--;
    bytes = all.subarray(0, end);
  }
  return {
    bytes,
    byteSize: all.length,
    truncated: bytes.length < all.length,
    shape: ascii ? measureAscii(bytes) : measureUtf8(bytes),
  };
}

/**
 * Chars and lines, and the sparse line index. A line ends with "\n" (which belongs to it); a
 * final line without one still counts; empty text has zero lines.
 */
function measureAscii(bytes: Uint8Array): TextShape {
  const lineIndex: number[] = [];
  let lines = 0;
  let start = 0;
  while (start < bytes.length) {
    if (lines % LINE_INDEX_STEP === 0) lineIndex.push(start);
    lines++;
    const nl = bytes.indexOf(10, start);
    start = nl === -1 ? bytes.length : nl + 1;
  }
  return { chars: bytes.length, lines, lineIndex };
}

function measureUtf8(bytes: Uint8Array): TextShape {
  const lineIndex: number[] = [];
  let lines = 0;
  let chars = 0;
  let atLineStart = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: not a new code point
    if (atLineStart) {
      if (lines % LINE_INDEX_STEP === 0) lineIndex.push(chars);
      lines++;
      atLineStart = false;
    }
    chars++;
    if (b === 10) atLineStart = true;
  }
  return { chars, lines, lineIndex };
}

/** Reads `length` code points from `start` of a stored entry. */
export type CharReader = (start: number, length: number) => string;

const CHUNK = 256 * 1024;

/**
 * Lines [first, last) in one forward pass of chunk reads from the nearest index entry: a page of
 * 1,000 lines usually sits inside the first 256 Ki-char chunk, so it costs one `substr`.
 */
function readLines(read: CharReader, shape: TextShape, first: number, last: number): string {
  if (first >= last) return "";
  const k = Math.floor(first / LINE_INDEX_STEP);
  let cp = shape.lineIndex[k];
  let line = k * LINE_INDEX_STEP;
  let collecting = line === first;
  let text = "";
  while (line < last) {
    const chunk = read(cp, CHUNK);
    if (chunk.length === 0) break;
    let start = collecting ? 0 : -1;
    let pos = 0;
    while (line < last) {
      const nl = chunk.indexOf("\n", pos);
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
    if (collecting) text += chunk.slice(start, pos);
    cp += codePointLength(chunk);
  }
  return text;
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

export interface StoredSlice {
  text: string;
  offset: number;
  end: number;
  total: number;
}

/** The [offset, offset+limit) part of an entry in chars or whole lines, via `read` only. */
export function sliceStored(
  read: CharReader,
  shape: TextShape,
  slice: { offset: number; limit: number | undefined; unit: "chars" | "lines" },
): StoredSlice {
  if (slice.unit === "chars") {
    const start = Math.min(slice.offset, shape.chars);
    const end = slice.limit === undefined
      ? shape.chars
      : Math.min(shape.chars, start + slice.limit);
    return {
      text: end > start ? read(start, end - start) : "",
      offset: start,
      end,
      total: shape.chars,
    };
  }
  const first = Math.min(slice.offset, shape.lines);
  const last = slice.limit === undefined ? shape.lines : Math.min(shape.lines, first + slice.limit);
  return {
    text: readLines(read, shape, first, last),
    offset: first,
    end: last,
    total: shape.lines,
  };
}
