/**
 * Maps agent events and tool results onto ACP `session/update` payloads: titles, kinds,
 * locations, content (text after filters and redaction, diffs, terminals) and raw output.
 * Pure functions: the session decides when to send what.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ToolKind, ToolResult } from "../tools/mod.ts";

/**
 * `path.resolve` for POSIX paths without node:path: loading Node compatibility costs ~20 ms,
 * and this module is on the path to the `initialize` answer.
 */
export function resolveIn(cwd: string, p: string): string {
  const parts: string[] = [];
  for (const seg of (p.startsWith("/") ? p : `${cwd}/${p}`).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return "/" + parts.join("/");
}

/** The spec's kind table extended to all our tools; unknown tools are "other". */
export function acpKind(tool: string, declared?: ToolKind): acp.ToolKind {
  switch (tool) {
    case "bash":
      return "execute";
    case "read":
    case "read_overflow":
      return "read";
    case "write":
    case "edit":
      return "edit";
    case "delete_path":
      return "delete";
    case "move_path":
      return "move";
    case "grep":
    case "find_path":
    case "list_directory":
      return "search";
    case "web_scrape":
    case "fetch":
      return "fetch";
  }
  return declared ?? "other";
}

const TITLE_MAX = 120;

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > TITLE_MAX ? one.slice(0, TITLE_MAX - 1) + "…" : one;
}

/** A human title built from the subject: the command for bash, "Read src/a.ts" for files. */
export function toolTitle(tool: string, subjects: string[]): string {
  const subject = subjects.join(" → ");
  if (!subject) return tool;
  switch (tool) {
    case "bash":
      return clip(subject);
    case "read":
      return clip(`Read ${subject}`);
    case "write":
      return clip(`Write ${subject}`);
    case "edit":
      return clip(`Edit ${subject}`);
    case "delete_path":
      return clip(`Delete ${subject}`);
    case "move_path":
      return clip(`Move ${subject}`);
    case "copy_path":
      return clip(`Copy ${subject}`);
    case "grep":
      return clip(`Search ${subject}`);
    case "find_path":
      return clip(`Find ${subject}`);
    case "list_directory":
      return clip(`List ${subject}`);
    case "create_directory":
      return clip(`Create directory ${subject}`);
  }
  return clip(`${tool} ${subject}`);
}

/** Absolute locations for path tools ("follow the agent"); none for commands and URLs. */
export function toolLocations(
  tool: string,
  subjects: string[],
  cwd: string,
): acp.ToolCallLocation[] | undefined {
  if (tool === "bash" || tool === "fetch" || tool === "web_scrape" || tool === "read_overflow") {
    return undefined;
  }
  if (!subjects.length) return undefined;
  return subjects.map((s) => ({ path: resolveIn(cwd, s) }));
}

export function toolCallStarted(options: {
  toolCallId: string;
  tool: string;
  kind?: ToolKind;
  input: unknown;
  subjects: string[];
  cwd: string;
  terminalId?: string;
}): acp.SessionUpdate {
  const update: acp.SessionUpdate = {
    sessionUpdate: "tool_call",
    toolCallId: options.toolCallId,
    title: toolTitle(options.tool, options.subjects),
    kind: acpKind(options.tool, options.kind),
    status: "in_progress",
    rawInput: options.input,
  };
  const locations = toolLocations(options.tool, options.subjects, options.cwd);
  if (locations) update.locations = locations;
  if (options.terminalId) update.content = [{ type: "terminal", terminalId: options.terminalId }];
  return update;
}

/** The one final update of a call: completed or failed, with everything the editor shows. */
export function toolCallFinished(options: {
  toolCallId: string;
  result: ToolResult;
  cwd: string;
  terminalId?: string;
  redact?: (text: string) => string;
}): acp.SessionUpdate {
  const { result } = options;
  const redact = options.redact ?? ((t: string) => t);
  const content: acp.ToolCallContent[] = [];
  if (options.terminalId) content.push({ type: "terminal", terminalId: options.terminalId });
  const diff = result.output?.diff;
  if (diff) {
    content.push({
      type: "diff",
      path: resolveIn(options.cwd, diff.path),
      oldText: diff.oldText,
      newText: diff.newText,
    });
  }
  content.push({ type: "content", content: { type: "text", text: redact(result.text) } });
  const update: acp.SessionUpdate = {
    sessionUpdate: "tool_call_update",
    toolCallId: options.toolCallId,
    status: result.ok ? "completed" : "failed",
    content,
  };
  const locations = result.output?.locations;
  if (locations?.length) {
    update.locations = locations.map((l) => ({
      path: resolveIn(options.cwd, l.path),
      ...(l.line ? { line: l.line } : {}),
    }));
  }
  // The raw output holds the same text (stdout, the error): it gets the same redaction.
  if (result.output?.raw !== undefined) update.rawOutput = redactDeep(result.output.raw, redact);
  else if (!result.ok) {
    update.rawOutput = redactDeep({ category: result.category, error: result.error }, redact);
  }
  return update;
}

/** Every string in a JSON-like value passed through `redact`. */
function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)]),
    );
  }
  return value;
}
