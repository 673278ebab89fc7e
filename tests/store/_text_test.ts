import { expect } from "expect";
import {
  CHAR_INDEX_STEP,
  encodeForStore,
  LINE_INDEX_STEP,
  sliceStored,
  truncateHeadTail,
} from "../../src/store/_text.ts";
import { prng as rng } from "../_support/random.ts";
import { unitPage } from "./_store_suite.ts";

// ASCII, 2-, 3- and 4-byte characters, line ends, and lone surrogates (stored as U+FFFD).
const ALPHABET = ["a", "b", "\n", "é", "日", "🦕", "\uD800", "\uDFFF", "\r\n", "\u0000"];

function randomText(rand: () => number, length: number): string {
  let text = "";
  while (text.length < length) text += ALPHABET[Math.floor(rand() * ALPHABET.length)];
  return text;
}

Deno.test("encodeForStore: the bytes are TextEncoder's, cut only between characters", () => {
  const rand = rng(7);
  const encoder = new TextEncoder();
  for (let round = 0; round < 300; round++) {
    const text = randomText(rand, Math.floor(rand() * 3 * CHAR_INDEX_STEP));
    const full = encoder.encode(text);
    const maxBytes = rand() < 0.5 ? 0 : Math.floor(rand() * full.length * 1.2);
    const encoded = encodeForStore(text, maxBytes);
    expect(encoded.byteSize).toBe(full.length);
    const decoded = new TextDecoder().decode(encoded.bytes);
    // The kept bytes are a prefix of the whole encoding that decodes without a broken character.
    expect(full.subarray(0, encoded.bytes.length)).toEqual(encoded.bytes);
    expect(encoder.encode(decoded)).toEqual(encoded.bytes);
    if (maxBytes > 0) expect(encoded.bytes.length).toBeLessThanOrEqual(maxBytes);
    expect(encoded.truncated).toBe(encoded.bytes.length < full.length);
    if (encoded.truncated) {
      // Nothing more would have fit: the next character is longer than the room left.
      const next = encoder.encode(String.fromCodePoint(text.slice(decoded.length).codePointAt(0)!));
      expect(encoded.bytes.length + next.length).toBeGreaterThan(maxBytes);
    }
    expect(encoded.shape.chars).toBe(decoded.length);
    expect(encoded.shape.lines).toBe(
      decoded === "" ? 0 : decoded.split("\n").length -
        (decoded.endsWith("\n") ? 1 : 0),
    );
  }
});

Deno.test("sliceStored: char and line pages of random text match the decoded text", () => {
  const rand = rng(11);
  for (let round = 0; round < 60; round++) {
    // Short lines, so that several line-index steps are crossed too.
    const text = randomText(rand, 2 * CHAR_INDEX_STEP + Math.floor(rand() * 4 * CHAR_INDEX_STEP))
      .replaceAll("日", "\n");
    const encoded = encodeForStore(text);
    const stored = new TextDecoder().decode(encoded.bytes);
    const read = (start: number, length: number) => encoded.bytes.subarray(start, start + length);
    for (let i = 0; i < 40; i++) {
      const offset = Math.floor(rand() * (stored.length + 10));
      const limit = 1 + Math.floor(rand() * 2 * CHAR_INDEX_STEP);
      const page = sliceStored(read, encoded.shape, encoded.bytes.length, {
        offset,
        limit,
        unit: "chars",
      });
      const expected = unitPage(stored, offset, limit);
      expect([offset, limit, page.text === expected.text, page.offset, page.end, page.total])
        .toEqual([offset, limit, true, expected.offset, expected.end, stored.length]);
    }
    const lines = stored.split(/(?<=\n)/);
    expect(encoded.shape.lines).toBe(lines.length);
    expect(encoded.shape.lineIndex.length).toBe(Math.ceil(lines.length / LINE_INDEX_STEP));
    for (let i = 0; i < 20; i++) {
      const offset = Math.floor(rand() * (lines.length + 3));
      const limit = 1 + Math.floor(rand() * 2 * LINE_INDEX_STEP);
      const page = sliceStored(read, encoded.shape, encoded.bytes.length, {
        offset,
        limit,
        unit: "lines",
      });
      expect(page.text === lines.slice(offset, offset + limit).join("")).toBe(true);
    }
  }
});

Deno.test("truncateHeadTail cuts at line boundaries near the middle and names the lines cut", () => {
  expect(truncateHeadTail("ab\ncd\nef\ngh\nij\nkl\nmn\n", 8)).toBe(
    "ab\n\n\n... [output lines 2–6 of 7: 15 chars cut, showing first and last ~4 chars] ...\n\nmn\n",
  );
  // No line boundary near either cut: the lines named are cut only in part.
  expect(truncateHeadTail("abcdefgh\nijklmnopq\n", 6)).toBe(
    "abc\n\n... [output lines 1–2 of 2, partly: 13 chars cut, showing first and last ~3 chars] ...\n\npq\n",
  );
  // One line: no line numbers.
  expect(truncateHeadTail("x".repeat(500), 100)).toBe(
    `${"x".repeat(50)}\n\n... [400 chars cut, showing first and last ~50 chars] ...\n\n${
      "x".repeat(50)
    }`,
  );
  // A 2,000-line read page over the threshold: the gap is named, not only the final offset.
  const page =
    Array.from({ length: 2000 }, (_, i) => `${String(i + 1).padStart(6)}\t${"y".repeat(60)}`)
      .join("\n") + "\n\n[Showing lines 1-2000 of 2100. Use offset=2000 to read further.]";
  const shown = truncateHeadTail(page, 50_000);
  expect(shown).toContain("... [output lines 368–1634 of 2002: ");
  expect(shown.split("\n\n... [")[0].split("\n").at(-2)).toBe(`   367\t${"y".repeat(60)}`);
  expect(shown.split("] ...\n\n")[1].split("\n")[0]).toBe(`  1635\t${"y".repeat(60)}`);
});
