/**
 * Text files on the local disk: the real `TextFileBackend`. Its own module (re-exported by
 * deps.ts) so the fenced file worker loads it without the process runner and the web client.
 */
import type { OpenedFile, TextFileBackend, WriteReport } from "./tool.ts";
import { writeFileAtomic } from "./_atomic_write.ts";

/** Chunk size when a large file is read piece by piece. */
const CHUNK_BYTES = 1024 * 1024;

/** Text files on the local disk. `open` follows symbolic links, as reading does. */
export const diskFiles: TextFileBackend = {
  async open(path: string): Promise<OpenedFile> {
    const info = await Deno.stat(path);
    return {
      kind: info.isFile ? "file" : info.isDirectory ? "directory" : "other",
      size: info.size,
      bytes: (signal) => Deno.readFile(path, { signal }),
      async *chunks() {
        using handle = await Deno.open(path, { read: true });
        const buffer = new Uint8Array(CHUNK_BYTES);
        while (true) {
          const n = await handle.read(buffer);
          if (n === null) return;
          yield buffer.subarray(0, n);
        }
      },
    };
  },
  /** Through a temporary file and a rename (see _atomic_write.ts): atomic and link-safe. */
  async write(path: string, content: string, signal: AbortSignal): Promise<WriteReport> {
    return await writeFileAtomic(path, new TextEncoder().encode(content), { signal });
  },
};
