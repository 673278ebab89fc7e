/**
 * grep over large trees on several threads. The calling thread walks and searches the first
 * files itself (small trees never leave it); past `SPLIT_AFTER_ENTRIES` it cuts what the walk has
 * not visited yet into units (runs of files, whole directories with the .gitignore rules in force
 * there), and it and the pool threads claim units from a shared counter, each walking, reading
 * and matching its units. Results are put back in walk order, so the output and the match cap
 * are exactly those of the one-thread search: a unit stops once the matches of everything up to
 * it pass the cap, and units after that are not searched.
 *
 * The pool is kept warm across calls. In an unfenced thread it is a set of
 * `node:worker_threads` workers, unref'd while idle so they never keep the process alive; in a
 * permission-fenced thread it is a set of ports to threads started for it on the unfenced side
 * (_fence.ts).
 */
import { Worker as NodeWorker } from "node:worker_threads";
import { Sandbox, type SandboxSnapshot } from "../sandbox/mod.ts";
import { type EntryFilter, entrySearcher, type GrepHit, type GrepSpec } from "./_entry.ts";
import { type DirUnit, type Matcher, type WalkEntry, Walker, type WalkOptions } from "./_walk.ts";
import { ToolError } from "../errors/mod.ts";
import {
  overridePoolThreads,
  poolThreadModule,
  poolThreads,
  SPLIT_AFTER_ENTRIES,
} from "./_threads.ts";

export {
  poolThreadModule,
  poolThreads,
  setPoolThreadModule,
  SPLIT_AFTER_ENTRIES,
} from "./_threads.ts";

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ToolError("cancelled", "Cannot search: cancelled");
}
/** Directories are opened (shallowest first) until there are at least this many units. */
const TARGET_UNITS = 32;
/** Most directories the calling thread opens to make units. */
const MAX_OPENED = 256;
/** Most files in one unit of loose files. */
const FILES_PER_UNIT = 256;

export type GrepUnit = { files: WalkEntry[] } | DirUnit;

/** One parallel search, as posted to every pool thread. */
export interface GrepJob {
  id: number;
  spec: GrepSpec;
  filter: EntryFilter;
  /** Context lines around each match (pool threads send back only the lines shown). */
  context: number;
  sandbox: SandboxSnapshot;
  units: GrepUnit[];
  /** Matching lines the calling thread found before the split. */
  base: number;
  /** Int32 control words (see `control`), shared by all threads of the search. */
  control: SharedArrayBuffer;
}

export interface GrepJobResult {
  id: number;
  thread: number;
  /** Hits of each unit the thread searched, by unit index. */
  units: [number, GrepHit[]][];
  error?: string;
}

export type PoolMessage = { type: "job"; job: GrepJob; thread: number };

// Control words: next unit to claim, stop (CANCELLED or FAILED), total matching lines, the first
// unit whose prefix passed the cap; then per unit who claimed it (thread + 1) and its match count.
const NEXT = 0;
const STOP = 1;
const CANCELLED = 1;
/** A thread could not do its part: the search must fail, not return what the others found. */
const FAILED = 2;
const TOTAL = 2;
const CUTOFF = 3;
const HEADER = 4;
const CLOSED = 1 << 30;

function control(units: number): Int32Array {
  const ctl = new Int32Array(new SharedArrayBuffer(4 * (HEADER + 2 * units)));
  ctl[CUTOFF] = 0x7fffffff;
  return ctl;
}

/** Only the lines the output can show (matches and their context), at their indexes. */
function trimmed(hit: GrepHit, context: number): GrepHit {
  const lines: string[] = [];
  for (const n of hit.matched) {
    const to = Math.min(hit.lines.length - 1, n + context);
    for (let k = Math.max(0, n - context); k <= to; k++) lines[k] = hit.lines[k];
  }
  lines.length = hit.lines.length;
  return { file: hit.file, walked: hit.walked, matched: hit.matched, lines };
}

/**
 * Claims and searches units until none is left, the search is stopped, or the cap is passed
 * before the next unit. `thread` is 0 for the calling thread; `poll` reports its cancellation.
 */
