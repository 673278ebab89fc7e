/**
 * The ACP agent: protocol v1 over newline-delimited JSON-RPC on stdio, with the SDK's 2.x app
 * API. It maps sessions onto stored conversations, agent events onto `session/update`, `ask`
 * decisions onto `session/request_permission`, and puts editor-backed executors in front of
 * the local ones when the client offers fs/terminal. It never writes anything but protocol
 * messages to stdout.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentEvent, StopReason } from "../agent/mod.ts";
import type { Message } from "../provider/mod.ts";
import type { AskAnswer, AskReply, AskRequest } from "../tools/mod.ts";
import type { AgentBackend, AgentSessionHandle } from "./backend.ts";
import { encodeLine, guardLines, LineWriter } from "./_wire.ts";
import { acpKind, toolCallFinished, toolCallStarted, toolTitle } from "./updates.ts";
import { EditorExecutor } from "./editor_executor.ts";
import { forwardModeChanges, sessionModes } from "./modes.ts";

type Sdk = typeof import("@agentclientprotocol/sdk");

export interface AcpOptions {
  version: string;
  /** Loaded lazily on the first session: the loop, providers, store, tools. */
  backend: () => Promise<AgentBackend>;
  input: ReadableStream<Uint8Array>;
  output: (bytes: Uint8Array) => Promise<void>;
  /** Lines longer than this are refused with a JSON-RPC error; the agent keeps serving. */
  maxLineBytes?: number;
}

/** @default 16 MiB — large enough for embedded resources, small enough to refuse floods. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const STOP: Record<StopReason, acp.StopReason> = {
  end_turn: "end_turn",
  max_iterations: "max_turn_requests",
  context_budget: "max_tokens",
  doom_loop: "end_turn",
  quota: "end_turn",
  cancelled: "cancelled",
  error: "end_turn",
};

/** Live output of local commands: the tail shown, and how often it is refreshed. */
const OUTPUT_TAIL_CHARS = 8192;
const OUTPUT_INTERVAL_MS = 200;

const COMMANDS: acp.AvailableCommand[] = [
  { name: "clear", description: "Start over: forget this session's approvals and tool quota" },
  {
    name: "unblock",
    description: "Allow a tool the anomaly detector blocked in this session",
    input: { hint: "tool name" },
  },
  { name: "help", description: "Show what zeph can do in this session" },
  {
    name: "undo",
    description: "Undo the last file changes zeph made in this session (newest first)",
    input: { hint: "how many changes (default 1)" },
  },
];

const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Always reject", kind: "reject_always" },
];

/** Going on with a run of identical calls: "always" stops asking about it for this turn. */
const REPEAT_OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow_once", name: "Run it again", kind: "allow_once" },
  { optionId: "allow_always", name: "Don't ask again this turn", kind: "allow_always" },
  { optionId: "reject_once", name: "Stop", kind: "reject_once" },
];

/** What the front-end keeps per ACP session: its agent session and the turn it is running. */
interface AcpSessionState {
  handle: AgentSessionHandle;
  abort: AbortController | null;
  running: Promise<unknown> | null;
  /** Stops forwarding the session's mode changes. */
  unwatch: () => void;
}

