/**
 * The in-memory `Store`: the same behaviour as SQLite without a file, for tests and for sessions
 * that must not touch disk. Messages are kept as JSON text, as SQLite keeps them, so callers
 * cannot mutate what was stored.
 */
import type { Message } from "../provider/mod.ts";
import { checkMessages, checkRetention, checkSlice, DAY_MS } from "./_checks.ts";
import { encodeForStore, sliceStored, type TextShape } from "./_text.ts";
import { missing } from "./errors.ts";
import type {
  Conversation,
  ConversationSummary,
  NewConversation,
  OverflowInfo,
  OverflowSaved,
  OverflowSlice,
  PlanEntry,
  SaveOverflowOptions,
  SliceOptions,
  Store,
  StoreOptions,
} from "./store.ts";
import { MemoryUndoLog } from "./undo.ts";

interface Entry {
  info: OverflowInfo;
  /** UTF-8, as SQLite keeps it, so both stores page the same bytes the same way. */
  bytes: Uint8Array;
  shape: TextShape;
}

export class MemoryStore implements Store {
  readonly path = ":memory:";
  #now: () => number;
  #conversations = new Map<string, Conversation>();
  #modes = new Map<string, string>();
  #messages = new Map<string, string[]>();
  #plans = new Map<string, string>();
  #overflow = new Map<string, Entry>();
  /** Insertion order breaks updated_at ties, as rowid does in SQLite. */
  #order = new Map<string, number>();
  #counter = 0;

  readonly undo: MemoryUndoLog;

  constructor(options: StoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.undo = new MemoryUndoLog(
      () => this.#now(),
      (id) => this.#conversations.get(id)?.cwd ?? null,
    );
  }

  createConversation(options: NewConversation = {}): string {
    const id = crypto.randomUUID();
    const now = this.#now();
    this.#conversations.set(id, {
      id,
      title: options.title ?? "",
      cwd: options.cwd ?? "",
      createdAt: now,
      updatedAt: now,
    });
    this.#messages.set(id, []);
    this.#order.set(id, this.#counter++);
    return id;
  }

  getConversation(id: string): Conversation | null {
    const c = this.#conversations.get(id);
    return c ? { ...c } : null;
  }

  listConversations(options: { limit?: number } = {}): ConversationSummary[] {
    const all = [...this.#conversations.values()].sort((a, b) =>
      b.updatedAt - a.updatedAt || this.#order.get(b.id)! - this.#order.get(a.id)!
    );
    const limit = options.limit === undefined || options.limit < 0 ? all.length : options.limit;
    return all.slice(0, limit).map((c) => ({
      ...c,
      messageCount: this.#messages.get(c.id)!.length,
    }));
  }

  appendMessages(conversationId: string, messages: Message[]): void {
    checkMessages(conversationId, messages);
    const conversation = this.#conversations.get(conversationId);
    if (!conversation) throw missing("append messages to", conversationId);
    const list = this.#messages.get(conversationId)!;
    for (const m of messages) list.push(JSON.stringify({ role: m.role, parts: m.parts }));
    conversation.updatedAt = this.#now();
  }

  loadMessages(conversationId: string): Message[] {
    return (this.#messages.get(conversationId) ?? []).map((json) => JSON.parse(json));
  }

  savePlan(conversationId: string, entries: PlanEntry[]): void {
    const conversation = this.#conversations.get(conversationId);
    if (!conversation) throw missing("save the plan of", conversationId);
    this.#plans.set(conversationId, JSON.stringify(entries));
    conversation.updatedAt = this.#now();
  }

  loadPlan(conversationId: string): PlanEntry[] {
    const json = this.#plans.get(conversationId);
    return json ? JSON.parse(json) : [];
  }

  renameConversation(id: string, title: string): boolean {
    const c = this.#conversations.get(id);
    if (!c) return false;
    c.title = title;
    c.updatedAt = this.#now();
    return true;
  }

  conversationMode(id: string): string | null {
    return this.#modes.get(id) ?? null;
  }

  setConversationMode(id: string, mode: string): boolean {
    if (!this.#conversations.has(id)) return false;
    this.#modes.set(id, mode);
    return true;
  }

  deleteConversation(id: string): boolean {
    if (!this.#conversations.delete(id)) return false;
    this.#modes.delete(id);
    this.#messages.delete(id);
    this.#plans.delete(id);
    this.#order.delete(id);
    this.undo.forget(id);
    for (const [key, entry] of this.#overflow) {
      if (entry.info.conversationId === id) this.#overflow.delete(key);
    }
    return true;
  }

  saveOverflow(
    conversationId: string,
    content: string,
    options?: SaveOverflowOptions,
  ): OverflowSaved {
    if (!this.#conversations.has(conversationId)) {
      throw missing("store overflow for", conversationId);
    }
    const p = encodeForStore(content, options?.maxBytes);
    const storedBytes = p.bytes.length;
    const id = crypto.randomUUID();
    const info: OverflowInfo = {
      id,
      conversationId,
      byteSize: p.byteSize,
      storedBytes,
      truncated: p.truncated,
      chars: p.shape.chars,
      lines: p.shape.lines,
      createdAt: this.#now(),
    };
    this.#overflow.set(id, { info, bytes: p.bytes, shape: p.shape });
    return { id, byteSize: p.byteSize, storedBytes, truncated: p.truncated };
  }

  #entry(id: string, conversationId: string): Entry | null {
    const entry = this.#overflow.get(id);
    return entry && entry.info.conversationId === conversationId ? entry : null;
  }

  overflowConversation(id: string): string | null {
    return this.#overflow.get(id)?.info.conversationId ?? null;
  }

  overflowIdsStartingWith(prefix: string, limit: number): string[] {
    return [...this.#overflow.keys()].filter((id) => id.startsWith(prefix)).sort().slice(0, limit);
  }

  loadOverflow(id: string, conversationId: string): string | null {
    const entry = this.#entry(id, conversationId);
    return entry ? new TextDecoder("utf-8", { ignoreBOM: true }).decode(entry.bytes) : null;
  }

  overflowInfo(id: string, conversationId: string): OverflowInfo | null {
    const entry = this.#entry(id, conversationId);
    return entry ? { ...entry.info } : null;
  }

  overflowSlice(id: string, conversationId: string, options?: SliceOptions): OverflowSlice | null {
    const slice = checkSlice(options);
    const entry = this.#entry(id, conversationId);
    if (!entry) return null;
    const read = (start: number, length: number) => entry.bytes.subarray(start, start + length);
    return {
      ...sliceStored(read, entry.shape, entry.bytes.length, slice),
      unit: slice.unit,
      info: { ...entry.info },
    };
  }

  cleanupOverflow(retentionDays: number): number {
    checkRetention(retentionDays);
    const cutoff = this.#now() - retentionDays * DAY_MS;
    let removed = 0;
    for (const [key, entry] of this.#overflow) {
      if (entry.info.createdAt < cutoff) {
        this.#overflow.delete(key);
        removed++;
      }
    }
    return removed;
  }

  close(): void {
    this.#conversations.clear();
    this.#messages.clear();
    this.#overflow.clear();
  }
}
