// fetch through ToolRegistry.dispatch against a real TLS server on 127.0.0.1 (tests/_support/web.ts).
import { expect } from "expect";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { fetchTool } from "../../src/tools/fetch.ts";
import { html, redirect, webHarness } from "../_support/web.ts";

const PAGE = `<!doctype html>
<html><head><title>  Release   notes </title><style>body{color:red}</style>
<script>alert("x")</script></head>
<body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<main>
<h1>Version 2</h1>
<p>Read the <a href="/guide?x=1">guide</a> or <a href="javascript:alert(1)">this</a>.</p>
<table>
<thead><tr><th>Name</th><th>Size</th></tr></thead>
<tbody><tr><td>zeph</td><td>12 MB</td></tr><tr><td>deno</td><td>90 MB</td></tr></tbody>
</table>
<pre><code class="language-ts">const x: number = 1;
console.log(x);
</code></pre>
<ul><li>one</li><li><del>two</del></li></ul>
<img src="data:image/png;base64,AAAA" alt="inline"><img src="pic.png" alt="pic">
</main>
<footer>© someone</footer>
</body></html>`;

Deno.test("fetch: HTML becomes markdown of <main> (table, fenced code, absolute links)", async () => {
  await using web = await webHarness(() => html(PAGE));
  const result = await web.dispatch("fetch", { url: "https://site.test/notes/v2" });
  expect(result.ok).toBe(true);
  expect(result.text).toBe(
    [
      "Title: Release notes",
      "",
      "# Version 2",
      "",
      "Read the [guide](https://site.test/guide?x=1) or this.",
      "",
      "| Name | Size |",
      "| --- | --- |",
      "| zeph | 12 MB |",
      "| deno | 90 MB |",
      "",
      "```ts",
      "const x: number = 1;",
      "console.log(x);",
      "```",
      "",
      "-   one",
      "-   ~two~",
      "",
      "![pic](https://site.test/notes/pic.png)",
    ].join("\n"),
  );
  expect(result.output?.raw).toEqual({
    url: "https://site.test/notes/v2",
    finalUrl: "https://site.test/notes/v2",
    status: 200,
    contentType: "text/html",
    bytes: new TextEncoder().encode(PAGE).byteLength,
    truncated: false,
  });
  expect(web.requests).toEqual([{ host: "site.test", path: "/notes/v2" }]);
});

Deno.test("fetch: without <main>, the <article>s; without either, <body> minus nav", async () => {
  await using web = await webHarness((_req, url) =>
    url.pathname === "/articles"
      ? html(
        "<body><nav>menu</nav><article><h2>A</h2><p>first</p></article><aside>ad</aside>" +
          "<article><h2>B</h2><p>second</p></article></body>",
      )
      : html("<body><nav>menu</nav><p>Just <strong>text</strong>.</p><script>x()</script></body>")
  );
  const articles = await web.dispatch("fetch", { url: "https://site.test/articles" });
  expect(articles.text).toBe("## A\n\nfirst\n\n---\n\n## B\n\nsecond");
  const body = await web.dispatch("fetch", { url: "https://site.test/plain" });
  expect(body.text).toBe("Just **text**.");
});

Deno.test("fetch: text and JSON come back as they are; no content type is sniffed", async () => {
  const json = '{"a": [1, 2], "b": "<p>not html</p>"}';
  await using web = await webHarness((_req, url) => {
    switch (url.pathname) {
      case "/a.json":
        return new Response(json, { headers: { "content-type": "application/json" } });
      case "/feed":
        return new Response("<rss><item>x</item></rss>", {
          headers: { "content-type": "application/rss+xml" },
        });
      case "/readme":
        return new Response("# Title\n\n<b>kept</b>\n", {
          headers: { "content-type": "text/markdown; charset=utf-8" },
        });
      case "/untyped-html":
        return new Response(new TextEncoder().encode("  <!DOCTYPE html><p>Hi <em>you</em></p>"));
      default:
        return new Response(new TextEncoder().encode("plain words"));
    }
  });
  expect((await web.dispatch("fetch", { url: "https://site.test/a.json" })).text).toBe(json);
  expect((await web.dispatch("fetch", { url: "https://site.test/feed" })).text).toBe(
    "<rss><item>x</item></rss>",
  );
  expect((await web.dispatch("fetch", { url: "https://site.test/readme" })).text).toBe(
    "# Title\n\n<b>kept</b>\n",
  );
  expect((await web.dispatch("fetch", { url: "https://site.test/untyped-html" })).text).toBe(
    "Hi _you_",
  );
  expect((await web.dispatch("fetch", { url: "https://site.test/untyped" })).text).toBe(
    "plain words",
  );
});

