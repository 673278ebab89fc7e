// grep over one large file: read in chunks cut at line ends (the same matches and context as a
// whole read), cancellable between chunks, and a progress note when it runs long.
import { expect } from "expect";
import { searchFile } from "../../src/search/_big_file.ts";
import { fileMatcher, type GrepSpec } from "../../src/search/_entry.ts";
import { grep } from "../../src/search/_grep.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { tempDir, view } from "./_grep_view.ts";

Deno.test("searchFile: chunks give the whole read's matches and context, across chunk ends", async () => {
  const dir = await tempDir("zeph-bigfile-");
  try {
    const lines = Array.from(
      { length: 400 },
      (_, i) => i % 7 === 0 ? `needle ${i}\r` : i % 50 === 0 ? "x".repeat(300) : `line ${i} 日本`,
    );
    const text = lines.join("\n") + "\n";
    await Deno.writeTextFile(`${dir}/a.txt`, text);
    const bytes = new TextEncoder().encode(text);
    for (const context of [0, 1, 3]) {
      for (const max of [1000, 5]) {
        const spec: GrepSpec = { pattern: "needle \\d+", caseSensitive: true, max };
        const whole = fileMatcher(spec)(bytes)!;
        // The whole read finds up to max + 1 matches: the chunks stop at the same count.
        const chunked = await searchFile({
          path: `${dir}/a.txt`,
          spec,
          context,
          signal: new AbortController().signal,
          chunkBytes: 97, // shorter than some lines: the buffer grows for them
        });
        expect(chunked!.matched).toEqual(whole.matched);
        if (max > 100) {
          expect(chunked!.lines.length).toBe(lines.length);
          expect(view(chunked, context)).toEqual(view(whole, context));
        }
      }
    }
    // No match, and a binary file, are null.
    const none = { pattern: "absent", caseSensitive: true, max: 10 };
    const signal = new AbortController().signal;
    expect(
      await searchFile({ path: `${dir}/a.txt`, spec: none, context: 0, signal, chunkBytes: 97 }),
    )
      .toBe(null);
    await Deno.writeFile(`${dir}/b.bin`, new Uint8Array([110, 101, 0, ...bytes]));
    const needle = { pattern: "needle", caseSensitive: true, max: 10 };
    expect(
      await searchFile({ path: `${dir}/b.bin`, spec: needle, context: 0, signal, chunkBytes: 97 }),
    )
      .toBe(null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A 50 MB log whose only line matching `(served|cached) in \d+ s` (any case) is its last. */
async function bigFile(dir: string): Promise<string> {
  const file = `${dir}/big.log`;
  const line = "2026-11-26T10:00:00Z INFO request served in 12 ms from cache node-7 ok\n";
  const block = new TextEncoder().encode(line.repeat(Math.ceil((1 << 20) / line.length)));
  const f = await Deno.open(file, { write: true, create: true });
  for (let i = 0; i < 50; i++) await f.write(block);
  await f.write(new TextEncoder().encode("request CACHED in 9 s\n"));
  f.close();
  return file;
}

Deno.test("grep on one 50 MB file: a cancel stops it between chunks, well before the end", async () => {
  const dir = await tempDir("zeph-bigfile-");
  try {
    const file = await bigFile(dir);
    const size = (await Deno.stat(file)).size;
    const request = {
      path: file,
      isFile: true,
      pattern: "(served|cached) in \\d+ s",
      caseSensitive: false,
      max: 100,
      sandbox: await Sandbox.create(dir),
    };
    // The whole scan, for comparison (it finds the last line): a regex on every line, slow.
    let started = performance.now();
    const hits = await grep({ ...request, signal: new AbortController().signal });
    const full = performance.now() - started;
    expect(hits[0].matched).toEqual([hits[0].lines.length - 1]);

    // Every chunk reports how far it got (a clock that runs a second per look).
    let clock = 0;
    const seen: number[] = [];
    const controller = new AbortController();
    started = performance.now();
    setTimeout(() => controller.abort(), 100);
    const error = await searchFile({
      path: file,
      spec: { pattern: request.pattern, caseSensitive: false, max: 100 },
      context: 0,
      signal: controller.signal,
      onProgress: (done) => seen.push(done),
      now: () => (clock += 1000),
    }).catch((e) => e);
    const cancelled = performance.now() - started;
    expect(error.category).toBe("cancelled");
    // Stopped inside the file: far from all of it was read, and sooner than the whole scan.
    expect(seen.at(-1) ?? 0).toBeLessThan(size * 0.75);
    expect(cancelled).toBeLessThan(Math.max(full * 0.75, 100 + 60));

    // The same through grep's entry point, with the signal a cancelled tool call gets.
    started = performance.now();
    const viaGrep = await grep({ ...request, signal: AbortSignal.timeout(100) }).catch((e) => e);
    expect(viaGrep.category).toBe("cancelled");
    expect(performance.now() - started).toBeLessThan(Math.max(full * 0.75, 100 + 60));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("grep on one large file: a progress note in MB once it runs longer than a second", async () => {
  const dir = await tempDir("zeph-bigfile-");
  try {
    const file = await bigFile(dir);
    const notes: string[] = [];
    let clock = 0;
    // Through searchFile's clock: the first chunk is "instant", then each takes 600 ms.
    const match = await searchFile({
      path: file,
      spec: { pattern: "cached", caseSensitive: false, max: 100 },
      context: 0,
      signal: new AbortController().signal,
      onProgress: (done, total) =>
        notes.push(`${Math.round(done / 1e6)} of ${Math.round(total / 1e6)}`),
      now: () => (clock += 600) - 600,
    });
    expect(match!.matched.length).toBe(1);
    // Reported at most once a second, never in the first second, with the file's size.
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.length).toBeLessThan(7);
    for (const n of notes) expect(n).toMatch(/^\d+ of 52$/);
    // grep's own note, as the tool emits it: "120 MB of 200 MB".
    const messages: string[] = [];
    await grep({
      path: file,
      isFile: true,
      pattern: "cached",
      caseSensitive: false,
      max: 100,
      sandbox: await Sandbox.create(dir),
      signal: new AbortController().signal,
      onProgress: (m) => messages.push(m),
    });
    for (const m of messages) expect(m).toMatch(/^\d+ MB of 52 MB$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
