/**
 * The agent behind the ACP front-end: each ACP session is a stored conversation with its own
 * sandbox (rooted at the session's cwd), its own permission policy (so "always" answers stay
 * in the session) and an executor slot the front-end fills with editor-backed executors per
 * prompt. Opening a session needs only the config and the store; the registry, hooks and
 * provider are built when the first prompt arrives, so editors get a session fast.
 */
import type { AgentSession } from "../agent/mod.ts";
import type { Config } from "../config/mod.ts";
import type { AcpMcpServer, McpManager } from "../mcp/mod.ts";
import type { PermissionPolicy } from "../permission/mod.ts";
import type { Message, Provider } from "../provider/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import type { Store } from "../store/mod.ts";
import type {
  AnyTool,
  TextFileBackend,
  ToolContext,
  ToolExecutor,
  ToolOutput,
  ToolRegistry,
} from "../tools/mod.ts";
import type { AgentBackend, AgentSessionHandle, PromptIo } from "./backend.ts";

/** What a prompt needs: built once, on the first prompt of any session. */
export interface PromptRuntime {
  registry: ToolRegistry;
  /** The local executors (worker-fenced file tools, then the in-process ones). */
  local: ToolExecutor;
  provider: Provider;
  /** A fresh policy per session: config rules plus the shell analyser. */
  newPolicy(): PermissionPolicy;
  /** Redacts secrets from text shown to the editor. */
  redact(text: string): string;
}

/** What the sessions run on; composed by main.ts when the first session is opened. */
export interface SessionBackendDeps {
  config: Config;
  /** Where conversations are kept; null when the store cannot be opened (nothing is saved). */
  store: Store | null;
  /** The sandbox of a session, rooted at its cwd. */
  newSandbox(cwd: string): Promise<Sandbox>;
  /** Built on the first prompt of any session; a failure is retried by the next prompt. */
  runtime(): Promise<PromptRuntime>;
  close(): Promise<void>;
}

/** Delegates to the editor executor of the running prompt, if any handles the tool. */
class FrontSlot implements ToolExecutor {
  readonly name = "editor-slot";
  current: ToolExecutor | null = null;
  handles(tool: AnyTool, ctx: ToolContext): boolean {
    return this.current?.handles(tool, ctx) ?? false;
  }
  execute(tool: AnyTool, params: unknown, ctx: ToolContext): Promise<ToolOutput> {
    return this.current!.execute(tool, params, ctx);
  }
}

