/**
 * Which stored conversation `--resume <id|prefix>` or `-c/--continue` names, the workspace it
 * continues in, and the short header shown before the first new prompt.
 */
import * as path from "node:path";
import type { Message } from "../provider/mod.ts";
import type { Conversation, Store } from "../store/mod.ts";
import { CliError } from "./errors.ts";

/** What the user asked to continue. */
export interface ResumeRequest {
  /** `--resume`: a full conversation id or a prefix of one. */
  id?: string;
  /** `-c/--continue`: the latest conversation of `cwd`. */
  latest?: boolean;
  /** The workspace the command runs in (absolute). */
  cwd: string;
}

/** The conversation `request` names; null when it names none (neither flag given). */
export function findResumed(store: Store | null, request: ResumeRequest): Conversation | null {
  if (request.id === undefined && !request.latest) return null;
  if (request.id !== undefined && request.latest) {
    throw new CliError("Use either --resume <id> or --continue, not both.");
  }
  if (!store) {
    throw new CliError(
      "Cannot resume: no conversation store is open (see the warning above; [memory] sqlite_path).",
    );
  }
  if (request.latest) {
    // From a subdirectory, the latest conversation of the nearest enclosing workspace.
    const conversations = store.listConversations();
    const latest = enclosingDirs(request.cwd).map((dir) => conversations.find((c) => c.cwd === dir))
      .find((c) => c !== undefined);
    if (!latest) {
      throw new CliError(
        `No conversation to continue in ${request.cwd}. List them all with: zeph sessions`,
      );
    }
    return latest;
  }
  const id = request.id!.trim();
  if (!id) throw new CliError("--resume needs a conversation id. List them with: zeph sessions");
  const exact = store.getConversation(id);
  if (exact) return exact;
  const matches = store.listConversations().filter((c) => c.id.startsWith(id));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) {
    throw new CliError(`No conversation "${id}". List them with: zeph sessions`);
  }
  const shown = matches.slice(0, 10).map((c) => `  ${c.id}  ${c.title || "(untitled)"}  ${c.cwd}`);
  const more = matches.length > shown.length
    ? [`  … and ${matches.length - shown.length} more`]
    : [];
  throw new CliError(
    [
      `The prefix "${id}" matches ${matches.length} conversations; give more of the id:`,
      ...shown,
      ...more,
    ].join("\n"),
  );
}

/** Where a resumed conversation continues, and the note that says so when it is not `cwd`. */
export function resumeWorkspace(
  conversation: Conversation,
  options: { cwd: string; cwdGiven: boolean },
): { cwd: string; note: string | null } {
  const stored = conversation.cwd;
  if (!stored || stored === options.cwd) return { cwd: options.cwd, note: null };
  if (options.cwdGiven) {
    return {
      cwd: options.cwd,
      note: `The conversation was in ${stored}; it continues in ${options.cwd} as --cwd asks.`,
    };
  }
  if (!isDirectory(stored)) {
    return {
      cwd: options.cwd,
      note:
        `The conversation's workspace ${stored} no longer exists; it continues in ${options.cwd}.`,
    };
  }
  return { cwd: stored, note: `Continuing in the conversation's workspace ${stored}.` };
}

/** `dir` and its parents, nearest first: the workspaces a command run in `dir` may belong to. */
export function enclosingDirs(dir: string): string[] {
  const dirs = [dir];
  for (let parent = path.dirname(dir); parent !== dirs.at(-1); parent = path.dirname(parent)) {
    dirs.push(parent);
  }
  return dirs;
}

export function isDirectory(p: string): boolean {
  try {
    return Deno.statSync(p).isDirectory;
  } catch {
    return false;
  }
}

/** Longest a line of the resume header shows of one message. */
const EXCERPT_CHARS = 300;

/** The header shown on resume: id, title, workspace, and the last exchange, each cut short. */
export function resumeHeader(conversation: Conversation, messages: Message[]): string {
  const lines = [
    `Resuming ${conversation.id} · ${conversation.title || "(untitled)"} · ${conversation.cwd}`,
    `${messages.length} messages, last active ${
      new Date(conversation.updatedAt).toISOString().replace("T", " ").slice(0, 16)
    } UTC`,
  ];
  const lastUser = findLast(messages, (m) => m.role === "user" && textOf(m) !== "");
  if (lastUser) {
    lines.push(`  you: ${excerpt(textOf(lastUser.message))}`);
    const reply = findLast(
      messages.slice(lastUser.index + 1),
      (m) => m.role === "assistant" && textOf(m) !== "",
    );
    if (reply) lines.push(`  zeph: ${excerpt(textOf(reply.message))}`);
  }
  return lines.join("\n") + "\n";
}

function findLast(
  messages: Message[],
  test: (m: Message) => boolean,
): { message: Message; index: number } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (test(messages[i])) return { message: messages[i], index: i };
  }
  return null;
}

function textOf(message: Message): string {
  return message.parts.flatMap((p) => p.type === "text" ? [p.text] : []).join(" ").trim();
}

/** One line: whitespace folded, control characters (terminal escapes) dropped, cut with "…". */
function excerpt(text: string): string {
  // deno-lint-ignore no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}
