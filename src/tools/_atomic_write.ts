/**
 * Atomic, link-safe file replacement for write and edit on the local disk: the new content goes
 * to a fresh temporary file in the target's directory, is flushed, gets the old file's mode bits,
 * and is renamed over the target. A crash leaves the old file or the new one, never half of one.
 * The rename replaces the directory entry, so a hard link to a file elsewhere is broken instead of
 * written through (the report says how many other names kept the old content).
 *
 * The target path is canonical (resolved by the sandbox). A directory on it can still be swapped
 * for a symlink while the call runs; the directory is re-resolved after the temporary file is
 * created and again before the rename, and the temporary file must be the one found at its path,
 * so a swap makes the write fail with nothing written instead of writing outside. Deno has no
 * openat: a swap landing exactly between the last check and the creation of the temporary file
 * creates it (empty) in the other directory, where it is removed if it can still be reached; a
 * swap inside the kernel's own rename lookups is not covered either. In the Landlock-confined
 * file worker the kernel closes both: its changing calls (fs_ops.ts) cannot reach outside.
 */
import { osPath } from "../sandbox/mod.ts";

const { basename, dirname, join } = osPath;
import type { WriteReport } from "./tool.ts";
import * as fsOps from "./fs_ops.ts";

/** A directory on the path changed while writing: nothing was written. */
export class PathChangedError extends Error {
  constructor(path: string) {
    super(
      `the directory of "${path}" changed during the write (replaced by a symbolic link?); ` +
        "nothing was written",
    );
    this.name = "PathChangedError";
  }
}

/**
 * Replaces (or creates, with missing parents) `path` with `content`, atomically. `content` is the
 * bytes, or a stream of them (a copied file, never held whole in memory). The mode bits are
 * `options.mode` (a copy passes its source's), else the old file's, else the default.
 */
export async function writeFileAtomic(
  path: string,
  content: Uint8Array | ReadableStream<Uint8Array>,
  options: { signal?: AbortSignal; mode?: number } = {},
): Promise<WriteReport> {
  const dir = dirname(path);
  const old = await lstatOrNull(path);
  if (!old) {
    await fsOps.mkdir(dir, { recursive: true });
  } else if (old.isFile) {
    // A rename would replace a file we may not write: opening it for writing (no truncation, no
    // change) keeps the operating system's answer, as writing in place did.
    (await fsOps.openForWrite(path, { write: true })).close();
  }
  await assertDirectory(dir, path);
  const tmpName = `.${basename(path)}.${randomSuffix()}.zeph-tmp`;
  const tmp = join(dir, tmpName);
  const mode = options.mode !== undefined
    ? options.mode & 0o7777
    : old?.isFile && old.mode !== null
    ? old.mode & 0o7777
    : undefined;
  const file = await fsOps.openForWrite(tmp, { write: true, createNew: true, mode: mode ?? 0o666 });
  let renamed = false;
  try {
    const created = await file.stat();
    if (!(await isInPlace(tmp, created))) {
      file.close();
      await removeEscaped(dir, tmpName, created);
      throw new PathChangedError(path);
    }
    options.signal?.throwIfAborted();
    const chunks = content instanceof Uint8Array ? [content] : content;
    for await (const chunk of chunks) {
      options.signal?.throwIfAborted();
      let at = 0;
      while (at < chunk.length) at += await file.write(chunk.subarray(at));
    }
    await file.syncData();
    file.close();
    // The old file's owner is kept where the process may set it (root may; others keep their
    // own, as any editor that saves by rename does). chown clears set-id bits, so it goes first.
    if (old?.isFile && old.uid !== null && old.gid !== null) {
      if (old.uid !== created.uid || old.gid !== created.gid) {
        await Deno.chown(tmp, old.uid, old.gid).catch(() => {});
      }
    }
    // The umask trims the mode given to open; the old file's exact bits are set again.
    if (mode !== undefined) await Deno.chmod(tmp, mode);
    options.signal?.throwIfAborted();
    if (!(await isInPlace(tmp, created))) throw new PathChangedError(path);
    await fsOps.rename(tmp, path);
    renamed = true;
    if (!(await sameFile(path, created))) throw new PathChangedError(path);
  } finally {
    try {
      file.close();
    } catch {
      // already closed
    }
    if (!renamed) await fsOps.remove(tmp).catch(() => {});
  }
  return { hardLinksBroken: old?.isFile && old.nlink ? Math.max(0, old.nlink - 1) : 0 };
}

async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** The directory resolves to itself: no component of it is (now) a symbolic link. */
async function isCanonicalDir(dir: string): Promise<boolean> {
  try {
    return (await Deno.realPath(dir)) === dir;
  } catch {
    return false;
  }
}

async function assertDirectory(dir: string, path: string): Promise<void> {
  if (!(await isCanonicalDir(dir))) throw new PathChangedError(path);
}

/**
 * The temporary file is where it was meant to be: its path resolves to itself (no directory on
 * it is a symbolic link, so it is not a file created through one elsewhere) and holds our file.
 * Its name is unique, so a file by that name in the real directory is ours.
 */
async function isInPlace(tmp: string, info: Deno.FileInfo): Promise<boolean> {
  const real = await Deno.realPath(tmp).catch(() => null);
  return real === tmp && await sameFile(tmp, info);
}

/** The entry at `path` (not followed) is the file `info` describes. */
async function sameFile(path: string, info: Deno.FileInfo): Promise<boolean> {
  const now = await lstatOrNull(path);
  return now !== null && now.ino === info.ino && now.dev === info.dev;
}

/**
 * The temporary file was created through a swapped directory, somewhere else. Its name is unique
 * and it is still empty. It is removed where the directory resolves right now (outside the
 * permission fence this fails, harmlessly), and through the directory path itself whenever that
 * leads to it again while a swap goes on; a swap that has ended can leave it behind, empty.
 */
async function removeEscaped(dir: string, name: string, info: Deno.FileInfo): Promise<void> {
  const at = join(dir, name);
  for (let attempt = 0; attempt < 500; attempt++) {
    const resolved = await Deno.realPath(dir).then((d) => join(d, name), () => null);
    for (const where of resolved && resolved !== at ? [resolved, at] : [at]) {
      if (!(await sameFile(where, info))) continue;
      try {
        await fsOps.remove(where);
        return;
      } catch {
        // fenced off, or swapped again between the check and the removal
      }
    }
    await new Promise((r) => setTimeout(r, 0));
  }
}

function randomSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
