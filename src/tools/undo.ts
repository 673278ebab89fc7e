/**
 * Undo for the file tools. Around every call of a tool that changes files (the registry's
 * execute hook, so the local, fenced-worker and editor executors are all covered) the paths it
 * will touch are scanned before and after; the state before (content, mode, "did not exist", a
 * bounded directory tree) and a hash of the state after go to the store's undo log. A restore
 * takes entries newest first and puts a path back only while it is still what zeph left
 * (same hash); otherwise it refuses that entry with the reason and stops, so a later edit of the
 * user's is never overwritten.
 */
import type { Hash } from "node:crypto";
import * as path from "node:path";
import type { UndoConfig } from "../config/mod.ts";
import type { UndoEntry, UndoLog } from "../store/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { writeFileAtomic } from "./_atomic_write.ts";
import type { ExecuteHook } from "./registry.ts";
import type { AnyTool, TextFileBackend, ToolContext, ToolOutput } from "./tool.ts";

/** The tools whose changes are recorded. */
export const UNDOABLE_TOOLS: ReadonlySet<string> = new Set([
  "write",
  "edit",
  "delete_path",
  "move_path",
  "copy_path",
  "create_directory",
]);

/** Entries of one directory tree kept or hashed at most. */
const MAX_TREE_ENTRIES = 10_000;

/** What was at a path before a change, ready to be put back. */
export type SavedState =
  | { kind: "absent" }
  | { kind: "file"; mode: number | null; blob: number }
  | { kind: "symlink"; target: string }
  | { kind: "dir"; mode: number | null; entries: { name: string; state: SavedState }[] };

/** One reversible step of an entry. */
export type UndoChange =
  | {
    type: "path";
    /** Canonical absolute path (the topmost directory the call created, if it made parents). */
    path: string;
    /** The path the call was given, when `path` is a directory it created on the way there. */
    target?: string;
    /** Hash of what the call left there ("absent" for nothing). */
    after: string;
    /** What to put back; null when it was not kept (the entry's note says why). */
    before: SavedState | null;
  }
  | {
    type: "rename";
    from: string;
    to: string;
    /** The topmost directory the move created above `to` (removed again if left empty). */
    createdTop: string;
    /** Hash of the moved entry at `to`. */
    after: string;
  };

interface Scan {
  /** Null when the tree is too large to hash (more entries or bytes than the limits). */
  hash: string | null;
  kind: "absent" | "file" | "symlink" | "dir" | "other";
  /** With `keep`: the state and its content, or why it was not kept. */
  state: SavedState | null;
  reason: string | null;
}

interface ScanLimits {
  /** Keep the content (for the state before a change). */
  keep: boolean;
  maxFileBytes: number;
  /** Bytes read at most, kept or only hashed. */
  maxBytes: number;
  sandbox: Sandbox;
  blobs: Uint8Array[];
}

/**
 * node:crypto's SHA-256, loaded with the first change recorded or undone: node:crypto loads Deno's
 * Node compatibility layer, which a call that records nothing (a one-shot `zeph tool read`) does
 * not need.
 */
let createHash: typeof import("node:crypto").createHash | null = null;

async function loadHashing(): Promise<void> {
  createHash ??= (await import("node:crypto")).createHash;
}

function sha256(): Hash {
  if (!createHash) throw new Error("undo: a hash is taken before loadHashing()");
  return createHash("sha256");
}

/** Reads what is at `p` (not following a final symlink): its hash and, with `keep`, its state. */
export async function scanPath(p: string, limits: ScanLimits): Promise<Scan> {
  await loadHashing();
  const info = await lstatOrNull(p);
  if (!info) return { hash: "absent", kind: "absent", state: { kind: "absent" }, reason: null };
  const hash = sha256();
  const walk = { entries: 0, bytes: 0, reason: null as string | null, hashable: true };
  const state = await scanEntry(p, info, ".", hash, walk, limits);
  const kind = info.isFile
    ? "file"
    : info.isSymlink
    ? "symlink"
    : info.isDirectory
    ? "dir"
    : "other";
  return {
    hash: walk.hashable ? `${kind}:${hash.digest("hex")}` : null,
    kind,
    state: limits.keep && walk.reason === null ? state : null,
    reason: walk.reason,
  };
}