Deno.test("fetch: other content types are refused by name before the body is read", async () => {
  let bodyPulled = 0;
  await using web = await webHarness((_req, url) => {
    const type = url.pathname === "/doc.pdf" ? "application/pdf" : "image/png";
    // A body that counts how far the client read it: a refused type stops after the headers.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        bodyPulled++;
        if (bodyPulled > 1000) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    return new Response(stream, { headers: { "content-type": type } });
  });
  const pdf = await web.dispatch("fetch", { url: "https://site.test/doc.pdf" });
  expect([pdf.ok, pdf.category, pdf.error]).toEqual([
    false,
    "permanent_failure",
    'Cannot fetch "https://site.test/doc.pdf": the response is application/pdf, which fetch does not return (only HTML, text, JSON and XML)',
  ]);
  const png = await web.dispatch("fetch", { url: "https://site.test/x.png" });
  expect(png.error).toContain("the response is image/png");
  // 2 × 1000 chunks of 64 KiB would be 128 MB; a few chunks are buffered at most.
  expect(bodyPulled).toBeLessThan(100);
});

Deno.test("fetch: an untyped binary body is refused", async () => {
  await using web = await webHarness(() => new Response(new Uint8Array([0x89, 0x50, 0, 1, 2])));
  const result = await web.dispatch("fetch", { url: "https://site.test/blob" });
  expect([result.category, result.error]).toEqual([
    "permanent_failure",
    'Cannot fetch "https://site.test/blob": the response has no content type and looks binary',
  ]);
});

Deno.test("fetch: invalid UTF-8 is decoded lossily with a note; declared charsets are used", async () => {
  await using web = await webHarness((_req, url) =>
    url.pathname === "/latin1"
      ? new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), {
        headers: { "content-type": "text/plain; charset=ISO-8859-1" },
      })
      : new Response(new Uint8Array([0x66, 0xff, 0x67]), {
        headers: { "content-type": "text/plain; charset=utf-8" },
      })
  );
  const bad = await web.dispatch("fetch", { url: "https://site.test/bad" });
  expect(bad.text).toBe(
    "f\uFFFDg\n\n[note: the body is not valid utf-8; invalid bytes were replaced with U+FFFD]",
  );
  const latin1 = await web.dispatch("fetch", { url: "https://site.test/latin1" });
  expect(latin1.text).toBe("café");
});

Deno.test("fetch: a body over max_body_bytes is cut there with a note (split UTF-8 dropped)", async () => {
  const text = "é".repeat(600); // 1200 bytes; byte 1001 is in the middle of a character
  await using web = await webHarness(
    (_req, url) =>
      new Response(url.pathname === "/exact" ? "x".repeat(1000) : text, {
        headers: { "content-type": "text/plain; charset=utf-8" },
      }),
    { scrape: { max_body_bytes: 1001 } },
  );
  const cut = await web.dispatch("fetch", { url: "https://site.test/big" });
  expect(cut.text).toBe(
    "é".repeat(500) +
      "\n\n[note: the response is larger than [tools.scrape] max_body_bytes (1001 bytes); only the first 1001 bytes were read]",
  );
  expect(cut.output?.truncated).toBe(true);
  const exact = await web.dispatch("fetch", { url: "https://site.test/exact" });
  expect([exact.text, exact.output?.truncated]).toEqual(["x".repeat(1000), false]);
});

