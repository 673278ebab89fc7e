/**
 * The bridge inside a sandbox's network namespace: listens on 127.0.0.1:<port> and forwards
 * every connection to zeph's proxy socket (a unix socket bound into the sandbox). Kept free of
 * imports so the Deno binary can run it as a script, and a compiled zeph as `__sandbox-bridge`.
 */

/** Runs the bridge for `[port, socketPath]` until the sandbox ends. */
export async function runSandboxBridge(args: string[]): Promise<void> {
  const [portText, socketPath] = args;
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535 || !socketPath) {
    throw new Error("usage: __sandbox-bridge <port> <proxy socket path>");
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port });
  for await (const client of listener) {
    forward(client, socketPath);
  }
}

async function forward(client: Deno.Conn, socketPath: string): Promise<void> {
  let upstream: Deno.Conn;
  try {
    upstream = await Deno.connect({ transport: "unix", path: socketPath });
  } catch (error) {
    console.error(`zeph: the sandbox's network bridge cannot reach the proxy: ${error}`);
    client.close();
    return;
  }
  await relay(client, upstream);
}

/** Copies `from` to `to` until `from` ends; a read or write error is thrown. */
export async function copyUntilEnd(from: Deno.Conn, to: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const n = await from.read(buffer);
    if (n === null) return;
    let written = 0;
    while (written < n) written += await to.write(buffer.subarray(written, n));
  }
}

/**
 * Copies both ways; an end of input is passed on as a half close, an error closes both. Both
 * connections are closed when both directions are done.
 */
export async function relay(a: Deno.Conn, b: Deno.Conn): Promise<void> {
  const pump = async (from: Deno.Conn, to: Deno.Conn) => {
    try {
      await copyUntilEnd(from, to);
      await to.closeWrite().catch(() => {});
    } catch {
      closeQuietly(a);
      closeQuietly(b);
    }
  };
  await Promise.all([pump(a, b), pump(b, a)]);
  closeQuietly(a);
  closeQuietly(b);
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

if (import.meta.main) {
  await runSandboxBridge(Deno.args);
}