/** Serves one ACP client until stdin closes. Resolves with the process exit code. */
export async function serveAcp(options: AcpOptions): Promise<number> {
  const sdk: Sdk = await import("@agentclientprotocol/sdk");
  const writer = new LineWriter(options.output);
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const input = guardLines(options.input, maxLine, (bytes) => {
    const error = {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: `Invalid request: message of ${bytes} bytes exceeds the ${maxLine} byte limit`,
      },
    };
    void writer.write(encodeLine(error));
  });
  const stream = sdk.ndJsonStream(writer.writable(), input, { maxMessageBytes: maxLine + 1 });

  let clientCaps: acp.ClientCapabilities = {};
  const loaded: { backend: Promise<AgentBackend> | null } = { backend: null };
  let ready: AgentBackend | null = null;
  // A failed start (bad config, missing script, no provider) answers the request that needed
  // it with a clear error; the next session request tries again.
  const backend = async (): Promise<AgentBackend> => {
    loaded.backend ??= options.backend();
    try {
      return ready = await loaded.backend;
    } catch (error) {
      loaded.backend = null;
      const message = error instanceof Error ? error.message : String(error);
      throw new sdk.RequestError(-32603, `Cannot start the zeph agent: ${message}`);
    }
  };
  const sessions = new Map<string, AcpSessionState>();
  // Prompts run in sessions, so the backend is loaded by then.
  const redact = (text: string) => ready ? ready.redact(text) : text;

  const stateOf = (id: string): AcpSessionState => {
    const s = sessions.get(id);
    if (!s) throw sdk.RequestError.sessionNotFound(id);
    return s;
  };

  const requireAbsolute = (cwd: unknown) => {
    if (typeof cwd !== "string" || !cwd.startsWith("/")) {
      throw sdk.RequestError.invalidParams(
        { cwd },
        `cwd must be an absolute path, got ${JSON.stringify(cwd)}`,
      );
    }
  };

  const conn = sdk.agent({ name: "zeph" })
    .onRequest(sdk.methods.agent.initialize, ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      return {
        protocolVersion: sdk.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          sessionCapabilities: { list: {} },
          // The editor's MCP servers of session/new and session/load: stdio always, these too.
          mcpCapabilities: { http: true, sse: true },
        },
        agentInfo: { name: "zeph", title: "Zeph", version: options.version },
        authMethods: [{
          id: "provider-env",
          name: "Provider credentials",
          description:
            "zeph reads ANTHROPIC_API_KEY / OPENAI_API_KEY from the environment, or talks to a local Ollama (see ~/.config/zeph/config.toml)",
        }],
      };
    })
    .onRequest(sdk.methods.agent.authenticate, () => ({}))
    .onRequest(sdk.methods.agent.session.new, async ({ params, client }) => {
      requireAbsolute(params.cwd);
      const handle = await (await backend()).newSession(params.cwd, params.mcpServers ?? []);
      const unwatch = forwardModeChanges(
        handle.modes,
        (update) =>
          client.notify(sdk.methods.client.session.update, { sessionId: handle.id, update }),
      );
      sessions.set(handle.id, { handle, abort: null, running: null, unwatch });
      // After the response: Zed drops an available_commands_update that arrives before it.
      setTimeout(() => {
        void client.notify(sdk.methods.client.session.update, {
          sessionId: handle.id,
          update: { sessionUpdate: "available_commands_update", availableCommands: COMMANDS },
        }).catch(() => {});
      }, 0);
      return { sessionId: handle.id, modes: sessionModes(handle.modes) };
    })
    .onRequest(sdk.methods.agent.session.load, async ({ params, client }) => {
      requireAbsolute(params.cwd);
      // Loading a session this connection is running: its turn is cancelled and finishes
      // first, so the transcript replayed (and continued) holds that turn whole.
      const current = sessions.get(params.sessionId);
      if (current) {
        current.abort?.abort();
        await current.running?.catch(() => {});
        sessions.delete(params.sessionId);
        current.unwatch();
        await current.handle.close().catch(() => {});
      }
      const handle = await (await backend()).loadSession(
        params.sessionId,
        params.cwd,
        params.mcpServers ?? [],
      );
      if (!handle) throw sdk.RequestError.sessionNotFound(params.sessionId);
      const send = (update: acp.SessionUpdate) =>
        client.notify(sdk.methods.client.session.update, { sessionId: handle.id, update });
      const unwatch = forwardModeChanges(handle.modes, send);
      sessions.set(handle.id, { handle, abort: null, running: null, unwatch });
      for (const update of replayUpdates(await handle.history(), handle.cwd)) await send(update);
      const plan = await handle.plan();
      if (plan.length) await send({ sessionUpdate: "plan", entries: plan });
      return { modes: sessionModes(handle.modes) };
    })
    .onRequest(sdk.methods.agent.session.list, async ({ params }) => {
      const list = await (await backend()).listSessions(params.cwd ?? undefined);
      return {
        sessions: list.map((s) => ({
          sessionId: s.id,
          cwd: s.cwd,
          title: s.title,
          updatedAt: s.updatedAt,
        })),
      };
    })
    .onRequest(sdk.methods.agent.session.setMode, ({ params }) => {
      const modes = stateOf(params.sessionId).handle.modes;
      if (!modes.available.some((m) => m.slug === params.modeId)) {
        // An unknown id is an error, never a silent fallback (acp.md: claude-agent-acp #507).
        throw sdk.RequestError.invalidParams(
          { modeId: params.modeId },
          `Unknown mode ${JSON.stringify(params.modeId)}; modes: ${
            modes.available.map((m) => m.slug).join(", ")
          }`,
        );
      }
      // Takes effect with the next model request, also in a turn that is running.
      modes.switchTo(params.modeId, "user");
      return {};
    })
    .onNotification(sdk.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.abort?.abort();
    })
    .onRequest(sdk.methods.agent.session.prompt, async ({ params, client }) => {
      const state = stateOf(params.sessionId);
      // One turn at a time per session: a new prompt cancels the running (or still waiting)
      // one and queues behind it. Its own controller is installed at once, so a session/cancel
      // sent while it waits cancels it, and a third prompt supersedes it before it starts.
      const previous = state.running;
      state.abort?.abort();
      const abort = new AbortController();
      state.abort = abort;
      const turn = (async (): Promise<acp.StopReason> => {
        if (previous) await previous.catch(() => {});
        if (abort.signal.aborted) return "cancelled";
        return await runPrompt(sdk, client, state, params, abort, clientCaps, redact);
      })();
      state.running = turn;
      try {
        return { stopReason: await turn };
      } finally {
        if (state.running === turn) {
          state.running = null;
          state.abort = null;
        }
      }
    })
    .connect(stream);

  await conn.closed;
  for (const s of sessions.values()) {
    s.unwatch();
    s.abort?.abort();
  }
  await Promise.allSettled([...sessions.values()].map((s) => s.running));
  // Closing a session stops its editor's MCP servers.
  await Promise.allSettled([...sessions.values()].map((s) => s.handle.close()));
  if (loaded.backend) await (await loaded.backend).close();
  return 0;
}

