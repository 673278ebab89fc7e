/**
 * `defineTool` and the types every tool file uses: the definition (zod params as the single
 * source of truth), the per-call context (all dependencies injected) and the output.
 */
import { z } from "zod";
import type { Config } from "../config/schema.ts";
import type { Sandbox } from "../sandbox/path.ts";

/** ACP tool kinds, also used by the CLI to pick an icon. */
export type ToolKind =
  | "execute"
  | "read"
  | "edit"
  | "delete"
  | "move"
  | "search"
  | "fetch"
  | "other";

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
}

/** Anything a tool may need beyond its params. Built by the registry for every call. */
export interface ToolContext {
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
  /** Optional services later layers provide (overflow reader, process runner, …). */
  services: ToolServices;
}

/**
 * How read/write/edit get and put text. Absent means the local disk; an ACP session sets an
 * editor-backed one (`fs/read_text_file` sees unsaved buffers, writes can be reviewed). Paths
 * are canonical and already checked by the sandbox.
 */
export interface TextFileBackend {
  /** Throws Deno.errors.NotFound for a missing file. */
  readTextFile(path: string): Promise<string>;
  writeTextFile(path: string, content: string): Promise<void>;
}

/** Service slots filled by the composition root; tools check for presence and fail clearly. */
export interface ToolServices {
  // deno-lint-ignore no-explicit-any
  [name: string]: any;
}

export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: P;
  mutates: boolean;
  kind: ToolKind;
  /** How the legacy text path invokes it: a fenced block (```bash, ```scrape) or a call. */
  invocation: { type: "fenced"; fence: string } | { type: "call" };
  /** The permission subjects (command, path(s), URL) the rules are matched against. */
  subjects(params: z.output<P>): string[];
  /**
   * The subjects are file paths: rules see them normalised (workspace-relative and canonical
   * absolute), so `./x`, `a/../x`, the absolute path and a symlink all meet the rules for `x`.
   */
  pathSubjects?: boolean;
  execute(params: z.output<P>, ctx: ToolContext): Promise<ToolOutput>;
}

// deno-lint-ignore no-explicit-any
export type AnyTool = ToolDefinition<any>;

export function defineTool<P extends z.ZodType>(def: ToolDefinition<P>): ToolDefinition<P> {
  return def;
}

/** The JSON Schema the model sees: input mode, so defaulted fields are not `required`. */
export function toolJsonSchema(tool: AnyTool): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.params, { io: "input" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}
