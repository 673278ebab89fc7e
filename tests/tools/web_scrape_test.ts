// web_scrape through ToolRegistry.dispatch against a real TLS server on 127.0.0.1
// (tests/_support/web.ts); the SSRF rules it shares with fetch are tested in tests/web/page_test.ts.
import { expect } from "expect";
import { webScrapeTool } from "../../src/tools/web_scrape.ts";
import { html, redirect, webHarness } from "../_support/web.ts";

const PAGE = `<!doctype html><html><head><title>Shop</title></head><body>
<h1>  Prices
  today </h1>
<ul id="items">
  <li class="item"><a href="/p/1">Widget</a> <span class="price">$3</span></li>
  <li class="item"><a href="https://other.test/p/2">Gadget</a> <span class="price">$5</span></li>
  <li class="item"><a>   </a> <span class="price"></span></li>
  <li class="item"><a href="p/4?x=1&amp;y=2">Gizmo</a> <span class="price">$7</span></li>
</ul>
<div id="mixed">Text <script>var hidden = 1;</script><b>bold</b><style>.x{}</style> end</div>
<script type="application/ld+json">{"@type": "Product"}</script>
<p data-id="a1">one</p><p data-id="a2">two</p><p>three</p>
</body></html>`;

async function scrape(input: Record<string, unknown>, page = PAGE) {
  await using web = await webHarness(() => html(page));
  return await web.dispatch("web_scrape", { url: "https://site.test/shop/", ...input });
}

Deno.test("web_scrape: text (default) is trimmed, whitespace collapsed, one value per line", async () => {
  const r = await scrape({ select: "h1, .price" });
  expect(r.ok).toBe(true);
  expect(r.text).toBe("Prices today\n$3\n$5\n$7");
  expect(r.output?.raw).toEqual({
    url: "https://site.test/shop/",
    finalUrl: "https://site.test/shop/",
    status: 200,
    contentType: "text/html",
    bytes: new TextEncoder().encode(PAGE).byteLength,
    truncated: false,
    matches: 4,
    values: ["Prices today", "$3", "$5", "$7"],
  });
});

Deno.test("web_scrape: text leaves out embedded script and style code unless selected", async () => {
  expect((await scrape({ select: "#mixed" })).text).toBe("Text bold end");
  expect((await scrape({ select: 'script[type="application/ld+json"]' })).text).toBe(
    '{"@type": "Product"}',
  );
});

Deno.test("web_scrape: html gives the inner HTML", async () => {
  const r = await scrape({ select: "li.item", extract: "html", limit: 1 });
  expect(r.text).toBe(
    '<a href="/p/1">Widget</a> <span class="price">$3</span>\n\n[1 of 4 matches shown; raise limit to see more]',
  );
});

Deno.test("web_scrape: attr:<name>; href/src become absolute, missing attributes are dropped", async () => {
  const links = await scrape({ select: "#items a", extract: "attr:href" });
  expect(links.text).toBe(
    [
      "https://site.test/p/1",
      "https://other.test/p/2",
      "https://site.test/shop/p/4?x=1&y=2",
    ].join("\n"),
  );
  const ids = await scrape({ select: "p", extract: "attr:data-id" });
  expect(ids.text).toBe("a1\na2");
});

Deno.test("web_scrape: limit counts non-empty values", async () => {
  const r = await scrape({ select: ".price", limit: 2 });
  expect(r.text).toBe("$3\n$5\n\n[2 of 3 matches shown; raise limit to see more]");
  const all = await scrape({ select: ".price", limit: 3 });
  expect(all.text).toBe("$3\n$5\n$7");
});

Deno.test("web_scrape: no match says so", async () => {
  expect((await scrape({ select: "table td" })).text).toBe("No results for selector: table td");
  expect((await scrape({ select: "p", extract: "attr:href" })).text).toBe(
    "No results for selector: p",
  );
});

Deno.test("web_scrape: an invalid selector is invalid_parameters, before any request", async () => {
  await using web = await webHarness(() => html(PAGE));
  const cases: [string, string][] = [
    ["a[", 'Invalid CSS selector "a[": Expected name, found '],
    ["p:bogus", 'Invalid CSS selector "p:bogus": Unknown pseudo-class :bogus'],
  ];
  for (const [select, message] of cases) {
    const r = await web.dispatch("web_scrape", { url: "https://site.test/", select });
    expect([r.category, r.error]).toEqual(["invalid_parameters", message]);
  }
  expect(web.requests).toEqual([]);
});