/** The hash `scanPath` gives a regular file with this content (after a first `scanPath`). */
export function fileHash(content: Uint8Array): string {
  const hash = sha256();
  hash.update(`F ${JSON.stringify(".")} ${content.length}\n`);
  hash.update(content);
  return `file:${hash.digest("hex")}`;
}

async function scanEntry(
  p: string,
  info: Deno.FileInfo,
  rel: string,
  hash: Hash,
  walk: { entries: number; bytes: number; reason: string | null; hashable: boolean },
  limits: ScanLimits,
): Promise<SavedState | null> {
  const shown = limits.sandbox.display(p);
  if (++walk.entries > MAX_TREE_ENTRIES) {
    walk.hashable = false;
    walk.reason ??= `it holds more than ${MAX_TREE_ENTRIES} entries`;
    return null;
  }
  if (info.isSymlink) {
    const target = await Deno.readLink(p);
    hash.update(`L ${JSON.stringify(rel)} ${JSON.stringify(target)}\n`);
    return { kind: "symlink", target };
  }
  if (info.isDirectory) {
    hash.update(`D ${JSON.stringify(rel)}\n`);
    const names = (await Array.fromAsync(Deno.readDir(p))).map((e) => e.name).sort();
    const entries: { name: string; state: SavedState }[] = [];
    for (const name of names) {
      if (!walk.hashable) break;
      const child = path.join(p, name);
      const childInfo = await lstatOrNull(child);
      if (!childInfo) continue;
      const state = await scanEntry(child, childInfo, `${rel}/${name}`, hash, walk, limits);
      if (state) entries.push({ name, state });
    }
    return { kind: "dir", mode: modeOf(info), entries };
  }
  if (!info.isFile) {
    hash.update(`O ${JSON.stringify(rel)}\n`);
    walk.reason ??= `${JSON.stringify(shown)} is not a regular file, directory or symlink`;
    return null;
  }
  if (walk.bytes + info.size > limits.maxBytes) {
    walk.hashable = false;
    walk.reason ??= `it is larger than ${formatBytes(limits.maxBytes)}`;
    return null;
  }
  const content = await Deno.readFile(p);
  walk.bytes += content.length;
  hash.update(`F ${JSON.stringify(rel)} ${content.length}\n`);
  hash.update(content);
  if (!limits.keep || walk.reason !== null) return null;
  if (!limits.sandbox.canRead(p)) {
    walk.reason = `${JSON.stringify(shown)} is denied by [tools.file] deny_read, so its content ` +
      "is not kept";
    return null;
  }
  if (content.length > limits.maxFileBytes) {
    walk.reason = `${JSON.stringify(shown)} (${formatBytes(content.length)}) is larger than ` +
      `[tools.undo] max_file_bytes (${formatBytes(limits.maxFileBytes)}), too big to keep`;
    return null;
  }
  limits.blobs.push(content);
  return { kind: "file", mode: modeOf(info), blob: limits.blobs.length - 1 };
}

function modeOf(info: Deno.FileInfo): number | null {
  return info.mode === null ? null : info.mode & 0o7777;
}

async function lstatOrNull(p: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(p);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}

/** The topmost missing directory on the way to `p` (or `p` itself): what a call creates. */
async function topMissing(p: string): Promise<string> {
  let top = p;
  while (true) {
    const parent = path.dirname(top);
    if (parent === top || await lstatOrNull(parent)) return top;
    top = parent;
  }
}

/** Which paths a call will touch, resolved as the tool resolves them. */
async function targetsOf(
  tool: AnyTool,
  params: Record<string, unknown>,
  ctx: ToolContext,
): Promise<
  { paths: { path: string; target: string }[]; rename: { from: string; to: string } | null }
