/**
 * The session's tool result cache (spec "Tool Result Cache", `[tools.result_cache]`): results of
 * tools that declare `cacheable` (they only read), keyed by tool + canonical arguments, in
 * memory, with a TTL. It is never stale, unlike the reference implementation's (which cached
 * `edit` and served an old `read` after it):
 * - every call of any other tool (a mutation, bash, an MCP or unknown tool) invalidates the
 *   entries it may affect: a path it names and everything under or above it, compared on
 *   absolute and canonical spellings; a call that names no paths drops every file entry;
 * - a file entry remembers what its paths looked like (modification time, size, inode) before
 *   the tool ran, and a hit whose paths changed since (an editor, another process) is a miss;
 * - a result computed while an invalidation happened is not stored;
 * - a new user turn drops the file entries (changes below a directory cannot be seen from it).
 */

/** Most entries kept; the oldest goes first. */
export const MAX_CACHE_ENTRIES = 512;

/** What is cached of a result: enough to answer the same call again. */
export interface CachedResult {
  text: string;
  overflowId?: string;
}

interface Entry {
  value: CachedResult;
  expires: number;
  /** Absolute spellings of the paths the result depends on; null for non-file results. */
  paths: string[] | null;
  stamps: string[];
}

export interface ResultCacheOptions {
  enabled: boolean;
  /** 0 means entries do not expire. */
  ttlSecs: number;
  /** @default Date.now */
  now?: () => number;
  /** @default MAX_CACHE_ENTRIES */
  maxEntries?: number;
}

export class ResultCache {
  readonly enabled: boolean;
  #entries = new Map<string, Entry>();
  #ttlMs: number;
  #now: () => number;
  #max: number;
  #generation = 0;
  hits = 0;
  misses = 0;

  constructor(options: ResultCacheOptions) {
    this.enabled = options.enabled;
    this.#ttlMs = options.ttlSecs * 1000;
    this.#now = options.now ?? Date.now;
    this.#max = options.maxEntries ?? MAX_CACHE_ENTRIES;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Bumped by every invalidation: a result computed across a change is not stored. */
  get generation(): number {
    return this.#generation;
  }

  /** The entry for `key` if it is alive and its paths are unchanged, else undefined. */
  async get(key: string): Promise<CachedResult | undefined> {
    if (!this.enabled) return undefined;
    const entry = this.#entries.get(key);
    if (entry && entry.expires > this.#now()) {
      const generation = this.#generation;
      const stamps = entry.paths ? await stampsOf(entry.paths) : [];
      if (generation === this.#generation && sameStamps(stamps, entry.stamps)) {
        this.hits++;
        return entry.value;
      }
    }
    if (entry) this.#entries.delete(key);
    this.misses++;
    return undefined;
  }

  /**
   * Stores `value` unless the cache changed since `generation` (read before the tool ran, as
   * `stamps` were, from {@link stampsOf}).
   */
  set(
    key: string,
    value: CachedResult,
    options: { paths: string[] | null; stamps: string[]; generation: number },
  ): void {
    if (!this.enabled || options.generation !== this.#generation) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#max) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    const expires = this.#ttlMs > 0 ? this.#now() + this.#ttlMs : Infinity;
    this.#entries.set(key, { value, expires, paths: options.paths, stamps: options.stamps });
  }

  /** Drops the file entries any of `paths` may affect (the same path, below it, or above it). */
  invalidatePaths(paths: readonly string[]): void {
    this.#generation++;
    for (const [key, entry] of this.#entries) {
      if (entry.paths?.some((e) => paths.some((p) => related(e, p)))) this.#entries.delete(key);
    }
  }

  /** Drops every file entry (bash, an MCP or unknown tool, a new user turn). */
  invalidateFiles(): void {
    this.#generation++;
    for (const [key, entry] of this.#entries) if (entry.paths) this.#entries.delete(key);
  }

  /** Drops everything (`/clear`). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

/** The cache key: the tool id and its validated arguments with object keys sorted. */
export function cacheKey(tool: string, params: unknown): string {
  return `${tool}\u0000${canonicalJson(params)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What each path looks like now: modification time, size and inode, or "missing". */
export async function stampsOf(paths: readonly string[]): Promise<string[]> {
  return await Promise.all(paths.map(async (p) => {
    try {
      const info = await Deno.stat(p);
      return `${info.mtime?.getTime() ?? "?"}:${info.size}:${info.ino ?? "?"}:${info.isDirectory}`;
    } catch {
      return "missing";
    }
  }));
}

function sameStamps(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** True when one path is the other or contains it, component-wise. */
function related(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  const prefix = short.endsWith("/") ? short : `${short}/`;
  return long.startsWith(prefix);
}
