/**
 * One MCP server: its transport (stdio in its own process group, or Streamable HTTP falling back
 * to SSE), the SDK client, the paginated tool list kept fresh on `list_changed`, and calls with
 * the per-call timeout, cancellation (`notifications/cancelled`) and progress. A fault (failed
 * start, crash, garbage on stdout, a hang at start) is reported once through `onFault` and ends
 * the connection; its tools go with it.
 */
import type * as ClientModule from "@modelcontextprotocol/sdk/client/index";
import type * as SseModule from "@modelcontextprotocol/sdk/client/sse";
import type * as HttpModule from "@modelcontextprotocol/sdk/client/streamableHttp";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type * as TypesModule from "@modelcontextprotocol/sdk/types";
import type { McpTrust } from "../config/mod.ts";
import { ToolError } from "../errors/mod.ts";
import { DenoStdioTransport } from "./_stdio.ts";
import { McpCallError, mcpCodeOf } from "./errors.ts";
import type { McpCallResult, McpToolInfo } from "./tools.ts";
import { VERSION } from "../version.ts";

/** A server ready to connect: config or editor entries resolved (`${VAR}`s expanded). */
export interface McpServerSpec {
  id: string;
  transport:
    | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
    | { kind: "http"; url: string; headers: Record<string, string>; sse?: boolean };
  /** Per call. */
  timeoutMs: number;
  allowTools: string[];
  denyTools: string[];
  trust: McpTrust;
  /** Where the entry comes from, for reports: "config", "--mcp-config FILE", "editor". */
  origin: string;
}

export type McpServerState = "starting" | "ready" | "failed" | "closed";

export interface ConnectionEvents {
  /** The tool list changed (after start, on `list_changed`). */
  onTools(tools: McpToolInfo[]): void;
  /** Called at most once: what went wrong, with the server's stderr tail when it has one. */
  onFault(message: string): void;
}

export class McpConnection {
  readonly spec: McpServerSpec;
  state: McpServerState = "starting";
  tools: McpToolInfo[] = [];
  fault: string | null = null;
  #events: ConnectionEvents;
  #client: Client | null = null;
  #transport: Transport | null = null;
  #stdio: DenoStdioTransport | null = null;
  #lastError: string | null = null;

  constructor(spec: McpServerSpec, events: ConnectionEvents) {
    this.spec = spec;
    this.#events = events;
  }

