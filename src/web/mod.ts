/**
 * The web client behind `fetch` and `web_scrape`: the SSRF rules (address.ts), the pinned
 * connection seam (client.ts) and one page fetch with redirects, cap and timeout (page.ts).
 * Validation lives here, never in a client, so an injected client cannot weaken it. This folder
 * knows nothing of tools: it throws the error taxonomy's `ToolError` and takes what it needs from
 * the call as plain values.
 */
export { blockedAddressReason, urlSubject } from "./address.ts";
export {
  createWebClient,
  type WebClient,
  type WebClientOptions,
  type WebRequest,
  type WebResponse,
} from "./client.ts";
export {
  decodeBody,
  type FetchedPage,
  type FetchOptions,
  fetchPage,
  MAX_REDIRECTS,
  notesBlock,
  pageFacts,
  type WebCallContext,
} from "./page.ts";
