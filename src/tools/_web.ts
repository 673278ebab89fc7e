/**
 * What `web_scrape` and `fetch` share: the SSRF rules (HTTPS only, no private or special-purpose
 * addresses, literal or resolved, IPv4-mapped IPv6 included; allowed/denied domains), the pinned
 * HTTP client (the socket goes to the address that was checked, never to a second DNS answer),
 * manual redirects (at most 3, every hop checked again), the body cap and the timeout.
 *
 * The network is one injectable seam, the tool context's `web` client. Validation never lives in the
 * client: a client only resolves names and opens the socket it is told to, so no client can
 * weaken the rules. Tests inject a resolver that maps test names to public-looking addresses and
 * a `connect` override that sends those sockets to a local TLS server; without injection DNS is
 * real and the socket goes to the checked address itself.
 */
import type { Config } from "../config/schema.ts";
import { classifyHttpStatus, ToolError } from "../errors/mod.ts";

/** What a fetch reads of the tool context. */
export interface FetchContext {
  config: Config;
  signal: AbortSignal;
  web: WebClient;
}

type ScrapeConfig = Config["tools"]["scrape"];

/** Redirects followed per call: up to 4 requests. */
export const MAX_REDIRECTS = 3;

// ---------------------------------------------------------------------------------------------
// Addresses

/** Dotted-quad IPv4 (the canonical form the URL parser and DNS produce) → 4 octets, or null. */
export function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets;
}

/** Textual IPv6 (brackets, `::`, an embedded dotted quad and a `%zone` allowed) → 8 groups. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const parseHalf = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    const pieces = half.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIPv4(piece);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else {
        if (!/^[0-9a-f]{1,4}$/i.test(piece)) return null;
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const head = parseHalf(halves[0]);
  const tail = halves.length === 2 ? parseHalf(halves[1]) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array(missing).fill(0), ...tail];
}

interface V4Range {
  base: number[];
  bits: number;
  what: string;
}

// Everything that is not ordinary global unicast. Wider than the reference (which misses 0/8,
// the documentation and benchmark nets, multicast and 240/4): none of these is a public web site.
const V4_BLOCKED: V4Range[] = [
  { base: [0, 0, 0, 0], bits: 8, what: "an unspecified address" },
  { base: [10, 0, 0, 0], bits: 8, what: "a private address" },
  { base: [100, 64, 0, 0], bits: 10, what: "a shared (carrier-grade NAT) address" },
  { base: [127, 0, 0, 0], bits: 8, what: "a loopback address" },
  { base: [169, 254, 0, 0], bits: 16, what: "a link-local address" },
  { base: [172, 16, 0, 0], bits: 12, what: "a private address" },
  { base: [192, 0, 0, 0], bits: 24, what: "a reserved address" },
  { base: [192, 0, 2, 0], bits: 24, what: "a documentation address" },
  { base: [192, 88, 99, 0], bits: 24, what: "a reserved address" },
  { base: [192, 168, 0, 0], bits: 16, what: "a private address" },
  { base: [198, 18, 0, 0], bits: 15, what: "a benchmarking address" },
  { base: [198, 51, 100, 0], bits: 24, what: "a documentation address" },
  { base: [203, 0, 113, 0], bits: 24, what: "a documentation address" },
  { base: [224, 0, 0, 0], bits: 4, what: "a multicast address" },
  { base: [240, 0, 0, 0], bits: 4, what: "a reserved or broadcast address" },
];

function v4Number(o: number[]): number {
  return ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
}

function classifyV4(octets: number[]): string | null {
  const n = v4Number(octets);
  for (const r of V4_BLOCKED) {
    const mask = r.bits === 0 ? 0 : (0xffffffff << (32 - r.bits)) >>> 0;
    if (((n & mask) >>> 0) === (v4Number(r.base) & mask) >>> 0) {
      return `${r.what} (${r.base.join(".")}/${r.bits})`;
    }
  }
  return null;
}

function v4FromGroups(hi: number, lo: number): number[] {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
}

function classifyV6(g: number[]): string | null {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return "an unspecified address (::)";
  if (zeroUpTo(7) && g[7] === 1) return "a loopback address (::1)";
  const embedded = (prefix: string, v4: number[]) => {
    const inner = classifyV4(v4);
    return inner ? `${inner}, as ${prefix} ${v4.join(".")}` : null;
  };
  // ::ffff:a.b.c.d reaches the IPv4 host: judged by the IPv4 rules.
  if (zeroUpTo(5) && g[5] === 0xffff) {
    return embedded("IPv4-mapped", v4FromGroups(g[6], g[7]));
  }
  if (zeroUpTo(6)) return "a deprecated IPv4-compatible address (::/96)";
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return embedded("NAT64", v4FromGroups(g[6], g[7]));
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) {
    return "a local NAT64 address (64:ff9b:1::/48)";
  }
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) {
    return "a discard-only address (100::/64)";
  }
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "a documentation address (2001:db8::/32)";
  if (g[0] === 0x2001 && g[1] < 0x200) return "a reserved address (2001::/23, Teredo included)";
  if (g[0] === 0x2002) return embedded("6to4", v4FromGroups(g[1], g[2]));
  if ((g[0] & 0xfff0) === 0x3ff0 && g[0] <= 0x3fff) return "a documentation address (3fff::/20)";
  if ((g[0] & 0xfe00) === 0xfc00) return "a unique-local address (fc00::/7)";
  if ((g[0] & 0xffc0) === 0xfe80) return "a link-local address (fe80::/10)";
  if ((g[0] & 0xffc0) === 0xfec0) return "a site-local address (fec0::/10)";
  if ((g[0] & 0xff00) === 0xff00) return "a multicast address (ff00::/8)";
  return null;
}

/**
 * Why an address may not be fetched ("a private address (10.0.0.0/8)"), or null when it is
 * ordinary global unicast. Text that is not an address at all is refused too.
 */
