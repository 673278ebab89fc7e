/**
 * One agent session: the conversation (id and messages, persisted as they happen), the
 * permission policy that holds the session's "always" rules, the tool call quota, and the
 * per-session executor/ask handler a front-end supplies (the CLI's terminal prompt, an ACP
 * client's permission request). `/clear` starts a fresh conversation in the same session.
 */
import type { Config } from "../config/mod.ts";
import type { PermissionPolicy } from "../permission/mod.ts";
import type { Message, Provider } from "../provider/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import type { PlanEntry } from "../store/mod.ts";
import {
  type AnyTool,
  type CallScope,
  ModeState,
  type OutputSummarizer,
  SessionGuards,
  type ToolExecutor,
  type ToolRegistry,
} from "../tools/mod.ts";
import type { StopReason } from "./events.ts";
import { legacyInstructions } from "./legacy.ts";
import { ToolQuota } from "./limits.ts";
import { type PromptOptions, runTurn, type TurnSession } from "./loop.ts";
import { providerSummarizer } from "./summarize.ts";

/** The part of the store the loop needs: conversations and an append-only transcript. */
export interface TranscriptStore {
  /** Creates a conversation and returns its id. */
  createConversation(options?: { title?: string; cwd?: string }): string | Promise<string>;
  appendMessages(conversationId: string, messages: Message[]): void | Promise<void>;
  savePlan(conversationId: string, entries: PlanEntry[]): void | Promise<void>;
}

export interface AgentSessionOptions {
  provider: Provider;
  registry: ToolRegistry;
  /** Workspace root for the tools. */
  cwd: string;
  sandbox: Sandbox;
  /** @default registry.config */
  config?: Config;
  /** Holds the session's "always" rules. @default registry.policy */
  policy?: PermissionPolicy;
  /** An editor-backed composite for ACP sessions. @default registry.executor */
  executor?: ToolExecutor;
  /** Where the transcript is persisted; null keeps it in memory only. */
  store?: TranscriptStore | null;
  /** Continue a stored conversation (`--resume`): its id and its messages. */
  conversationId?: string | null;
  messages?: Message[];
  /** The plan of the conversation continued (`--resume`, session/load). */
  plan?: PlanEntry[];
  /** Resolves `ask` decisions; absent means non-interactive (asks are refused). */
  ask?: CallScope["ask"];
  callerId?: string | null;
  /**
   * Which tools are retried on infrastructure failures (rate limit, server, network,
   * timeout). @default tools of kind "fetch" (web_scrape, fetch): idempotent network reads.
   */
  isRetryableTool?: (tool: AnyTool) => boolean;
  /** Random source for retry jitter. @default Math.random */
  random?: () => number;
  /**
   * How long a cancelled tool may take to stop before the loop synthesises its cancelled result
   * and moves on. @default 2000
   */
  cancelGraceMs?: number;
  /** The session's modes (ACP keeps them before the first prompt). @default from config */
  modes?: ModeState;
  /**
   * Summarises long tool outputs when `[tools] summarize_output` is on.
   * @default the session's provider
   */
  summarize?: OutputSummarizer;
}

export class AgentSession implements TurnSession {
  readonly provider: Provider;
  readonly registry: ToolRegistry;
  readonly config: Config;
  readonly cwd: string;
  readonly sandbox: Sandbox;
  readonly policy: PermissionPolicy;
  readonly executor?: ToolExecutor;
  readonly store: TranscriptStore | null;
  readonly quota: ToolQuota;
  /** The result cache and the anomaly detector of this session. */
  readonly guards: SessionGuards;
  readonly callerId: string | null;
  readonly isRetryableTool: (tool: AnyTool) => boolean;
  readonly random: () => number;
  readonly cancelGraceMs: number;
  readonly completedTools = new Set<string>();
  readonly modes: ModeState;
  readonly summarize: OutputSummarizer;
  ask?: CallScope["ask"];
  #conversationId: string | null;
  #messages: Message[];
  #plan: PlanEntry[];