export function searchUnits(
  job: GrepJob,
  ctl: Int32Array,
  thread: number,
  search: (entry: WalkEntry, stopped: () => boolean) => GrepHit | null,
  cache: Map<string, Matcher>,
  options: { trim: boolean; poll?: () => boolean },
): Map<number, GrepHit[]> {
  const n = job.units.length;
  const max = job.spec.max;
  const claimedAt = HEADER;
  const countAt = HEADER + n;
  const out = new Map<number, GrepHit[]>();
  const poll = options.poll;
  const stopped = () => {
    if (Atomics.load(ctl, STOP) !== 0) return true;
    if (poll?.()) {
      Atomics.compareExchange(ctl, STOP, 0, CANCELLED);
      return true;
    }
    return false;
  };
  const walkOptions: WalkOptions = {
    gitignore: true,
    top: "",
    signal: {
      get aborted() {
        return stopped();
      },
    },
  };
  for (;;) {
    if (stopped()) break;
    const i = Atomics.add(ctl, NEXT, 1);
    if (i >= n) break;
    Atomics.store(ctl, claimedAt + i, thread + 1);
    if (i > Atomics.load(ctl, CUTOFF)) break;
    const hits: GrepHit[] = [];
    /** False once this unit must stop: cancelled, or everything up to here passed the cap. */
    const visit = (entry: WalkEntry): boolean => {
      if (stopped() || i > Atomics.load(ctl, CUTOFF)) return false;
      const hit = search(entry, stopped);
      if (!hit) return true;
      hits.push(options.trim ? trimmed(hit, job.context) : hit);
      const c = hit.matched.length;
      Atomics.add(ctl, countAt + i, c);
      if (job.base + Atomics.add(ctl, TOTAL, c) + c <= max) return true;
      let prefix = job.base;
      for (let j = 0; j <= i; j++) prefix += Atomics.load(ctl, countAt + j);
      if (prefix <= max) return true;
      // Units after this one are past the cap: lower the cutoff to this unit.
      for (let cur = Atomics.load(ctl, CUTOFF); i < cur; cur = Atomics.load(ctl, CUTOFF)) {
        if (Atomics.compareExchange(ctl, CUTOFF, cur, i) === cur) break;
      }
      return false;
    };
    const unit = job.units[i];
    if ("files" in unit) {
      for (const entry of unit.files) if (!visit(entry)) break;
    } else {
      const walker = Walker.fromDir(unit, walkOptions, cache);
      for (let entry = walker.next(); entry; entry = walker.next()) if (!visit(entry)) break;
    }
    if (hits.length) out.set(i, hits);
  }
  return out;
}

let lastSearch:
  | { key: string; search: (entry: WalkEntry, stopped: () => boolean) => GrepHit | null }
  | undefined;

/** A pool thread's side of a job (_pool_thread.ts). */
export function runJob(
  job: GrepJob,
  thread: number,
  cache: Map<string, Matcher>,
): GrepJobResult {
  try {
    // An agent repeats searches: the compiled matcher and sandbox of the last job are reused.
    const key = JSON.stringify([job.spec, job.filter, job.sandbox]);
    if (!lastSearch || lastSearch.key !== key) {
      lastSearch = {
        key,
        search: entrySearcher(job.spec, job.filter, Sandbox.restore(job.sandbox)),
      };
    }
    const search = lastSearch.search;
    const units = searchUnits(job, new Int32Array(job.control), thread, search, cache, {
      trim: true,
    });
    return { id: job.id, thread, units: [...units] };
  } catch (error) {
    // The caller cannot complete the search without these units: stop everyone, and make the
    // caller fail even if this thread claimed nothing (no one waits for this answer then).
    Atomics.store(new Int32Array(job.control), STOP, FAILED);
    return { id: job.id, thread, units: [], error: String(error) };
  }
}

/** One pool thread as the pool sees it. */
export interface PoolEndpoint {
  post(message: PoolMessage): void;
  /** True while a job is out: a node worker is ref'd then, so the caller's await holds. */
  hold(busy: boolean): void;
  terminate(): void;
}