export function blockedAddressReason(address: string): string | null {
  const v4 = parseIPv4(address);
  if (v4) return classifyV4(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyV6(v6);
  return "not an IP address";
}

/** The bare address of an IP-literal URL host (`[::1]` → `::1`), or null for a name. */
export function ipLiteral(hostname: string): string | null {
  if (parseIPv4(hostname)) return hostname;
  if (hostname.startsWith("[") && parseIPv6(hostname)) return hostname.slice(1, -1);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Host names and domain policy

const INTERNAL_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa"];

/** Why a host name is internal by its form alone, or null. Expects a lower-case, dot-less end. */
function internalNameReason(host: string): string | null {
  for (const suffix of INTERNAL_SUFFIXES) {
    if (host === suffix || host.endsWith(`.${suffix}`)) {
      return `"${suffix}" names are local to this machine or network`;
    }
  }
  if (!host.includes(".")) return "a single-label host name is an internal name";
  return null;
}

const PATTERN = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/** Checks a `[tools.scrape]` domain pattern; returns an error message or null. */
export function domainPatternError(pattern: string): string | null {
  if (!PATTERN.test(pattern.toLowerCase())) {
    return `${
      JSON.stringify(pattern)
    } is not a domain pattern: use "example.com" or "*.example.com" (letters, digits, "-" and ".", with "*." only at the start)`;
  }
  return null;
}

/**
 * `example.com` matches that host only; `*.example.com` matches every subdomain at any depth
 * (`a.example.com`, `a.b.example.com`) but not `example.com` itself. Any depth, unlike the
 * reference's one label, so that a denied `*.evil.com` cannot be passed with `a.b.evil.com`.
 */
export function domainMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  if (p.startsWith("*.")) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
  return host === p;
}

/** The host as matched by the rules: lower case, without brackets or a trailing dot. */
function ruleHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, "");
}

