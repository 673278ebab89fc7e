/**
 * The file tools' changing file system calls (create, open for writing, mkdir, rename, remove,
 * copy), in one place so the fenced file worker can make them run on its own thread.
 *
 * Landlock confines a thread and the threads it starts afterwards. Deno runs async file calls
 * on its blocking pool, whose threads may predate the confinement and then are not confined: in
 * a confined worker these calls run synchronously, on the confined thread itself. Elsewhere
 * (the in-process executor, the CLI) they stay async, so the event loop never waits on a disk.
 * Reads need neither: Landlock here confines changes only.
 */
import { osPath } from "../sandbox/mod.ts";

const { dirname } = osPath;

/** A change the kernel sandbox refused: EACCES/EXDEV on the confined thread. */
export class ConfinedDenialError extends Error {
  /** A directory on one of the paths no longer resolves to itself: it led outside. */
  readonly escaped: boolean;
  constructor(cause: Error, escaped: boolean) {
    super(cause.message, { cause });
    this.name = "ConfinedDenialError";
    this.escaped = escaped;
  }
}

let confined = false;

/** Makes this thread's changing calls synchronous; called once the thread is confined. */
export function confineFsOps(): void {
  confined = true;
}

/** Whether this thread's changing calls run synchronously on a confined thread. */
export function fsOpsConfined(): boolean {
  return confined;
}

/** The nearest existing ancestor of `path`'s directory still resolves to itself. */
function parentInPlace(path: string): boolean {
  let dir = dirname(path);
  while (true) {
    try {
      return Deno.realPathSync(dir) === dir;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) return false;
      const up = dirname(dir);
      if (up === dir) return false;
      dir = up;
    }
  }
}

/**
 * Runs `sync` on a confined thread, `run` elsewhere. A permission error on a confined thread is
 * told apart from an ordinary one by looking at the paths once more: every path given is
 * canonical, so a parent that no longer resolves to itself was swapped during the call.
 */
async function call<T>(paths: string[], sync: () => T, run: () => Promise<T>): Promise<T> {
  if (!confined) return await run();
  try {
    return sync();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (error instanceof Deno.errors.PermissionDenied || code === "EXDEV") {
      throw new ConfinedDenialError(error as Error, !paths.every(parentInPlace));
    }
    throw error;
  }
}

/** Deno.mkdir. */
export function mkdir(path: string, options?: Deno.MkdirOptions): Promise<void> {
  return call([path], () => Deno.mkdirSync(path, options), () => Deno.mkdir(path, options));
}

/** Deno.open for creating or writing; reading stays with Deno.open. */
export function openForWrite(path: string, options: Deno.OpenOptions): Promise<Deno.FsFile> {
  return call([path], () => Deno.openSync(path, options), () => Deno.open(path, options));
}

/** Deno.rename. */
export function rename(from: string, to: string): Promise<void> {
  return call([from, to], () => Deno.renameSync(from, to), () => Deno.rename(from, to));
}

/** Deno.remove. */
export function remove(path: string, options?: Deno.RemoveOptions): Promise<void> {
  return call([path], () => Deno.removeSync(path, options), () => Deno.remove(path, options));
}

/** Deno.copyFile (on a confined thread the copy holds the worker until it is done). */
export function copyFile(from: string, to: string): Promise<void> {
  return call([to], () => Deno.copyFileSync(from, to), () => Deno.copyFile(from, to));
}
