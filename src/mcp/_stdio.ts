/**
 * The stdio transport of an MCP server: `Deno.Command` detached into its own process group (so
 * closing it ends every process the server started), an environment of only what it is given,
 * newline-delimited JSON-RPC on stdin/stdout and the tail of stderr kept for fault reports. A
 * line on stdout that is not a JSON-RPC message is a protocol fault: the stream cannot be
 * trusted after it, so the transport reports it and closes.
 */
// The SDK's type paths have no `.js`; its runtime paths need it.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { signalGroup, trackGroup, untrackGroup } from "../exec/mod.ts";

/** The longest JSON-RPC line accepted from a server. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** How much of stderr fault reports quote. */
const STDERR_TAIL_BYTES = 2048;
/** How long a closed server gets to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 500;

export interface StdioOptions {
  command: string;
  args: string[];
  /** The whole environment of the server. */
  env: Record<string, string>;
  cwd?: string;
}

export class DenoStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #options: StdioOptions;
  #child: Deno.ChildProcess | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #stderr = "";
  #closed = false;
  #exited: Promise<Deno.CommandStatus> | null = null;

  constructor(options: StdioOptions) {
    this.#options = options;
  }

  /** The last bytes the server wrote to stderr. */
  get stderrTail(): string {
    return this.#stderr.trim();
  }

  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.#options;
    try {
      this.#child = new Deno.Command(command, {
        args,
        env,
        clearEnv: true,
        cwd,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        // setsid(): the server leads a new process group, so closing it reaches its children.
        detached: true,
      }).spawn();
    } catch (error) {
      const reason = error instanceof Deno.errors.NotFound
        ? `command "${command}" not found (check the path, or that it is on PATH)`
        : (error as Error).message;
      // The connection says "cannot start:" for every failure at start-up.
      throw new Error(reason);
    }
    const child = this.#child;
    trackGroup(child.pid);
    this.#writer = child.stdin.getWriter();
    void this.#readStdout(child.stdout);
    const stderrRead = this.#readStderr(child.stderr);
    this.#exited = child.status.then(async (status) => {
      untrackGroup(child.pid);
      // What it wrote last explains the exit: read it before reporting (a child holding stderr
      // open must not delay the report long).
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([stderrRead, new Promise((r) => timer = setTimeout(r, 200))]);
      clearTimeout(timer);
      // The server's exit also ends what it left behind in its group.
      this.#kill("SIGKILL");
      if (!this.#closed) {
        this.#closed = true;
        const how = status.signal ? `was killed by ${status.signal}` : `exited (${status.code})`;
        this.onerror?.(new Error(`the server ${how}`));
        this.onclose?.();
      }
      return status;
    });
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed || !this.#writer) throw new Error("the server's stdin is closed");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const child = this.#child;
    if (child) {
      await this.#writer?.close().catch(() => {});
      this.#kill("SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), KILL_GRACE_MS);
      });
      const status = await Promise.race([this.#exited, late]);
      clearTimeout(timer);
      if (status === null) {
        this.#kill("SIGKILL");
        await this.#exited;
      }
    }
    this.onclose?.();
  }

  #kill(signal: Deno.Signal): void {
    if (!this.#child) return;
    try {
      signalGroup(this.#child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  async #readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    let pending = new Uint8Array(0);
    try {
      for await (const chunk of stream) {
        const joined = new Uint8Array(pending.length + chunk.length);
        joined.set(pending);
        joined.set(chunk, pending.length);
        let start = 0;
        for (let i = pending.length; i < joined.length; i++) {
          if (joined[i] !== 10) continue;
          const line = new TextDecoder().decode(joined.subarray(start, i)).replace(/\r$/, "");
          start = i + 1;
          if (line.trim() === "") continue;
          let message: JSONRPCMessage;
          try {
            message = deserializeMessage(line);
          } catch {
            this.#fault(
              `wrote a line on stdout that is not JSON-RPC: ${JSON.stringify(line.slice(0, 120))}`,
            );
            return;
          }
          this.onmessage?.(message);
        }
        pending = joined.slice(start);
        if (pending.length > MAX_LINE_BYTES) {
          this.#fault(`wrote a message longer than ${MAX_LINE_BYTES} bytes on stdout`);
          return;
        }
      }
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    }
  }

  async #readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) {
        this.#stderr = (this.#stderr + decoder.decode(chunk, { stream: true })).slice(
          -STDERR_TAIL_BYTES,
        );
      }
    } catch {
      // The stream ends with the process.
    }
  }

  #fault(what: string): void {
    if (this.#closed) return;
    this.onerror?.(new Error(`the server ${what}`));
    void this.close();
  }
}
