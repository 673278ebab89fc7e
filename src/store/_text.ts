/**
 * Encoding, measuring and paging shared by both store implementations, so they page
 * identically. Entries are kept as UTF-8 bytes. A "char" is a UTF-16 code unit, the unit of
 * JavaScript's `length` and the one the overflow hook's head + tail cut counts in, so the offset
 * its note shows ("first and last ~25000 chars") is where read_overflow continues. A page never
 * splits a surrogate pair: it widens by one unit instead. Two sparse indexes, built while
 * encoding, turn char and line offsets into byte offsets, so a page reads only its own bytes
 * (`substr` on a BLOB counts bytes and needs no scan from the start, unlike `substr` on TEXT,
 * which walks the UTF-8 from the start for a page at the end).
 */
import { Buffer } from "node:buffer";

/** Lines per entry of the line index (byte offset of the start of every 1024th line). */
export const LINE_INDEX_STEP = 1024;
/** Chars (UTF-16 units) per piece of the char index. */
export const CHAR_INDEX_STEP = 4096;

export interface TextShape {
  /** UTF-16 code units. */
  chars: number;
  lines: number;
  /** Byte offset of the start of line `k * LINE_INDEX_STEP`, for each k. */
  lineIndex: number[];
  /**
   * Flat pairs `[char, byte, char, byte, …]`: the char offset of the start of every piece
   * (`k * CHAR_INDEX_STEP`, one more when that would split a surrogate pair) and its byte
   * offset. Empty for ASCII, where char offset = byte offset.
   */
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
 * Encodes once, into a buffer of the exact size: `Buffer.byteLength` counts the UTF-8 size
 * natively and `encodeInto` fills it without the allocation `TextEncoder.encode` makes (figures
 * in bench/README.md, "Store and overflow"). Non-ASCII text is encoded in pieces of `CHAR_INDEX_STEP` chars, so
 * the char index costs nothing extra. With `maxBytes` (> 0) only the kept prefix is
 * materialised (`encodeInto` never splits a character), so a 100 MB output does not cost
 * another 100 MB of memory.
 */
export function encodeForStore(text: string, maxBytes = 0): EncodedText {
  const byteSize = Buffer.byteLength(text, "utf8");
  const cap = maxBytes > 0 ? Math.min(maxBytes, byteSize) : byteSize;
  const bytes = new Uint8Array(cap);
  const encoder = new TextEncoder();
  if (byteSize === text.length) {
    // Every unit is ASCII (anything else takes two or more bytes): units are bytes.
    encoder.encodeInto(cap === text.length ? text : text.slice(0, cap), bytes);
    return { bytes, byteSize, truncated: cap < byteSize, shape: measureAscii(text, cap) };
  }
  const charIndex: number[] = [];
  let unit = 0;
  let at = 0;
  while (unit < text.length && at < cap) {
    // Pieces end at multiples of CHAR_INDEX_STEP (one unit later rather than inside a pair),
    // so piece k starts at k * CHAR_INDEX_STEP or one unit after it.
    let end = Math.min(text.length, (Math.floor(unit / CHAR_INDEX_STEP) + 1) * CHAR_INDEX_STEP);
    if (
      end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) &&
      isLowSurrogate(text.charCodeAt(end))
    ) end++;
    const { read, written } = encoder.encodeInto(text.slice(unit, end), bytes.subarray(at));
    if (read === 0) break; // the next character does not fit in what is left
    charIndex.push(unit, at);
    unit += read;
    at += written;
    if (unit < end) break; // buffer full
  }
  return {
    bytes: at === cap ? bytes : bytes.subarray(0, at),
    byteSize,
    truncated: unit < text.length,
    shape: { chars: unit, ...measureLines(text, unit, charIndex), charIndex },
  };
}

/**
 * A line ends with "\n" (which belongs to it); a final line without one still counts; empty
 * text has zero lines.
 */