/**
 * The pool, not the search, failed (a thread crashed, could not start the job, or was stopped):
 * the caller can run the same search on its own thread instead.
 */
export class GrepPoolError extends ToolError {
  constructor(message: string) {
    super("server_error", message);
    this.name = "GrepPoolError";
  }
}

/** Pool threads and the jobs out to them. */
export class GrepPool {
  #endpoints: PoolEndpoint[];
  #waiting = new Map<string, { resolve(r: GrepJobResult): void; reject(e: Error): void }>();
  #jobs = 0;
  #dispatched = 0;
  #nextId = 1;
  #closed = false;

  /** `make` builds the endpoints, given where their answers and failures go. */
  constructor(
    make: (
      onResult: (r: GrepJobResult) => void,
      onFail: (message: string) => void,
    ) => PoolEndpoint[],
  ) {
    this.#endpoints = make((r) => this.#onResult(r), (m) => this.#stop(m));
  }

  get threads(): number {
    return this.#endpoints.length;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Jobs posted so far (tests check that a search really went parallel). */
  get dispatched(): number {
    return this.#dispatched;
  }

  nextId(): number {
    return this.#nextId++;
  }

  /** Posts the job to every thread; they claim units as soon as they are free. */
  dispatch(job: GrepJob): void {
    this.#dispatched++;
    if (this.#jobs++ === 0) { for (const e of this.#endpoints) e.hold(true); }
    this.#endpoints.forEach((e, k) => e.post({ type: "job", job, thread: k + 1 }));
  }

  /** The answers of the threads that claimed units; ends the job. */
  async collect(id: number, threads: number[], signal?: AbortSignal): Promise<GrepJobResult[]> {
    const waits = threads.map((t) =>
      new Promise<GrepJobResult>((resolve, reject) =>
        this.#waiting.set(`${id}:${t}`, { resolve, reject })
      )
    );
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new ToolError("cancelled", "Cannot search: cancelled"));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([Promise.all(waits), aborted]);
    } finally {
      signal?.removeEventListener("abort", onAbort!);
      for (const t of threads) this.#waiting.delete(`${id}:${t}`);
      if (--this.#jobs === 0 && !this.#closed) { for (const e of this.#endpoints) e.hold(false); }
    }
  }

  #onResult(r: GrepJobResult): void {
    const w = this.#waiting.get(`${r.id}:${r.thread}`);
    if (!w) return; // a job that was cancelled, or one the thread joined after all was claimed
    this.#waiting.delete(`${r.id}:${r.thread}`);
    if (r.error) w.reject(new GrepPoolError(`A grep thread failed: ${r.error}`));
    else w.resolve(r);
  }

  /** Terminates the threads; a search waiting for them fails with `server_error`. */
  close(): void {
    this.#stop("The grep threads were stopped during the search");
  }

  #stop(message: string): void {
    if (this.#closed) return;
    this.#closed = true;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const e of this.#endpoints) e.terminate();
    for (const w of waiting) w.reject(new GrepPoolError(message));
  }
}

/**
 * Sets how many pool threads searches use from now on (0: the calling thread alone); undefined
 * goes back to the default. A pool of another size is closed and the next search starts one of
 * the right size; 0 keeps the pool for when the count comes back (benchmarks switch it off and
 * on between rounds, and a new pool would make them time its start-up).
 */
export function setPoolThreads(threads?: number): void {
  overridePoolThreads(threads);
  const wanted = poolThreads();
  if (localPool && wanted !== 0 && localPool.threads !== wanted) {
    localPool.close();
    localPool = undefined;
  }
}

let localPool: GrepPool | undefined;
/** A thread crashed or exited: no new pool for this process (grep stays on one thread). */
let localBroken = false;

