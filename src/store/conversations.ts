/** Conversations and their transcripts in SQLite: one row per message, parts as JSON. */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { Message } from "../provider/mod.ts";
import { checkMessages } from "./_checks.ts";
import { transaction } from "./db.ts";
import { missing } from "./errors.ts";
import type { Conversation, ConversationSummary, NewConversation, PlanEntry } from "./store.ts";

interface ConversationRow {
  id: string;
  title: string;
  cwd: string;
  created_at: number;
  updated_at: number;
  message_count?: number;
}

export class SqliteConversations {
  #db: DatabaseSync;
  #now: () => number;
  #insert: StatementSync;
  #get: StatementSync;
  #list: StatementSync;
  #nextSeq: StatementSync;
  #insertMessage: StatementSync;
  #touch: StatementSync;
  #messages: StatementSync;
  #rename: StatementSync;
  #delete: StatementSync;
  #mode: StatementSync;
  #setMode: StatementSync;
  #savePlan: StatementSync;
  #loadPlan: StatementSync;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
    this.#insert = db.prepare(
      "INSERT INTO conversations (id, title, cwd, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
    );
    this.#get = db.prepare(
      "SELECT id, title, cwd, created_at, updated_at FROM conversations WHERE id = ?",
    );
    this.#list = db.prepare(
      `SELECT c.id, c.title, c.cwd, c.created_at, c.updated_at,
              (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) AS message_count
         FROM conversations c ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?`,
    );
    this.#nextSeq = db.prepare(
      "SELECT coalesce(max(seq), -1) + 1 AS seq FROM messages WHERE conversation_id = ?",
    );
    this.#insertMessage = db.prepare(
      `INSERT INTO messages (conversation_id, seq, role, parts, created_at) VALUES (?, ?, ?, ?, ?)`,
    );
    this.#touch = db.prepare("UPDATE conversations SET updated_at = ? WHERE id = ?");
    this.#messages = db.prepare(
      "SELECT role, parts FROM messages WHERE conversation_id = ? ORDER BY seq",
    );
    this.#rename = db.prepare("UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?");
    this.#delete = db.prepare("DELETE FROM conversations WHERE id = ?");
    this.#savePlan = db.prepare("UPDATE conversations SET plan = ?, updated_at = ? WHERE id = ?");
    this.#loadPlan = db.prepare("SELECT plan FROM conversations WHERE id = ?");
    this.#mode = db.prepare("SELECT mode FROM conversations WHERE id = ?");
    // Not activity: a mode switch leaves updated_at (the order of `zeph sessions`) alone.
    this.#setMode = db.prepare("UPDATE conversations SET mode = ? WHERE id = ?");
  }

  mode(id: string): string | null {
    const row = this.#mode.get(id) as { mode: string | null } | undefined;
    return row?.mode ?? null;
  }

  setMode(id: string, mode: string): boolean {
    return Number(this.#setMode.run(mode, id).changes) > 0;
  }

  create(options: NewConversation = {}): string {
    const id = crypto.randomUUID();
    const now = this.#now();
    this.#insert.run(id, options.title ?? "", options.cwd ?? "", now, now);
    return id;
  }

  get(id: string): Conversation | null {
    const row = this.#get.get(id) as ConversationRow | undefined;
    return row ? toConversation(row) : null;
  }

  list(limit: number): ConversationSummary[] {
    return (this.#list.all(limit) as unknown as ConversationRow[]).map((row) => ({
      ...toConversation(row),
      messageCount: Number(row.message_count ?? 0),
    }));
  }

  append(conversationId: string, messages: Message[]): void {
    checkMessages(conversationId, messages);
    transaction(this.#db, () => {
      if (!this.#get.get(conversationId)) throw missing("append messages to", conversationId);
      let seq = Number((this.#nextSeq.get(conversationId) as { seq: number }).seq);
      const now = this.#now();
      for (const message of messages) {
        this.#insertMessage.run(
          conversationId,
          seq++,
          message.role,
          JSON.stringify(message.parts),
          now,
        );
      }
      this.#touch.run(now, conversationId);
    });
  }

  load(conversationId: string): Message[] {
    const rows = this.#messages.all(conversationId) as unknown as { role: string; parts: string }[];
    return rows.map((row) => ({
      role: row.role as Message["role"],
      parts: JSON.parse(row.parts),
    }));
  }

  savePlan(conversationId: string, entries: PlanEntry[]): void {
    const changed = this.#savePlan.run(JSON.stringify(entries), this.#now(), conversationId);
    if (Number(changed.changes) === 0) throw missing("save the plan of", conversationId);
  }

  loadPlan(conversationId: string): PlanEntry[] {
    const row = this.#loadPlan.get(conversationId) as { plan: string | null } | undefined;
    return row?.plan ? JSON.parse(row.plan) : [];
  }

  rename(id: string, title: string): boolean {
    return Number(this.#rename.run(title, this.#now(), id).changes) > 0;
  }

  delete(id: string): boolean {
    return Number(this.#delete.run(id).changes) > 0;
  }
}

function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    title: row.title,
    cwd: row.cwd,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
