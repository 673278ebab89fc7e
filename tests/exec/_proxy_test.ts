/**
 * The network proxy of `[tools.shell.sandbox] allowed_domains`: its decisions spoken to over its
 * unix socket directly (no bubblewrap needed), then real commands in real bubblewrap reaching a
 * local HTTP server through it (skipped, with the reason, where bubblewrap or curl is absent).
 * Test host names resolve through an injected resolver to 127.0.0.1: nothing touches the network.
 */
import { expect } from "expect";
import { join } from "node:path";
import {
  bridgeCommand,
  bwrapArgs,
  findSocat,
  LocalProcessRunner,
  matchHost,
  NetworkProxy,
  type NetworkProxyOptions,
  planSandbox,
  probeBwrap,
  type ProxyDecision,
  SandboxedRunner,
  ShellSandbox,
  withSandboxOf,
} from "../../src/exec/mod.ts";
import { blockedAddressReason } from "../../src/web/mod.ts";

/** Test names and where they point; anything else does not resolve. */
const NAMES: Record<string, string[]> = {
  "allowed.test": ["127.0.0.1"],
  "api.wild.test": ["127.0.0.1"],
  "public.wild.test": ["93.184.216.34"],
};

function newProxy(
  allowedDomains: string[],
  decisions: ProxyDecision[] = [],
  options: Partial<NetworkProxyOptions> = {},
): NetworkProxy {
  return new NetworkProxy({
    allowedDomains,
    addressRefusal: blockedAddressReason,
    resolve: (host) =>
      NAMES[host] ? Promise.resolve(NAMES[host]) : Promise.reject(new Error("not found")),
    onDecision: (d) => decisions.push(d),
    ...options,
  });
}

/** A local HTTP server answering with the path it was asked for. */
function httpServer(): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new Response(`hello from ${new URL(req.url).pathname}\n`, {
        headers: { "x-host-seen": req.headers.get("host") ?? "" },
      }),
  );
}

/** Sends `head` over the proxy socket and returns everything it answers until it closes. */
async function ask(socketPath: string, head: string): Promise<string> {
  const conn = await Deno.connect({ transport: "unix", path: socketPath });
  await conn.write(new TextEncoder().encode(head));
  const chunks: string[] = [];
  const buffer = new Uint8Array(4096);
  const decoder = new TextDecoder();
  while (true) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    chunks.push(decoder.decode(buffer.subarray(0, n)));
  }
  conn.close();
  return chunks.join("");
}

Deno.test("matchHost: exact names, *. at any depth, IP literals only as listed", () => {
  const patterns = ["registry.npmjs.org", "*.github.com", "10.1.2.3", "[::1]", "Example.ORG"];
  const cases: [string, string | null][] = [
    ["registry.npmjs.org", "registry.npmjs.org"],
    ["REGISTRY.npmjs.org.", "registry.npmjs.org"],
    ["evil-registry.npmjs.org", null],
    ["npmjs.org", null],
    ["api.github.com", "*.github.com"],
    ["a.b.github.com", "*.github.com"],
    ["github.com", null],
    ["notgithub.com", null],
    ["10.1.2.3", "10.1.2.3"],
    ["10.1.2.4", null],
    ["::1", "[::1]"],
    ["[::1]", "[::1]"],
    ["example.org", "Example.ORG"],
    ["", null],
  ];
  expect(cases.map(([host]) => [host, matchHost(patterns, host)?.pattern ?? null])).toEqual(
    cases,
  );
  expect(matchHost(patterns, "api.github.com")?.exact).toBe(false);
  expect(matchHost(patterns, "registry.npmjs.org")?.exact).toBe(true);
});

