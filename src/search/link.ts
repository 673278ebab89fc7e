/**
 * The unfenced end of a permission-fenced thread's grep pool (the file worker's). Such a thread
 * cannot start workers (that needs read permission on zeph's own modules, which its fence does
 * not grant), so the unfenced side keeps one end of a link and starts the pool threads when the
 * fenced side first asks: each may read the fence's roots and nothing else. The fenced side
 * gets a port to each thread over the link (_fence.ts). The roots are fixed on this side: the
 * fenced side can ask for threads, never for wider ones. An entry point of its own, apart from
 * mod.ts, so a file worker starts without this thread loading the search engine.
 */
import { poolThreadModule, poolThreads } from "./_threads.ts";

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

/** Opens a link for a thread fenced to `roots`; its pool threads start when it asks. */
export function openSearchLink(roots: readonly string[]): SearchLink {
  const { port1: link, port2: port } = new MessageChannel();
  let threads: Worker[] = [];
  let state: "idle" | "running" | "stopped" = "idle";
  // A thread crashed (or its module did not load): the threads go, and the fenced side hears
  // it, which fails a search waiting on them so that it runs again on one thread. No new threads
  // are started for this link.
  const drop = () => {
    if (state !== "running") return;
    state = "stopped";
    for (const thread of threads) thread.terminate();
    threads = [];
    link.postMessage({ type: "ports", ports: [] } satisfies LinkMessage);
  };
  link.onmessage = (event: MessageEvent<LinkMessage>) => {
    if (event.data?.type !== "threads") return;
    if (state !== "idle") {
      link.postMessage({ type: "ports", ports: [] } satisfies LinkMessage);
      return;
    }
    state = "running";
    const ports: MessagePort[] = [];
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
    link.postMessage({ type: "ports", ports } satisfies LinkMessage, ports);
  };
  return {
    port,
    close() {
      state = "stopped";
      for (const thread of threads) thread.terminate();
      threads = [];
      link.close();
    },
  };
}
