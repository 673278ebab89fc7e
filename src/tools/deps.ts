/**
 * The real dependencies of tools: the local disk for text files, local process groups, the
 * pinned web client and the bash parser of src/permission/shell.ts. The registry uses each one
 * its caller does not replace; the fenced file worker uses them as they are.
 */
import { defaultProcessRunner } from "../exec/mod.ts";
import type { ShellAnalysis } from "../permission/mod.ts";
import { createWebClient, type WebClient } from "../web/mod.ts";
import type { OpenedFile, TextFileBackend, ToolDeps, WriteReport } from "./tool.ts";
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

let webClient: WebClient | null = null;

/** The real dependencies; the web client is created once and shared. */
export function defaultToolDeps(): ToolDeps {
  return {
    files: diskFiles,
    runner: defaultProcessRunner(),
    web: webClient ??= createWebClient(),
    overflow: null,
    analyzeShell,
  };
}

async function analyzeShell(command: string): Promise<ShellAnalysis> {
  // Loaded on first use: the parser is large and most sessions never run a command.
  const shell = await import("../permission/shell.ts");
  return await shell.analyzeShell(command);
}
