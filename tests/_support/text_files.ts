// One suite for every TextFileBackend (the local disk, the editor's fs/* methods): what read,
// write and edit rely on. Each backend sees a real temp dir; the editor's stands on it as an
// editor with no unsaved buffers would.
import { expect } from "expect";
import { join } from "node:path";
import type { TextFileBackend } from "../../src/tools/tool.ts";

const TEXT = "first line\nzweite Zeile: äöü €\n🦕\n";

async function concat(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  // A chunk is valid until the next one is read: keep a copy.
  for await (const chunk of chunks) parts.push(chunk.slice());
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function textFileBackendSuite(name: string, make: () => TextFileBackend): void {
  const withDir = (title: string, fn: (dir: string, files: TextFileBackend) => Promise<void>) =>
    Deno.test(`${name} text files: ${title}`, async () => {
      const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_text_files_" }));
      try {
        await fn(dir, make());
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  const signal = new AbortController().signal;

  withDir(
    "an opened file gives its size in bytes and the same bytes whole or in chunks",
    async (dir, files) => {
      await Deno.writeTextFile(join(dir, "a.txt"), TEXT);
      const opened = await files.open(join(dir, "a.txt"));
      const expected = new TextEncoder().encode(TEXT);
      expect([opened.kind, opened.size]).toEqual(["file", expected.length]);
      expect(await opened.bytes(signal)).toEqual(expected);
      expect(await concat(opened.chunks())).toEqual(expected);
    },
  );

  withDir("an empty file opens with size 0 and no bytes", async (dir, files) => {
    await Deno.writeTextFile(join(dir, "empty.txt"), "");
    const opened = await files.open(join(dir, "empty.txt"));
    expect([opened.kind, opened.size, (await opened.bytes(signal)).length]).toEqual([
      "file",
      0,
      0,
    ]);
  });

  withDir("a missing file is Deno.errors.NotFound", async (dir, files) => {
    await expect(files.open(join(dir, "missing.txt"))).rejects.toBeInstanceOf(
      Deno.errors.NotFound,
    );
  });

  withDir("write creates a missing file and its parents, then replaces it", async (dir, files) => {
    const file = join(dir, "new/deeper/b.txt");
    await files.write(file, TEXT, signal);
    expect(await Deno.readTextFile(file)).toBe(TEXT);
    await files.write(file, "short\n", signal);
    expect(await Deno.readTextFile(file)).toBe("short\n");
    const opened = await files.open(file);
    expect(new TextDecoder().decode(await opened.bytes(signal))).toBe("short\n");
  });
}