function blocked(url: URL, reason: string, hint?: string): ToolError {
  return new ToolError("policy_blocked", `Cannot fetch ${JSON.stringify(url.href)}: ${reason}`, {
    hint: hint ??
      "Only public https:// URLs can be fetched. Use a URL the user gave you or a tool returned.",
  });
}

/**
 * The permission subject of a URL: as the URL parser reads it (tabs and newlines dropped, host
 * lower-cased, default port removed), so that a rule sees the URL that is fetched, not how the
 * model spelled it. Text that does not parse is returned as is (the call fails on it anyway).
 */
export function urlSubject(raw: string): string {
  try {
    return new URL(raw.trim()).href;
  } catch {
    return raw;
  }
}

/** Parses the model's URL; an unparseable one is an invalid parameter, not a policy refusal. */
export function parseUrl(raw: string): URL {
  const trimmed = raw.trim();
  try {
    return new URL(trimmed);
  } catch {
    throw new ToolError("invalid_parameters", `Invalid URL ${JSON.stringify(raw.slice(0, 200))}`, {
      hint: 'Give an absolute https:// URL, e.g. "https://example.com/page".',
    });
  }
}

/**
 * Layer 1 (before any socket): scheme, credentials, internal names, IP literals, and the domain
 * allow/deny lists. Runs on the first URL and on every redirect target.
 */
export function validateUrl(url: URL, scrape: ScrapeConfig): void {
  if (url.protocol !== "https:") {
    throw blocked(
      url,
      `the scheme "${url.protocol.replace(/:$/, "")}" is not allowed (https only)`,
      "Only https:// URLs can be fetched; use the https:// form of the address if it has one.",
    );
  }
  if (url.username || url.password) {
    throw blocked(url, "URLs with a user name or password are not allowed");
  }
  const host = ruleHost(url);
  const literal = ipLiteral(url.hostname);
  if (literal) {
    const why = blockedAddressReason(literal);
    if (why) throw blocked(url, `${literal} is ${why}`);
  } else {
    const why = internalNameReason(host);
    if (why) throw blocked(url, `the host ${JSON.stringify(host)} is internal: ${why}`);
  }
  checkDomainPolicy(url, host, literal !== null, scrape);
}

function checkDomainPolicy(url: URL, host: string, isIp: boolean, scrape: ScrapeConfig): void {
  for (
    const [key, list] of [["denied_domains", scrape.denied_domains], [
      "allowed_domains",
      scrape.allowed_domains,
    ]] as const
  ) {
    for (const pattern of list) {
      const error = domainPatternError(pattern);
      if (error) {
        // Fail closed: a typo in a list must not silently turn the list off.
        throw new ToolError("policy_blocked", `Invalid [tools.scrape] ${key} entry: ${error}`, {
          hint: "Do not retry; the user has to fix the configuration.",
        });
      }
    }
  }
  const denied = scrape.denied_domains.find((p) => domainMatches(p, host));
  if (denied) {
    throw blocked(
      url,
      `the domain ${JSON.stringify(host)} is denied by [tools.scrape] denied_domains (${
        JSON.stringify(denied)
      })`,
      "Do not try to reach this domain another way.",
    );
  }
  if (scrape.allowed_domains.length === 0) return;
  const allowedHint = `Allowed domains: ${scrape.allowed_domains.join(", ")}.`;
  if (isIp) {
    throw blocked(
      url,
      "a bare IP address is not allowed while [tools.scrape] allowed_domains is set",
      allowedHint,
    );
  }
  if (!scrape.allowed_domains.some((p) => domainMatches(p, host))) {
    throw blocked(
      url,
      `the domain ${JSON.stringify(host)} is not in [tools.scrape] allowed_domains`,
      allowedHint,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The network seam

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

// ---------------------------------------------------------------------------------------------
// One fetch: hops, body, errors

export interface FetchedPage {
  /** The URL asked for, and the one that answered after redirects. */
  url: string;
  finalUrl: string;
  /** Every URL requested, in order. */
  hops: string[];
  status: number;
  /** Media type, lower case, without parameters ("" when the server sent none). */
  mediaType: string;
  charset: string | null;
  body: Uint8Array;
  /** True when the body was longer than [tools.scrape] max_body_bytes and cut there. */
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function linkedSignal(ctx: FetchContext, ms: number): {
  signal: AbortSignal;
  timedOut(): boolean;
  dispose(): void;
} {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("timed out", "TimeoutError"));
  }, ms);
  const onAbort = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
    },
  };
}