> {
  const { sandbox, cwd } = ctx;
  const str = (key: string) => String(params[key] ?? "");
  const created = async (target: string) => ({ path: await topMissing(target), target });
  switch (tool.name) {
    case "write":
    case "edit":
    case "create_directory":
      return { paths: [await created(await sandbox.resolve(str("path"), cwd))], rename: null };
    case "copy_path":
      return {
        paths: [await created(await sandbox.resolve(str("destination"), cwd))],
        rename: null,
      };
    case "delete_path": {
      const entry = await sandbox.resolveEntry(str("path"), cwd);
      return { paths: [{ path: entry, target: entry }], rename: null };
    }
    case "move_path":
      return {
        paths: [],
        rename: {
          from: await sandbox.resolveEntry(str("source"), cwd),
          to: await sandbox.resolveEntry(str("destination"), cwd),
        },
      };
  }
  return { paths: [], rename: null };
}

/** One line for listings: the tool and the paths it was given. */
function summaryOf(tool: AnyTool, params: Record<string, unknown>): string {
  const q = (v: unknown) => JSON.stringify(String(v ?? ""));
  if (tool.name === "move_path" || tool.name === "copy_path") {
    return `${tool.name} ${q(params.source)} -> ${q(params.destination)}`;
  }
  return `${tool.name} ${q(params.path)}`;
}

/**
 * The registry hook that records changes in `log` (the store's undo log). A call without a
 * conversation, or with undo off, is not recorded. Recording never fails a call: a problem is
 * reported as a notice on the call.
 */
export function undoHook(log: UndoLog | null, settings: UndoConfig): ExecuteHook {
  return {
    name: "undo",
    async before(tool, params, ctx) {
      if (!settings.enabled || !log || !ctx.conversationId || !UNDOABLE_TOOLS.has(tool.name)) {
        return null;
      }
      const conversationId = ctx.conversationId;
      const p = (params ?? {}) as Record<string, unknown>;
      let targets: Awaited<ReturnType<typeof targetsOf>>;
      try {
        targets = await targetsOf(tool, p, ctx);
      } catch {
        return null; // the tool refuses the path itself, with its own message
      }
      const blobs: Uint8Array[] = [];
      const limits: ScanLimits = {
        keep: true,
        maxFileBytes: settings.max_file_bytes,
        maxBytes: settings.max_conversation_bytes,
        sandbox: ctx.sandbox,
        blobs,
      };
      const before: { path: string; target: string; scan: Scan }[] = [];
      let renamed: { from: string; to: string; createdTop: string; hash: string | null } | null =
        null;
      try {
        for (const t of targets.paths) before.push({ ...t, scan: await scanPath(t.path, limits) });
        if (targets.rename) {
          const { from, to } = targets.rename;
          // A move keeps nothing: undoing it moves the entry back.
          const scan = await scanPath(from, { ...limits, keep: false });
          renamed = { from, to, createdTop: await topMissing(to), hash: scan.hash };
        }
      } catch (error) {
        return () => {
          notice(ctx, `this change is not recorded for undo: ${(error as Error).message}`);
          return Promise.resolve();
        };
      }
      return async (output) => {
        try {
          const after = { ...limits, keep: false, blobs: [] };
          const changes: UndoChange[] = [];
          let note: string | null = null;
          const text = textChange(output, before, limits);
          if (text) {
            if (text.before !== text.after || !text.state) {
              changes.push({
                type: "path",
                path: text.path,
                after: text.after,
                before: text.state,
              });
              if (!text.state) note = text.reason;
            }
            before.length = 0;
          }
          for (const b of before) {
            const now = await scanPath(b.path, after);
            if (now.hash !== null && now.hash === b.scan.hash) continue; // unchanged
            if (now.hash === null) note ??= `what it left is too big to check (${now.reason})`;
            else if (!b.scan.state) note ??= b.scan.reason ?? "its earlier state was not kept";
            changes.push({
              type: "path",
              path: b.path,
              ...(b.target !== b.path ? { target: b.target } : {}),
              after: now.hash ?? "",
              before: b.scan.state,
            });
          }
          if (renamed) {
            const at = await scanPath(renamed.to, after);
            const gone = !(await lstatOrNull(renamed.from));
            if (gone && at.hash !== null && at.hash === renamed.hash) {
              const { from, to, createdTop } = renamed;
              changes.push({ type: "rename", from, to, createdTop, after: at.hash });
            } else if (gone || at.kind !== "absent") {
              note ??= renamed.hash === null
                ? "the moved entry is too big to check"
                : "the moved entry changed during the call";
              changes.push({ type: "path", path: renamed.to, after: at.hash ?? "", before: null });
            }
          }
          if (changes.length === 0) return;
          log.record(conversationId, {
            callId: ctx.callId,
            tool: tool.name,
            summary: summaryOf(tool, p),
            changes,
            blobs: note ? [] : blobs,
            note,
          }, { maxConversationBytes: settings.max_conversation_bytes });
        } catch (error) {
          notice(ctx, `this change is not recorded for undo: ${(error as Error).message}`);
        }
      };
    },
  };
}