/** Text the loop reads for a prompt: text blocks, links and embedded resources. */
export function promptText(blocks: acp.ContentBlock[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case "text":
        parts.push(b.text);
        break;
      case "resource_link":
        parts.push(`[referenced: ${b.uri}${b.name ? ` (${b.name})` : ""}]`);
        break;
      case "resource": {
        const r = b.resource;
        if ("text" in r) parts.push(`<resource uri="${r.uri}">\n${r.text}\n</resource>`);
        else parts.push(`[binary resource omitted: ${r.uri}]`);
        break;
      }
      default:
        parts.push(`[${b.type} content is not supported by this agent and was omitted]`);
    }
  }
  return parts.join("\n");
}

async function runPrompt(
  sdk: Sdk,
  client: acp.AgentContext,
  state: AcpSessionState,
  params: acp.PromptRequest,
  abort: AbortController,
  caps: acp.ClientCapabilities,
  redact: (text: string) => string,
): Promise<acp.StopReason> {
  const sessionId = params.sessionId;
  const cwd = state.handle.cwd;
  const pending: Promise<void>[] = [];
  const send = (update: acp.SessionUpdate) => {
    pending.push(
      client.notify(sdk.methods.client.session.update, { sessionId, update }).catch(() => {}),
    );
  };
  // Provider call ids are not unique across turns; the editor gets a UUID per call.
  const ids = new Map<string, string>();
  const streaming = new Map<string, { text: string; last: number }>();
  const open = new Set<string>();
  const front = new EditorExecutor({
    client,
    sdk,
    sessionId,
    caps,
    onTerminal: (callId, terminalId) => {
      // The first update that embeds the terminal; it must precede release (acp.md §5.9).
      const toolCallId = ids.get(callId);
      if (toolCallId) {
        send({
          sessionUpdate: "tool_call_update",
          toolCallId,
          content: [{ type: "terminal", terminalId }],
        });
      }
      return Promise.all(pending).then(() => {});
    },
  });

  const emit = (event: AgentEvent) => {
    switch (event.type) {
      case "text":
        send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
        break;
      case "tool_start": {
        const toolCallId = crypto.randomUUID();
        ids.set(event.callId, toolCallId);
        open.add(toolCallId);
        send(toolCallStarted({
          toolCallId,
          tool: event.tool,
          kind: event.kind,
          input: event.input,
          subjects: event.subjects,
          cwd,
        }));
        break;
      }
      case "tool_output": {
        // Editor terminals stream themselves; local output is forwarded live as the call's
        // content (its tail, at most every OUTPUT_INTERVAL_MS), replaced by the final text.
        const toolCallId = ids.get(event.callId);
        if (!toolCallId || !open.has(toolCallId) || front.terminalFor(event.callId)) break;
        const live = streaming.get(toolCallId) ?? { text: "", last: 0 };
        const chunk = event.stream === "stderr" ? `[stderr] ${event.chunk}` : event.chunk;
        live.text = (live.text + chunk).slice(-OUTPUT_TAIL_CHARS);
        streaming.set(toolCallId, live);
        const now = performance.now();
        if (now - live.last >= OUTPUT_INTERVAL_MS) {
          live.last = now;
          send({
            sessionUpdate: "tool_call_update",
            toolCallId,
            content: [{ type: "content", content: { type: "text", text: live.text } }],
          });
        }
        break;
      }
      case "tool_end": {
        const toolCallId = ids.get(event.result.callId);
        if (!toolCallId || !open.has(toolCallId)) break;
        open.delete(toolCallId);
        send(toolCallFinished({
          toolCallId,
          result: event.result,
          cwd,
          terminalId: front.terminalFor(event.result.callId),
          redact,
        }));
        break;
      }
      case "notice":
        if (event.level === "warn" || event.level === "error") {
          send({
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `\n\n[${event.code}] ${event.message}\n` },
          });
        }
        break;
      case "plan":
        send({ sessionUpdate: "plan", entries: event.entries });
        break;
      case "usage":
      case "turn_end":
        break;
    }
  };

  // The permission answer carries no words: a rejection ends the turn (reasonFollows), so the
  // user's next prompt reaches the model right after the rejected call (README "Rejecting with
  // a reason").
  const ask = async (request: AskRequest): Promise<AskAnswer | AskReply> => {
    const toolCallId = ids.get(request.callId) ?? crypto.randomUUID();
    const subjects = request.decision.subject ? [request.decision.subject] : [];
    const why = request.decision.reason ? ` — ${request.decision.reason}` : "";
    const title = request.repeat
      ? `Run again? ${toolTitle(request.tool.name, subjects)}${why}`
      : toolTitle(request.tool.name, subjects) + why;
    try {
      const response = await client.request(
        sdk.methods.client.session.requestPermission,
        {
          sessionId,
          toolCall: {
            toolCallId,
            title,
            kind: acpKind(request.tool.name, request.tool.kind),
            status: "pending",
            rawInput: request.params,
          },
          options: request.repeat ? REPEAT_OPTIONS : PERMISSION_OPTIONS,
        },
        { cancellationSignal: abort.signal },
      );
      if (response.outcome.outcome !== "selected") return "cancelled";
      const id = response.outcome.optionId;
      if (id === "allow_once" || id === "allow_always") return id;
      return { answer: id === "reject_always" ? id : "reject_once", reasonFollows: true };
    } catch {
      return "cancelled";
    }
  };

  let stop: StopReason;
  try {
    stop = await state.handle.prompt(promptText(params.prompt), {
      signal: abort.signal,
      emit,
      ask,
      front: front.active ? front : null,
      files: front.textFiles(),
    });
  } catch (error) {
    send({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: `\n\n[error] ${(error as Error).message}\n` },
    });
    stop = abort.signal.aborted ? "cancelled" : "error";
  }
  if (abort.signal.aborted) stop = "cancelled";
  // Every announced call gets exactly one final update, also on cancel.
  for (const toolCallId of open) {
    send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "failed",
      content: [{
        type: "content",
        content: { type: "text", text: "Cancelled before it finished" },
      }],
    });
  }
  open.clear();
  // All updates of the turn go out before the prompt response; then terminals are released.
  await Promise.all(pending);
  await front.releaseAll();
  return STOP[stop];
}

