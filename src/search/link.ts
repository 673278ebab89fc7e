/**
 * The unfenced end of a permission-fenced thread's grep pool (the file worker's). Such a thread
 * cannot start workers (that needs read permission on zeph's own modules, which its fence does
 * not grant), so the unfenced side keeps one end of a link and starts the pool threads when the
 * fenced side first asks: each may read the fence's roots and nothing else. The fenced side
 * gets a port to each thread over the link (_fence.ts). The roots are fixed on this side: the
 * fenced side can ask for threads, never for wider ones. An entry point of its own, apart from
 * mod.ts, so a file worker starts without this thread loading the search engine.
 */
import { poolThreadModule, poolThreads, SPLIT_AFTER_ENTRIES } from "./_threads.ts";

/** What the two ends of a link say. */
export type LinkMessage =
  /** fenced → unfenced: start the threads. */
  | { type: "threads" }
  /** unfenced → fenced: a port to each thread; none when they could not run. */
  | { type: "ports"; ports: MessagePort[] };

/** The unfenced end of a fenced thread's search: `port` goes to that thread. */
export interface SearchLink {
  /** Transfer it to the fenced thread, which passes it to `useSearchLink`. */
  readonly port: MessagePort;
  /** Pool threads running for this link now (0 before the first ask, unless eager). */
  readonly threads: number;
  /** Terminates the pool threads and closes the link. */
  close(): void;
}

/** Read permission on the roots, nothing else (no write: a search only reads). */
function readOnly(roots: readonly string[]) {
  return {
    read: [...roots],
    write: false,
    net: false,
    run: false,
    env: false,
    ffi: false,
    sys: false,
    import: false,
  };
}

/** How a link starts. */
export interface SearchLinkOptions {
  /**
   * Start the pool threads now rather than when the fenced side first asks, if this directory
   * (canonical, inside the roots: the caller checks) is large enough that its search will split
   * (`isLargeTree`): a one-shot grep knows what it will search, and the threads then load
   * their modules while the rest of the process starts. A small tree or a file never starts
   * them. @default none
   */
  eagerFor?: string;
}

/**
 * Whether a walk of `dir` meets at least `SPLIT_AFTER_ENTRIES` entries (files and directories,
 * `.git` and symlinked directories not entered, .gitignore not applied): the size at which a
 * search of it asks for the pool. Names only, at most that many; false if it cannot be read.
 */
export function isLargeTree(dir: string): boolean {
  let seen = 0;
  const stack = [dir];
  try {
    while (stack.length) {
      const at = stack.pop()!;
      for (const entry of Deno.readDirSync(at)) {
        if (++seen >= SPLIT_AFTER_ENTRIES) return true;
        if (entry.isDirectory && entry.name !== ".git") stack.push(`${at}/${entry.name}`);
      }
    }
  } catch {
    return false;
  }
  return false;
}

/** Opens a link for a thread fenced to `roots`; its pool threads start when it asks. */
export function openSearchLink(
  roots: readonly string[],
  options: SearchLinkOptions = {},
): SearchLink {
  const { port1: link, port2: port } = new MessageChannel();
  let threads: Worker[] = [];
  /** The fenced side's ends, until they are handed over (once per link). */
  let ports: MessagePort[] = [];
  let state: "idle" | "running" | "handed" | "stopped" = "idle";
  // A thread crashed (or its module did not load): the threads go, and the fenced side hears
  // it, which fails a search waiting on them so that it runs again on one thread. No new threads
  // are started for this link.
  const drop = () => {
    if (state === "idle" || state === "stopped") return;
    state = "stopped";
    for (const thread of threads) thread.terminate();
    threads = [];
    ports = [];
    link.postMessage({ type: "ports", ports: [] } satisfies LinkMessage);
  };
  const start = () => {
    state = "running";
    for (let k = 0; k < poolThreads(); k++) {
      const thread = new Worker(poolThreadModule().href, {
        type: "module",
        deno: { permissions: readOnly(roots) },
      } as WorkerOptions);
      thread.onerror = (error: ErrorEvent) => {
        error.preventDefault();
        drop();
      };
      const channel = new MessageChannel();
      thread.postMessage({ type: "port", port: channel.port2 }, [channel.port2]);
      ports.push(channel.port1);
      threads.push(thread);
    }
  };
  link.onmessage = (event: MessageEvent<LinkMessage>) => {
    if (event.data?.type !== "threads") return;
    if (state === "idle") start();
    if (state !== "running") {
      link.postMessage({ type: "ports", ports: [] } satisfies LinkMessage);
      return;
    }
    state = "handed";
    const handed = ports;
    ports = [];
    link.postMessage({ type: "ports", ports: handed } satisfies LinkMessage, handed);
  };
  const eager = options.eagerFor;
  if (eager !== undefined && isLargeTree(eager)) start();
  return {
    port,
    get threads() {
      return threads.length;
    },
    close() {
      state = "stopped";
      for (const thread of threads) thread.terminate();
      threads = [];
      ports = [];
      link.close();
    },
  };
}
