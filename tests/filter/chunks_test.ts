import { expect } from "expect";
import { CHUNK, forEachChunk, MAX_ENCODED } from "../../src/filter/chunks.ts";

interface Seen {
  text: string;
  offset: number;
  encoded: boolean;
}

function chunksOf(text: string, encode = true): Seen[] {
  const seen: Seen[] = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  forEachChunk(text, encode, (chunk, offset, bytes, length) => {
    if (bytes) {
      // The bytes are the chunk's UTF-8, followed by a newline.
      expect(decoder.decode(bytes.subarray(0, length))).toBe(chunk);
      expect(bytes[length]).toBe(10);
    }
    seen.push({ text: chunk, offset, encoded: bytes !== null });
  });
  // Whole lines, in order, nothing lost.
  expect(seen.map((s) => s.text).join("")).toBe(text);
  let at = 0;
  for (const [i, s] of seen.entries()) {
    expect(s.offset).toBe(at);
    at += s.text.length;
    if (i < seen.length - 1) expect(s.text.endsWith("\n")).toBe(true);
  }
  return seen;
}

Deno.test("forEachChunk: whole lines of about CHUNK characters, encoded, any ending", () => {
  const line = "é line with a multi-byte character 😀\n";
  const text = line.repeat(Math.ceil((2.5 * CHUNK) / line.length));
  const seen = chunksOf(text);
  expect(seen.length).toBe(3);
  expect(seen.every((s) => s.encoded)).toBe(true);
  expect(chunksOf(text + "no newline at the end").length).toBe(3);
  expect(chunksOf("")).toEqual([]);
  expect(chunksOf("one")).toEqual([{ text: "one", offset: 0, encoded: true }]);
  expect(chunksOf("a\nb", false)).toEqual([{ text: "a\nb", offset: 0, encoded: false }]);
});

Deno.test("forEachChunk: a huge line is a chunk of its own, unencoded; the lines around it are encoded", () => {
  const short = "short line\n".repeat(Math.ceil((0.7 * CHUNK) / 11));
  const huge = "x".repeat(3.5 * CHUNK) + "\n";
  const seen = chunksOf(short + huge + short);
  expect(seen.map((s) => [s.text.length > MAX_ENCODED, s.encoded])).toEqual([
    [false, true],
    [false, true],
    [false, true],
  ]);
  const bigger = "y".repeat(MAX_ENCODED + 10) + "\n";
  const split = chunksOf(short + bigger + short);
  expect(split.map((s) => s.encoded)).toEqual([true, false, true]);
  expect(split[1].text).toBe(bigger);
});

Deno.test("forEachChunk: a lone surrogate anywhere leaves every chunk unencoded", () => {
  const text = "a\n".repeat(CHUNK) + "\ud800\n";
  expect(chunksOf(text).every((s) => !s.encoded)).toBe(true);
});
