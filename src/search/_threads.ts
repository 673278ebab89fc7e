/**
 * How many pool threads a search uses and which module they run. Kept apart from _pool.ts so the
 * unfenced end of a fenced thread's link (link.ts) starts without loading the search engine.
 */

/** The pool thread module (a literal URL, so `deno compile --include` finds it). */
const POOL_THREAD = new URL("./_pool_thread.ts", import.meta.url);
let threadModule = POOL_THREAD;

/** The module pool threads run: `./_pool_thread.ts`, or another one (tests). */
export function poolThreadModule(): URL {
  return threadModule;
}

/** Runs pool threads from another module (tests: a thread that cannot start); none: the real. */
export function setPoolThreadModule(url?: URL): void {
  threadModule = url ?? POOL_THREAD;
}

/**
 * Entries the calling thread walks alone before it splits the rest of the tree: small trees
 * never pay for posting a job (bench/README.md "## grep vs ripgrep" has the trade-off).
 */
export const SPLIT_AFTER_ENTRIES = 1000;

let threadsOverride: number | undefined;

/** Pool threads beside the calling thread: one less than the CPUs, at most 3, unless set. */
export function poolThreads(): number {
  if (threadsOverride !== undefined) return threadsOverride;
  const cpus = navigator.hardwareConcurrency ?? 1;
  return Math.max(0, Math.min(3, cpus - 1));
}

/** Overrides `poolThreads()` (undefined: back to the default); _pool.ts resizes its pool. */
export function overridePoolThreads(threads?: number): void {
  threadsOverride = threads;
}
