/**
 * The one entry point of a search: a file is read and matched whole; a directory is walked and
 * searched, split with the pool threads when it is large, and searched again on the calling
 * thread alone when the threads (not the search) fail.
 */
import type { Sandbox } from "../sandbox/mod.ts";
import { searchFile } from "./_big_file.ts";
import type { GrepHit, GrepSpec } from "./_entry.ts";
import { grepPool, GrepPoolError, searchTree, type TreeSearch } from "./_pool.ts";
import { gitignoreTop } from "./_walk.ts";

/** One search, as plain values. */
export interface GrepRequest {
  /** The canonical file or directory to search, already checked against the sandbox. */
  path: string;
  /** A file is matched whole; a directory is walked (.gitignore, .git, binaries skipped). */
  isFile: boolean;
  /** A valid RE2 pattern, matched against each line. */
  pattern: string;
  caseSensitive: boolean;
  /** Matching lines wanted: the search stops once it has more (the caller applies the cap). */
  max: number;
  /** Only files matching this glob: with a "/" against the path under `path`, else the name. */
  glob?: string;
  /** Context lines shown around each match (pool threads send back only those). @default 0 */
  context?: number;
  /** Decides which walked entries may be read (deny_read, symlink targets). */
  sandbox: Sandbox;
  signal: AbortSignal;
  /** Told when the pool threads failed and the search ran again on the calling thread. */
  onNotice?: (message: string) => void;
  /** Told how far the search of one large file got ("120 MB of 200 MB"), when it runs long. */
  onProgress?: (message: string) => void;
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1e6)} MB`;
}

/**
 * The files with matching lines, in walk order, up to the first file whose matches take the
 * running total past `max`. Throws `cancelled` when the signal fired; a file that cannot be read
 * throws the runtime's error.
 */
export async function grep(request: GrepRequest): Promise<GrepHit[]> {
  const { path, sandbox, signal } = request;
  const spec: GrepSpec = {
    pattern: request.pattern,
    caseSensitive: request.caseSensitive,
    max: request.max,
  };
  if (request.isFile) {
    // Read in chunks: a cancel stops a huge file between them, and a long search says how far.
    const onProgress = request.onProgress;
    const match = await searchFile({
      path,
      spec,
      context: request.context ?? 0,
      signal,
      onProgress: onProgress && ((done, total) => onProgress(`${mb(done)} of ${mb(total)}`)),
    });
    return match ? [{ file: path, walked: path, ...match }] : [];
  }
  // Synchronous reads into one reused buffer (Deno's per-op cost dominates on large trees);
  // a large tree is split between this thread and the pool's, in walk order.
  const search = (pool: TreeSearch["pool"]) =>
    searchTree({
      start: path,
      top: gitignoreTop(path, sandbox.workspace, sandbox.roots),
      spec,
      filter: { glob: request.glob, prefix: path.length + 1, context: request.context ?? 0 },
      context: request.context ?? 0,
      sandbox,
      signal,
      pool,
      onNotice: request.onNotice,
    });
  try {
    // The pool is asked for only when the walk turns out large (`searchTree`): a small tree
    // never starts a thread.
    return await search(grepPool);
  } catch (error) {
    if (!(error instanceof GrepPoolError) || signal.aborted) throw error;
    request.onNotice?.(`${error.message}; searched on one thread instead`);
    return await search(null);
  }
}
