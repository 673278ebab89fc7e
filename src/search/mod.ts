/**
 * The search engine behind grep and find_path: the .gitignore-aware walk, the per-file matcher
 * and, for large trees, a pool of threads that search in walk order with the output of one
 * thread. `grep` is the one entry point; the pool's threads, their lifecycle and their
 * permission fence are this folder's business. It must not import tools/: it throws the error
 * taxonomy's `ToolError` and takes plain values.
 */
export { grep, type GrepRequest } from "./_grep.ts";
export { BINARY_SNIFF_BYTES, type GrepHit } from "./_entry.ts";
export { gitignoreTop, type WalkEntry, walkFiles } from "./_walk.ts";
/**
 * The pool of a permission-fenced thread: `openSearchLink(roots)` on the unfenced side (also
 * its own entry point, link.ts), its `port` handed to the fenced thread's `useSearchLink(port)`.
 */
export { openSearchLink, type SearchLink } from "./link.ts";
export { useSearchLink } from "./_fence.ts";
/** How many pool threads searches use (0: the calling thread alone; undefined: the default). */
export { setPoolThreads as setSearchThreads } from "./_pool.ts";