Deno.test("fetch: a gzip body is decompressed and the cap counts decompressed bytes", async () => {
  const text = "compressible line\n".repeat(1000); // 18,000 bytes, a few hundred gzipped
  await using web = await webHarness(
    () =>
      new Response(gzipSync(new TextEncoder().encode(text)), {
        headers: { "content-type": "text/plain", "content-encoding": "gzip" },
      }),
    { scrape: { max_body_bytes: 18 * 10 } },
  );
  const result = await web.dispatch("fetch", { url: "https://site.test/z" });
  expect(result.text).toBe(
    "compressible line\n".repeat(10) +
      "\n\n[note: the response is larger than [tools.scrape] max_body_bytes (180 bytes); only the first 180 bytes were read]",
  );
});

Deno.test("fetch: brotli bodies decode; a corrupt gzip body is a clear error", async () => {
  await using web = await webHarness((_req, url) =>
    url.pathname === "/br"
      ? new Response(brotliCompressSync(new TextEncoder().encode("brotli text")), {
        headers: { "content-type": "text/plain", "content-encoding": "br" },
      })
      : new Response(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff]), {
        headers: { "content-type": "text/plain", "content-encoding": "gzip" },
      })
  );
  expect((await web.dispatch("fetch", { url: "https://site.test/br" })).text).toBe("brotli text");
  const bad = await web.dispatch("fetch", { url: "https://site.test/bad" });
  expect(bad.category).toBe("permanent_failure");
  expect(bad.error).toMatch(
    /^Cannot fetch "https:\/\/site\.test\/bad": the compressed body is corrupt \(/,
  );
});

Deno.test("fetch: an HTML page without a header charset uses its <meta charset>", async () => {
  const bytes = [
    ...new TextEncoder().encode('<html><head><meta charset="windows-1252"></head><body><p>caf'),
    0xe9,
    0x20,
    0x80,
    ...new TextEncoder().encode("</p></body></html>"),
  ];
  await using web = await webHarness(() =>
    new Response(new Uint8Array(bytes), { headers: { "content-type": "text/html" } })
  );
  expect((await web.dispatch("fetch", { url: "https://site.test/" })).text).toBe("café €");
});

Deno.test("fetch: a redirect is noted, and relative links resolve against the final URL", async () => {
  await using web = await webHarness((_req, url) =>
    url.pathname === "/old" ? redirect("/new/page", 301) : html('<p><a href="next">next</a></p>')
  );
  const result = await web.dispatch("fetch", { url: "https://site.test/old" });
  expect(result.text).toBe(
    "[next](https://site.test/new/next)\n\n[note: redirected to https://site.test/new/page]",
  );
});

Deno.test("fetch: the description tells the model to use only supplied URLs", () => {
  expect(fetchTool.description).toContain(
    "Only use a URL the user supplied or a tool returned; never guess or construct URLs.",
  );
  expect([fetchTool.kind, fetchTool.mutates, fetchTool.invocation]).toEqual([
    "fetch",
    false,
    { type: "call" },
  ]);
  expect(fetchTool.subjects({ url: "https://a.test/x" })).toEqual(["https://a.test/x"]);
});

Deno.test("fetch, web_scrape: URL rules see the URL that is fetched, not its spelling", async () => {
  const { PermissionPolicy } = await import("../../src/permission/policy.ts");
  const { webScrapeTool } = await import("../../src/tools/web_scrape.ts");
  const rules = [
    { pattern: "https://evil.com/*", action: "deny" as const },
    { pattern: "*", action: "allow" as const },
  ];
  const policy = new PermissionPolicy({ fetch: rules, web_scrape: rules });
  // The URL parser drops tabs and newlines, the default port and the case of the host.
  const spellings = [
    "https://evil.com/x",
    "https://ev\til.com/x",
    "https://evil.com\n/x",
    "https://evil.com:443/x",
    " https://EVIL.com/x",
  ];
  const actions: string[] = [];
  for (const url of spellings) {
    actions.push((await policy.decide(fetchTool, { url })).action);
    actions.push((await policy.decide(webScrapeTool, { url, selector: "p" })).action);
  }
  expect(actions).toEqual(spellings.flatMap(() => ["deny", "deny"]));
});
