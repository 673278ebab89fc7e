import { expect } from "expect";
import { HeadTailBuffer, InterleavedCapture } from "../../src/exec/mod.ts";

const enc = (s: string) => new TextEncoder().encode(s);

/** What the buffer must hold for `all`, computed the obvious way. */
function reference(all: string, limit: number): string {
  if (all.length <= 2 * limit) return all;
  const head = all.slice(0, limit);
  const dropped = all.length - 2 * limit;
  const sep = head.endsWith("\n") ? "" : "\n";
  return `${head}${sep}[... ${dropped} bytes of output dropped (kept the first and last ${limit} bytes) ...]\n${
    all.slice(all.length - limit)
  }`;
}

Deno.test("HeadTailBuffer keeps exactly the first and last limit bytes, any chunking", () => {
  // Deterministic pseudo-random chunkings (a tiny LCG), compared with plain string slicing.
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const mismatches: string[] = [];
  for (let round = 0; round < 300; round++) {
    const limit = 1 + rand(50);
    const total = rand(400);
    let all = "";
    for (let i = 0; i < total; i++) all += String.fromCharCode(97 + rand(26));
    const buffer = new HeadTailBuffer(limit);
    for (let at = 0; at < all.length;) {
      const size = 1 + rand(3 * limit);
      buffer.push(enc(all.slice(at, at + size)));
      at += size;
    }
    const ok = buffer.text() === reference(all, limit) && buffer.totalBytes === all.length &&
      buffer.droppedBytes === Math.max(0, all.length - 2 * limit);
    if (!ok) mismatches.push(`round ${round}: limit ${limit}, ${all.length} bytes`);
  }
  expect(mismatches).toEqual([]);
});

Deno.test("HeadTailBuffer rejects a non-positive limit", () => {
  expect(() => new HeadTailBuffer(0)).toThrow("positive integer");
});

Deno.test("InterleavedCapture: lines in arrival order, stderr prefixed, partial lines wait", () => {
  const c = new InterleavedCapture(1 << 20);
  c.push("stdout", enc("out1\nout2 part"));
  c.push("stderr", enc("err1\nerr2\nerr3 part"));
  c.push("stdout", enc("ial\n"));
  c.push("stderr", enc("ial\n"));
  c.push("stdout", enc("no newline at end"));
  c.finish();
  expect(c.buffer.text()).toBe(
    "out1\n[stderr] err1\n[stderr] err2\nout2 partial\n[stderr] err3 partial\n" +
      "no newline at end\n",
  );
});

Deno.test("InterleavedCapture: a line longer than 64 KiB is flushed once, prefixed once", () => {
  const c = new InterleavedCapture(1 << 20);
  const long = "x".repeat(70 * 1024);
  c.push("stderr", enc(long.slice(0, 40 * 1024)));
  c.push("stderr", enc(long.slice(40 * 1024)));
  c.push("stderr", enc("y\nnext\n"));
  c.finish();
  expect(c.buffer.text()).toBe(`[stderr] ${long}y\n[stderr] next\n`);
});

Deno.test("HeadTailBuffer text is its bytes decoded: head, marker line, tail; characters cut at the edges as U+FFFD", () => {
  // The same buffer as the reference above, over UTF-8 with characters of every length cut
  // anywhere, including a byte-order mark opening the tail (content there, not a stream start).
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pieces = ["a", "\n", "é", "‘", "😀", "\uFEFF", "[stderr] x"].map(enc);
  const mismatches: string[] = [];
  for (let round = 0; round < 400; round++) {
    const limit = 1 + rand(40);
    const parts: Uint8Array[] = [];
    for (let n = rand(60); n > 0; n--) parts.push(pieces[rand(pieces.length)]);
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
    const buffer = new HeadTailBuffer(limit);
    for (let at = 0; at < all.length;) {
      const size = 1 + rand(2 * limit);
      buffer.push(all.subarray(at, at + size));
      at += size;
    }
    const dropped = Math.max(0, all.length - 2 * limit);
    const decode = (b: Uint8Array, bom: boolean) =>
      new TextDecoder("utf-8", { ignoreBOM: !bom }).decode(b);
    let want = decode(all, true);
    if (dropped > 0) {
      const head = decode(all.subarray(0, limit), true);
      want = `${head}${head.endsWith("\n") ? "" : "\n"}[... ${dropped} bytes of output dropped ` +
        `(kept the first and last ${limit} bytes) ...]\n${
          decode(all.subarray(all.length - limit), false)
        }`;
    }
    const bytes = buffer.bytes();
    if (buffer.text() !== want || new TextDecoder().decode(bytes) !== want) {
      mismatches.push(`round ${round}: limit ${limit}, ${all.length} bytes`);
    }
  }
  expect(mismatches).toEqual([]);
});