Deno.test("proxy: a listed host is forwarded (plain http and CONNECT), others get 403 naming host and key", async () => {
  const server = httpServer();
  const port = server.addr.port;
  const decisions: ProxyDecision[] = [];
  const proxy = newProxy(["allowed.test", "*.wild.test"], decisions);
  const session = proxy.open();
  try {
    // A Host header naming another site is replaced by the host that was judged.
    const plain = await ask(
      session.socketPath,
      `GET http://allowed.test:${port}/a?b=1 HTTP/1.1\r\nHost: evil.test\r\n` +
        "Proxy-Connection: keep-alive\r\n\r\n",
    );
    expect(plain).toMatch(/^HTTP\/1\.1 200 /);
    expect(plain).toContain(`x-host-seen: allowed.test:${port}\r\n`);
    expect(plain).toContain("hello from /a\n");

    const tunnel = await ask(
      session.socketPath,
      `CONNECT allowed.test:${port} HTTP/1.1\r\nHost: allowed.test:${port}\r\n\r\n` +
        `GET /through-tunnel HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n`,
    );
    expect(tunnel).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 /);
    expect(tunnel).toContain("hello from /through-tunnel\n");

    const refused = await ask(
      session.socketPath,
      "GET http://evil.test/x HTTP/1.1\r\nHost: evil.test\r\n\r\n",
    );
    expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(refused).toContain(
      'zeph sandbox proxy: refused GET evil.test:80: "evil.test" is not in ' +
        "[tools.shell.sandbox] allowed_domains. Add the host to [tools.shell.sandbox] " +
        "allowed_domains to allow it (now: allowed.test, *.wild.test).\n",
    );
    const refusedTunnel = await ask(session.socketPath, "CONNECT evil.test:443 HTTP/1.1\r\n\r\n");
    expect(refusedTunnel).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    // A retry is audited again but reported with the command's result once.
    await ask(session.socketPath, "CONNECT evil.test:443 HTTP/1.1\r\n\r\n");

    expect(decisions.map((d) => [d.method, d.host, d.port, d.allowed, d.pattern])).toEqual([
      ["GET", "allowed.test", port, true, "allowed.test"],
      ["CONNECT", "allowed.test", port, true, "allowed.test"],
      ["GET", "evil.test", 80, false, null],
      ["CONNECT", "evil.test", 443, false, null],
      ["CONNECT", "evil.test", 443, false, null],
    ]);
    expect(session.refusals).toEqual([
      'refused GET evil.test:80: "evil.test" is not in [tools.shell.sandbox] allowed_domains',
      'refused CONNECT evil.test:443: "evil.test" is not in [tools.shell.sandbox] allowed_domains',
    ]);
  } finally {
    proxy.close();
    await server.shutdown();
  }
});

Deno.test("proxy: plain http forwards one request and its body; a pipelined second request never reaches the server", async () => {
  // A raw server that takes whatever arrives for a while (as one that ignored Connection: close
  // would), then answers and closes: what it received is everything the proxy forwarded.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const received: string[] = [];
  const serving = (async () => {
    for await (const conn of listener) {
      const decoder = new TextDecoder();
      let text = "";
      const buffer = new Uint8Array(4096);
      const until = Date.now() + 300;
      while (Date.now() < until) {
        const n = await Promise.race([
          conn.read(buffer),
          new Promise<"wait">((r) => setTimeout(() => r("wait"), 50)),
        ]);
        if (n === null) break;
        if (n !== "wait") text += decoder.decode(buffer.subarray(0, n));
      }
      received.push(text);
      await conn.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nok\n"))
        .catch(() => {});
      conn.close();
    }
  })();
  const proxy = newProxy(["allowed.test"]);
  const session = proxy.open();
  try {
    const answer = await ask(
      session.socketPath,
      `POST http://allowed.test:${port}/one HTTP/1.1\r\nHost: allowed.test\r\n` +
        "Content-Length: 5\r\n\r\nhello" +
        "GET /two HTTP/1.1\r\nHost: evil.test\r\n\r\n",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.length).toBe(1);
    expect(received[0]).toMatch(/^POST \/one HTTP\/1\.1\r\nHost: allowed\.test:\d+\r\n/);
    expect(received[0].endsWith("\r\n\r\nhello")).toBe(true);
    expect(received[0]).not.toContain("evil.test");

    const chunked = await ask(
      session.socketPath,
      `POST http://allowed.test:${port}/three HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n` +
        "5\r\nhello\r\n0\r\n\r\n",
    );
    expect(chunked).toMatch(/^HTTP\/1\.1 411 /);
    expect(chunked).toContain("needs Content-Length");
    expect(received.length).toBe(1);
  } finally {
    await proxy.close();
    listener.close();
    await serving.catch(() => {});
  }
});