/**
 * write and edit go through the text-file backend, which in an ACP session is the editor: what
 * it held before (unsaved changes included) is the diff's old text, and what zeph left is the
 * new text, whether or not the editor has saved it yet. Null when the diff does not say (a
 * binary or unreadable file, or missing parents the call created): the disk scans then decide.
 */
function textChange(
  output: ToolOutput | null,
  before: { path: string; target: string; scan: Scan }[],
  limits: ScanLimits,
): {
  path: string;
  before: string | null;
  after: string;
  state: SavedState | null;
  reason: string | null;
} | null {
  const diff = output?.diff;
  if (!diff || before.length !== 1 || before[0].path !== diff.path) return null;
  const scan = before[0].scan;
  const after = fileHash(ENCODER.encode(diff.newText));
  if (diff.oldText === null) {
    if (scan.kind !== "absent" && scan.kind !== "file") return null;
    return { path: diff.path, before: scan.hash, after, state: scan.state, reason: scan.reason };
  }
  const old = ENCODER.encode(diff.oldText);
  const mode = scan.state?.kind === "file" ? scan.state.mode : null;
  limits.blobs.length = 0;
  if (old.length > limits.maxFileBytes) {
    const shown = JSON.stringify(limits.sandbox.display(diff.path));
    const reason = `${shown} (${formatBytes(old.length)}) is larger than [tools.undo] ` +
      `max_file_bytes (${formatBytes(limits.maxFileBytes)}), too big to keep`;
    return { path: diff.path, before: fileHash(old), after, state: null, reason };
  }
  limits.blobs.push(old);
  return {
    path: diff.path,
    before: fileHash(old),
    after,
    state: { kind: "file", mode, blob: 0 },
    reason: null,
  };
}

const ENCODER = new TextEncoder();

function notice(ctx: ToolContext, message: string): void {
  ctx.emit({ type: "notice", callId: ctx.callId, tool: "undo", message });
}

/** The `n` of `undo n` and `/undo n`: a positive whole number; absent or empty means 1. */
export function parseUndoCount(arg: string | undefined): number {
  const text = (arg ?? "").trim();
  if (text === "") return 1;
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1) {
    throw new Error(`Cannot undo "${text}" changes: give a positive whole number, e.g. undo 2.`);
  }
  return count;
}

/** What one restore did. */
export interface UndoReport {
  conversationId: string;
  restored: UndoEntry[];
  /** The entry that stopped the restore, and why; null when all asked for were restored. */
  refused: { entry: UndoEntry; reason: string } | null;
  /** Changes still recorded after this restore. */
  remaining: number;
}

export interface UndoOptions {
  log: UndoLog;
  conversationId: string;
  /** The workspace policy: every path restored must be inside it. */
  sandbox: Sandbox;
  /** How many entries, newest first. @default 1 */
  count?: number;
  /**
   * Where text files are read and written (the editor in an ACP session, so its buffers see
   * the restore); files it cannot hold (binary) and everything else go through the disk.
   * @default the disk
   */
  files?: TextFileBackend;
  /** Formats the time an entry was recorded in refusals. @default local HH:MM */
  clock?: (ms: number) => string;
}

