// Harness for the web tool tests: a real TLS server on 127.0.0.1 (a self-signed certificate made
// with openssl at test time), the real node:https client, and the two test seams of
// createWebClient: a resolver that maps test names to public-looking addresses, and a connect
// override that sends the sockets for those addresses to the local server. The SSRF rules run
// unchanged on the public-looking addresses, so nothing is loosened for the tests.
import * as path from "node:path";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { createWebClient } from "../../src/web/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { fetchTool } from "../../src/tools/fetch.ts";
import { ToolRegistry, type ToolResult } from "../../src/tools/registry.ts";
import { webScrapeTool } from "../../src/tools/web_scrape.ts";

/** The address every test name resolves to unless DNS below says otherwise. */
export const PUBLIC_IP = "93.184.216.34";
/** A second public address whose socket goes to a closed port (connection refused). */
export const DEAD_IP = "93.184.216.35";

/** The test DNS: names not listed do not resolve. */
export const DNS: Record<string, string[]> = {
  "site.test": [PUBLIC_IP],
  "a.site.test": [PUBLIC_IP],
  "b.site.test": [PUBLIC_IP],
  "deep.a.site.test": [PUBLIC_IP],
  "other.test": [PUBLIC_IP],
  "two.site.test": [DEAD_IP, PUBLIC_IP],
  "private.test": ["10.0.0.5"],
  "rebind.test": [PUBLIC_IP, "192.168.1.20"],
  "loop6.test": ["::1"],
  "ula.test": ["fd12:3456::1"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "meta.test": ["169.254.169.254"],
};

let certs: Promise<{ cert: string; key: string }> | null = null;

/** One self-signed certificate per test module, for site.test, other.test and subdomains. */
export function testCertificate(): Promise<{ cert: string; key: string }> {
  return certs ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "zeph-web-cert-" });
    try {
      const out = await new Deno.Command("openssl", {
        args: [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-keyout",
          path.join(dir, "key.pem"),
          "-out",
          path.join(dir, "cert.pem"),
          "-days",
          "2",
          "-subj",
          "/CN=zeph web test",
          "-addext",
          "subjectAltName=DNS:site.test,DNS:*.site.test,DNS:deep.a.site.test,DNS:other.test",
        ],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
      return {
        cert: await Deno.readTextFile(path.join(dir, "cert.pem")),
        key: await Deno.readTextFile(path.join(dir, "key.pem")),
      };
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  })();
}

export interface SeenRequest {
  host: string;
  path: string;
}

export interface WebHarness {
  dispatch(
    tool: "fetch" | "web_scrape",
    input: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<ToolResult>;
  /** Requests the server answered (Host header and path). */
  requests: SeenRequest[];
  /** Names the client resolved. */
  resolved: string[];
  /** Addresses a socket was opened for (before the test redirection). */
  connected: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

export interface HarnessOptions {
  scrape?: Partial<Config["tools"]["scrape"]>;
}

/** A TLS site on 127.0.0.1 answering every test name, and a registry with both web tools. */
export async function webHarness(
  handler: (req: Request, url: URL) => Response | Promise<Response>,
  options: HarnessOptions = {},
): Promise<WebHarness> {
  const { cert, key } = await testCertificate();
  const requests: SeenRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert, key, onListen() {} },
    (req) => {
      const url = new URL(req.url);
      requests.push({ host: req.headers.get("host") ?? "", path: url.pathname + url.search });
      return handler(req, url);
    },
  );
  // A port nothing listens on: the DEAD_IP socket is refused.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const deadPort = probe.addr.port;
  probe.close();

  const resolved: string[] = [];
  const connected: string[] = [];
  const webClient = createWebClient({
    resolve: (host) => {
      resolved.push(host);
      const addresses = DNS[host];
      if (!addresses) return Promise.reject(new Deno.errors.NotFound(`no records for ${host}`));
      return Promise.resolve(addresses);
    },
    connect: (address) => {
      connected.push(address);
      return { hostname: "127.0.0.1", port: address === DEAD_IP ? deadPort : server.addr.port };
    },
    caCerts: [cert],
  });

  const config = defaultConfig();
  Object.assign(config.tools.scrape, options.scrape ?? {});
  const registry = new ToolRegistry({
    tools: [webScrapeTool, fetchTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({
      web_scrape: [{ pattern: "*", action: "allow" }],
      fetch: [{ pattern: "*", action: "allow" }],
    }),
    config,
    deps: { web: webClient },
  });
  const ws = await Deno.makeTempDir({ prefix: "zeph-web-" });
  const sandbox = await Sandbox.create(ws);
  let n = 0;
  return {
    dispatch: (tool, input, opts = {}) =>
      registry.dispatch({ id: `call_${++n}`, name: tool, input }, {
        cwd: ws,
        sandbox,
        signal: opts.signal,
      }),
    requests,
    resolved,
    connected,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(ws, { recursive: true });
    },
  };
}

export function html(body: string, init: ResponseInit = {}): Response {
  return new Response(body, {
    ...init,
    headers: { "content-type": "text/html; charset=utf-8", ...init.headers },
  });
}

export function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } });
}
