/**
 * An MCP server's tools as registry tools: provider-safe ids, the server's JSON Schema checked by
 * a JSON Schema validator (ajv) in the registry's validation step, the permission subject (the
 * arguments as JSON), the default decision from the server's `trust` and the tool's annotations,
 * and every content kind of a result mapped to text the model reads.
 */
import { z } from "zod";
import type { McpTrust } from "../config/mod.ts";
import type { AnyTool, ToolContext, ToolOutput } from "../tools/mod.ts";
import { McpCallError, mcpCodeOfToolError } from "./errors.ts";

/** Every provider accepts tool names of at most 64 characters of these. */
export const TOOL_ID_MAX = 64;
const UNSAFE = /[^A-Za-z0-9_-]/g;

/** What the server says about one tool (`tools/list`). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** One content block of a `tools/call` result. */
export interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** How a tool is called: the connection that owns it. */
export interface McpCaller {
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress(message: string): void },
  ): Promise<McpCallResult>;
}

/**
 * `{serverId}_{name}` with every character providers reject replaced by `_`, cut to 64; an id
 * `taken` already holds gets `_2`, `_3`, … (cut further to fit).
 */
export function mcpToolId(serverId: string, name: string, taken: (id: string) => boolean): string {
  const base = `${serverId}_${name}`.replace(UNSAFE, "_").slice(0, TOOL_ID_MAX);
  if (!taken(base)) return base;
  for (let n = 2;; n++) {
    const suffix = `_${n}`;
    const id = base.slice(0, TOOL_ID_MAX - suffix.length) + suffix;
    if (!taken(id)) return id;
  }
}

/**
 * Whether a call runs without asking when no rule matches (the policy asks for mutating tools
 * only). Annotations are the server's own claims, so they count only as far as `trust` lets
 * them: "none" asks for every tool; "readonly" runs tools that say `readOnlyHint: true` (and not
 * `destructiveHint: true`); "all" runs every tool except those that say `destructiveHint: true`.
 */
export function runsUnasked(trust: McpTrust, annotations: McpToolInfo["annotations"]): boolean {
  const destructive = annotations?.destructiveHint === true;
  if (trust === "all") return !destructive;
  if (trust === "readonly") return annotations?.readOnlyHint === true && !destructive;
  return false;
}

/** A JSON Schema as the model sees it: an object schema without `$schema`. */
export function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _, ...rest } = schema;
  return { type: "object", ...rest };
}

type Validate = ((input: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
};

/**
 * The registry validates params with zod; this wraps the server's JSON Schema, compiled by ajv,
 * so the same step checks an MCP tool's arguments and lists each problem with its path.
 */
export function jsonSchemaParams(validate: Validate): z.ZodType {
  return z.unknown().superRefine((input, ctx) => {
    if (validate(input)) return;
    for (const e of validate.errors ?? []) {
      const path = e.instancePath.split("/").slice(1).map((p) => p.replace(/~1/g, "/"));
      const extra = e.params?.additionalProperty ? ` ("${e.params.additionalProperty}")` : "";
      ctx.addIssue({ code: "custom", path, message: `${e.message ?? "is invalid"}${extra}` });
    }
  });
}

/** Compiles JSON Schemas with ajv (draft 2020-12, which also reads draft-07 schemas). */
export async function schemaCompiler(): Promise<(schema: Record<string, unknown>) => Validate> {
  const { Ajv2020 } = await import("ajv/dist/2020.js");
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  return (schema) => ajv.compile(schema) as unknown as Validate;
}

export interface McpToolOptions {
  serverId: string;
  id: string;
  info: McpToolInfo;
  trust: McpTrust;
  caller: McpCaller;
  validate: Validate;
}

/** The registry tool for one MCP tool. */
export function mcpTool(options: McpToolOptions): AnyTool {
  const { serverId, id, info, trust, caller } = options;
  const hints = info.annotations;
  const summary = (info.description ?? info.title ?? hints?.title ?? info.name).trim();
  return {
    name: id,
    description: `${summary}\n(MCP tool "${info.name}" of server "${serverId}")`,
    params: jsonSchemaParams(options.validate),
    jsonSchema: objectSchema(info.inputSchema),
    mutates: !runsUnasked(trust, hints),
    kind: hints?.readOnlyHint === true ? "read" : "other",
    // Modes offer MCP tools by this group (code mode has it, ask and architect do not).
    group: "mcp",
    invocation: { type: "call" },
    subjects: (params) => [JSON.stringify(params ?? {})],
    mcp: {
      serverId,
      tool: info.name,
      retrySafe: hints?.readOnlyHint === true || hints?.idempotentHint === true,
    },
    async execute(params: unknown, ctx: ToolContext): Promise<ToolOutput> {
      const args = (params ?? {}) as Record<string, unknown>;
      const result = await caller.callTool(info.name, args, {
        signal: ctx.signal,
        onProgress: (message) =>
          ctx.emit({ type: "notice", callId: ctx.callId, tool: id, message }),
      });
      const text = renderContent(result);
      if (result.isError) {
        const shown = text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
        throw new McpCallError(
          serverId,
          mcpCodeOfToolError(text),
          `Tool "${info.name}" of MCP server "${serverId}" reported an error: ${shown}`,
        );
      }
      return { text, raw: result };
    },
  };
}

/**
 * The text the model reads for a result. Images and audio become a note (their bytes would cost
 * tokens as base64 text); resource links and embedded resources are named with their URI; an
 * embedded text resource is included; `structuredContent` is shown as JSON when no text block
 * carries it already.
 */
export function renderContent(result: McpCallResult): string {
  const parts: string[] = [];
  for (const c of result.content ?? []) {
    switch (c.type) {
      case "text":
        parts.push(c.text ?? "");
        break;
      case "image":
      case "audio":
        parts.push(
          `[${c.type}: ${c.mimeType ?? "unknown type"}, ${base64Bytes(c.data)} bytes, not shown]`,
        );
        break;
      case "resource_link":
        parts.push(
          `[resource link: ${c.name ?? c.uri} <${c.uri}>${c.mimeType ? ` (${c.mimeType})` : ""}${
            c.description ? `: ${c.description}` : ""
          }]`,
        );
        break;
      case "resource": {
        const r = c.resource;
        if (!r) break;
        if (typeof r.text === "string") parts.push(`[resource <${r.uri}>]\n${r.text}`);
        else {
          parts.push(
            `[resource <${r.uri}>: ${r.mimeType ?? "binary"}, ${
              base64Bytes(r.blob)
            } bytes, not shown]`,
          );
        }
        break;
      }
      default:
        parts.push(`[${c.type} content, not shown]`);
    }
  }
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    const carried = (result.content ?? []).some((c) => {
      if (c.type !== "text" || !c.text) return false;
      try {
        return JSON.stringify(JSON.parse(c.text)) === json;
      } catch {
        return false;
      }
    });
    if (!carried) parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return parts.length ? parts.join("\n") : "(no content)";
}

function base64Bytes(data: string | undefined): number {
  if (!data) return 0;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.floor(data.length * 3 / 4) - padding;
}
