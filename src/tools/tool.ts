/**
 * `defineTool` and the types every tool file uses: the definition (zod params as the single
 * source of truth), the per-call context (all dependencies injected) and the output.
 */
import { z } from "zod";
import type { Config } from "../config/mod.ts";
import type { ProcessRunner } from "../exec/mod.ts";
import type { ShellAnalysis } from "../permission/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import type { PlanEntry, Store } from "../store/mod.ts";
import type { WebClient } from "../web/mod.ts";

/** ACP tool kinds, also used by the CLI to pick an icon. */
export type ToolKind =
  | "execute"
  | "read"
  | "edit"
  | "delete"
  | "move"
  | "search"
  | "fetch"
  | "switch_mode"
  | "other";

/**
 * Which tool group a tool belongs to: a mode allows tools by group, never by name (Roo-Code's
 * groups). `always` tools (switch_mode) are part of every mode.
 */
export type ToolGroup = "read" | "edit" | "command" | "web" | "mcp" | "always";

/** Events a running tool emits; the CLI prints them live, ACP forwards them. */
export type ToolEvent =
  | { type: "output"; callId: string; tool: string; stream: "stdout" | "stderr"; chunk: string }
  | { type: "notice"; callId: string; tool: string; message: string };

export interface FileDiff {
  path: string;
  oldText: string | null;
  newText: string;
}

export interface ToolOutput {
  /** What the model reads (before the filter and overflow hooks). */
  text: string;
  /** Structured payload for ACP and audit consumers (the shell envelope for bash). */
  raw?: unknown;
  diff?: FileDiff;
  locations?: { path: string; line?: number }[];
  exitCode?: number | null;
  truncated?: boolean;
  /** The command the output filters match against (bash only). */
  filterCommand?: string;
  /** True when the command failed (non-zero exit): filters must not hide the failure. */
  failed?: boolean;
  /** read_overflow output is never offloaded again. */
  skipOverflow?: boolean;
  /** The whole plan, from update_plan: the loop keeps it with the conversation and shows it. */
  plan?: PlanEntry[];
}

/**
 * What tools reach the world through. The registry fills every member (its caller's, else the
 * real one, src/tools/deps.ts), so a test passes fakes; the ACP editor executor replaces `files`
 * and `runner` for the calls it takes.
 */
export interface ToolDeps {
  /** Text files for read, write and edit: the local disk, or the editor in an ACP session. */
  files: TextFileBackend;
  /** Runs bash and diagnostics commands: local process groups, or an editor terminal. */
  runner: ProcessRunner;
  /** Name resolution and pinned requests for web_scrape and fetch. Holds no rules. */
  web: WebClient;
  /** Stored tool outputs for read_overflow; null when the session has no store. */
  overflow: OverflowReader | null;
  /** Lists the simple commands of a command line (bash checks their paths). */
  analyzeShell(command: string): Promise<ShellAnalysis>;
}

/** Anything a tool may need beyond its params. Built by the registry for every call. */
export interface ToolContext extends ToolDeps {
  /** Workspace root: relative paths resolve against it. */
  cwd: string;
  sandbox: Sandbox;
  signal: AbortSignal;
  config: Config;
  callId: string;
  conversationId: string | null;
  callerId: string | null;
  now(): number;
  emit(event: ToolEvent): void;
  /** The caller's modes (an agent session's); absent for calls outside a session. */
  modes?: ModeControl;
}

/** What switch_mode changes: the session's current mode (src/tools/modes.ts ModeState). */
export interface ModeControl {
  readonly current: { readonly slug: string; readonly name: string };
  /** Switches to `slug`; throws a ToolError naming the modes there are when it is unknown. */
  switchTo(slug: string, by: "model" | "user"): void;
}

/** The part of the store read_overflow reads: one page of an entry of this conversation. */
export type OverflowReader = Pick<Store, "overflowSlice">;

/**
 * How read, write and edit get and put text: the local disk, or the editor in an ACP session
 * (`fs/read_text_file` sees unsaved buffers, writes can be reviewed). Paths are canonical and
 * already checked by the sandbox.
 */