const TLS_CODES =
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ALTNAME|ERR_SSL|UNABLE_TO_GET_ISSUER|invalid peer certificate/i;

function networkError(url: URL, error: unknown): ToolError {
  const e = error as { code?: string; message?: string };
  const detail = [e.code, e.message].filter(Boolean).join(": ") || String(error);
  if (TLS_CODES.test(detail)) {
    return new ToolError(
      "permanent_failure",
      `Cannot fetch ${JSON.stringify(url.href)}: the TLS certificate check failed (${detail})`,
      { hint: "The site's certificate is not valid for this host; do not retry." },
    );
  }
  return new ToolError(
    "network_error",
    `Cannot fetch ${JSON.stringify(url.href)}: ${detail}`,
    { cause: error },
  );
}

/** Layer 2: the addresses to connect to, every one of them checked. */
async function checkedAddresses(
  url: URL,
  client: WebClient,
  signal: AbortSignal,
): Promise<string[]> {
  const literal = ipLiteral(url.hostname);
  if (literal) return [literal]; // checked by validateUrl
  const host = url.hostname.replace(/\.$/, "");
  let addresses: string[];
  try {
    addresses = await client.resolve(host, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof Deno.errors.NotFound) {
      throw new ToolError(
        "permanent_failure",
        `Cannot fetch ${JSON.stringify(url.href)}: the host ${
          JSON.stringify(host)
        } does not resolve (no A or AAAA records)`,
        { hint: "Check the host name; do not guess URLs." },
      );
    }
    throw new ToolError(
      "network_error",
      `Cannot fetch ${JSON.stringify(url.href)}: DNS lookup of ${JSON.stringify(host)} failed: ${
        (error as Error).message
      }`,
      { cause: error },
    );
  }
  if (addresses.length === 0) {
    throw new ToolError(
      "permanent_failure",
      `Cannot fetch ${JSON.stringify(url.href)}: the host ${JSON.stringify(host)} does not resolve`,
    );
  }
  // Any bad answer refuses the host: a name that resolves to both a public and a private
  // address is a rebinding setup, not a choice.
  for (const address of addresses) {
    const why = blockedAddressReason(address);
    if (why) throw blocked(url, `${host} resolves to ${address}, ${why}`);
  }
  // IPv4 first: more often routable from where zeph runs.
  return [...addresses].sort((a, b) => Number(a.includes(":")) - Number(b.includes(":")));
}

export interface FetchOptions {
  /**
   * Called with the final response's media type ("" when absent) before the body is read; a
   * returned error refuses the response without downloading it.
   */
  refuseType?: (mediaType: string, url: URL) => ToolError | null;
}

/** "example.com." is "example.com": checked, resolved and sent (SNI, Host) as the plain name. */
function plainHost(url: URL): URL {
  if (!url.hostname.endsWith(".")) return url;
  const copy = new URL(url.href);
  copy.hostname = url.hostname.replace(/\.+$/, "");
  return copy;
}

