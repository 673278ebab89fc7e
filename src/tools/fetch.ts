/**
 * `fetch`: reads a public HTTPS URL under the SSRF rules of src/web/ and returns readable text.
 * HTML becomes markdown (the page's main content, GFM tables and fenced code); text, JSON, XML
 * and similar come back as they are; anything else is refused by its content type. The reference
 * returns the raw body despite its documentation; zeph does what the documentation says.
 */
import { z } from "zod";
import {
  decodeBody,
  type FetchedPage,
  fetchPage,
  notesBlock,
  pageFacts,
  urlSubject,
} from "../web/mod.ts";
import { ToolError } from "../errors/mod.ts";
import { defineTool } from "./tool.ts";

export const FetchParams = z.object({
  url: z.string().min(1).describe(
    "HTTPS URL to read; only a URL the user gave or a tool returned, never a guessed one",
  ),
}).strict();
export type FetchParams = z.infer<typeof FetchParams>;

const DESCRIPTION = `Fetch a public web page or document over HTTPS and return it as readable text.

Only use a URL the user supplied or a tool returned; never guess or construct URLs.
Parameters: url (https:// only).
Returns: HTML as markdown (the main content: <main> or <article> when present, without scripts, styles, navigation and <head>; links made absolute; "Title: …" first), text/*, JSON and XML as they are. Bodies over [tools.scrape] max_body_bytes are cut there with a note.
Errors: policy_blocked for non-https URLs, private or local addresses (also through redirects) and domains outside [tools.scrape] allowed_domains; permanent_failure for binary content types (images, PDF, archives) and 404s; rate_limited for 429, server_error for 5xx; timeout after [tools.scrape] timeout seconds.
Example: {"url": "https://docs.deno.com/runtime/"}`;

const HTML = new Set(["text/html", "application/xhtml+xml"]);

/** Media types returned as they are, besides text/*. */
const TEXTUAL =
  /^application\/(([\w.-]+\+)?(json|xml)|x-ndjson|(x-)?javascript|ecmascript|(x-)?yaml|toml|x-sh|sql|graphql)$/;

export const fetchTool = defineTool({
  name: "fetch",
  description: DESCRIPTION,
  params: FetchParams,
  mutates: false,
  cacheable: true,
  kind: "fetch",
  group: "web",
  invocation: { type: "call" },
  subjects: (params) => [urlSubject(params.url)],
  async execute(params, ctx) {
    const page = await fetchPage(params.url, ctx, {
      refuseType: (type, url) =>
        type === "" || HTML.has(type) || type.startsWith("text/") || TEXTUAL.test(type)
          ? null
          : new ToolError(
            "permanent_failure",
            `Cannot fetch ${
              JSON.stringify(url.href)
            }: the response is ${type}, which fetch does not return (only HTML, text, JSON and XML)`,
            { hint: "Do not retry this URL with fetch; tell the user what kind of file it is." },
          ),
    });
    let kind = page.mediaType;
    if (kind === "") kind = sniff(page);
    const { text, notes } = decodeBody(page);
    const content = HTML.has(kind) ? await htmlToMarkdown(text, page.finalUrl) : text;
    if (page.finalUrl !== page.url) notes.push(`redirected to ${page.finalUrl}`);
    return {
      text: content + notesBlock(page, notes, ctx.config.tools.scrape.max_body_bytes),
      raw: pageFacts(page),
      truncated: page.truncated,
    };
  },
});

/** No content type: NUL bytes mean binary (refused), an HTML start means HTML, else text. */
function sniff(page: FetchedPage): string {
  const head = page.body.subarray(0, 1024);
  if (head.includes(0)) {
    throw new ToolError(
      "permanent_failure",
      `Cannot fetch ${
        JSON.stringify(page.finalUrl)
      }: the response has no content type and looks binary`,
      { hint: "Do not retry this URL with fetch." },
    );
  }
  const start = new TextDecoder().decode(head).trimStart().slice(0, 64).toLowerCase();
  return start.startsWith("<!doctype html") || start.startsWith("<html")
    ? "text/html"
    : "text/plain";
}

const DROP = "head, script, style, noscript, template, nav, iframe, object, embed, svg, canvas";

/** The page's main content as GitHub-flavoured markdown, with absolute links. */
export async function htmlToMarkdown(html: string, baseUrl: string): Promise<string> {
  const { load } = await import("cheerio");
  const TurndownService = (await import("turndown")).default;
  const { gfm } = await import("turndown-plugin-gfm");
  const $ = load(html);
  const title = $("title").first().text().replace(/\s+/g, " ").trim();
  $(DROP).remove();
  for (const attr of ["href", "src"]) {
    $(`[${attr}]`).each((_, el) => {
      const value = $(el).attr(attr)!.trim();
      let absolute: URL | null = null;
      try {
        absolute = new URL(value, baseUrl);
      } catch {
        // Unparseable: dropped like javascript: and data: below.
      }
      if (absolute && (absolute.protocol === "https:" || absolute.protocol === "http:")) {
        $(el).attr(attr, absolute.href);
      } else {
        $(el).removeAttr(attr);
      }
    });
  }
  const main = $("main").first();
  const articles = $("article");
  const parts = main.length
    ? [main.html() ?? ""]
    : articles.length
    ? articles.toArray().map((a) => $(a).html() ?? "")
    : [$("body").html() ?? $.root().html() ?? ""];
  const turndown = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "_",
  });
  turndown.use(gfm);
  const markdown = parts.map((p) => turndown.turndown(p)).join("\n\n---\n\n")
    .replace(/\n{3,}/g, "\n\n").trim();
  return title ? `Title: ${title}\n\n${markdown}` : markdown;
}
