/**
 * `web_scrape`: fetches a public HTTPS page under the SSRF rules of src/web/ and returns the
 * elements a CSS selector matches, one value per line (text, inner HTML or an attribute).
 * HTML is parsed with cheerio (parse5, spec-correct recovery), imported on first use.
 */
import type { CheerioAPI } from "cheerio";
import { z } from "zod";
import { decodeBody, fetchPage, notesBlock, pageFacts, urlSubject } from "../web/mod.ts";
import { ToolError } from "../errors/mod.ts";
import { defineTool } from "./tool.ts";

export const WebScrapeParams = z.object({
  url: z.string().min(1).describe(
    "HTTPS URL of the page; only a URL the user gave or a tool returned, never a guessed one",
  ),
  select: z.string().trim().min(1).describe(
    'CSS selector, e.g. "h1", "table.prices td", "a[href]"',
  ),
  extract: z.string().regex(/^(text|html|attr:[\w:.-]+)$/, {
    message: 'must be "text", "html" or "attr:<name>" (e.g. "attr:href")',
  }).default("text").describe(
    'What to return per element: "text" (its text, whitespace collapsed; the default), "html" ' +
      '(its inner HTML) or "attr:<name>" (an attribute; href and src come back as absolute URLs)',
  ),
  limit: z.number().int().min(1).max(1000).default(10).describe(
    "Maximum number of values returned (default 10)",
  ),
}).strict();
export type WebScrapeParams = z.infer<typeof WebScrapeParams>;

const DESCRIPTION =
  `Fetch a public web page over HTTPS and extract the elements matching a CSS selector.

Only use a URL the user supplied or a tool returned; never guess or construct URLs.
Parameters: url (https:// only), select (CSS selector), extract ("text" default | "html" | "attr:<name>"), limit (default 10).
Returns: one value per line (trimmed, empty values dropped), "No results for selector: <select>" when nothing matches, and a note when more matched than the limit.
Errors: invalid_parameters for an invalid selector; policy_blocked for non-https URLs, private or local addresses (also through redirects) and domains outside [tools.scrape] allowed_domains; HTTP errors by status (404 permanent_failure, 429 rate_limited, 5xx server_error); timeout after [tools.scrape] timeout seconds. Pages that are not HTML or XML are refused: use fetch to read them.
Example: {"url": "https://example.com", "select": "h1", "extract": "text", "limit": 5}`;

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml", ""]);
const XML_TYPES = /^(application|text)\/([\w.+-]+\+)?xml$/;

export const webScrapeTool = defineTool({
  name: "web_scrape",
  description: DESCRIPTION,
  params: WebScrapeParams,
  mutates: false,
  cacheable: true,
  kind: "fetch",
  group: "web",
  invocation: { type: "fenced", fence: "scrape" },
  subjects: (params) => [urlSubject(params.url)],
  async execute(params, ctx) {
    const { load } = await import("cheerio");
    // A bad selector is the model's mistake: report it before any request is made.
    try {
      load("<p></p>")(params.select);
    } catch (error) {
      throw new ToolError(
        "invalid_parameters",
        `Invalid CSS selector ${JSON.stringify(params.select)}: ${(error as Error).message}`,
        { hint: 'Use a standard CSS selector such as "div.article > h2" or "a[href]".' },
      );
    }
    const page = await fetchPage(params.url, ctx, {
      refuseType: (type, url) =>
        HTML_TYPES.has(type) || XML_TYPES.test(type) ? null : new ToolError(
          "permanent_failure",
          `Cannot scrape ${JSON.stringify(url.href)}: the response is ${type}, not HTML`,
          { hint: "Use the fetch tool to read non-HTML content." },
        ),
    });
    const { text, notes } = decodeBody(page);
    const $ = load(text, { xml: XML_TYPES.test(page.mediaType) });
    const values: string[] = [];
    let matched = 0;
    for (const node of $(params.select).toArray()) {
      const value = extractValue($, node, params.extract, page.finalUrl);
      if (!value) continue;
      matched++;
      if (values.length < params.limit) values.push(value);
    }
    if (page.finalUrl !== page.url) notes.push(`redirected to ${page.finalUrl}`);
    const more = matched > values.length
      ? `\n\n[${values.length} of ${matched} matches shown; raise limit to see more]`
      : "";
    const body = values.length ? values.join("\n") : `No results for selector: ${params.select}`;
    return {
      text: body + more + notesBlock(page, notes, ctx.config.tools.scrape.max_body_bytes),
      raw: { ...pageFacts(page), matches: matched, values },
      truncated: page.truncated,
    };
  },
});

type CheerioNode = Exclude<Parameters<CheerioAPI>[0], string | ArrayLike<unknown> | undefined>;

const URL_ATTRS = new Set(["href", "src", "action", "poster", "cite", "data"]);

function extractValue($: CheerioAPI, node: CheerioNode, extract: string, base: string): string {
  const el = $(node);
  if (extract === "html") return (el.html() ?? "").trim();
  if (extract.startsWith("attr:")) {
    const name = extract.slice(5).toLowerCase();
    const value = (el.attr(name) ?? "").trim();
    if (!value || !URL_ATTRS.has(name)) return value;
    try {
      return new URL(value, base).href;
    } catch {
      return value;
    }
  }
  // Text without the code of embedded scripts and styles, unless one of those was selected.
  const tag = (node as { tagName?: string }).tagName?.toLowerCase();
  let source = el;
  if (tag !== "script" && tag !== "style") {
    source = el.clone();
    source.find("script, style, noscript, template").remove();
  }
  return source.text().replace(/\s+/g, " ").trim();
}
