/**
 * The seam between the ACP front-end and the agent: the front-end speaks the protocol, the
 * backend (composed in main.ts) owns conversations, the loop, the registry and the store.
 * Tests drive the real backend with the scripted provider.
 */
import type { EventSink, StopReason } from "../agent/mod.ts";
import type { AcpMcpServer } from "../mcp/mod.ts";
import type { Message } from "../provider/mod.ts";
import type { PlanEntry } from "../store/mod.ts";
import type {
  AskAnswer,
  AskReply,
  AskRequest,
  ModeState,
  TextFileBackend,
  ToolExecutor,
} from "../tools/mod.ts";

export interface PromptIo {
  signal: AbortSignal;
  emit: EventSink;
  ask: (request: AskRequest) => Promise<AskAnswer | AskReply>;
  /** Editor-backed executors, put in front of the local ones for this session. */
  front: ToolExecutor | null;
  /** The editor's text files, when it reads and writes them (`/undo` restores through them). */
  files?: TextFileBackend | null;
}

export interface AgentSessionHandle {
  /** The stored conversation id, used as the ACP sessionId. */
  readonly id: string;
  readonly cwd: string;
  /** The session's modes: a new or loaded session starts in `[agent] default_mode`. */
  readonly modes: ModeState;
  /** The stored transcript, for `session/load` replay. */
  history(): Promise<Message[]>;
  /** The stored plan, for `session/load` replay (empty when there is none). */
  plan(): Promise<PlanEntry[]>;
  /** Runs one user turn through the loop. */
  prompt(text: string, io: PromptIo): Promise<StopReason>;
  close(): Promise<void>;
}

export interface AgentBackend {
  /** `mcpServers` are the editor's: started for this session, stopped with it. */
  newSession(cwd: string, mcpServers?: AcpMcpServer[]): Promise<AgentSessionHandle>;
  /** null when no such conversation exists. */
  loadSession(
    id: string,
    cwd: string,
    mcpServers?: AcpMcpServer[],
  ): Promise<AgentSessionHandle | null>;
  listSessions(
    cwd?: string,
  ): Promise<{ id: string; cwd: string; title: string; updatedAt: string }[]>;
  /** Redacts secrets from text shown to the editor (as the audit log does, once loaded). */
  redact(text: string): string;
  close(): Promise<void>;
}