export interface TextFileBackend {
  /** What is at `path`, ready to read. Throws Deno.errors.NotFound when nothing is. */
  open(path: string): Promise<OpenedFile>;
  /**
   * Replaces the whole content; a missing file is created with its missing parents. The disk
   * backend reports hard links it broke; a backend that cannot tell returns nothing.
   */
  write(path: string, content: string, signal: AbortSignal): Promise<WriteReport | void>;
}

/** What a {@link TextFileBackend} write did beyond replacing the content. */
export interface WriteReport {
  /** Other names (hard links) the old file had: they keep the old content. */
  hardLinksBroken: number;
}

/** One opened entry of a {@link TextFileBackend}. */
export interface OpenedFile {
  /** Only a regular file has content to read. */
  kind: "file" | "directory" | "other";
  /** In bytes. */
  size: number;
  /** The whole content. */
  bytes(signal: AbortSignal): Promise<Uint8Array>;
  /** The content in chunks, for a file too large to hold (each chunk is valid until the next). */
  chunks(): AsyncIterable<Uint8Array>;
}

export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: P;
  mutates: boolean;
  /**
   * Only reads, so the session's result cache may answer a repeated call (`[tools.result_cache]`).
   * @default false: every other tool's call invalidates what it may affect.
   */
  cacheable?: boolean;
  kind: ToolKind;
  /** The group a mode allows it by; an `edit` tool's path subjects meet the mode's file regex. */
  group: ToolGroup;
  /** How the legacy text path invokes it: a fenced block (```bash, ```scrape) or a call. */
  invocation: { type: "fenced"; fence: string } | { type: "call" };
  /** The permission subjects (command, path(s), URL) the rules are matched against. */
  subjects(params: z.output<P>): string[];
  /**
   * The subjects are file paths: rules see them normalised (workspace-relative and canonical
   * absolute), so `./x`, `a/../x`, the absolute path and a symlink all meet the rules for `x`.
   */
  pathSubjects?: boolean;
  /**
   * Set on a tool an MCP server provides. Behaviour follows this flag, never a name prefix: the
   * result is never cached, the audit records `mcp_server_id`, `zeph tools` shows the origin.
   */
  mcp?: McpToolOrigin;
  /** The JSON Schema the model sees when it is not derived from `params` (MCP tools). */
  jsonSchema?: Record<string, unknown>;
  execute(params: z.output<P>, ctx: ToolContext): Promise<ToolOutput>;
}

/** Where an MCP tool comes from. */
export interface McpToolOrigin {
  /** The server's id (`[[mcp.servers]] id`, or the editor's server name). */
  serverId: string;
  /** The tool's name on that server (the registry id is `{serverId}_{name}`, made safe). */
  tool: string;
  /** The server says a repeat is harmless (read-only or idempotent): the loop may retry it. */
  retrySafe: boolean;
}

// deno-lint-ignore no-explicit-any
export type AnyTool = ToolDefinition<any>;

export function defineTool<P extends z.ZodType>(def: ToolDefinition<P>): ToolDefinition<P> {
  return def;
}

/** Schemas derive from immutable tool definitions: each is converted once. */
const jsonSchemas = new WeakMap<AnyTool, Record<string, unknown>>();

/**
 * The JSON Schema the model sees: input mode, so defaulted fields are not `required`. The one
 * place that converts a tool's schema: converted on first use and deep-frozen, since every
 * request, catalog and listing shares it and none may change it in place.
 */
export function toolJsonSchema(tool: AnyTool): Record<string, unknown> {
  let schema = jsonSchemas.get(tool);
  if (!schema) {
    if (tool.jsonSchema) schema = tool.jsonSchema;
    else {
      schema = z.toJSONSchema(tool.params, { io: "input" }) as Record<string, unknown>;
      delete schema.$schema;
    }
    jsonSchemas.set(tool, deepFreeze(schema));
  }
  return schema;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