  /** Connects, initialises and lists the tools; a failure is reported, never thrown. */
  async start(startupMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`did not answer within ${startupMs / 1000} s of starting`)),
        startupMs,
      );
    });
    try {
      await Promise.race([this.#connect(), hang]);
      this.tools = await Promise.race([this.#listTools(), hang]);
      if (this.state !== "starting") return; // it failed while listing
      this.state = "ready";
      this.#events.onTools(this.tools);
    } catch (error) {
      this.#fail(`cannot start: ${reasonOf(error, this.#lastError)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async #connect(): Promise<void> {
    const {
      Client,
      ToolListChangedNotificationSchema,
      StreamableHTTPClientTransport,
      SSEClientTransport,
    } = await loadSdk();
    const t = this.spec.transport;
    const client = new Client(
      { name: "zeph", version: VERSION },
      { capabilities: {} },
    );
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.#refresh();
    });
    this.#client = client;
    if (t.kind === "stdio") {
      const transport = new DenoStdioTransport(t);
      this.#stdio = transport;
      await this.#attach(client, transport);
      return;
    }
    const url = new URL(t.url);
    const requestInit = { headers: t.headers };
    if (!t.sse) {
      try {
        await this.#attach(client, new StreamableHTTPClientTransport(url, { requestInit }));
        return;
      } catch (error) {
        // Servers of the 2024-11-05 protocol answer a POST with 4xx: they speak SSE.
        const code = (error as { code?: number }).code;
        if (typeof code !== "number" || code < 400 || code > 499 || code === 401 || code === 403) {
          throw error;
        }
      }
    }
    const fresh = new Client({ name: "zeph", version: VERSION }, { capabilities: {} });
    fresh.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.#refresh();
    });
    this.#client = fresh;
    await this.#attach(fresh, new SSEClientTransport(url, { requestInit }));
  }

  async #attach(client: Client, transport: Transport): Promise<void> {
    this.#transport = transport;
    client.onerror = (error) => {
      this.#lastError = error.message;
      // stdout garbage, an exit, a broken pipe: the stdio transport closes after reporting.
    };
    client.onclose = () => {
      // A client replaced by a new session closes too: only the current one's end is a fault.
      if (this.state === "closed" || client !== this.#client) return;
      const what = this.#lastError ?? "the connection closed";
      this.#fail(this.state === "starting" ? `cannot start: ${what}` : what);
    };
    await client.connect(transport);
  }

  async #listTools(): Promise<McpToolInfo[]> {
    const client = this.#client!;
    if (!client.getServerCapabilities()?.tools) return [];
    const all: McpToolInfo[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      all.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
      if (cursor !== undefined && seen.has(cursor)) break; // a server that loops its cursor
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return all.filter((t) => this.#offered(t.name));
  }

  #offered(name: string): boolean {
    if (this.spec.denyTools.includes(name)) return false;
    return this.spec.allowTools.length === 0 || this.spec.allowTools.includes(name);
  }

  async #refresh(): Promise<void> {
    if (this.state !== "ready") return;
    try {
      this.tools = await this.#listTools();
      this.#events.onTools(this.tools);
    } catch (error) {
      this.#fail(`cannot list its tools after a change: ${reasonOf(error, this.#lastError)}`);
    }
  }

  /** One `tools/call`; failures are McpCallErrors (or `cancelled`/`timeout` ToolErrors). */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress(message: string): void },
  ): Promise<McpCallResult> {
    try {
      return await this.#call(name, args, options);
    } catch (error) {
      if (!this.#sessionGone(error) || options.signal.aborted) throw error;
      // The HTTP server forgot our session (it restarted, or expired it): initialise a new one
      // and call once more.
      await this.#reinitialize(error);
      return await this.#call(name, args, options);
    }
  }

  /** An HTTP server answered 404 (or 400 naming the session) to a request of our session. */
  #sessionGone(error: unknown): boolean {
    if (this.spec.transport.kind !== "http") return false;
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const status = cause?.code;
    const message = String(cause?.message ?? "");
    return status === 404 || (status === 400 && /session/i.test(message));
  }

  async #reinitialize(why: unknown): Promise<void> {
    const old = this.#client;
    try {
      await this.#connect();
      this.tools = await this.#listTools();
    } catch (error) {
      this.#fail(
        `lost its session (${(why as Error).message}) and cannot start a new one: ${
          reasonOf(error, this.#lastError)
        }`,
      );
      throw why;
    } finally {
      await old?.close().catch(() => {});
    }
    this.#events.onTools(this.tools);
  }

  async #call(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onProgress(message: string): void },
  ): Promise<McpCallResult> {
    const client = this.#client;
    if (this.state !== "ready" || !client) {
      throw new McpCallError(
        this.spec.id,
        "not_found",
        `Cannot call "${name}": MCP server "${this.spec.id}" is ${this.state}${
          this.fault ? ` (${this.fault})` : ""
        }`,
      );
    }
    try {
      return await client.callTool({ name, arguments: args }, undefined, {
        signal: options.signal,
        timeout: this.spec.timeoutMs,
        onprogress: (p) => {
          const of = p.total ? `${p.progress}/${p.total}` : `${p.progress}`;
          options.onProgress(`progress ${of}${p.message ? `: ${p.message}` : ""}`);
        },
      }) as McpCallResult;
    } catch (error) {
      if (options.signal.aborted) {
        throw new ToolError("cancelled", `Cannot finish "${name}": cancelled`, { cause: error });
      }
      const code = mcpCodeOf(error);
      const message = (error as Error).message ?? String(error);
      if ((error as { code?: number }).code === -32001) {
        throw new McpCallError(
          this.spec.id,
          "transient",
          `MCP tool "${name}" of server "${this.spec.id}" did not answer within ${
            this.spec.timeoutMs / 1000
          } s`,
          { category: "timeout", hint: `Raise [[mcp.servers]] timeout for "${this.spec.id}".` },
        );
      }
      const stderr = this.#stdio?.stderrTail;
      throw new McpCallError(
        this.spec.id,
        code,
        `MCP tool "${name}" of server "${this.spec.id}" failed: ${message}${
          (this.state as McpServerState) === "failed" && stderr
            ? ` (stderr: ${lastLines(stderr)})`
            : ""
        }`,
        { cause: error },
      );
    }
  }

  async close(): Promise<void> {
    if (this.state === "closed") return;
    this.state = "closed";
    try {
      await this.#client?.close();
    } catch {
      // Closing a broken connection.
    }
    await this.#transport?.close().catch(() => {});
  }

  #fail(what: string): void {
    if (this.state === "failed" || this.state === "closed") return;
    this.state = "failed";
    const stderr = this.#stdio?.stderrTail;
    this.fault = what;
    this.tools = [];
    this.#events.onFault(stderr ? `${what}; its stderr ends: ${lastLines(stderr)}` : what);
    this.#events.onTools([]);
    void this.#transport?.close().catch(() => {});
  }
}

/** The SDK's client, loaded with the first server (it is heavy). */
async function loadSdk() {
  // The SDK's type paths have no `.js` and its runtime paths need it: typed by the former.
  const [client, types, http, sse] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js") as unknown as Promise<typeof ClientModule>,
    import("@modelcontextprotocol/sdk/types.js") as unknown as Promise<typeof TypesModule>,
    import("@modelcontextprotocol/sdk/client/streamableHttp.js") as unknown as Promise<
      typeof HttpModule
    >,
    import("@modelcontextprotocol/sdk/client/sse.js") as unknown as Promise<typeof SseModule>,
  ]);
  return {
    Client: client.Client,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
  };
}

type Client = ClientModule.Client;

function reasonOf(error: unknown, last: string | null): string {
  const message = error instanceof Error ? error.message : String(error);
  return last && !message.includes(last) && /closed/i.test(message) ? last : message;
}

function lastLines(text: string): string {
  return JSON.stringify(text.split("\n").slice(-5).join("\n").slice(-600));
}
