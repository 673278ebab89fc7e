/**
 * The legacy text path, for providers without native tool use: the system prompt carries the
 * `<tools>` catalog, the model writes its calls in its answer, and the results go back as one
 * user message of labelled blocks. Three call forms are recognised in one answer, in order:
 *
 *   ```bash            a fenced block whose language is a tool's fence: the body is the
 *   ls -la             command for `bash`, a JSON object of parameters for any other fence
 *   ```                (```scrape → web_scrape)
 *
 *   <tool_call>{"name": "read", "input": {"path": "a.ts"}}</tool_call>
 *
 * The structured form is the one the catalog advertises (`registry.renderCatalog`).
 */
import type { AnyTool, ToolResult } from "../tools/mod.ts";

/**
 * A tool call the model asked for: from native tool use, or read from a legacy answer's text
 * (then `parseError` marks a block that could not be read as a call).
 */
export interface RequestedCall {
  id: string;
  name: string;
  input: unknown;
  /** The block could not be read as a call (bad JSON, no name): reported without running. */
  parseError?: string;
}

/**
 * Finds every call in `text`, in order of appearance. One left-to-right scan: whichever of a
 * fence or a `<tool_call>` tag opens first owns the text up to its close, so a `<tool_call>`
 * shown inside a fenced example is not a call, and a fence inside a `<tool_call>` body (a README
 * being written) is part of that call's arguments. A fence matches only its exact language
 * (```bashrc is not ```bash); an unclosed fence ends the scan (nothing after it can be read
 * reliably); blocks of other languages and unclosed tags are ignored.
 */
export function extractLegacyCalls(
  text: string,
  tools: AnyTool[],
  options: { idPrefix?: string } = {},
): RequestedCall[] {
  const prefix = options.idPrefix ?? "legacy";
  const byFence = new Map<string, AnyTool>();
  for (const t of tools) {
    if (t.invocation.type === "fenced" && !byFence.has(t.invocation.fence)) {
      byFence.set(t.invocation.fence, t);
    }
  }
  const found: Omit<RequestedCall, "id">[] = [];
  const OPEN_TAG = "<tool_call>";
  const CLOSE_TAG = "</tool_call>";
  const languageAt = /[A-Za-z0-9_-]*/y;
  let at = 0;
  let tagAt = -1; // the next tag at or after `at` (searched again only once passed: linear)
  while (at < text.length) {
    const fenceAt = text.indexOf("```", at);
    if (tagAt !== -2 && tagAt < at) tagAt = text.indexOf(OPEN_TAG, at);
    if (tagAt === -1) tagAt = -2; // none left
    if (fenceAt < 0 && tagAt < 0) break;
    if (tagAt >= 0 && (fenceAt < 0 || tagAt < fenceAt)) {
      const bodyStart = tagAt + OPEN_TAG.length;
      const close = text.indexOf(CLOSE_TAG, bodyStart);
      if (close < 0) {
        tagAt = -2; // unclosed: plain text, and so is every later tag (no close follows)
        at = bodyStart;
        continue;
      }
      found.push(structuredCall(text.slice(bodyStart, close).trim()));
      at = close + CLOSE_TAG.length;
      continue;
    }
    languageAt.lastIndex = fenceAt + 3;
    const language = languageAt.exec(text)![0];
    const start = fenceAt + 3 + language.length;
    const end = text.indexOf("```", start);
    if (end < 0) break; // unclosed: ignored, and nothing after it can be a closed fence
    at = end + 3;
    const tool = byFence.get(language);
    if (tool) found.push(fenceCall(tool, language, text.slice(start, end).trim()));
  }
  return found.map((call, i) => ({ id: `${prefix}_${i + 1}`, ...call }));
}

function fenceCall(tool: AnyTool, fence: string, body: string): Omit<RequestedCall, "id"> {
  if (tool.name === "bash") return { name: tool.name, input: { command: body } };
  try {
    return { name: tool.name, input: JSON.parse(body) };
  } catch (error) {
    return {
      name: tool.name,
      input: body,
      parseError: `The \`\`\`${fence} block is not a JSON object: ${(error as Error).message}`,
    };
  }
}

function structuredCall(body: string): Omit<RequestedCall, "id"> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return {
      name: "(unknown)",
      input: body,
      parseError: `The <tool_call> body is not JSON: ${(error as Error).message}`,
    };
  }
  const v = value as { name?: unknown; input?: unknown; params?: unknown; tool_id?: unknown };
  const name = typeof v?.name === "string"
    ? v.name
    : typeof v?.tool_id === "string"
    ? v.tool_id
    : "";
  if (!name) {
    return {
      name: "(unknown)",
      input: value,
      parseError: 'The <tool_call> body needs a "name" string and an "input" object',
    };
  }
  return { name, input: v.input ?? v.params ?? {} };
}

/** The user message that carries the results back: one labelled block per call, in order. */
export function formatLegacyResults(results: ToolResult[]): string {
  return results.map((r) => {
    const status = r.ok ? "ok" : r.outcome;
    return `<tool_result name="${r.tool}" call="${r.callId}" status="${status}">\n${r.text}\n</tool_result>`;
  }).join("\n\n");
}

/** The instructions that follow the catalog in a legacy system prompt. */
export function legacyInstructions(catalog: string): string {
  return [
    "You can use the tools below. To call one, write the call in your answer:",
    "- a fenced block whose language is the tool's fence (```bash for shell commands);",
    '- or a structured call: <tool_call>{"name": "<tool>", "input": {…}}</tool_call>.',
    "You may write several calls in one answer; they run in order. The results come back in",
    'the next message as <tool_result name="…" call="…" status="…"> blocks. When you are done,',
    "answer without any tool call.",
    "",
    catalog,
  ].join("\n");
}