/**
 * Restores the newest `count` entries, newest first. An entry is restored only when every path
 * it touched is still what the call left; the first one that is not (or cannot be restored)
 * is refused with the reason, and nothing older is touched.
 */
export async function undoChanges(options: UndoOptions): Promise<UndoReport> {
  await loadHashing();
  const { log, conversationId, sandbox } = options;
  const clock = options.clock ?? localTime;
  const count = options.count ?? 1;
  const pending = log.list(conversationId, { limit: count });
  const report: UndoReport = { conversationId, restored: [], refused: null, remaining: 0 };
  for (const entry of pending) {
    const reason = await restoreEntry(entry, { log, sandbox, clock, files: options.files });
    if (reason) {
      report.refused = { entry, reason };
      break;
    }
    log.markRestored(entry.id);
    report.restored.push(entry);
  }
  report.remaining = log.list(conversationId).length;
  return report;
}

/** Restores one entry; returns why it was refused, or null when it was restored. */
async function restoreEntry(
  entry: UndoEntry,
  how: {
    log: UndoLog;
    sandbox: Sandbox;
    clock: (ms: number) => string;
    files: TextFileBackend | undefined;
  },
): Promise<string | null> {
  const { log, sandbox, clock, files } = how;
  const changes = entry.changes as UndoChange[];
  const at = clock(entry.createdAt);
  if (entry.note) return `${entry.summary} at ${at} cannot be undone: ${entry.note}`;
  const limits: ScanLimits = {
    keep: false,
    maxFileBytes: 0,
    maxBytes: Number.MAX_SAFE_INTEGER,
    sandbox,
    blobs: [],
  };
  // Every path is checked before anything is put back: an entry is restored whole or not at all.
  for (const change of changes) {
    const paths = change.type === "path" ? [change.path] : [change.from, change.to];
    for (const p of paths) {
      if (!sandbox.contains(p)) {
        return `${
          JSON.stringify(p)
        } is outside this workspace (${sandbox.workspace}); not restored`;
      }
    }
    const where = change.type === "path" ? change.path : change.to;
    const now = files && change.after.startsWith("file:")
      ? await scanText(files, where)
      : await scanPath(where, limits);
    if (now.hash !== change.after) {
      const target = change.type === "path" && change.target
        ? ` (made for ${JSON.stringify(sandbox.display(change.target))})`
        : "";
      const shown = JSON.stringify(sandbox.display(where)) + target;
      const what = change.after === "absent" ? "was removed" : "changed";
      const since = now.kind === "absent"
        ? "no longer exists"
        : change.after === "absent"
        ? "was created again"
        : "changed";
      return `${shown} ${since} since zeph ${verbOf(entry.tool, what)} it at ${at}; not restored`;
    }
    if (change.type === "rename" && await lstatOrNull(change.from)) {
      const shown = JSON.stringify(sandbox.display(change.from));
      return `${shown} exists again since zeph moved it away at ${at}; not restored`;
    }
  }
  const blobs = log.blobs(entry.id);
  for (const change of [...changes].reverse()) {
    if (change.type === "rename") {
      await assertCanonicalParent(change.from);
      await assertCanonicalParent(change.to);
      await Deno.mkdir(path.dirname(change.from), { recursive: true });
      await Deno.rename(change.to, change.from);
      await removeEmptyDirs(path.dirname(change.to), change.createdTop);
      continue;
    }
    if (!change.before) return `${entry.summary} at ${at} cannot be undone: its state was not kept`;
    const text = files && change.before.kind === "file"
      ? decodeUtf8(blobOf(blobs, change.before.blob))
      : null;
    if (files && text !== null) {
      await files.write(change.path, text, new AbortController().signal);
      continue;
    }
    await putBack(change.path, change.before, blobs);
  }
  return null;
}

