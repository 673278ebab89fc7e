/**
 * `[tools.shell.sandbox] allowed_domains`: the hosts a sandboxed command may reach through
 * zeph's network proxy. Its own file so the schema's other tables stay untouched by it; the
 * pattern check lives here so `zeph config check` and the proxy read patterns the same way.
 */
import { z } from "zod";

const NAME = /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** An IPv6 address: eight hex groups of 1–4 digits (an IPv4 tail counts two), or fewer with one `::`. */
function isIpv6(text: string): boolean {
  const parts = text.split(":");
  const double = text.split("::").length - 1;
  if (parts.length < 3 || double > 1) return false;
  const last = parts.at(-1)!;
  const groups = IPV4.test(last) ? parts.slice(0, -1) : parts;
  const filled = groups.filter((g) => g !== "");
  if (!filled.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return false;
  const count = filled.length + (groups === parts ? 0 : 2);
  return double ? count <= 7 : count === 8 && filled.length === groups.length;
}

/**
 * Why `pattern` is not a host pattern, or null. Accepted: a host name (`registry.npmjs.org`),
 * `*.` and a name (every subdomain at any depth, not the name itself), an IPv4 address, an IPv6
 * address with or without brackets.
 */
export function hostPatternError(pattern: string): string | null {
  const p = pattern.trim().toLowerCase();
  const ipv4 = IPV4.exec(p);
  if (ipv4) {
    return ipv4.slice(1).every((o) => Number(o) <= 255)
      ? null
      : `${JSON.stringify(pattern)} is not an IPv4 address (each part is 0 to 255)`;
  }
  const bare = p.startsWith("[") && p.endsWith("]") ? p.slice(1, -1) : p;
  if (isIpv6(bare)) return null;
  // Hex digits, dots and two colons or more: meant as IPv6 ("cafe.de:8080" is a name and a port).
  if (/^[0-9a-f:.]+$/.test(bare) && bare.split(":").length >= 3) {
    return `${JSON.stringify(pattern)} is not an IPv6 address`;
  }
  if (p.includes(":") || p.includes("/")) {
    const host = p.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").split(/[/:]/)[0] || "example.com";
    return `${JSON.stringify(pattern)} names a scheme, port or path: list the host only (${
      JSON.stringify(host)
    }); every port is allowed`;
  }
  if (!NAME.test(p)) {
    return `${
      JSON.stringify(pattern)
    } is not a host pattern: use "example.com" or "*.example.com" (letters, digits, "-", "_" and ".", with "*." only at the start), or an IP address`;
  }
  return null;
}

const HostPattern = z.string().superRefine((pattern, ctx) => {
  const error = hostPatternError(pattern);
  if (error) ctx.addIssue({ code: "custom", message: error });
});

/** The keys of `[tools.shell.sandbox]` that this file owns. */
export const SandboxNetworkKeys = {
  /**
   * When set (and `allow_network` is false), sandboxed commands reach these hosts, and only
   * these, through zeph's HTTP/HTTPS proxy.
   */
  allowed_domains: z.array(HostPattern).max(1000).default([]),
};

/** Both switches at once would leave the list without effect: one of them is a mistake. */
export function checkSandboxNetwork(
  sandbox: { allow_network: boolean; allowed_domains: string[] },
  ctx: z.RefinementCtx,
): void {
  if (sandbox.allow_network && sandbox.allowed_domains.length > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["allowed_domains"],
      message: "allowed_domains has no effect while allow_network = true gives commands every " +
        "host: set allow_network = false to limit them to the list, or remove allowed_domains",
    });
  }
}
