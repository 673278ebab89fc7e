// The SIMD byte search against V8's indexOf, on views of the read buffer at every alignment, with
// the byte in the 16-byte steps, in the tail, at the edges and absent.
import { expect } from "expect";
import {
  indexOfByte,
  READ_BUFFER,
  READ_BUFFER_BYTES,
  SIMD_SEARCH,
} from "../../src/search/_bytes.ts";

Deno.test("indexOfByte: SIMD search of the read buffer is available on x86-64 and arm64", () => {
  // If the module stopped validating, grep would silently fall back to the slower search.
  if (Deno.build.arch === "x86_64" || Deno.build.arch === "aarch64") {
    expect(SIMD_SEARCH).toBe(true);
  }
  expect(READ_BUFFER.byteLength).toBe(READ_BUFFER_BYTES);
});

Deno.test("indexOfByte: the same answers as Uint8Array#indexOf", () => {
  let seed = 7;
  const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  const mismatches: unknown[] = [];
  for (let trial = 0; trial < 20_000; trial++) {
    const offset = random(64);
    const length = trial % 500 === 0 ? READ_BUFFER_BYTES - offset : random(300);
    const view = READ_BUFFER.subarray(offset, offset + length);
    // A small alphabet, so that the byte is often present, often absent, sometimes repeated.
    for (let i = 0; i < length; i++) view[i] = random(6) === 0 ? 0 : 97 + random(20);
    const byte = random(3) === 0 ? 0 : 97 + random(24);
    const from = random(5) === 0 ? -random(40) : random(length + 20);
    const want = view.indexOf(byte, from);
    const got = indexOfByte(view, byte, from);
    if (got !== want) mismatches.push({ offset, length, byte, from, want, got });
    // A copy outside the read buffer takes V8's path: the same answer.
    if (indexOfByte(view.slice(), byte, from) !== want) mismatches.push({ copy: true, want });
  }
  expect(mismatches).toEqual([]);
});

Deno.test("indexOfByte: a byte in the last position of a full buffer, and a byte with the high bit", () => {
  READ_BUFFER.fill(0x61);
  READ_BUFFER[READ_BUFFER_BYTES - 1] = 0xff;
  expect(indexOfByte(READ_BUFFER, 0xff)).toBe(READ_BUFFER_BYTES - 1);
  expect(indexOfByte(READ_BUFFER.subarray(0, READ_BUFFER_BYTES - 1), 0xff)).toBe(-1);
  READ_BUFFER[17] = 0xff;
  expect(indexOfByte(READ_BUFFER, 0xff, 18)).toBe(READ_BUFFER_BYTES - 1);
  expect(indexOfByte(READ_BUFFER.subarray(3), 0xff)).toBe(14);
});