Deno.test("proxy: *. matches resolving to private or loopback addresses are refused; IP literals only when listed", async () => {
  const decisions: ProxyDecision[] = [];
  const proxy = newProxy(["*.wild.test", "127.0.0.1"], decisions, {
    // The public test address is never connected to: the test only reads the decision.
    onDecision: (d) => decisions.push(d),
  });
  const session = proxy.open();
  try {
    const loopback = await ask(session.socketPath, "CONNECT api.wild.test:443 HTTP/1.1\r\n\r\n");
    expect(loopback).toMatch(/^HTTP\/1\.1 403 /);
    expect(loopback).toContain(
      '"api.wild.test" resolves to 127.0.0.1, a loopback address (127.0.0.0/8); only a host ' +
        'listed by name (not by "*.wild.test") may point there',
    );
    const ip = await ask(session.socketPath, "CONNECT 10.0.0.1:443 HTTP/1.1\r\n\r\n");
    expect(ip).toContain(
      "refused CONNECT 10.0.0.1:443: an IP address is reached only when " +
        "[tools.shell.sandbox] allowed_domains lists it",
    );
    const unresolvable = await ask(session.socketPath, "CONNECT nx.wild.test:443 HTTP/1.1\r\n\r\n");
    expect(unresolvable).toContain('"nx.wild.test" does not resolve (not found)');
    const bad = await ask(session.socketPath, "GET /relative HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(bad).toContain("a proxy request names an absolute http:// URL");
    const https = await ask(session.socketPath, "GET https://allowed.test/ HTTP/1.1\r\n\r\n");
    expect(https).toContain("https goes through CONNECT");
    expect(decisions.map((d) => [d.host, d.allowed])).toEqual([
      ["api.wild.test", false],
      ["10.0.0.1", false],
      ["nx.wild.test", false],
    ]);
  } finally {
    proxy.close();
  }
});

Deno.test("proxy: closing a session ends its open tunnels; closing the proxy removes its sockets", async () => {
  // An upstream that accepts and never answers: the tunnel stays open until the session ends.
  const upstream = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const upstreamEnded = (async () => {
    const conn = await upstream.accept();
    const n = await conn.read(new Uint8Array(16)).catch(() => null);
    conn.close();
    return n;
  })();
  const proxy = newProxy(["allowed.test"]);
  const session = proxy.open();
  const client = await Deno.connect({ transport: "unix", path: session.socketPath });
  await client.write(
    new TextEncoder().encode(`CONNECT allowed.test:${upstream.addr.port} HTTP/1.1\r\n\r\n`),
  );
  const established = new Uint8Array(64);
  const n = await client.read(established);
  expect(new TextDecoder().decode(established.subarray(0, n!))).toContain("200 Connection");
  expect(proxy.openConnections).toBe(2);

  session.close();
  expect(proxy.openConnections).toBe(0);
  expect(await upstreamEnded).toBe(null); // the upstream saw its connection closed
  expect(await client.read(new Uint8Array(16)).catch(() => null)).toBe(null);
  client.close();
  await expect(Deno.stat(session.socketPath)).rejects.toThrow(Deno.errors.NotFound);

  const second = proxy.open();
  proxy.close();
  await expect(Deno.connect({ transport: "unix", path: second.socketPath })).rejects.toThrow();
  expect(() => proxy.open()).toThrow("the network proxy is closed");
  upstream.close();
});

Deno.test("bwrap arguments with the proxy: own network namespace, socket directory bound, proxy variables", () => {
  const args = bwrapArgs(
    { writable: ["/ws"], readOnly: [], hidden: [], allowNetwork: false },
    {
      proxy: { dir: "/tmp/zeph-proxy-x/1", port: 3128, files: ["/tmp/co/deno", "/tmp/co/b.ts"] },
      kindOf: () => "directory",
    },
  );
  expect(args).toContain("--unshare-net");
  // The bridge's program and script stay visible past the private /tmp (a checkout under /tmp).
  for (const file of ["/tmp/co/deno", "/tmp/co/b.ts"]) {
    const at = args.indexOf(file);
    expect(args.slice(at - 1, at + 2)).toEqual(["--ro-bind", file, file]);
    expect(at).toBeGreaterThan(args.indexOf("/tmp"));
  }
  const bind = args.indexOf("/tmp/zeph-proxy-x/1");
  expect(args.slice(bind - 1, bind + 2)).toEqual([
    "--ro-bind",
    "/tmp/zeph-proxy-x/1",
    "/tmp/zeph-proxy-x/1",
  ]);
  // After the private /tmp, or the socket would be covered by it.
  expect(bind).toBeGreaterThan(args.indexOf("/tmp"));
  const env = Object.fromEntries(
    args.flatMap((a, i) => a === "--setenv" ? [[args[i + 1], args[i + 2]]] : []),
  );
  expect(env).toEqual({
    HTTP_PROXY: "http://127.0.0.1:3128",
    HTTPS_PROXY: "http://127.0.0.1:3128",
    http_proxy: "http://127.0.0.1:3128",
    https_proxy: "http://127.0.0.1:3128",
    ALL_PROXY: "http://127.0.0.1:3128",
    all_proxy: "http://127.0.0.1:3128",
    NO_PROXY: "localhost,127.0.0.1,::1",
    no_proxy: "localhost,127.0.0.1,::1",
  });
});

Deno.test("bridge command: socat when given, the Deno script, or a compiled zeph's subcommand", () => {
  expect(bridgeCommand("/s/p", { socat: "/usr/bin/socat" }).argv).toEqual([
    "/usr/bin/socat",
    "TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr",
    "UNIX-CONNECT:/s/p",
  ]);
  const deno = bridgeCommand("/s/p", { socat: null, execPath: "/x/deno" });
  expect(deno.kind).toBe("deno");
  expect(deno.argv.slice(-3)).toEqual([
    new URL("../../src/exec/_bridge.ts", import.meta.url).pathname,
    "3128",
    "/s/p",
  ]);
  expect(deno.argv).toContain("--allow-net=127.0.0.1:3128,unix:/s/p");
  expect(bridgeCommand("/s/p", { socat: null, execPath: "/opt/zeph" })).toEqual({
    kind: "zeph",
    argv: ["/opt/zeph", "__sandbox-bridge", "3128", "/s/p"],
    env: [],
    files: ["/opt/zeph"],
  });
  // What the bridge runs is bound into the sandbox, so a checkout under /tmp still works.
  expect(deno.files).toEqual([
    "/x/deno",
    new URL("../../src/exec/_bridge.ts", import.meta.url).pathname,
  ]);
});

// ---------------------------------------------------------------------------------------------
// Real commands in real bubblewrap

const probe = probeBwrap();
const curl = (() => {
  try {
    return new Deno.Command("curl", { args: ["--version"], stdout: "null" }).outputSync().success;
  } catch {
    return false;
  }
})();
const ignore = !probe.available || !curl;
if (ignore) {
  console.error(
    `_proxy_test: sandboxed proxy tests skipped: ${
      probe.available ? "curl is not installed" : probe.reason
    }`,
  );
}

/** The bridges to try: the Deno one always, socat where it is installed. */
const BRIDGES: [string, string | null][] = [
  ["deno bridge", null],
  ...(findSocat() ? [["socat", findSocat()] as [string, string | null]] : []),
];
if (!findSocat()) console.error("_proxy_test: socat is not installed: only the Deno bridge is run");

async function sandboxFixture(proxy: NetworkProxy, socat: string | null) {
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: "/var/tmp", prefix: "zeph_px_" }));
  const ws = join(root, "ws");
  await Deno.mkdir(ws);
  const sandbox = new ShellSandbox(
    "bwrap",
    () =>
      planSandbox(ws, {
        allowedPaths: [],
        readOnlyPaths: [],
        hiddenPaths: [],
        zephPaths: [],
        allowNetwork: false,
      }, { env: {} }),
    { network: proxy, socat },
  );
  return { root, ws, runner: new SandboxedRunner(new LocalProcessRunner(), sandbox) };
}