/** Layer 3 and the transfer: GET with manual, re-checked redirects; the body under the cap. */
export async function fetchPage(
  rawUrl: string,
  ctx: FetchContext,
  options: FetchOptions = {},
): Promise<FetchedPage> {
  const scrape = ctx.config.tools.scrape;
  const client = ctx.web;
  const first = plainHost(parseUrl(rawUrl));
  const { signal, timedOut, dispose } = linkedSignal(ctx, scrape.timeout * 1000);
  const hops: string[] = [];
  let url = first;
  try {
    for (let hop = 0;; hop++) {
      let addresses: string[];
      try {
        validateUrl(url, scrape);
        addresses = await checkedAddresses(url, client, signal);
      } catch (error) {
        // Say where a refused target came from: the model only asked for the first URL.
        if (hop === 0 || !(error instanceof ToolError) || error.category !== "policy_blocked") {
          throw error;
        }
        throw new ToolError(
          "policy_blocked",
          `${error.message} (the redirect target of ${JSON.stringify(hops[hops.length - 1])})`,
          { hint: error.hint },
        );
      }
      hops.push(url.href);
      const response = await requestAny(url, addresses, client, signal);
      if (REDIRECTS.has(response.status)) {
        response.close();
        const location = response.headers["location"];
        if (!location) {
          throw new ToolError(
            "permanent_failure",
            `Cannot fetch ${
              JSON.stringify(url.href)
            }: HTTP ${response.status} redirect without a Location header`,
          );
        }
        if (hop === MAX_REDIRECTS) {
          throw new ToolError(
            "permanent_failure",
            `Cannot fetch ${JSON.stringify(first.href)}: more than ${MAX_REDIRECTS} redirects (${
              [...hops, location].join(" -> ")
            })`,
            { hint: "Fetch the final URL directly if you know it; do not guess." },
          );
        }
        try {
          url = plainHost(new URL(location, url));
        } catch {
          throw new ToolError(
            "permanent_failure",
            `Cannot fetch ${JSON.stringify(url.href)}: the redirect Location ${
              JSON.stringify(location)
            } is not a valid URL`,
          );
        }
        continue;
      }
      if (response.status < 200 || response.status > 299) {
        response.close();
        const category = classifyHttpStatus(response.status);
        throw new ToolError(
          category,
          `Cannot fetch ${JSON.stringify(url.href)}: HTTP ${response.status}${
            response.statusText ? ` ${response.statusText}` : ""
          }`,
          category === "permanent_failure" || category === "policy_blocked"
            ? { hint: "The page is not available; do not retry the same URL." }
            : {},
        );
      }
      const { mediaType, charset } = parseContentType(response.headers["content-type"] ?? "");
      const refusal = options.refuseType?.(mediaType, url);
      if (refusal) {
        response.close();
        throw refusal;
      }
      const { body, truncated } = await readCapped(response, scrape.max_body_bytes, url);
      return {
        url: first.href,
        finalUrl: url.href,
        hops,
        status: response.status,
        mediaType,
        charset,
        body,
        truncated,
      };
    }
  } catch (error) {
    if (timedOut()) {
      throw new ToolError(
        "timeout",
        `Cannot fetch ${
          JSON.stringify(url.href)
        }: no complete response within ${scrape.timeout} s ([tools.scrape] timeout)`,
      );
    }
    if (ctx.signal.aborted) {
      throw new ToolError("cancelled", `Cannot fetch ${JSON.stringify(url.href)}: cancelled`);
    }
    if (error instanceof ToolError) throw error;
    throw networkError(url, error);
  } finally {
    dispose();
  }
}

/** Tries the checked addresses in order; only a failure to connect moves on to the next. */
async function requestAny(
  url: URL,
  addresses: string[],
  client: WebClient,
  signal: AbortSignal,
): Promise<WebResponse> {
  let last: unknown;
  for (const address of addresses) {
    try {
      return await client.request({ url, address, signal });
    } catch (error) {
      last = error;
      const code = (error as { code?: string }).code ?? "";
      const unreachable = /^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/.test(code) ||
        error instanceof Deno.errors.ConnectionRefused;
      if (signal.aborted || !unreachable) throw error;
    }
  }
  throw last;
}

