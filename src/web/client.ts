/**
 * The network seam: name resolution and one request pinned to a checked address (the socket
 * goes to the address that passed the rules, never to a second DNS answer). A client holds no
 * rules, so no client can weaken them. Tests inject a resolver that maps test names to
 * public-looking addresses and a `connect` override that sends those sockets to a local TLS
 * server; without injection DNS is real and the socket goes to the checked address itself.
 */
import { ipLiteral } from "./address.ts";

/** One request as the client must send it: GET `url`, with the socket opened to `address`. */
export interface WebRequest {
  url: URL;
  /** An address that passed the rules; the client connects here and nowhere else. */
  address: string;
  signal: AbortSignal;
}

export interface WebResponse {
  status: number;
  statusText: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body with any content-encoding removed. */
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and releases the connection. */
  close(): void;
}

/** The tool context's `web`: name resolution and one pinned request. Holds no rules. */
export interface WebClient {
  /** Every A and AAAA address of `host`. Throws Deno.errors.NotFound when it has none. */
  resolve(host: string, signal: AbortSignal): Promise<string[]>;
  request(request: WebRequest): Promise<WebResponse>;
}

export interface WebClientOptions {
  /** @default Deno.resolveDns (A and AAAA; /etc/hosts is not consulted) */
  resolve?: (host: string, signal: AbortSignal) => Promise<string[]>;
  /**
   * Where the socket for a checked address really goes. A test seam: a test maps its public
   * test addresses to a local server. @default the address itself
   */
  connect?: (address: string, port: number) => { hostname: string; port: number };
  /** Trusted roots instead of the system's (a test server's self-signed certificate). */
  caCerts?: string[];
  /** @default "zeph (+https://github.com/zeph)" */
  userAgent?: string;
}

async function resolveDns(host: string, signal: AbortSignal): Promise<string[]> {
  const settled = await Promise.allSettled([
    Deno.resolveDns(host, "A", { signal }),
    Deno.resolveDns(host, "AAAA", { signal }),
  ]);
  const addresses = settled.flatMap((s) => s.status === "fulfilled" ? s.value : []);
  if (addresses.length > 0) return addresses;
  const errors = settled.map((s) => s.status === "rejected" ? s.reason : null);
  const other = errors.find((e) => e && !(e instanceof Deno.errors.NotFound));
  if (other) throw other;
  throw new Deno.errors.NotFound(`no A or AAAA records for ${host}`);
}

/** The real client: node:https (lazy) with the socket opened to the checked address. */
export function createWebClient(options: WebClientOptions = {}): WebClient {
  const userAgent = options.userAgent ?? "zeph (+https://github.com/zeph)";
  return {
    resolve: options.resolve ?? resolveDns,
    async request({ url, address, signal }) {
      const https = await import("node:https");
      const zlib = await import("node:zlib");
      const stream = await import("node:stream");
      const port = url.port ? Number(url.port) : 443;
      const target = options.connect?.(address, port) ?? { hostname: address, port };
      const isIp = ipLiteral(url.hostname) !== null;
      return await new Promise<WebResponse>((resolve, reject) => {
        const req = https.request({
          host: target.hostname,
          port: target.port,
          // Certificate checked against the URL's host name (SNI too), not the address.
          servername: isIp ? undefined : url.hostname,
          path: `${url.pathname}${url.search}`,
          method: "GET",
          agent: false,
          ca: options.caCerts,
          signal,
          headers: {
            host: url.host,
            "user-agent": userAgent,
            accept:
              "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5",
            "accept-encoding": "gzip, deflate, br",
          },
        }, (res) => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
          }
          const encoding = (headers["content-encoding"] ?? "").trim().toLowerCase();
          const decoder = encoding === "gzip" || encoding === "x-gzip"
            ? zlib.createGunzip()
            : encoding === "deflate"
            ? zlib.createInflate()
            : encoding === "br"
            ? zlib.createBrotliDecompress()
            : null;
          const body = decoder ? stream.pipeline(res, decoder, () => {}) : res;
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? "",
            headers,
            body: body as AsyncIterable<Uint8Array>,
            close() {
              body.destroy();
              res.destroy();
              req.destroy();
            },
          });
        });
        req.on("error", reject);
        req.end();
      });
    },
  };
}