  constructor(options: AgentSessionOptions) {
    this.provider = options.provider;
    this.registry = options.registry;
    this.config = options.config ?? options.registry.config;
    this.cwd = options.cwd;
    this.sandbox = options.sandbox;
    this.policy = options.policy ?? options.registry.policy;
    this.executor = options.executor;
    this.store = options.store ?? null;
    this.quota = new ToolQuota(this.config.tools.max_tool_calls_per_session);
    this.guards = SessionGuards.fromConfig(this.config);
    this.callerId = options.callerId ?? null;
    this.isRetryableTool = options.isRetryableTool ??
      ((tool) => tool.kind === "fetch" || tool.mcp?.retrySafe === true);
    this.random = options.random ?? Math.random;
    this.cancelGraceMs = options.cancelGraceMs ?? 2000;
    this.modes = options.modes ?? new ModeState(this.config);
    this.summarize = options.summarize ?? providerSummarizer(this.provider);
    this.ask = options.ask;
    this.#conversationId = options.conversationId ?? null;
    this.#messages = [...(options.messages ?? [])];
    this.#plan = [...(options.plan ?? [])];
  }

  /** The plan the last update_plan call set (empty when there is none). */
  get plan(): readonly PlanEntry[] {
    return this.#plan;
  }

  /** Null until the first prompt creates the conversation (or after `/clear`). */
  get conversationId(): string | null {
    return this.#conversationId;
  }

  /** The transcript so far (read-only view; the loop appends through `append`). */
  get messages(): readonly Message[] {
    return this.#messages;
  }

  /** Runs one user turn through the loop; events go to `sink`. */
  prompt(text: string, options: PromptOptions): Promise<StopReason> {
    return runTurn(this, text, options);
  }

  /**
   * `/clear`: a new conversation; the quota, the session's "always" rules, the completed tools
   * (`[tools.dependencies]` requires) and the result cache reset. Tools the anomaly detector
   * blocked stay blocked until `/unblock`.
   */
  clear(): void {
    this.#conversationId = null;
    this.#messages = [];
    this.#plan = [];
    this.quota.reset();
    this.completedTools.clear();
    this.policy.clearSessionRules();
    this.guards.clear();
  }

  /**
   * `/unblock <tool>` (CLI and ACP): lifts the anomaly detector's block on `tool` and says what
   * happened; without a tool it lists the blocked ones.
   */
  unblock(tool: string): string {
    const blocked = this.guards.anomaly.blocked();
    const list = blocked.length ? `Blocked tools: ${blocked.join(", ")}.` : "No tool is blocked.";
    if (!tool) return `Usage: /unblock <tool>. ${list}`;
    return this.guards.anomaly.unblock(tool)
      ? `${tool} is unblocked: the model sees it again.`
      : `${tool} is not blocked. ${list}`;
  }

  /** Creates the stored conversation on first use; in-memory sessions get a random id. */
  async ensureConversation(title: string): Promise<string> {
    if (this.#conversationId) return this.#conversationId;
    const short = title.replace(/\s+/g, " ").trim().slice(0, 80);
    this.#conversationId = this.store
      ? await this.store.createConversation({ title: short, cwd: this.cwd })
      : crypto.randomUUID();
    return this.#conversationId;
  }

  /** Appends a message to the transcript and persists it right away. */
  async append(message: Message): Promise<void> {
    this.#messages.push(message);
    if (this.store && this.#conversationId) {
      await this.store.appendMessages(this.#conversationId, [message]);
    }
  }

  /** Replaces the plan and persists it with the conversation. */
  async setPlan(entries: PlanEntry[]): Promise<void> {
    this.#plan = [...entries];
    if (this.store && this.#conversationId) {
      await this.store.savePlan(this.#conversationId, this.#plan);
    }
  }

  /** The system prompt: native asks for structured calls; legacy carries the catalog. */
  systemPrompt(): string {
    const base = [
      "You are zeph, a coding agent working in the user's workspace.",
      `Workspace: ${this.cwd}`,
      "Read before you edit, keep changes minimal, and say briefly what you did.",
      "Tool errors come back as [tool_error] blocks; retryable ones are retried for you.",
    ];
    const extra = this.config.agent.system_prompt.trim();
    const mode = this.modes.current;
    const how = !this.modes.toolsEnabled
      ? "No tools are available in this session: answer in text only."
      : this.provider.supportsToolUse
      ? "Use the tools through the structured tool-calling mechanism; fenced code blocks in " +
        "your answer are not executed."
      : legacyInstructions(this.registry.renderCatalog(this.policy, this.modes, this.guards));
    const modeLine = `Mode: ${mode.slug} (${mode.name})${
      mode.description ? ` — ${mode.description}` : ""
    }. Only this mode's tools are offered; switch_mode asks the user to change modes.`;
    const lines = this.modes.toolsEnabled ? [...base, modeLine] : base;
    return [...lines, "", how, ...(extra ? ["", extra] : [])].join("\n");
  }
}