/** The hash of a text file as `files` has it (the editor's buffer), or "absent". */
async function scanText(
  files: TextFileBackend,
  p: string,
): Promise<{ hash: string; kind: string }> {
  try {
    const opened = await files.open(p);
    if (opened.kind !== "file") return { hash: opened.kind, kind: opened.kind };
    return { hash: fileHash(await opened.bytes(new AbortController().signal)), kind: "file" };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { hash: "absent", kind: "absent" };
    throw error;
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

function verbOf(tool: string, what: string): string {
  switch (tool) {
    case "delete_path":
      return "deleted";
    case "move_path":
      return "moved";
    case "copy_path":
      return "copied";
    case "create_directory":
      return "created";
    case "edit":
      return "edited";
    case "write":
      return "wrote";
  }
  return what;
}

/**
 * Puts `state` at `p`. A file over a file is replaced atomically (the write path of write and
 * edit: temporary file and rename, link-safe); anything else is removed and rebuilt.
 */
async function putBack(p: string, state: SavedState, blobs: Uint8Array[]): Promise<void> {
  await assertCanonicalParent(p);
  const current = await lstatOrNull(p);
  if (state.kind === "file" && (current === null || current.isFile)) {
    await writeFileAtomic(p, blobOf(blobs, state.blob), { mode: state.mode ?? undefined });
    return;
  }
  if (current) await Deno.remove(p, { recursive: true });
  if (state.kind === "absent") return;
  await build(p, state, blobs);
}

async function build(p: string, state: SavedState, blobs: Uint8Array[]): Promise<void> {
  switch (state.kind) {
    case "absent":
      return;
    case "file":
      await writeFileAtomic(p, blobOf(blobs, state.blob), { mode: state.mode ?? undefined });
      return;
    case "symlink":
      await Deno.symlink(state.target, p);
      return;
    case "dir":
      await Deno.mkdir(p, { recursive: true });
      for (const e of state.entries) await build(path.join(p, e.name), e.state, blobs);
      if (state.mode !== null) await Deno.chmod(p, state.mode);
  }
}

function blobOf(blobs: Uint8Array[], index: number): Uint8Array {
  const blob = blobs[index];
  if (!blob) throw new Error(`the saved content #${index} of this change is missing`);
  return blob;
}

/** A directory on the way to `p` replaced by a symlink since: refuse rather than follow it. */
async function assertCanonicalParent(p: string): Promise<void> {
  let dir = path.dirname(p);
  // The parent may be gone (a deleted tree is rebuilt): check the part that exists.
  while (!(await lstatOrNull(dir))) dir = path.dirname(dir);
  if ((await Deno.realPath(dir)) !== dir) {
    throw new Error(`a directory on the path of "${p}" is now a symbolic link; not restored`);
  }
}

/** Removes `dir` and its parents up to `top` while they are empty (what a move created). */
async function removeEmptyDirs(dir: string, top: string): Promise<void> {
  let current = dir;
  while (current.length >= top.length && (current === top || current.startsWith(`${top}/`))) {
    try {
      await Deno.remove(current);
    } catch {
      return; // not empty, or gone
    }
    if (current === top) return;
    current = path.dirname(current);
  }
}

function localTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/** The restore, as the CLI and the ACP command print it. */
export function formatUndoReport(report: UndoReport): string {
  const lines: string[] = [];
  for (const e of report.restored) lines.push(`Restored: ${e.summary}`);
  if (report.refused) lines.push(`Refused: ${report.refused.reason}`);
  if (report.restored.length === 0 && !report.refused) return "Nothing to undo.";
  const left = report.remaining;
  lines.push(
    left === 0
      ? "No more changes are recorded."
      : `${left} change${left === 1 ? " is" : "s are"} still recorded (zeph undo --list).`,
  );
  return lines.join("\n");
}

/** The pending entries of a conversation, newest first, numbered as `undo N` counts them. */
export function formatUndoList(
  entries: UndoEntry[],
  options: { clock?: (ms: number) => string } = {},
): string {
  const clock = options.clock ?? localTime;
  if (entries.length === 0) return "No changes to undo.";
  return entries.map((e, i) =>
    `${String(i + 1).padStart(3)}  ${clock(e.createdAt)}  ${e.summary}` +
    (e.note ? `  (cannot be undone: ${e.note})` : "")
  ).join("\n");
}
