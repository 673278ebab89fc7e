/**
 * The agent behind the ACP front-end: each ACP session is a stored conversation with its own
 * sandbox (rooted at the session's cwd), its own permission policy (so "always" answers stay
 * in the session) and an executor slot the front-end fills with editor-backed executors per
 * prompt. The registry, hooks, provider and store are shared.
 */
import type { AgentSession } from "../agent/session.ts";
import type { Config } from "../config/schema.ts";
import type { PermissionPolicy } from "../permission/policy.ts";
import type { Message, Provider } from "../provider/types.ts";
import type { Sandbox } from "../sandbox/path.ts";
import type { Store } from "../store/store.ts";
import { CompositeExecutor, type ToolExecutor } from "../tools/executor.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { AnyTool, ToolContext, ToolOutput, ToolServices } from "../tools/tool.ts";
import type { AgentBackend, AgentSessionHandle, PromptIo } from "./backend.ts";

export interface SessionBackendDeps {
  config: Config;
  registry: ToolRegistry;
  /** The local executors (worker-fenced file tools, then the in-process ones). */
  local: ToolExecutor;
  provider: Provider;
  store: Store | null;
  services: ToolServices;
  /** A fresh policy per session: config rules plus the shell analyser. */
  newPolicy(): PermissionPolicy;
  newSandbox(cwd: string): Promise<Sandbox>;
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
  const open = async (
    cwd: string,
    conversationId: string,
    messages: Message[],
  ): Promise<AgentSessionHandle> => {
    const { AgentSession } = await import("../agent/session.ts");
    const slot = new FrontSlot();
    const sandbox = await deps.newSandbox(cwd);
    const session: AgentSession = new AgentSession({
      provider: deps.provider,
      registry: deps.registry,
      config: deps.config,
      cwd: sandbox.workspace,
      sandbox,
      policy: deps.newPolicy(),
      executor: new CompositeExecutor([slot, deps.local]),
      store: deps.store,
      conversationId,
      messages,
      callerId: conversationId,
      services: deps.services,
    });
    return {
      id: conversationId,
      cwd: sandbox.workspace,
      history: () =>
        Promise.resolve(
          deps.store ? deps.store.loadMessages(conversationId) : [...session.messages],
        ),
      async prompt(text: string, io: PromptIo) {
        const trimmed = text.trim();
        if (trimmed === "/clear") {
          session.quota.reset();
          session.policy.clearSessionRules();
          io.emit({ type: "text", text: "Session approvals and the tool quota were reset." });
          return "end_turn";
        }
        if (trimmed === "/help") {
          io.emit({ type: "text", text: ACP_HELP });
          return "end_turn";
        }
        slot.current = io.front;
        session.ask = io.ask;
        try {
          return await session.prompt(text, { sink: io.emit, signal: io.signal });
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
