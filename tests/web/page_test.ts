// The SSRF rules, redirects, domain lists, statuses, timeout and cancel of src/web/, driven
// through ToolRegistry.dispatch (fetch) against a real TLS server.
import { expect } from "expect";
import { DEAD_IP, html, PUBLIC_IP, redirect, webHarness } from "../_support/web.ts";

const ok = () => new Response("fine", { headers: { "content-type": "text/plain" } });

Deno.test("SSRF: private, local and special IP literals are refused before any socket", async () => {
  const cases: [string, string][] = [
    ["https://10.0.0.5/", "10.0.0.5 is a private address (10.0.0.0/8)"],
    ["https://172.16.0.1/", "172.16.0.1 is a private address (172.16.0.0/12)"],
    ["https://172.31.255.255/", "172.31.255.255 is a private address (172.16.0.0/12)"],
    ["https://192.168.1.1/", "192.168.1.1 is a private address (192.168.0.0/16)"],
    ["https://127.0.0.1/", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://127.1.2.3:8443/x", "127.1.2.3 is a loopback address (127.0.0.0/8)"],
    ["https://169.254.169.254/latest/", "169.254.169.254 is a link-local address (169.254.0.0/16)"],
    ["https://0.0.0.0/", "0.0.0.0 is an unspecified address (0.0.0.0/8)"],
    ["https://100.64.0.1/", "100.64.0.1 is a shared (carrier-grade NAT) address (100.64.0.0/10)"],
    ["https://224.0.0.1/", "224.0.0.1 is a multicast address (224.0.0.0/4)"],
    [
      "https://255.255.255.255/",
      "255.255.255.255 is a reserved or broadcast address (240.0.0.0/4)",
    ],
    // Other spellings the URL parser turns into 127.0.0.1.
    ["https://2130706433/", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://0x7f000001/", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://017700000001/", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://0x7f.1/", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://127.1/", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://0177.0.0.01/", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://127.0.0.1./", "127.0.0.1 is a loopback address (127.0.0.0/8)"],
    ["https://[::1]/", "::1 is a loopback address (::1)"],
    ["https://[::]/", ":: is an unspecified address (::)"],
    ["https://[fc00::1]/", "fc00::1 is a unique-local address (fc00::/7)"],
    ["https://[fd12:3456::1]/", "fd12:3456::1 is a unique-local address (fc00::/7)"],
    ["https://[fe80::1]/", "fe80::1 is a link-local address (fe80::/10)"],
    ["https://[febf::1]/", "febf::1 is a link-local address (fe80::/10)"],
    [
      "https://[::ffff:127.0.0.1]/",
      "::ffff:7f00:1 is a loopback address (127.0.0.0/8), as IPv4-mapped 127.0.0.1",
    ],
    [
      "https://[::ffff:a00:5]/",
      "::ffff:a00:5 is a private address (10.0.0.0/8), as IPv4-mapped 10.0.0.5",
    ],
    ["https://[::127.0.0.1]/", "::7f00:1 is a deprecated IPv4-compatible address (::/96)"],
    [
      "https://[64:ff9b::a9fe:a9fe]/",
      "64:ff9b::a9fe:a9fe is a link-local address (169.254.0.0/16), as NAT64 169.254.169.254",
    ],
    [
      "https://[2002:c0a8:101::1]/",
      "2002:c0a8:101::1 is a private address (192.168.0.0/16), as 6to4 192.168.1.1",
    ],
    ["https://[ff02::1]/", "ff02::1 is a multicast address (ff00::/8)"],
    ["https://[2001:db8::1]/", "2001:db8::1 is a documentation address (2001:db8::/32)"],
  ];
  await using web = await webHarness(ok);
  const got: [string, string, string][] = [];
  for (const [url] of cases) {
    const r = await web.dispatch("fetch", { url });
    got.push([url, r.category ?? "ok", r.error ?? r.text]);
  }
  expect(got).toEqual(
    cases.map(([url, why]) => [
      url,
      "policy_blocked",
      `Cannot fetch ${JSON.stringify(new URL(url).href)}: ${why}`,
    ]),
  );
  expect([web.resolved, web.connected, web.requests]).toEqual([[], [], []]);
});

Deno.test("SSRF: schemes other than https, credentials and local names are refused", async () => {
  const cases: [string, string][] = [
    ["http://site.test/", 'the scheme "http" is not allowed (https only)'],
    ["ftp://site.test/f", 'the scheme "ftp" is not allowed (https only)'],
    ["file:///etc/passwd", 'the scheme "file" is not allowed (https only)'],
    ["data:text/plain,hi", 'the scheme "data" is not allowed (https only)'],
    ["javascript:alert(1)", 'the scheme "javascript" is not allowed (https only)'],
    ["wss://site.test/", 'the scheme "wss" is not allowed (https only)'],
    ["https://user:pw@site.test/", "URLs with a user name or password are not allowed"],
    ["https://site.test@10.0.0.5/", "URLs with a user name or password are not allowed"],
    [
      "https://localhost/",
      'the host "localhost" is internal: "localhost" names are local to this machine or network',
    ],
    [
      "https://LOCALHOST./x",
      'the host "localhost" is internal: "localhost" names are local to this machine or network',
    ],
    [
      "https://api.localhost/",
      'the host "api.localhost" is internal: "localhost" names are local to this machine or network',
    ],
    [
      "https://printer.local/",
      'the host "printer.local" is internal: "local" names are local to this machine or network',
    ],
    [
      "https://metadata.google.internal/",
      'the host "metadata.google.internal" is internal: "internal" names are local to this machine or network',
    ],
    [
      "https://router.home.arpa/",
      'the host "router.home.arpa" is internal: "home.arpa" names are local to this machine or network',
    ],
    [
      "https://intranet/",
      'the host "intranet" is internal: a single-label host name is an internal name',
    ],
  ];
  await using web = await webHarness(ok);
  const got: [string, string][] = [];
  for (const [url] of cases) {
    const r = await web.dispatch("fetch", { url });
    got.push([url, `${r.category}: ${r.error}`]);
  }
  // The message shows the URL as checked: a trailing dot on the host is dropped first.
  const shown = (url: string) => new URL(url).href.replace("localhost./", "localhost/");
  expect(got).toEqual(
    cases.map(([url, why]) => [
      url,
      `policy_blocked: Cannot fetch ${JSON.stringify(shown(url))}: ${why}`,
    ]),
  );
  expect([web.resolved, web.connected]).toEqual([[], []]);

  const bad = await web.dispatch("fetch", { url: "not a url" });
  expect([bad.category, bad.error]).toEqual(["invalid_parameters", 'Invalid URL "not a url"']);
});

Deno.test("SSRF: every resolved address is checked; one bad answer refuses the host", async () => {
  const cases: [string, string][] = [
    ["private.test", "private.test resolves to 10.0.0.5, a private address (10.0.0.0/8)"],
    [
      "rebind.test",
      "rebind.test resolves to 192.168.1.20, a private address (192.168.0.0/16)",
    ],
    ["loop6.test", "loop6.test resolves to ::1, a loopback address (::1)"],
    ["ula.test", "ula.test resolves to fd12:3456::1, a unique-local address (fc00::/7)"],
    [
      "mapped.test",
      "mapped.test resolves to ::ffff:127.0.0.1, a loopback address (127.0.0.0/8), as IPv4-mapped 127.0.0.1",
    ],
    [
      "meta.test",
      "meta.test resolves to 169.254.169.254, a link-local address (169.254.0.0/16)",
    ],
  ];
  await using web = await webHarness(ok);
  for (const [host, why] of cases) {
    const r = await web.dispatch("fetch", { url: `https://${host}/x` });
    expect([host, r.category, r.error]).toEqual([
      host,
      "policy_blocked",
      `Cannot fetch "https://${host}/x": ${why}`,
    ]);
  }
  expect(web.resolved).toEqual(cases.map(([h]) => h));
  expect([web.connected, web.requests]).toEqual([[], []]);

  const missing = await web.dispatch("fetch", { url: "https://nowhere.test/" });
  expect([missing.category, missing.error]).toEqual([
    "permanent_failure",
    'Cannot fetch "https://nowhere.test/": the host "nowhere.test" does not resolve (no A or AAAA records)',
  ]);
});

Deno.test("SSRF: the socket goes to the checked address; refused addresses fall through to the next", async () => {
  await using web = await webHarness(ok);
  const r = await web.dispatch("fetch", { url: "https://two.site.test/p" });
  expect([r.ok, r.text]).toEqual([true, "fine"]);
  expect(web.connected).toEqual([DEAD_IP, PUBLIC_IP]);
  expect(web.requests).toEqual([{ host: "two.site.test", path: "/p" }]);
});

Deno.test("a trailing dot is dropped from the host before checks, DNS, SNI and Host", async () => {
  await using web = await webHarness(ok);
  const r = await web.dispatch("fetch", { url: "https://site.test./x" });
  expect([r.ok, r.text]).toEqual([true, "fine"]);
  expect([web.resolved, web.requests]).toEqual([["site.test"], [{
    host: "site.test",
    path: "/x",
  }]]);
});

Deno.test("TLS: the certificate is verified against the URL's host name", async () => {
  // other.test is in the certificate; nocert.test resolves to the same server but is not.
  const { DNS } = await import("../_support/web.ts");
  DNS["nocert.test"] = [PUBLIC_IP];
  try {
    await using web = await webHarness(ok);
    const good = await web.dispatch("fetch", { url: "https://other.test/" });
    expect(good.text).toBe("fine");
    const bad = await web.dispatch("fetch", { url: "https://nocert.test/" });
    expect(bad.category).toBe("permanent_failure");
    expect(bad.error).toMatch(
      /^Cannot fetch "https:\/\/nocert\.test\/": the TLS certificate check failed/,
    );
    expect(web.requests).toEqual([{ host: "other.test", path: "/" }]);
  } finally {
    delete DNS["nocert.test"];
  }
});

Deno.test("redirects: 3 hops are followed (each re-resolved), a 4th is refused", async () => {
  await using web = await webHarness((_req, url) => {
    const m = /^\/r(\d)$/.exec(url.pathname);
    if (!m) return ok();
    const n = Number(m[1]);
    const limit = Number(url.searchParams.get("to") ?? "3");
    if (n >= limit) return redirect("/done", 307);
    // Alternate hosts so each hop is checked and resolved again.
    const host = n % 2 ? "b.site.test" : "a.site.test";
    return redirect(`https://${host}/r${n + 1}?to=${limit}`, 301);
  });
  const three = await web.dispatch("fetch", { url: "https://site.test/r1?to=3" });
  expect([three.ok, three.text]).toEqual([
    true,
    "fine\n\n[note: redirected to https://a.site.test/done]",
  ]);
  expect(web.requests.map((r) => `${r.host}${r.path}`)).toEqual([
    "site.test/r1?to=3",
    "b.site.test/r2?to=3",
    "a.site.test/r3?to=3",
    "a.site.test/done",
  ]);
  expect(web.resolved).toEqual(["site.test", "b.site.test", "a.site.test", "a.site.test"]);

  web.requests.length = 0;
  const four = await web.dispatch("fetch", { url: "https://site.test/r1?to=4" });
  expect([four.category, four.error]).toEqual([
    "permanent_failure",
    'Cannot fetch "https://site.test/r1?to=4": more than 3 redirects (https://site.test/r1?to=4 -> https://b.site.test/r2?to=4 -> https://a.site.test/r3?to=4 -> https://b.site.test/r4?to=4 -> /done)',
  ]);
  expect(web.requests.length).toBe(4);
});

Deno.test("redirects: every target is checked again (private IP, private DNS, http, internal name)", async () => {
  const targets: [string, string][] = [
    ["https://10.0.0.5/admin", "10.0.0.5 is a private address (10.0.0.0/8)"],
    [
      "https://[::ffff:169.254.169.254]/",
      "::ffff:a9fe:a9fe is a link-local address (169.254.0.0/16), as IPv4-mapped 169.254.169.254",
    ],
    ["https://private.test/", "private.test resolves to 10.0.0.5, a private address (10.0.0.0/8)"],
    ["http://site.test/plain", 'the scheme "http" is not allowed (https only)'],
    [
      "https://localhost:8080/",
      'the host "localhost" is internal: "localhost" names are local to this machine or network',
    ],
  ];
  await using web = await webHarness((_req, url) =>
    url.pathname === "/go" ? redirect(url.searchParams.get("to")!) : ok()
  );
  for (const [target, why] of targets) {
    web.requests.length = 0;
    const r = await web.dispatch("fetch", {
      url: `https://site.test/go?to=${encodeURIComponent(target)}`,
    });
    const from = `https://site.test/go?to=${encodeURIComponent(target)}`;
    expect([target, r.category, r.error]).toEqual([
      target,
      "policy_blocked",
      `Cannot fetch ${JSON.stringify(new URL(target).href)}: ${why} (the redirect target of ${
        JSON.stringify(from)
      })`,
    ]);
    expect(web.requests.length).toBe(1);
  }
  expect(web.connected.every((a) => a === PUBLIC_IP)).toBe(true);

  const noLocation = await webHarness(() => new Response(null, { status: 302 }));
  await using _ = noLocation;
  const r = await noLocation.dispatch("fetch", { url: "https://site.test/" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot fetch "https://site.test/": HTTP 302 redirect without a Location header',
  ]);
});

Deno.test("domains: denied_domains and allowed_domains apply to the first URL and every hop", async () => {
  const handler = (_req: Request, url: URL) =>
    url.pathname === "/go" ? redirect(url.searchParams.get("to")!) : ok();
  {
    await using web = await webHarness(handler, { scrape: { denied_domains: ["*.site.test"] } });
    const results = [];
    for (
      const url of [
        "https://a.site.test/",
        "https://deep.a.site.test/",
        "https://site.test/",
        "https://site.test/go?to=https://b.site.test/x",
      ]
    ) {
      const r = await web.dispatch("fetch", { url });
      results.push(r.ok ? r.text : `${r.category}: ${r.error}`);
    }
    expect(results).toEqual([
      'policy_blocked: Cannot fetch "https://a.site.test/": the domain "a.site.test" is denied by [tools.scrape] denied_domains ("*.site.test")',
      'policy_blocked: Cannot fetch "https://deep.a.site.test/": the domain "deep.a.site.test" is denied by [tools.scrape] denied_domains ("*.site.test")',
      "fine",
      'policy_blocked: Cannot fetch "https://b.site.test/x": the domain "b.site.test" is denied by [tools.scrape] denied_domains ("*.site.test") (the redirect target of "https://site.test/go?to=https://b.site.test/x")',
    ]);
  }
  {
    await using web = await webHarness(handler, {
      scrape: { allowed_domains: ["site.test", "*.site.test"] },
    });
    const results = [];
    for (
      const url of [
        "https://a.site.test/",
        "https://other.test/",
        `https://${PUBLIC_IP}/`,
        "https://site.test/go?to=https://other.test/",
      ]
    ) {
      const r = await web.dispatch("fetch", { url });
      results.push(r.ok ? r.text : `${r.category}: ${r.error}`);
    }
    expect(results).toEqual([
      "fine",
      'policy_blocked: Cannot fetch "https://other.test/": the domain "other.test" is not in [tools.scrape] allowed_domains',
      `policy_blocked: Cannot fetch "https://${PUBLIC_IP}/": a bare IP address is not allowed while [tools.scrape] allowed_domains is set`,
      'policy_blocked: Cannot fetch "https://other.test/": the domain "other.test" is not in [tools.scrape] allowed_domains (the redirect target of "https://site.test/go?to=https://other.test/")',
    ]);
    expect(web.requests.map((r) => r.host)).toEqual(["a.site.test", "site.test"]);
  }
  {
    await using web = await webHarness(handler, { scrape: { allowed_domains: ["site test"] } });
    const r = await web.dispatch("fetch", { url: "https://site.test/" });
    expect([r.category, r.error]).toEqual([
      "policy_blocked",
      'Invalid [tools.scrape] allowed_domains entry: "site test" is not a domain pattern: use "example.com" or "*.example.com" (letters, digits, "-" and ".", with "*." only at the start)',
    ]);
    expect(web.requests).toEqual([]);
  }
});

Deno.test("HTTP statuses map onto the error categories", async () => {
  await using web = await webHarness((_req, url) =>
    new Response("nope", { status: Number(url.pathname.slice(1)) })
  );
  const got: string[] = [];
  for (const status of [400, 401, 403, 404, 410, 422, 429, 500, 503]) {
    const r = await web.dispatch("fetch", { url: `https://site.test/${status}` });
    got.push(`${r.category} ${r.retryable} ${r.error}`);
  }
  expect(got).toEqual([
    'invalid_parameters false Cannot fetch "https://site.test/400": HTTP 400 Bad Request',
    'policy_blocked false Cannot fetch "https://site.test/401": HTTP 401 Unauthorized',
    'policy_blocked false Cannot fetch "https://site.test/403": HTTP 403 Forbidden',
    'permanent_failure false Cannot fetch "https://site.test/404": HTTP 404 Not Found',
    'permanent_failure false Cannot fetch "https://site.test/410": HTTP 410 Gone',
    'invalid_parameters false Cannot fetch "https://site.test/422": HTTP 422 Unprocessable Entity',
    'rate_limited true Cannot fetch "https://site.test/429": HTTP 429 Too Many Requests',
    'server_error true Cannot fetch "https://site.test/500": HTTP 500 Internal Server Error',
    'server_error true Cannot fetch "https://site.test/503": HTTP 503 Service Unavailable',
  ]);
});

Deno.test("timeout: [tools.scrape] timeout ends a request that never answers", async () => {
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  await using web = await webHarness(async () => {
    await released;
    return ok();
  }, { scrape: { timeout: 1 } });
  try {
    const r = await web.dispatch("fetch", { url: "https://site.test/slow" });
    expect([r.category, r.outcome, r.error]).toEqual([
      "timeout",
      "timeout",
      'Cannot fetch "https://site.test/slow": no complete response within 1 s ([tools.scrape] timeout)',
    ]);
  } finally {
    release();
  }
});

Deno.test("timeout: a body that stalls half way also times out", async () => {
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  await using web = await webHarness(() => {
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode("partial"));
        await released;
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/plain" } });
  }, { scrape: { timeout: 1 } });
  try {
    const r = await web.dispatch("fetch", { url: "https://site.test/stall" });
    expect(r.category).toBe("timeout");
  } finally {
    release();
  }
});

Deno.test("cancel: aborting the call's signal ends the request as cancelled", async () => {
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  const controller = new AbortController();
  await using web = await webHarness(async () => {
    controller.abort();
    await released;
    return ok();
  });
  try {
    const r = await web.dispatch("fetch", { url: "https://site.test/c" }, {
      signal: controller.signal,
    });
    expect([r.category, r.outcome, r.error]).toEqual([
      "cancelled",
      "cancelled",
      'Cannot fetch "https://site.test/c": cancelled',
    ]);
  } finally {
    release();
  }
});

Deno.test("without an injected client, literal and local hosts are refused all the same", async () => {
  const { defaultConfig } = await import("../../src/config/schema.ts");
  const { fetchTool } = await import("../../src/tools/fetch.ts");
  const { PermissionPolicy } = await import("../../src/permission/policy.ts");
  const { LocalExecutor } = await import("../../src/tools/executors/mod.ts");
  const { ToolRegistry } = await import("../../src/tools/registry.ts");
  const { Sandbox } = await import("../../src/sandbox/path.ts");
  const registry = new ToolRegistry({
    tools: [fetchTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({ fetch: [{ pattern: "*", action: "allow" }] }),
    config: defaultConfig(),
  });
  const ws = await Deno.makeTempDir();
  try {
    const sandbox = await Sandbox.create(ws);
    const got = [];
    for (
      const url of ["https://127.0.0.1/", "https://[::1]/", "https://localhost/", "http://x.y/"]
    ) {
      const r = await registry.dispatch({ id: "c", name: "fetch", input: { url } }, {
        cwd: ws,
        sandbox,
      });
      got.push(r.category);
    }
    expect(got).toEqual(["policy_blocked", "policy_blocked", "policy_blocked", "policy_blocked"]);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("html helper serves text/html", async () => {
  // Guards the harness itself: a wrong content type would make the markdown tests vacuous.
  expect(html("<p>x</p>").headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(await html("<p>x</p>").text()).toBe("<p>x</p>");
});
