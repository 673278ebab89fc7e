/** Ctrl-C during one CLI call: it aborts the call's signal instead of killing zeph mid-write. */
export async function withInterrupt<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    return await run(controller.signal);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
  }
}