for (const [bridge, socat] of BRIDGES) {
  Deno.test({
    name:
      `sandboxed (${bridge}): allowed host reachable, others refused with the message, no direct route`,
    ignore,
    async fn() {
      const server = httpServer();
      const port = server.addr.port;
      const decisions: ProxyDecision[] = [];
      const proxy = newProxy(["allowed.test"], decisions);
      const { root, ws, runner } = await sandboxFixture(proxy, socat);
      const run = (command: string) =>
        runner.run("bash", ["-c", command], { cwd: ws, timeoutMs: 20_000 });
      try {
        const ok = await run(`curl -sS http://allowed.test:${port}/ok`);
        expect([ok.exitCode, ok.stdout.text, ok.proxied]).toEqual([0, "hello from /ok\n", true]);

        const tunnel = await run(`curl -sS --proxytunnel http://allowed.test:${port}/tunnel`);
        expect([tunnel.exitCode, tunnel.stdout.text]).toEqual([0, "hello from /tunnel\n"]);

        const refused = await run(`curl -sS http://evil.test:${port}/x`);
        expect(refused.stdout.text).toContain(
          "zeph sandbox proxy: refused GET evil.test:" + port +
            ': "evil.test" is not in [tools.shell.sandbox] allowed_domains. Add the host',
        );
        const refusedTunnel = await run("curl -sS https://evil.test/");
        expect(refusedTunnel.exitCode).not.toBe(0);
        expect(refusedTunnel.stderr.text).toContain("403");
        // The model sees the host and the key even where the client only says "tunnel failed".
        expect(refusedTunnel.stderr.text).toContain(
          'zeph: sandbox network proxy refused CONNECT evil.test:443: "evil.test" is not in ' +
            "[tools.shell.sandbox] allowed_domains\n",
        );

        // Without the proxy there is no route: the sandbox's own loopback has no server.
        const direct = await run(`curl -sS --noproxy '*' http://127.0.0.1:${port}/direct`);
        expect(direct.exitCode).toBe(7);
        expect(direct.stderr.text).toMatch(/Failed to connect|Couldn't connect/);

        expect(decisions.map((d) => [d.method, d.host, d.allowed])).toEqual([
          ["GET", "allowed.test", true],
          ["CONNECT", "allowed.test", true],
          ["GET", "evil.test", false],
          ["CONNECT", "evil.test", false],
        ]);
        expect(proxy.openConnections).toBe(0);
      } finally {
        proxy.close();
        await server.shutdown();
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "sandboxed: a replacement runner (an editor's terminal) goes through the same proxy",
  ignore,
  async fn() {
    const server = httpServer();
    const proxy = newProxy(["allowed.test"]);
    const { root, ws, runner } = await sandboxFixture(proxy, null);
    const terminal: string[][] = [];
    const editor = {
      run(program: string, args: string[], options?: Parameters<LocalProcessRunner["run"]>[2]) {
        terminal.push([program, ...args]);
        return new LocalProcessRunner().run(program, args, options);
      },
    };
    try {
      const r = await withSandboxOf(runner, editor).run(
        "bash",
        ["-c", `curl -sS http://allowed.test:${server.addr.port}/editor`],
        { cwd: ws, timeoutMs: 20_000 },
      );
      expect([r.exitCode, r.stdout.text, r.proxied]).toEqual([0, "hello from /editor\n", true]);
      expect(terminal[0][0]).toBe("bwrap");
      expect(proxy.openConnections).toBe(0);
    } finally {
      proxy.close();
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxed: a command killed on timeout leaves no proxy connection behind",
  ignore,
  async fn() {
    // An upstream that accepts and never answers, so the command waits until it is killed.
    const upstream = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const upstreamEnded = (async () => {
      const conn = await upstream.accept().catch(() => null);
      if (!conn) return false;
      const buffer = new Uint8Array(4096);
      while (await conn.read(buffer).catch(() => null) !== null) { /* the request */ }
      conn.close();
      return true;
    })();
    const proxy = newProxy(["allowed.test"]);
    const { root, ws, runner } = await sandboxFixture(proxy, null);
    try {
      const started = performance.now();
      const r = await runner.run(
        "bash",
        ["-c", `curl -sS http://allowed.test:${upstream.addr.port}/hang`],
        { cwd: ws, timeoutMs: 1500, killGraceMs: 100 },
      );
      expect(r.timedOut).toBe(true);
      expect(performance.now() - started).toBeLessThan(6000);
      expect(proxy.openConnections).toBe(0);
      // Bounded: a command that never reached the upstream (a bridge that did not start) fails
      // here instead of waiting for a connection that never comes.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<string>((r) => {
        timer = setTimeout(() => r("no connection in 5 s"), 5000);
      });
      const ended = await Promise.race([upstreamEnded, bound]);
      clearTimeout(timer);
      expect(ended).toBe(true);
    } finally {
      proxy.close();
      upstream.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "zeph: the proxy is audited and gone when zeph exits",
  ignore,
  async fn() {
    // A server on another loopback address than 127.0.0.1, which stays direct (NO_PROXY).
    let server: Deno.HttpServer<Deno.NetAddr>;
    try {
      server = Deno.serve(
        { hostname: "127.0.0.2", port: 0, onListen() {} },
        () => new Response("through the proxy\n"),
      );
    } catch (error) {
      console.error(`skipped: cannot listen on 127.0.0.2: ${(error as Error).message}`);
      return;
    }
    const root = await Deno.realPath(
      await Deno.makeTempDir({ dir: "/var/tmp", prefix: "zeph_px_" }),
    );
    const [ws, home, tmp] = ["ws", "home", "tmp"].map((d) => join(root, d));
    for (const d of [ws, home, tmp]) await Deno.mkdir(d);
    const audit = join(root, "audit.jsonl");
    const config = join(root, "config.toml");
    await Deno.writeTextFile(
      config,
      [
        "[tools.shell]",
        'allowed_commands = ["curl"]',
        `allowed_paths = [${JSON.stringify(tmp)}]`,
        "[tools.shell.sandbox]",
        'mode = "bwrap"',
        'allowed_domains = ["127.0.0.2"]',
        "[tools.audit]",
        `path = ${JSON.stringify(audit)}`,
        "[tools.permissions]",
        'autonomy = "full"',
        "",
      ].join("\n"),
    );
    const port = server.addr.port;
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--unstable-lazy-dynamic-imports",
          new URL("../../main.ts", import.meta.url).pathname,
          "--config",
          config,
          "-C",
          ws,
          "tool",
          "bash",
          JSON.stringify({
            command: `ls -d ${tmp}/zeph-proxy-*/1/s; curl -sS http://127.0.0.2:${port}/; ` +
              "curl -sS https://other.test/",
          }),
        ],
        env: { HOME: home, TMPDIR: tmp, XDG_DATA_HOME: join(home, "data"), NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      if (!text) console.error(new TextDecoder().decode(out.stderr));
      // The command's socket, under the TMPDIR it was given, while it ran.
      expect(text).toMatch(new RegExp(`^${tmp}/zeph-proxy-\\w+/1/s\nthrough the proxy\n`));
      expect(text).toContain(
        'zeph: sandbox network proxy refused CONNECT other.test:443: "other.test" is not in ' +
          "[tools.shell.sandbox] allowed_domains",
      );
      expect(text).toContain("it reaches only the hosts in [tools.shell.sandbox] allowed_domains");
      const lines = (await Deno.readTextFile(audit)).trim().split("\n").map((l) => JSON.parse(l));
      expect(
        lines.map((e) => [e.tool, e.subject, e.decision, e.policy_match]),
      ).toEqual([
        [
          "sandbox_network",
          `GET 127.0.0.2:${port}`,
          "allow",
          'tools.shell.sandbox.allowed_domains "127.0.0.2"',
        ],
        ["sandbox_network", "CONNECT other.test:443", "deny", null],
        ["bash", lines[2].subject, "allow", lines[2].policy_match],
      ]);
      // The proxy's socket directory went with the process.
      expect([...Deno.readDirSync(tmp)].map((e) => e.name)).toEqual([]);
    } finally {
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("main.ts __sandbox-bridge (a compiled zeph's bridge) forwards 127.0.0.1:<port> to the socket", async () => {
  const dir = await Deno.makeTempDir({ prefix: "zeph_bridge_" });
  const socketPath = join(dir, "s");
  const unix = Deno.listen({ transport: "unix", path: socketPath });
  const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = free.addr.port;
  free.close();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../main.ts", import.meta.url).pathname,
      "__sandbox-bridge",
      String(port),
      socketPath,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    let client: Deno.Conn | null = null;
    for (let i = 0; i < 200 && !client; i++) {
      client = await Deno.connect({ hostname: "127.0.0.1", port }).catch(() => null);
      if (!client) await new Promise((r) => setTimeout(r, 25));
    }
    expect(client).not.toBe(null);
    await client!.write(new TextEncoder().encode("ping"));
    const server = await unix.accept();
    const got = new Uint8Array(4);
    await server.read(got);
    expect(new TextDecoder().decode(got)).toBe("ping");
    await server.write(new TextEncoder().encode("pong"));
    const back = new Uint8Array(4);
    await client!.read(back);
    expect(new TextDecoder().decode(back)).toBe("pong");
    server.close();
    client!.close();
  } finally {
    child.kill("SIGKILL");
    await child.status;
    unix.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("auto without bubblewrap: with allowed_domains set, the user is told once that nothing confines", () => {
  const reasons: string[] = [];
  const proxy = newProxy(["allowed.test"]);
  const sandbox = new ShellSandbox(
    "auto",
    { writable: [], readOnly: [], hidden: [], allowNetwork: false },
    { bwrapPath: "/nonexistent/bwrap", network: proxy, onBroken: (r) => reasons.push(r) },
  );
  expect([sandbox.active(), sandbox.active()]).toEqual([false, false]);
  expect(reasons).toEqual(['"/nonexistent/bwrap" is not installed']);
  proxy.close();
});
