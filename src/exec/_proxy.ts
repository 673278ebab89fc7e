/**
 * The network proxy of sandboxed commands (`[tools.shell.sandbox] allowed_domains`): a command
 * runs in its own empty network namespace, and its HTTP/HTTPS traffic reaches zeph through a
 * unix socket bound into the sandbox. Here the host of each request is judged against the list
 * (CONNECT for https, absolute-URI requests for plain http), resolved once, and the socket goes
 * to the address that was checked. One proxy per zeph process; one listening socket per command,
 * so that what a command opened is closed when it ends.
 */
import * as path from "node:path";
import { copyUntilEnd, relay } from "./_bridge.ts";

/** One decision of the proxy, as the audit log records it. */
export interface ProxyDecision {
  /** `CONNECT` for a tunnel (https), else the HTTP method of a plain http request. */
  method: string;
  host: string;
  port: number;
  allowed: boolean;
  /** The allowed_domains entry that matched, when one did. */
  pattern: string | null;
  /** Why it was refused (absent when allowed). */
  reason?: string;
  /** The address connected to (absent when refused). */
  address?: string;
}

export interface NetworkProxyOptions {
  /** `[tools.shell.sandbox] allowed_domains` (checked by the config schema). */
  allowedDomains: readonly string[];
  /**
   * Why a resolved address must not be reached (private, loopback, link-local, …), or null.
   * Applied to hosts that a `*.` pattern allowed; a host or address listed itself is reached
   * wherever it points.
   */
  addressRefusal: (address: string) => string | null;
  /** Every address of a host name. @default getaddrinfo (node:dns lookup), /etc/hosts included */
  resolve?: (host: string) => Promise<string[]>;
  /** Called for every decision (the audit log). */
  onDecision?: (decision: ProxyDecision) => void;
  /** Where the private socket directory is made. @default the system's temporary directory */
  tempDir?: string;
  /** A request head larger than this is refused. @default 64 KiB */
  maxHeadBytes?: number;
  /** How long a client may take to send its request head, and the upstream to accept. @default 30 s */
  timeoutMs?: number;
}

/** The listening socket of one command; closing it ends every connection the command opened. */
export interface ProxySession {
  /** The directory that holds the socket: bound read-only into the sandbox. */
  readonly dir: string;
  readonly socketPath: string;
  /** What the proxy refused for this command, one line each (for the command's result). */
  readonly refusals: string[];
  close(): void;
}

/** Refusals reported with one command's result at most (each distinct one once). */
const MAX_REFUSAL_LINES = 20;

/** The key named in refusals, so a user knows what to edit. */
const KEY = "[tools.shell.sandbox] allowed_domains";

/** A judged host: the pattern that allows it and whether that pattern names the host itself. */
interface HostMatch {
  pattern: string;
  exact: boolean;
}

/** The host as matched: lower case, no brackets, no trailing dot. */
export function normalizeHost(host: string): string {
  const h = host.trim().toLowerCase().replace(/\.$/, "");
  return h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
}

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

/**
 * The entry of `patterns` that allows `host`, or null. A name matches itself; `*.example.com`
 * matches every subdomain at any depth but not `example.com`; an IP address matches only when
 * listed as written (IPv6 with or without brackets).
 */
export function matchHost(patterns: readonly string[], host: string): HostMatch | null {
  const h = normalizeHost(host);
  if (h === "") return null;
  const ip = isIpLiteral(h);
  for (const raw of patterns) {
    const p = normalizeHost(raw);
    if (p === h) return { pattern: raw, exact: true };
    if (!ip && p.startsWith("*.") && h.endsWith(p.slice(1)) && h.length > p.length - 1) {
      return { pattern: raw, exact: false };
    }
  }
  return null;
}