Deno.test("web_scrape: bad parameters are refused by the schema", async () => {
  await using web = await webHarness(() => html(PAGE));
  const results = [];
  for (
    const input of [
      { url: "https://site.test/", select: "p", extract: "attribute" },
      { url: "https://site.test/", select: "p", extract: "attr:" },
      { url: "https://site.test/", select: "  " },
      { url: "https://site.test/", select: "p", limit: 0 },
      { url: "https://site.test/" },
    ]
  ) {
    const r = await web.dispatch("web_scrape", input);
    results.push(r.category);
  }
  expect(results).toEqual([
    "invalid_parameters",
    "invalid_parameters",
    "invalid_parameters",
    "invalid_parameters",
    "invalid_parameters",
  ]);
  expect(web.requests).toEqual([]);
});

Deno.test("web_scrape: non-HTML is refused (use fetch); XML is parsed as XML", async () => {
  await using web = await webHarness((_req, url) =>
    url.pathname === "/feed.xml"
      ? new Response(
        "<rss><channel><item><title>First</title><link>https://site.test/1</link></item>" +
          "<item><title>Second</title></item></channel></rss>",
        { headers: { "content-type": "application/rss+xml" } },
      )
      : new Response('{"a": 1}', { headers: { "content-type": "application/json" } })
  );
  const json = await web.dispatch("web_scrape", { url: "https://site.test/a.json", select: "a" });
  expect([json.category, json.error]).toEqual([
    "permanent_failure",
    'Cannot scrape "https://site.test/a.json": the response is application/json, not HTML',
  ]);
  const feed = await web.dispatch("web_scrape", {
    url: "https://site.test/feed.xml",
    select: "item > title",
  });
  expect(feed.text).toBe("First\nSecond");
  const link = await web.dispatch("web_scrape", {
    url: "https://site.test/feed.xml",
    select: "item > link",
  });
  expect(link.text).toBe("https://site.test/1");
});

Deno.test("web_scrape: parse5 recovery; a cut body still scrapes its first part, with a note", async () => {
  const body = "<p>Unclosed <i>italic<p>next" + "<p>filler</p>".repeat(200);
  await using web = await webHarness(() => html(body), { scrape: { max_body_bytes: 100 } });
  const r = await web.dispatch("web_scrape", { url: "https://site.test/", select: "p" });
  expect(r.text).toBe(
    // 100 bytes: the recovered pair, five whole fillers and "<p>fill".
    "Unclosed italic\nnext\nfiller\nfiller\nfiller\nfiller\nfiller\nfill" +
      "\n\n[note: the response is larger than [tools.scrape] max_body_bytes (100 bytes); only the first 100 bytes were read]",
  );
});

Deno.test("web_scrape: follows redirects under the same rules and notes the final URL", async () => {
  await using web = await webHarness((_req, url) =>
    url.pathname === "/old" ? redirect("https://a.site.test/new") : html("<h1>Moved</h1>")
  );
  const ok = await web.dispatch("web_scrape", { url: "https://site.test/old", select: "h1" });
  expect(ok.text).toBe("Moved\n\n[note: redirected to https://a.site.test/new]");
  const blocked = await web.dispatch("web_scrape", { url: "http://site.test/", select: "h1" });
  expect([blocked.category, blocked.outcome]).toEqual(["policy_blocked", "blocked"]);
});

Deno.test("web_scrape: declaration (fenced scrape, fetch kind, URL subject, URL guidance)", () => {
  expect([webScrapeTool.kind, webScrapeTool.mutates, webScrapeTool.invocation]).toEqual([
    "fetch",
    false,
    { type: "fenced", fence: "scrape" },
  ]);
  expect(webScrapeTool.subjects({
    url: "https://a.test/x",
    select: "p",
    extract: "text",
    limit: 10,
  })).toEqual(["https://a.test/x"]);
  expect(webScrapeTool.description).toContain(
    "Only use a URL the user supplied or a tool returned; never guess or construct URLs.",
  );
  expect(webScrapeTool.params.parse({ url: "https://a.test/", select: "p" })).toEqual({
    url: "https://a.test/",
    select: "p",
    extract: "text",
    limit: 10,
  });
});
