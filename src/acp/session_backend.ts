/**
 * The agent behind the ACP front-end: each ACP session is a stored conversation with its own
 * sandbox (rooted at the session's cwd), its own permission policy (so "always" answers stay
 * in the session) and an executor slot the front-end fills with editor-backed executors per
 * prompt. Opening a session needs only the config and the store; the registry, hooks and
 * provider are built when the first prompt arrives, so editors get a session fast.
 */
import type { AgentSession } from "../agent/session.ts";
import type { Config } from "../config/schema.ts";
import type { PermissionPolicy } from "../permission/policy.ts";
import type { Message, Provider } from "../provider/types.ts";
import type { Sandbox } from "../sandbox/path.ts";
import type { Store } from "../store/store.ts";
import { CompositeExecutor, type ToolExecutor } from "../tools/executors/mod.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { AnyTool, ToolContext, ToolOutput, ToolServices } from "../tools/tool.ts";
import type { AgentBackend, AgentSessionHandle, PromptIo } from "./backend.ts";

/** What a prompt needs: built once, on the first prompt of any session. */
export interface PromptRuntime {
  registry: ToolRegistry;
  /** The local executors (worker-fenced file tools, then the in-process ones). */
  local: ToolExecutor;
  provider: Provider;
  services: ToolServices;
  /** A fresh policy per session: config rules plus the shell analyser. */
  newPolicy(): PermissionPolicy;
}

export interface SessionBackendDeps {
  config: Config;
  store: Store | null;
  newSandbox(cwd: string): Promise<Sandbox>;
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
  const getRuntime = (): Promise<PromptRuntime> => {
    runtime ??= deps.runtime().catch((error) => {
      runtime = null; // a later prompt tries again (e.g. after the user started Ollama)
      throw error;
    });
    return runtime;
  };

  const open = async (
    cwd: string,
    conversationId: string,
    messages: Message[],
  ): Promise<AgentSessionHandle> => {
    const sandbox = await deps.newSandbox(cwd);
    const slot = new FrontSlot();
    let session: AgentSession | null = null;
    const agentSession = async (): Promise<AgentSession> => {
      if (session) return session;
      const [rt, { AgentSession }] = await Promise.all([
        getRuntime(),
        import("../agent/session.ts"),
      ]);
      session = new AgentSession({
        provider: rt.provider,
        registry: rt.registry,
        config: deps.config,
        cwd: sandbox.workspace,
        sandbox,
        policy: rt.newPolicy(),
        executor: new CompositeExecutor([slot, rt.local]),
        store: deps.store,
        conversationId,
        messages,
        callerId: conversationId,
        services: rt.services,
      });
      return session;
    };
    return {
      id: conversationId,
      cwd: sandbox.workspace,
      history: () =>
        Promise.resolve(
          deps.store ? deps.store.loadMessages(conversationId) : [...(session?.messages ?? [])],
        ),
      async prompt(text: string, io: PromptIo) {
        const trimmed = text.trim();
        if (trimmed === "/help") {
          io.emit({ type: "text", text: ACP_HELP });
          return "end_turn";
        }
        const s = await agentSession();
        if (trimmed === "/clear") {
          s.quota.reset();
          s.policy.clearSessionRules();
          io.emit({ type: "text", text: "Session approvals and the tool quota were reset." });
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
      close: () => Promise.resolve(),
    };
  };

  return {
    async newSession(cwd) {
      const id = deps.store
        ? deps.store.createConversation({ title: "ACP session", cwd })
        : crypto.randomUUID();
      return await open(cwd, id, []);
    },
    async loadSession(id, cwd) {
      if (!deps.store) return null;
      const conversation = deps.store.getConversation(id);
      if (!conversation) return null;
      return await open(cwd, id, deps.store.loadMessages(id));
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
    close: () => deps.close(),
  };
}

const ACP_HELP = [
  "zeph reads, searches and edits files in this workspace and runs commands, within the",
  "workspace sandbox and your permission rules ([tools.permissions] in ~/.config/zeph/config.toml).",
  "Commands: /clear forgets this session's approvals and resets the tool quota; /help shows this.",
].join("\n");