/** The pool of this (unfenced) process: node workers, started on first use. */
export function localGrepPool(): GrepPool | null {
  const threads = poolThreads();
  if (threads === 0) return null;
  if (localPool && !localPool.closed) return localPool;
  if (localBroken) return null;
  // Not after close(): its terminations exit the threads too.
  const broken = (message: string) => (onFail: (m: string) => void) => {
    if (pool.closed) return;
    localBroken = true;
    onFail(message);
  };
  const pool: GrepPool = new GrepPool((onResult, onFail) =>
    Array.from({ length: threads }, () => {
      const worker = new NodeWorker(poolThreadModule());
      worker.unref();
      worker.on("message", onResult);
      worker.on(
        "error",
        (error: Error) => broken(`A grep thread crashed: ${error.message}`)(onFail),
      );
      // Only close() terminates a thread; any other exit would leave its jobs unanswered.
      worker.on("exit", (code: number) => broken(`A grep thread exited (code ${code})`)(onFail));
      return {
        post: (message) => worker.postMessage(message),
        hold: (busy) => busy ? worker.ref() : worker.unref(),
        terminate: () => void worker.terminate(),
      };
    })
  );
  localPool = pool;
  return pool;
}

type PoolProvider = () => GrepPool | null | Promise<GrepPool | null>;
let provider: PoolProvider = localGrepPool;

/** The pool for this thread, or null (search on this thread only). */
export async function grepPool(): Promise<GrepPool | null> {
  return await provider();
}

/**
 * Where this thread's pool comes from: a fenced thread gets ports (_fence.ts), never spawns;
 * tests put in a pool of their own. Returns the previous provider.
 */
export function setGrepPoolProvider(next: PoolProvider): PoolProvider {
  const previous = provider;
  provider = next;
  return previous;
}

/**
 * Cuts what the walk has not visited into units. The last units claimed decide how long the
 * slowest thread runs, and the remainder's shallow directories (the start directory's other
 * children) are the largest: directories are opened shallowest first until all are as deep as
 * the deepest one and there are enough units, or `MAX_OPENED` were opened here (serially).
 */
function makeUnits(
  rest: (WalkEntry | DirUnit)[],
  cache: Map<string, Matcher>,
  options: WalkOptions,
): GrepUnit[] {
  const isDir = (x: WalkEntry | DirUnit): x is DirUnit => "dir" in x;
  const depth = (d: DirUnit) => d.dir.split("/").length;
  let items = rest;
  let opened = 0;
  for (;;) {
    let shallowest = Infinity;
    let deepest = -Infinity;
    let count = 0;
    for (const x of items) {
      if (!isDir(x)) continue;
      const d = depth(x);
      if (d < shallowest) [shallowest, count] = [d, 0];
      if (d === shallowest) count++;
      deepest = Math.max(deepest, d);
    }
    if (shallowest === Infinity) break;
    if (shallowest === deepest && items.length >= TARGET_UNITS) break;
    if (opened + count > MAX_OPENED) break;
    opened += count;
    items = items.flatMap((x) =>
      isDir(x) && depth(x) === shallowest ? Walker.fromDir(x, options, cache).rest() : [x]
    );
  }
  const units: GrepUnit[] = [];
  let files: WalkEntry[] | null = null;
  for (const x of items) {
    if (isDir(x)) {
      units.push(x);
      files = null;
    } else {
      if (!files || files.length >= FILES_PER_UNIT) units.push({ files: files = [] });
      files.push(x);
    }
  }
  return units;
}

export interface TreeSearch {
  start: string;
  /** Highest directory whose .gitignore applies. */
  top: string;
  spec: GrepSpec;
  filter: EntryFilter;
  context: number;
  sandbox: Sandbox;
  signal: AbortSignal;
  /**
   * Null: this thread only. A function: asked for the pool only once the walk passes
   * `splitAfter` entries, so a small tree never starts a thread; the walk goes on alone until
   * the pool answers.
   */
  pool: GrepPool | null | (() => Promise<GrepPool | null>);
  /** Entries walked alone before splitting (tests use 0). @default SPLIT_AFTER_ENTRIES */
  splitAfter?: number;
  /** Told when the pool was asked for and could not start, so the search ran on one thread. */
  onNotice?: (message: string) => void;
}

/**
 * While a pool is on its way, the walk lets the event loop run every this many entries: the
 * answer comes as a message, which a synchronous walk would never see.
 */
