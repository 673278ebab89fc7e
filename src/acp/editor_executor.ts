/**
 * Editor-backed executors (the spec's DynExecutor idea): when the client offers them, `bash`
 * runs in an editor terminal and `read`/`write`/`edit` go through `fs/*` (unsaved buffers are
 * seen, writes can be reviewed). The tool's own `execute` still runs here, so sandbox checks,
 * and everything the dispatch boundary does, apply exactly as for local calls: only the
 * process runner and the text-file backend are swapped.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { type ProcessRunner, type RunOptions, type RunResult, withSandboxOf } from "../exec/mod.ts";
import type {
  AnyTool,
  TextFileBackend,
  ToolContext,
  ToolExecutor,
  ToolOutput,
} from "../tools/mod.ts";

type Sdk = typeof import("@agentclientprotocol/sdk");

export interface EditorExecutorOptions {
  client: acp.AgentContext;
  sdk: Sdk;
  sessionId: string;
  caps: acp.ClientCapabilities;
  /** Sends the update that embeds the terminal; resolves once it is on the wire. */
  onTerminal: (callId: string, terminalId: string) => Promise<void>;
}

/** Bytes of terminal output the editor keeps for us (tail). */
const TERMINAL_OUTPUT_LIMIT = 1024 * 1024;

export class EditorExecutor implements ToolExecutor {
  readonly name = "editor";
  #o: EditorExecutorOptions;
  #terminals = new Map<string, acp.TerminalHandle>();

  constructor(options: EditorExecutorOptions) {
    this.#o = options;
  }

