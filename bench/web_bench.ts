/**
 * Web tools: wall time of one `fetch` / `web_scrape` call through ToolRegistry.dispatch against a
 * local TLS server (tests/_support/web.ts: real node:https client, real TLS handshake per call,
 * SSRF checks on a test resolver), for pages of growing size, so the cost of the HTML → markdown
 * conversion (cheerio + turndown + gfm) and of the selector pass shows. Run: `deno task bench:web`.
 */
import { html, webHarness } from "../tests/_support/web.ts";
import { percentile } from "./_stats.ts";

function page(bytes: number): string {
  const block = `<section><h2>Section heading</h2>
<p>Some <a href="/link/1">linked</a> text with <code>inline code</code> and <em>emphasis</em>,
long enough to look like a paragraph of documentation that a model would read.</p>
<ul><li>first item</li><li>second <strong>item</strong></li></ul>
<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>
<pre><code class="language-ts">const x = await fetch(url);
</code></pre></section>\n`;
  const head = "<!doctype html><html><head><title>Bench</title><style>p{}</style></head><body>" +
    "<nav><a href='/'>home</a></nav><main>";
  const tail = "</main><footer>f</footer></body></html>";
  const count = Math.max(1, Math.floor((bytes - head.length - tail.length) / block.length));
  return head + block.repeat(count) + tail;
}

const SIZES: [string, number, number][] = [
  ["small", 1024, 40],
  ["100 KB", 100 * 1024, 15],
  ["1 MB", 1024 * 1024 - 4096, 6],
];

const pages = new Map(SIZES.map(([label, bytes]) => [label, page(bytes)]));
await using web = await webHarness((_req, url) => {
  const label = decodeURIComponent(url.pathname.slice(1));
  const body = pages.get(label.replace(/\.txt$/, ""))!;
  return label.endsWith(".txt")
    ? new Response(body, { headers: { "content-type": "text/plain" } })
    : html(body);
});

const rows: string[] = [];
for (const [label, , runs] of SIZES) {
  const cases: [string, string, unknown][] = [
    ["fetch text/plain (transfer only)", "fetch", { url: `https://site.test/${label}.txt` }],
    ["fetch HTML → markdown", "fetch", { url: `https://site.test/${label}` }],
    ["web_scrape `p`, limit 10", "web_scrape", { url: `https://site.test/${label}`, select: "p" }],
  ];
  for (const [name, tool, input] of cases) {
    // One warm-up call: the first use imports cheerio/turndown/node:https.
    const warm = await web.dispatch(tool as "fetch", input);
    if (!warm.ok) throw new Error(`${name}: ${warm.text}`);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await web.dispatch(tool as "fetch", input);
      times.push(performance.now() - t0);
      if (!r.ok) throw new Error(`${name}: ${r.text}`);
    }
    times.sort((a, b) => a - b);
    const size = pages.get(label)!.length;
    rows.push(
      `| ${label} (${size} B) | ${name} | ${runs} | ${percentile(times, 0.5).toFixed(1)} ms | ${
        times[times.length - 1].toFixed(1)
      } ms |`,
    );
  }
}
console.log("| page | case | runs | p50 | max |");
console.log("| --- | --- | --: | --: | --: |");
for (const row of rows) console.log(row);
