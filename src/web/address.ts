/**
 * The SSRF rules before any socket: HTTPS only, no credentials, no internal names, no private or
 * special-purpose addresses (literal or resolved, IPv4-mapped IPv6 included), and the
 * `[tools.scrape]` allowed/denied domain lists. They run on the first URL and on every redirect.
 */
import type { Config } from "../config/mod.ts";
import { ToolError } from "../errors/mod.ts";

export type ScrapeConfig = Config["tools"]["scrape"];

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

/** A `policy_blocked` refusal of `url`, with the hint the model needs. */
export function blocked(url: URL, reason: string, hint?: string): ToolError {
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
