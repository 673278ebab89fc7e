/**
 * The fenced end of a link (link.ts): the grep pool of a permission-fenced thread (the file
 * worker) is a set of ports to threads the unfenced side started for it.
 */
import { type GrepJobResult, GrepPool, setGrepPoolProvider } from "./_pool.ts";
import type { LinkMessage } from "./link.ts";

/** In the fenced thread: this thread's searches get their pool threads over `port`. */
export function useSearchLink(port: MessagePort): void {
  let pool: GrepPool | null = null;
  let answered: Promise<void> | null = null;
  let answer = () => {};
  port.onmessage = (event: MessageEvent<LinkMessage>) => {
    if (event.data?.type !== "ports") return;
    // No ports after a thread failed: a search waiting on the old threads fails (and runs
    // again on this thread); later searches stay on this thread.
    pool?.close();
    pool = event.data.ports.length ? portPool(event.data.ports) : null;
    answer();
  };
  setGrepPoolProvider(async () => {
    if (!answered) {
      answered = new Promise((resolve) => answer = resolve);
      port.postMessage({ type: "threads" } satisfies LinkMessage);
    }
    await answered;
    return pool;
  });
}

function portPool(ports: MessagePort[]): GrepPool {
  return new GrepPool((onResult) =>
    ports.map((port) => {
      port.onmessage = (event: MessageEvent<GrepJobResult>) => onResult(event.data);
      return {
        post: (message) => port.postMessage(message),
        hold: () => {},
        terminate: () => port.close(),
      };
    })
  );
}
