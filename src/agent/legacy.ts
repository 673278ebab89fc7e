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
import type { AnyTool } from "../tools/tool.ts";
import type { ToolResult } from "../tools/registry.ts";

export interface LegacyCall {
  id: string;
  name: string;
  input: unknown;
  /** The block could not be read as a call (bad JSON, no name): reported without running. */
  parseError?: string;
}

/**
 * Finds every call in `text`, in order of appearance. A fence matches only its exact language
 * (```bashrc is not ```bash); unclosed fences and blocks of other languages are ignored.
 */
export function extractLegacyCalls(
  text: string,
  tools: AnyTool[],
  options: { idPrefix?: string } = {},
): LegacyCall[] {
  const prefix = options.idPrefix ?? "legacy";
  const byFence = new Map<string, AnyTool>();
  for (const t of tools) {
    if (t.invocation.type === "fenced" && !byFence.has(t.invocation.fence)) {
      byFence.set(t.invocation.fence, t);
    }
  }
  const found: { at: number; call: Omit<LegacyCall, "id"> }[] = [];

  const fence = /```([A-Za-z0-9_-]*)/g;
  let m: RegExpExecArray | null;
  while ((m = fence.exec(text))) {
    const start = m.index + m[0].length;
    const end = text.indexOf("```", start);
    if (end < 0) break; // unclosed: ignored, and nothing after it can be a closed fence
    fence.lastIndex = end + 3;
    const tool = byFence.get(m[1]);
    if (!tool) continue;
    const body = text.slice(start, end).trim();
    found.push({ at: m.index, call: fenceCall(tool, m[1], body) });
  }

  const tagged = /<tool_call>([\s\S]*?)<\/tool_call>/g;
  while ((m = tagged.exec(text))) {
    if (insideFence(text, m.index)) continue;
    found.push({ at: m.index, call: structuredCall(m[1].trim()) });
  }

  found.sort((a, b) => a.at - b.at);
  return found.map((f, i) => ({ id: `${prefix}_${i + 1}`, ...f.call }));
}

function fenceCall(tool: AnyTool, fence: string, body: string): Omit<LegacyCall, "id"> {
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

function structuredCall(body: string): Omit<LegacyCall, "id"> {
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

/** A `<tool_call>` shown inside a fenced example block is not a call. */
function insideFence(text: string, index: number): boolean {
  let count = 0;
  let i = text.indexOf("```");
  while (i >= 0 && i < index) {
    count++;
    i = text.indexOf("```", i + 3);
  }
  return count % 2 === 1;
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
