// Large files met in a directory walk: scanned in chunks (the same matches and context as a whole
// read), with only the shown lines kept, and stoppable between chunks.
import { expect } from "expect";
import { CHUNK_BYTES, scanFileSync } from "../../src/search/_chunks.ts";
import { BINARY_SNIFF_BYTES, fileMatcher, type GrepSpec } from "../../src/search/_entry.ts";
import { grep } from "../../src/search/_grep.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { tempDir, view } from "./_grep_view.ts";

Deno.test("scanFileSync: chunks give the whole read's matches and context, across chunk ends", async () => {
  const dir = await tempDir("zeph-chunks-");
  try {
    const lines = Array.from(
      { length: 400 },
      (_, i) => i % 7 === 0 ? `needle ${i}` : i % 50 === 0 ? "x".repeat(300) : `line ${i} 日本`,
    );
    const text = lines.join("\n") + "\n";
    await Deno.writeTextFile(`${dir}/a.txt`, text);
    const bytes = new TextEncoder().encode(text);
    for (const context of [0, 2]) {
      const spec: GrepSpec = { pattern: "needle \\d+", caseSensitive: true, max: 1000 };
      const whole = fileMatcher(spec)(bytes)!;
      const chunked = scanFileSync(`${dir}/a.txt`, {
        match: fileMatcher(spec),
        max: spec.max,
        context,
        sniffBytes: BINARY_SNIFF_BYTES,
        chunkBytes: 97, // shorter than some lines: the buffer grows for them
      });
      expect(chunked!.matched).toEqual(whole.matched);
      expect(chunked!.lines.length).toBe(lines.length);
      expect(view(chunked, context)).toEqual(view(whole, context));
    }
    // Stopped before the first chunk: nothing is read, no match.
    const stopped = scanFileSync(`${dir}/a.txt`, {
      match: fileMatcher({ pattern: "needle", caseSensitive: true, max: 10 }),
      max: 10,
      context: 0,
      sniffBytes: BINARY_SNIFF_BYTES,
      chunkBytes: 97,
    }, () => true);
    expect(stopped).toBe(null);
    // A missing file is skipped (null), as unreadable files are in a walk.
    expect(scanFileSync(`${dir}/gone.txt`, {
      match: fileMatcher({ pattern: "x", caseSensitive: true, max: 10 }),
      max: 10,
      context: 0,
      sniffBytes: BINARY_SNIFF_BYTES,
    })).toBe(null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("grep over a directory: a file over CHUNK_BYTES is scanned in chunks, keeping only the shown lines", async () => {
  const dir = await tempDir("zeph-chunks-");
  try {
    await Deno.writeTextFile(`${dir}/small.txt`, "needle in a small file\n");
    // 12,000,000 bytes of 100-byte lines (over CHUNK_BYTES), needles at lines 3, 90,000 (past
    // the first chunk) and the last line.
    const count = 120_000;
    const needles = new Set([3, 90_000, count - 1]);
    const line = (i: number) => (needles.has(i) ? "needle" : "filler").padEnd(99, ".") + "\n";
    const f = await Deno.open(`${dir}/big.log`, { write: true, create: true });
    const encoder = new TextEncoder();
    for (let i = 0; i < count; i += 1000) {
      await f.write(encoder.encode(Array.from({ length: 1000 }, (_, k) => line(i + k)).join("")));
    }
    f.close();
    expect((await Deno.stat(`${dir}/big.log`)).size).toBeGreaterThan(CHUNK_BYTES);
    const hits = await grep({
      path: dir,
      isFile: false,
      pattern: "needle",
      caseSensitive: true,
      max: 100,
      context: 1,
      sandbox: await Sandbox.create(dir),
      signal: new AbortController().signal,
    });
    const big = hits.find((h) => h.walked.endsWith("big.log"))!;
    expect(big.matched).toEqual([3, 90_000, count - 1]);
    expect(big.lines.length).toBe(count);
    // Only the matches and their context are held (and the context-many lines at each chunk's
    // edges, for matches across them), not the file's 120,000 lines.
    const held = Object.keys(big.lines).map(Number);
    const shown = [2, 3, 4, 89_999, 90_000, 90_001, count - 2, count - 1];
    expect(held).toEqual(expect.arrayContaining(shown));
    const chunks = Math.ceil((await Deno.stat(`${dir}/big.log`)).size / CHUNK_BYTES);
    expect(held.length).toBeLessThanOrEqual(shown.length + 2 * chunks);
    expect(big.lines[90_000]).toBe(line(90_000).trimEnd());
    expect(hits.find((h) => h.walked.endsWith("small.txt"))!.matched).toEqual([0]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