const POLL_POOL_EVERY = 128;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The files with matching lines under `start`, in walk order, up to the first file whose
 * matches take the running total past `spec.max` (the caller applies the cap). Throws
 * `cancelled` when the signal fired.
 */
export async function searchTree(s: TreeSearch): Promise<GrepHit[]> {
  const walkOptions: WalkOptions = { gitignore: true, top: s.top, signal: s.signal };
  const walker = Walker.of(s.start, walkOptions);
  const search = entrySearcher(s.spec, s.filter, s.sandbox);
  const hits: GrepHit[] = [];
  const max = s.spec.max;
  const splitAfter = s.splitAfter ?? SPLIT_AFTER_ENTRIES;
  // undefined: not known yet (not asked, or asked and not answered).
  let pool: GrepPool | null | undefined = typeof s.pool === "function" ? undefined : s.pool;
  const ask = typeof s.pool === "function" ? s.pool : null;
  let asked = false;
  let found = 0;
  let walked = 0;
  for (let entry = walker.next(); entry; entry = walker.next()) {
    if (found > max || s.signal.aborted) break;
    const hit = search(entry, () => s.signal.aborted);
    if (hit) {
      hits.push(hit);
      found += hit.matched.length;
    }
    if (++walked < splitAfter || pool === null) continue;
    if (pool) break;
    if (!asked) {
      asked = true;
      ask!().then((p) => void (pool = p), (error) => {
        pool = null;
        const why = error instanceof Error ? error.message : String(error);
        s.onNotice?.(`${why}; searched on one thread instead`);
      });
    }
    if ((walked - splitAfter) % POLL_POOL_EVERY === 0) await nextTask();
  }
  throwIfAborted(s.signal);
  if (!pool || found > max) return hits;

  const cache = new Map<string, Matcher>();
  const units = makeUnits(walker.rest(), cache, walkOptions);
  if (units.length === 0) return hits;
  const ctl = control(units.length);
  const job: GrepJob = {
    id: pool.nextId(),
    spec: s.spec,
    filter: s.filter,
    context: s.context,
    sandbox: s.sandbox.snapshot(),
    units,
    base: found,
    control: ctl.buffer as SharedArrayBuffer,
  };
  pool.dispatch(job);
  let own: Map<number, GrepHit[]>;
  try {
    own = searchUnits(job, ctl, 0, search, cache, { trim: false, poll: () => s.signal.aborted });
  } catch (error) {
    Atomics.compareExchange(ctl, STOP, 0, CANCELLED);
    await pool.collect(job.id, []);
    throw error;
  }
  // Close the counter: a thread that arrives late claims nothing.
  const threads = claimers(ctl, Math.min(Atomics.add(ctl, NEXT, CLOSED), units.length));
  // A cancel while the threads finish their units stops them as well.
  const stop = () => void Atomics.compareExchange(ctl, STOP, 0, CANCELLED);
  if (s.signal.aborted) stop();
  s.signal.addEventListener("abort", stop, { once: true });
  let results: GrepJobResult[];
  try {
    results = await pool.collect(job.id, threads, s.signal);
  } finally {
    s.signal.removeEventListener("abort", stop);
  }
  throwIfAborted(s.signal);
  if (Atomics.load(ctl, STOP) === FAILED) {
    throw new GrepPoolError("A grep thread failed: the search was stopped");
  }
  const byUnit = new Map(own);
  for (const r of results) for (const [i, h] of r.units) byUnit.set(i, h);
  for (let i = 0; i < units.length; i++) {
    const h = byUnit.get(i);
    if (h) hits.push(...h);
  }
  return hits;
}

/** The pool threads that claimed any of the first `claimed` units (each marks its claim). */
function claimers(ctl: Int32Array, claimed: number): number[] {
  const threads = new Set<number>();
  for (let i = 0; i < claimed; i++) {
    let who = Atomics.load(ctl, HEADER + i);
    // A claim is marked right after the counter moved: wait out that instant.
    while (who === 0) who = Atomics.load(ctl, HEADER + i);
    if (who > 1) threads.add(who - 1);
  }
  return [...threads];
}
