/**
 * One fetch under the rules: every hop validated and resolved to checked addresses, manual
 * redirects (at most `MAX_REDIRECTS`), the body cap, the timeout and cancellation; then the body
 * decoded by its charset, and the facts and notes the web tools report.
 */
import { classifyHttpStatus, ToolError } from "../errors/mod.ts";
import {
  blocked,
  blockedAddressReason,
  ipLiteral,
  parseUrl,
  type ScrapeConfig,
  validateUrl,
} from "./address.ts";
import type { WebClient, WebResponse } from "./client.ts";

/** Redirects followed per call: up to 4 requests. */
export const MAX_REDIRECTS = 3;

/** What a fetch takes from the tool call that makes it (a `ToolContext` has all of it). */
export interface WebCallContext {
  signal: AbortSignal;
  config: { tools: { scrape: ScrapeConfig } };
  /** The network seam: the tool context's `web` client. */
  web: WebClient;
}

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

function linkedSignal(ctx: WebCallContext, ms: number): {
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
  ctx: WebCallContext,
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