async function readCapped(
  response: WebResponse,
  max: number,
  url: URL,
): Promise<{ body: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const it = response.body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await it.next();
      if (next.done) break;
      const chunk = next.value;
      const room = max - size;
      if (chunk.byteLength > room) {
        chunks.push(chunk.subarray(0, room));
        size = max;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
      // A body that exactly fills the cap is only cut if more follows.
      if (size === max) {
        truncated = !(await atEnd(it));
        break;
      }
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    const e = error as { code?: string };
    if (e.code === "Z_DATA_ERROR" || e.code === "Z_BUF_ERROR" || e.code?.startsWith("ERR_BROTLI")) {
      throw new ToolError(
        "permanent_failure",
        `Cannot fetch ${JSON.stringify(url.href)}: the compressed body is corrupt (${
          (error as Error).message
        })`,
      );
    }
    throw error;
  } finally {
    response.close();
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return { body, truncated };
}

async function atEnd(it: AsyncIterator<Uint8Array>): Promise<boolean> {
  for (;;) {
    const next = await it.next();
    if (next.done) return true;
    if (next.value.byteLength > 0) return false;
  }
}

export function parseContentType(header: string): { mediaType: string; charset: string | null } {
  const [type, ...params] = header.split(";");
  let charset: string | null = null;
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m) charset = m[1].toLowerCase();
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

/**
 * Text of the body: the declared charset when the platform knows it, else UTF-8. Invalid bytes
 * become U+FFFD and a note says so; a body cut by the cap loses its split last character only.
 */
export function decodeBody(page: FetchedPage): { text: string; notes: string[] } {
  const notes: string[] = [];
  const htmlLike = page.mediaType === "" || page.mediaType.includes("html");
  let label = page.charset ?? (htmlLike ? metaCharset(page.body) : null) ?? "utf-8";
  try {
    new TextDecoder(label);
  } catch {
    notes.push(`unknown charset "${label}"; decoded as UTF-8`);
    label = "utf-8";
  }
  let bytes = page.body;
  if (page.truncated && (label === "utf-8" || label === "utf8")) bytes = trimPartialUtf8(bytes);
  try {
    return { text: new TextDecoder(label, { fatal: true }).decode(bytes), notes };
  } catch {
    notes.push(
      `the body is not valid ${
        label === "utf8" ? "utf-8" : label
      }; invalid bytes were replaced with U+FFFD`,
    );
    return { text: new TextDecoder(label).decode(bytes), notes };
  }
}

/** An HTML `<meta charset>` (or http-equiv content-type) in the first 1024 bytes. */
function metaCharset(body: Uint8Array): string | null {
  const head = new TextDecoder("latin1").decode(body.subarray(0, 1024));
  const m = /<meta[^>]*?charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return m ? m[1].toLowerCase() : null;
}

function trimPartialUtf8(bytes: Uint8Array): Uint8Array {
  // Walk back over continuation bytes to the last lead byte; drop it if its sequence is short.
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 3 && (bytes[i] & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0) return bytes;
  const lead = bytes[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - i < need ? bytes.subarray(0, i) : bytes;
}

/** What fetch and web_scrape report about the page in `raw`, beside their own fields. */
export function pageFacts(page: FetchedPage) {
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    contentType: page.mediaType,
    bytes: page.body.byteLength,
    truncated: page.truncated,
  };
}

/** The bracketed notes appended to a result (cap, decoding), or "". */
export function notesBlock(page: FetchedPage, notes: string[], maxBytes: number): string {
  const all = [...notes];
  if (page.truncated) {
    all.unshift(
      `the response is larger than [tools.scrape] max_body_bytes (${maxBytes} bytes); only the first ${maxBytes} bytes were read`,
    );
  }
  return all.length ? `\n\n${all.map((n) => `[note: ${n}]`).join("\n")}` : "";
}