function measureAscii(text: string, length: number): TextShape {
  // ASCII: string offsets are byte offsets, and String#indexOf is faster than
  // Uint8Array#indexOf.
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

/**
 * Lines of `text[0, length)`; the byte offset of every `LINE_INDEX_STEP`th line start is the
 * byte offset of the char-index piece it falls in plus the UTF-8 size of the chars between
 * (a line start follows "\n", so that slice never splits a pair).
 */
function measureLines(
  text: string,
  length: number,
  charIndex: number[],
): { lines: number; lineIndex: number[] } {
  const lineIndex: number[] = [];
  let lines = 0;
  let start = 0;
  let piece = 0;
  while (start < length) {
    if (lines % LINE_INDEX_STEP === 0) {
      while (piece + 2 < charIndex.length && charIndex[piece + 2] <= start) piece += 2;
      const from = charIndex[piece];
      const bytes = from === start ? 0 : Buffer.byteLength(text.slice(from, start), "utf8");
      lineIndex.push(charIndex[piece + 1] + bytes);
    }
    lines++;
    const nl = text.indexOf("\n", start);
    start = nl === -1 || nl >= length ? length : nl + 1;
  }
  return { lines, lineIndex };
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
    if (end <= start) return { text: "", offset: start, end: start, total: shape.chars };
    // One unit more on each side shows whether a bound falls inside a surrogate pair; the
    // stored text has no lone surrogates (they became U+FFFD), so a low one always has its pair.
    const lo = Math.max(0, start - 1);
    const window = readChars(read, shape, storedBytes, lo, Math.min(shape.chars, end + 1));
    let from = start - lo;
    let to = end - lo;
    if (from > 0 && isLowSurrogate(window.charCodeAt(from))) from--;
    if (to < window.length && isLowSurrogate(window.charCodeAt(to))) to++;
    return { text: window.slice(from, to), offset: lo + from, end: lo + to, total: shape.chars };
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

/**
 * Chars [start, end) in one read from the char-index piece at or before `start`: at most 3 bytes
 * per UTF-16 unit (a pair is 4 bytes for 2 units), so the bytes read always hold the whole range.
 */
function readChars(
  read: ByteReader,
  shape: TextShape,
  storedBytes: number,
  start: number,
  end: number,
): string {
  // ignoreBOM: a U+FEFF at the start of a page or line is content, not a mark to drop.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  if (shape.charIndex.length === 0) return decoder.decode(read(start, end - start));
  const pieces = shape.charIndex.length / 2;
  // A piece starts at k * CHAR_INDEX_STEP or one unit later, so k is right or one too far.
  let k = Math.min(pieces - 1, Math.floor(start / CHAR_INDEX_STEP));
  while (k > 0 && shape.charIndex[2 * k] > start) k--;
  const fromChar = shape.charIndex[2 * k];
  const fromByte = shape.charIndex[2 * k + 1];
  const length = Math.min(storedBytes - fromByte, (end - fromChar) * 3);
  return decoder.decode(read(fromByte, length)).slice(start - fromChar, end - fromChar);
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
  // ignoreBOM: a U+FEFF at the start of a page or line is content, not a mark to drop.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
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

/**
 * Head + tail of `text` within `max` chars, with a marker between them. The cuts move to line
 * boundaries when one is near, and the marker names the lines cut: a tool's own note after the
 * tail ("Use offset=2000 to read further") then no longer hides that the middle is missing.
 */
export function truncateHeadTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.max(1, Math.floor(max / 2));
  let headEnd = half;
  const headNl = text.lastIndexOf("\n", headEnd - 1);
  if (headNl >= 0 && headEnd - (headNl + 1) <= half / 2) headEnd = headNl + 1;
  // Never split a surrogate pair at either cut.
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  let tailStart = text.length - half;
  if (text[tailStart - 1] !== "\n") {
    const tailNl = text.indexOf("\n", tailStart);
    if (tailNl >= 0 && tailNl + 1 - tailStart <= half / 2) tailStart = tailNl + 1;
  }
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  const dropped = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n\n... [${
    cutLines(text, headEnd, tailStart)
  }${dropped} chars cut, showing first and last ~${half} chars] ...\n\n${text.slice(tailStart)}`;
}

/** "lines 241–1760 of 2000 (" for a multi-line text, "" for one line. */
function cutLines(text: string, headEnd: number, tailStart: number): string {
  const before = countNewlines(text, 0, headEnd);
  const within = countNewlines(text, headEnd, tailStart);
  const total = before + within + countNewlines(text, tailStart, text.length) +
    (text.endsWith("\n") ? 0 : 1);
  if (total <= 1) return "";
  const first = before + 1;
  // The cut ends on a line boundary, or inside the line it then cuts part of.
  const last = text[tailStart - 1] === "\n" ? before + within : before + within + 1;
  const whole = text[headEnd - 1] === "\n" || headEnd === 0;
  const partly = !whole || text[tailStart - 1] !== "\n" ? ", partly" : "";
  const span = first === last ? `line ${first}` : `lines ${first}–${last}`;
  return `output ${span} of ${total}${partly}: `;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