async function lookupAll(host: string): Promise<string[]> {
  const dns = await import("node:dns");
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/** The proxy of one zeph process. Nothing listens until the first command opens a session. */
export class NetworkProxy {
  readonly allowedDomains: readonly string[];
  #options: NetworkProxyOptions;
  #root: string | null = null;
  #sessions = new Set<Session>();
  #next = 0;
  #closed = false;

  constructor(options: NetworkProxyOptions) {
    this.allowedDomains = options.allowedDomains;
    this.#options = options;
  }

  /** Opens the listening socket of one command (synchronous: no await before the spawn). */
  open(): ProxySession {
    if (this.#closed) throw new Error("the network proxy is closed");
    this.#root ??= Deno.makeTempDirSync({ prefix: "zeph-proxy-", dir: this.#options.tempDir });
    const dir = path.join(this.#root, String(++this.#next));
    Deno.mkdirSync(dir, { mode: 0o700 });
    const socketPath = path.join(dir, "s");
    let listener: Deno.Listener;
    try {
      listener = Deno.listen({ transport: "unix", path: socketPath });
    } catch (error) {
      Deno.removeSync(dir, { recursive: true });
      throw new Error(
        `Cannot start the sandbox's network proxy at ${JSON.stringify(socketPath)}: ` +
          `${(error as Error).message} (a unix socket path is at most 107 bytes: set TMPDIR ` +
          "to a shorter directory)",
      );
    }
    const session = new Session(dir, socketPath, listener, () => this.#sessions.delete(session));
    this.#sessions.add(session);
    session.serve((conn) => this.#handle(conn, session));
    return session;
  }

  /** Sockets open through the proxy now: a command's side and the host's side each count. */
  get openConnections(): number {
    let n = 0;
    for (const s of this.#sessions) n += s.connections.size;
    return n;
  }

  /** Ends every session and removes the socket directory. */
  close(): void {
    this.#closed = true;
    for (const session of [...this.#sessions]) session.close();
    if (this.#root) {
      try {
        Deno.removeSync(this.#root, { recursive: true });
      } catch {
        // Already gone.
      }
      this.#root = null;
    }
  }

  async #handle(client: Deno.Conn, session: Session): Promise<void> {
    const timeoutMs = this.#options.timeoutMs ?? 30_000;
    const head = await withTimeout(
      readHead(client, this.#options.maxHeadBytes ?? 64 * 1024),
      timeoutMs,
    ).catch(() => null);
    if (!head) {
      await respond(client, 400, "zeph sandbox proxy: no complete HTTP request head received\n");
      return;
    }
    const target = parseTarget(head.text);
    if ("error" in target) {
      await respond(client, 400, `zeph sandbox proxy: ${target.error}\n`);
      return;
    }
    const { method, host, port } = target;
    const decision = await this.#judge(method, host, port);
    this.#options.onDecision?.(decision);
    if (!decision.allowed) {
      const line = `refused ${method} ${hostPort(host, port)}: ${decision.reason}`;
      // A client retrying the same host is told once per command.
      if (!session.refusals.includes(line) && session.refusals.length < MAX_REFUSAL_LINES) {
        session.refusals.push(line);
      }
      const hint = decision.pattern === null
        ? ` Add the host to ${KEY} to allow it (now: ${this.allowedDomains.join(", ")}).`
        : "";
      await respond(client, 403, `zeph sandbox proxy: ${line}.${hint}\n`);
      return;
    }
    let upstream: Deno.Conn;
    // Plain http carries one request per connection, its body by Content-Length (see below).
    const length = method === "CONNECT" ? 0 : bodyLength(head.text);
    if (length === null) {
      await respond(
        client,
        411,
        "zeph sandbox proxy: a plain-http request body needs Content-Length " +
          "(chunked bodies are not forwarded); use https or send the length\n",
      );
      return;
    }
    let gaveUp = false;
    const connecting = Deno.connect({ hostname: decision.address!, port });
    // A connection that completes after the timeout is closed, not leaked.
    connecting.then((late) => gaveUp && closeQuietly(late), () => {});
    try {
      upstream = await withTimeout(connecting, timeoutMs);
    } catch (error) {
      gaveUp = true;
      await respond(
        client,
        502,
        `zeph sandbox proxy: cannot connect to ${hostPort(host, port)} (${decision.address}): ` +
          `${(error as Error).message}\n`,
      );
      return;
    }
    if (session.closed) {
      closeQuietly(upstream);
      return;
    }
    session.connections.add(upstream);
    try {
      if (method === "CONNECT") {
        await writeAll(client, encoder.encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
        if (head.rest.length) await writeAll(upstream, head.rest);
      } else {
        // Plain http: one request per connection. Its head is rewritten (the judged Host,
        // Connection: close) and only its own body follows; whatever the client sends after it
        // (a second, pipelined request that could name another Host) is never forwarded.
        await writeAll(
          upstream,
          encoder.encode(originForm(head.text, target.path, hostPort(host, port, 80))),
        );
        await forwardBody(client, upstream, head.rest, length);
        // The answer, until the server closes (Connection: close); a closed side ends it too.
        await copyUntilEnd(upstream, client).catch(() => {});
        closeQuietly(upstream);
        closeQuietly(client);
        session.connections.delete(upstream);
        return;
      }
    } catch {
      closeQuietly(upstream);
      closeQuietly(client);
      session.connections.delete(upstream);
      return;
    }
    await relay(client, upstream);
    session.connections.delete(upstream);
  }

  async #judge(
    method: string,
    host: string,
    port: number,
  ): Promise<ProxyDecision> {
    const base = { method, host, port };
    const match = matchHost(this.allowedDomains, host);
    if (!match) {
      return {
        ...base,
        allowed: false,
        pattern: null,
        reason: isIpLiteral(host)
          ? `an IP address is reached only when ${KEY} lists it`
          : `${JSON.stringify(host)} is not in ${KEY}`,
      };
    }
    if (isIpLiteral(host)) return { ...base, allowed: true, pattern: match.pattern, address: host };
    let addresses: string[];
    try {
      addresses = await (this.#options.resolve ?? lookupAll)(host);
    } catch (error) {
      return {
        ...base,
        allowed: false,
        pattern: match.pattern,
        reason: `${JSON.stringify(host)} does not resolve (${(error as Error).message})`,
      };
    }
    if (addresses.length === 0) {
      return { ...base, allowed: false, pattern: match.pattern, reason: "no address" };
    }
    if (!match.exact) {
      for (const address of addresses) {
        const why = this.#options.addressRefusal(address);
        if (why) {
          return {
            ...base,
            allowed: false,
            pattern: match.pattern,
            reason: `${JSON.stringify(host)} resolves to ${address}, ${why}; only a host listed ` +
              `by name (not by ${JSON.stringify(match.pattern)}) may point there`,
          };
        }
      }
    }
    return { ...base, allowed: true, pattern: match.pattern, address: addresses[0] };
  }
}

class Session implements ProxySession {
  readonly dir: string;
  readonly socketPath: string;
  readonly refusals: string[] = [];
  readonly connections = new Set<Deno.Conn>();
  #listener: Deno.Listener;
  #onClose: () => void;
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  constructor(dir: string, socketPath: string, listener: Deno.Listener, onClose: () => void) {
    this.dir = dir;
    this.socketPath = socketPath;
    this.#listener = listener;
    this.#onClose = onClose;
  }

  serve(handle: (conn: Deno.Conn) => Promise<void>): void {
    (async () => {
      try {
        for await (const conn of this.#listener) {
          this.connections.add(conn);
          handle(conn).catch(() => {}).finally(() => {
            closeQuietly(conn);
            this.connections.delete(conn);
          });
        }
      } catch {
        // The listener was closed.
      }
    })();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#listener.close();
    } catch {
      // Already closed.
    }
    for (const conn of this.connections) closeQuietly(conn);
    this.connections.clear();
    try {
      Deno.removeSync(this.dir, { recursive: true });
    } catch {
      // Already gone (the proxy's directory was removed).
    }
    this.#onClose();
  }
}

const encoder = new TextEncoder();

/** The request head (up to the blank line, as latin1 text) and the bytes read past it. */
async function readHead(
  conn: Deno.Conn,
  maxBytes: number,
): Promise<{ text: string; rest: Uint8Array } | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const buffer = new Uint8Array(16 * 1024);
  while (size <= maxBytes) {
    const n = await conn.read(buffer);
    if (n === null) return null;
    chunks.push(buffer.slice(0, n));
    size += n;
    const all = concat(chunks, size);
    const end = indexOfBlankLine(all);
    if (end >= 0) {
      return {
        text: new TextDecoder("latin1").decode(all.subarray(0, end + 4)),
        rest: all.slice(end + 4),
      };
    }
  }
  return null;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

function indexOfBlankLine(bytes: Uint8Array): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      return i;
    }
  }
  return -1;
}

type Target =
  | { method: string; host: string; port: number; path: string }
  | { error: string };

/** The method and destination of a proxy request: `CONNECT host:port` or an `http://` URL. */
function parseTarget(head: string): Target {
  const line = head.slice(0, head.indexOf("\r\n"));
  const [method, target, version] = line.split(" ");
  if (!method || !target || !version?.startsWith("HTTP/")) {
    return { error: `not an HTTP request line: ${JSON.stringify(line.slice(0, 200))}` };
  }
  if (method === "CONNECT") {
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
    if (!m || Number(m[2]) > 65535) {
      return { error: `CONNECT needs host:port, got ${JSON.stringify(target.slice(0, 200))}` };
    }
    return { method, host: normalizeHost(m[1]), port: Number(m[2]), path: "" };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return {
      error: `${method} ${
        JSON.stringify(target.slice(0, 200))
      }: a proxy request names an absolute http:// URL (https goes through CONNECT)`,
    };
  }
  if (url.protocol !== "http:") {
    return {
      error: `the scheme ${JSON.stringify(url.protocol)} is not proxied as a plain request: ` +
        "https goes through CONNECT",
    };
  }
  return {
    method,
    host: normalizeHost(url.hostname),
    port: url.port ? Number(url.port) : 80,
    path: `${url.pathname}${url.search}`,
  };
}

/**
 * The head sent upstream for a plain http request: the path instead of the URL, the proxy's
 * own headers dropped, `Host` set to the host that was judged (a server hosting many sites
 * must not be asked for another one), one request per connection (the next may name another
 * host).
 */
/** A request's body length from its head: Content-Length, 0 without one, null when chunked. */
export function bodyLength(head: string): number | null {
  let length = 0;
  for (const line of head.split("\r\n").slice(1)) {
    const [name, ...value] = line.split(":");
    const key = name.trim().toLowerCase();
    if (key === "transfer-encoding") return null;
    if (key === "content-length") {
      const n = Number(value.join(":").trim());
      if (!Number.isSafeInteger(n) || n < 0) return null;
      length = n;
    }
  }
  return length;
}

/** Sends exactly `length` body bytes: those already read first, then from the client. */
async function forwardBody(
  client: Deno.Conn,
  upstream: Deno.Conn,
  already: Uint8Array,
  length: number,
): Promise<void> {
  const first = already.subarray(0, Math.min(length, already.length));
  if (first.length) await writeAll(upstream, first);
  let left = length - first.length;
  const buffer = new Uint8Array(64 * 1024);
  while (left > 0) {
    const n = await client.read(buffer.subarray(0, Math.min(buffer.length, left)));
    if (n === null) break;
    await writeAll(upstream, buffer.subarray(0, n));
    left -= n;
  }
}

function originForm(head: string, requestPath: string, hostHeader: string): string {
  const lines = head.split("\r\n").slice(0, -2);
  const [method, , version] = lines[0].split(" ");
  const headers = lines.slice(1).filter((h) =>
    !/^(host|proxy-connection|proxy-authorization|connection|keep-alive)\s*:/i.test(h)
  );
  return [
    `${method} ${requestPath} ${version}`,
    `Host: ${hostHeader}`,
    ...headers,
    "Connection: close",
    "",
    "",
  ].join("\r\n");
}

/** `host:port` (IPv6 in brackets); the port left out when it is `defaultPort`. */
function hostPort(host: string, port: number, defaultPort?: number): string {
  const h = host.includes(":") ? `[${host}]` : host;
  return port === defaultPort ? h : `${h}:${port}`;
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  502: "Bad Gateway",
};

async function respond(conn: Deno.Conn, status: number, body: string): Promise<void> {
  const bytes = encoder.encode(body);
  const head = `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
    "Content-Type: text/plain; charset=utf-8\r\n" +
    `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
  try {
    await writeAll(conn, encoder.encode(head));
    await writeAll(conn, bytes);
  } catch {
    // The client went away.
  }
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