  get #fsRead(): boolean {
    return this.#o.caps.fs?.readTextFile === true;
  }
  get #fsWrite(): boolean {
    return this.#o.caps.fs?.writeTextFile === true;
  }
  get #terminal(): boolean {
    return this.#o.caps.terminal === true;
  }

  /** Whether the client offered anything this executor can route. */
  get active(): boolean {
    return this.#fsRead || this.#fsWrite || this.#terminal;
  }

  handles(tool: AnyTool): boolean {
    switch (tool.name) {
      case "bash":
        return this.#terminal;
      case "read":
        return this.#fsRead;
      case "write":
        return this.#fsWrite;
      case "edit":
        // edit reads the current text and writes the new one: both must go through the editor.
        return this.#fsRead && this.#fsWrite;
    }
    return false;
  }

  execute(tool: AnyTool, params: unknown, ctx: ToolContext): Promise<ToolOutput> {
    if (tool.name === "bash") {
      // The editor's terminal runs on this machine (a stdio agent is its child): the command
      // gets the same OS sandbox as a local one, `bwrap … -- bash -c …` in the terminal.
      const runner = withSandboxOf(ctx.runner, this.#runner(ctx.callId));
      return tool.execute(params, { ...ctx, runner });
    }
    return tool.execute(params, { ...ctx, files: this.#files() });
  }

  /** The editor's text files when it reads and writes them (an undo restores through them). */
  textFiles(): TextFileBackend | null {
    return this.#fsRead && this.#fsWrite ? this.#files() : null;
  }

  /** The terminal a call ran in, for the final update's content. */
  terminalFor(callId: string): string | undefined {
    return this.#terminals.get(callId)?.id;
  }

  /** Releases every terminal; called after the final updates have been sent. */
  async releaseAll(): Promise<void> {
    const handles = [...this.#terminals.values()];
    this.#terminals.clear();
    await Promise.allSettled(handles.map((h) => h.release()));
  }

  #files(): TextFileBackend {
    const { client, sdk, sessionId } = this.#o;
    return editorTextFiles(client, { sdk, sessionId });
  }

  #runner(callId: string): ProcessRunner {
    const o = this.#o;
    const terminals = this.#terminals;
    return {
      async run(program: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
        const started = performance.now();
        const handle = await o.client.createTerminal({
          sessionId: o.sessionId,
          command: program,
          args,
          cwd: options.cwd ?? null,
          outputByteLimit: TERMINAL_OUTPUT_LIMIT,
          ...(options.env ? { env: blankedEnv(options.env) } : {}),
        });
        terminals.set(callId, handle);
        await o.onTerminal(callId, handle.id);
        // As for the local runner: the caller's timeout ([tools.shell] timeout for bash), 0 = none.
        const timeoutMs = options.timeoutMs ?? 0;
        let timer: ReturnType<typeof setTimeout> | undefined;
        let onAbort: (() => void) | undefined;
        const stopped = new Promise<"timeout" | "aborted">((resolve) => {
          if (timeoutMs > 0) timer = setTimeout(() => resolve("timeout"), timeoutMs);
          onAbort = () => resolve("aborted");
          if (options.signal?.aborted) onAbort();
          else options.signal?.addEventListener("abort", onAbort, { once: true });
        });
        const exit = handle.waitForExit().then((e) => ({ kind: "exit" as const, e }));
        const first = await Promise.race([exit, stopped.then((kind) => ({ kind }))]);
        clearTimeout(timer);
        if (onAbort) options.signal?.removeEventListener("abort", onAbort);
        if (first.kind !== "exit") await handle.kill().catch(() => {});
        const out = await handle.currentOutput();
        const status = first.kind === "exit" ? first.e : out.exitStatus ?? null;
        const text = out.output;
        const bytes = new TextEncoder().encode(text).length;
        const captured = { text, totalBytes: bytes, droppedBytes: 0 };
        const result: RunResult = {
          stdout: captured,
          stderr: { text: "", totalBytes: 0, droppedBytes: 0 },
          combined: out.truncated
            ? { ...captured, text: `[... earlier output truncated by the editor ...]\n${text}` }
            : captured,
          exitCode: status?.exitCode ?? null,
          signal: (status?.signal ?? null) as Deno.Signal | null,
          timedOut: first.kind === "timeout",
          aborted: first.kind === "aborted",
          backgroundKilled: false,
          durationMs: performance.now() - started,
          pid: 0,
        };
        if (text) options.onChunk?.("stdout", text);
        return result;
      },
    };
  }
}

/**
 * Text files through the editor: `fs/read_text_file` (unsaved buffers included) and
 * `fs/write_text_file` (the editor creates missing files and parents and may show the change
 * for review). The editor reads whole files only, and has no directories: what it opens is a
 * file.
 */
export function editorTextFiles(
  client: Pick<acp.AgentContext, "request">,
  options: { sdk: Sdk; sessionId: string },
): TextFileBackend {
  const { sdk, sessionId } = options;
  return {
    async open(path) {
      let content: string;
      try {
        const r = await client.request(sdk.methods.client.fs.readTextFile, { sessionId, path });
        content = r.content;
      } catch (error) {
        throw asNotFound(error, path);
      }
      const bytes = new TextEncoder().encode(content);
      return {
        kind: "file",
        size: bytes.length,
        bytes: () => Promise.resolve(bytes),
        chunks: async function* () {
          yield bytes;
        },
      };
    },
    async write(path, content) {
      try {
        await client.request(sdk.methods.client.fs.writeTextFile, { sessionId, path, content });
      } catch (error) {
        throw withEditorReason(error);
      }
    },
  };
}

/**
 * The editor's terminal inherits the editor's environment and ACP can only set variables, not
 * remove them: every variable of ours that the caller's `env` left out (the env blocklist:
 * provider keys, cloud credentials) is set to "" so that the command cannot read it.
 */
function blankedEnv(allowed: Record<string, string>): { name: string; value: string }[] {
  return Object.keys(Deno.env.toObject())
    .filter((name) => !Object.hasOwn(allowed, name))
    .sort()
    .map((name) => ({ name, value: "" }));
}

/** The editor's "Resource not found" becomes the NotFound a local read would throw. */
function asNotFound(error: unknown, path: string): Error {
  const code = (error as { code?: number })?.code;
  if (code === -32002) return new Deno.errors.NotFound(`No such file: ${path}`);
  return withEditorReason(error);
}

/**
 * An editor's JSON-RPC error with its reason in `data` (`details` or `message`, as the SDK puts
 * a thrown error's text there) gets the reason into its message: "Internal error" alone tells
 * the model nothing.
 */
function withEditorReason(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const data = (error as { data?: unknown }).data;
  const reason = typeof data === "string"
    ? data
    : data && typeof data === "object"
    ? (data as { details?: unknown; message?: unknown }).details ??
      (data as { message?: unknown }).message
    : undefined;
  if (typeof reason !== "string" || reason === "" || error.message.includes(reason)) return error;
  return new Error(`${error.message}: ${reason.slice(0, 500)}`, { cause: error });
}