/** Replays a stored transcript as updates (session/load), tool calls included. */
export function replayUpdates(messages: Message[], cwd: string): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  const ids = new Map<string, string>();
  for (const m of messages) {
    for (const part of m.parts) {
      if (part.type === "text" && part.text) {
        updates.push({
          sessionUpdate: m.role === "user" ? "user_message_chunk" : "agent_message_chunk",
          content: { type: "text", text: part.text },
        });
      } else if (part.type === "tool_call") {
        const toolCallId = crypto.randomUUID();
        ids.set(part.id, toolCallId);
        const subjects = subjectsOf(part.input);
        updates.push({
          ...toolCallStarted({
            toolCallId,
            tool: part.name,
            input: part.input,
            subjects,
            cwd,
          }),
          status: "pending",
        } as acp.SessionUpdate);
      } else if (part.type === "tool_result") {
        const toolCallId = ids.get(part.callId);
        if (!toolCallId) continue;
        updates.push({
          sessionUpdate: "tool_call_update",
          toolCallId,
          status: part.isError ? "failed" : "completed",
          content: [{ type: "content", content: { type: "text", text: part.text } }],
        });
      }
    }
  }
  return updates;
}

function subjectsOf(input: unknown): string[] {
  if (!input || typeof input !== "object") return [];
  const o = input as Record<string, unknown>;
  for (const key of ["command", "path", "url", "pattern", "id"]) {
    if (typeof o[key] === "string") return [o[key] as string];
  }
  if (typeof o.source === "string" && typeof o.destination === "string") {
    return [o.source, o.destination];
  }
  return [];
}