export function createSessionBackend(deps: SessionBackendDeps): AgentBackend {
  let runtime: Promise<PromptRuntime> | null = null;
  let redact = (text: string) => text;
  const getRuntime = (): Promise<PromptRuntime> => {
    runtime ??= deps.runtime().then((rt) => {
      redact = rt.redact;
      return rt;
    }, (error) => {
      runtime = null; // a later prompt tries again (e.g. after the user started Ollama)
      throw error;
    });
    return runtime;
  };

  const open = async (
    cwd: string,
    conversationId: string,
    messages: Message[],
    mcpServers: AcpMcpServer[] = [],
  ): Promise<AgentSessionHandle> => {
    const [sandbox, { ModeState }] = await Promise.all([
      deps.newSandbox(cwd),
      import("../tools/mod.ts"),
    ]);
    const modes = new ModeState(deps.config);
    // A loaded session goes on in the mode it was last switched to (the store keeps it), so a
    // client that reconnects for every prompt (acpx) keeps the mode it set.
    const saved = deps.store?.conversationMode(conversationId) ?? null;
    if (saved && modes.available.some((m) => m.slug === saved)) modes.switchTo(saved, "user");
    else if (saved) {
      console.error(
        `zeph: warning: session ${conversationId} was in mode "${saved}", which the config no ` +
          `longer defines; it starts in "${modes.current.slug}"`,
      );
    }
    modes.onChange((mode) => deps.store?.setConversationMode(conversationId, mode.slug));
    const slot = new FrontSlot();
    let session: AgentSession | null = null;
    // The editor's MCP servers start now, off the session/new response; their tools join the
    // session's own registry (a fork of the shared one) when the first prompt comes.
    const mcp = mcpServers.length ? startEditorServers(mcpServers, sandbox.workspace) : null;
    const agentSession = async (): Promise<AgentSession> => {
      if (session) return session;
      // Loaded with the first prompt: the runtime has loaded the tools by then.
      const [rt, { AgentSession }, { CompositeExecutor }] = await Promise.all([
        getRuntime(),
        import("../agent/mod.ts"),
        import("../tools/mod.ts"),
      ]);
      let registry = rt.registry;
      const manager = await mcp;
      if (manager) {
        registry = rt.registry.fork();
        await manager.ready();
        await manager.attach(registry);
      }
      session = new AgentSession({
        provider: rt.provider,
        registry,
        config: deps.config,
        cwd: sandbox.workspace,
        sandbox,
        policy: rt.newPolicy(),
        executor: new CompositeExecutor([slot, rt.local]),
        store: deps.store,
        conversationId,
        messages,
        plan: deps.store?.loadPlan(conversationId) ?? [],
        callerId: conversationId,
        modes,
      });
      return session;
    };
    return {
      id: conversationId,
      cwd: sandbox.workspace,
      modes,
      history: () =>
        Promise.resolve(
          deps.store ? deps.store.loadMessages(conversationId) : [...(session?.messages ?? [])],
        ),
      plan: () =>
        Promise.resolve(
          deps.store ? deps.store.loadPlan(conversationId) : [...(session?.plan ?? [])],
        ),
      async prompt(text: string, io: PromptIo) {
        const trimmed = text.trim();
        if (trimmed === "/help") {
          io.emit({ type: "text", text: ACP_HELP });
          return "end_turn";
        }
        if (trimmed === "/undo" || trimmed.startsWith("/undo ")) {
          io.emit({
            type: "text",
            text: await undoCommand(
              deps.store,
              sandbox,
              conversationId,
              trimmed,
              io.files ?? undefined,
            ),
          });
          return "end_turn";
        }
        const s = await agentSession();
        if (trimmed === "/clear") {
          s.quota.reset();
          s.policy.clearSessionRules();
          s.guards.clear();
          io.emit({
            type: "text",
            text: "Session approvals, the tool quota and the result cache were reset.",
          });
          return "end_turn";
        }
        if (trimmed === "/unblock" || trimmed.startsWith("/unblock ")) {
          io.emit({ type: "text", text: s.unblock(trimmed.slice("/unblock".length).trim()) });
          return "end_turn";
        }
        slot.current = io.front;
        s.ask = io.ask;
        try {
          return await s.prompt(text, { sink: io.emit, signal: io.signal });
        } finally {
          slot.current = null;
        }
      },
      close: async () => {
        await (await mcp)?.close();
      },
    };
  };

  const startEditorServers = async (
    servers: AcpMcpServer[],
    workspace: string,
  ): Promise<McpManager> => {
    const { McpManager, specsFromAcp, toolMap } = await import("../mcp/mod.ts");
    const manager = new McpManager({
      tools: toolMap(),
      startupMs: deps.config.mcp.startup_timeout * 1000,
      warn: (message) => console.error(`zeph: warning: ${message}`),
    });
    void manager.start(
      specsFromAcp(servers, { env: Deno.env.toObject(), workspace, timeoutMs: 60_000 }),
    );
    return manager;
  };

  return {
    async newSession(cwd, mcpServers) {
      const id = deps.store
        ? deps.store.createConversation({ title: "ACP session", cwd })
        : crypto.randomUUID();
      return await open(cwd, id, [], mcpServers);
    },
    async loadSession(id, cwd, mcpServers) {
      if (!deps.store) return null;
      const conversation = deps.store.getConversation(id);
      if (!conversation) return null;
      return await open(cwd, id, deps.store.loadMessages(id), mcpServers);
    },
    listSessions(cwd) {
      const list = deps.store?.listConversations({ limit: 200 }) ?? [];
      return Promise.resolve(
        list
          .filter((c) => !cwd || c.cwd === cwd)
          .map((c) => ({
            id: c.id,
            cwd: c.cwd,
            title: c.title,
            updatedAt: new Date(c.updatedAt).toISOString(),
          })),
      );
    },
    redact: (text) => redact(text),
    close: () => deps.close(),
  };
}

/**
 * `/undo [n]`: restores this session's last `n` file changes, newest first; text files through
 * the editor when it offers fs (its buffers then show the restore), the rest on the disk.
 */
async function undoCommand(
  store: Store | null,
  sandbox: Sandbox,
  conversationId: string,
  text: string,
  files: TextFileBackend | undefined,
): Promise<string> {
  if (!store) return "Cannot undo: this session is not stored, so no changes were recorded.";
  const { formatUndoReport, parseUndoCount, undoChanges } = await import("../tools/mod.ts");
  let count: number;
  try {
    count = parseUndoCount(text.slice("/undo".length));
  } catch (error) {
    return (error as Error).message;
  }
  const report = await undoChanges({ log: store.undo, conversationId, sandbox, count, files });
  return formatUndoReport(report);
}

const ACP_HELP = [
  "zeph reads, searches and edits files in this workspace and runs commands, within the",
  "workspace sandbox and your permission rules ([tools.permissions] in ~/.config/zeph/config.toml).",
  "Commands: /clear forgets this session's approvals and resets the tool quota and result cache;",
  "/undo [n] undoes the last n file changes zeph made in this session (never over your later",
  "edits); /unblock <tool> allows a tool the anomaly detector blocked; /help shows this.",
  "Modes (the mode picker) decide which tools the model gets: code (all), ask (read and web),",
  "architect (read, and edit Markdown only); more in [modes.<name>] of the config.",
].join("\n");
