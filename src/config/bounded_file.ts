/**
 * Reads a user-named text file (config, filter rules, a provider script) so that a bad path
 * cannot hurt: only a regular file is read (a FIFO, device, directory or socket is refused by
 * name, also behind a symlink), never more than a size cap, and only valid UTF-8 (the offset of
 * the first bad byte is reported). A leading BOM is dropped; CRLF line ends are left to the
 * parsers, which accept them.
 */

/** A file the loaders refuse to read; the message names the file, the reason and the fix. */
export class UnreadableFileError extends Error {
  readonly path: string;
  /** `not-found` lets a loader treat an optional file's absence as "use the defaults". */
  readonly kind: "not-found" | "not-regular" | "too-large" | "not-utf8" | "io";
  constructor(path: string, kind: UnreadableFileError["kind"], message: string) {
    super(message);
    this.name = "UnreadableFileError";
    this.path = path;
    this.kind = kind;
  }
}

export interface BoundedReadOptions {
  /** Largest accepted size in bytes. */
  maxBytes: number;
  /** What the file is, for messages ("config file", "filters file", "script"). */
  what: string;
}

/** How long an open may wait before the reader checks whether it is stuck on a FIFO. */
const OPEN_CHECK_MS = 200;

/** The kind of a non-regular file, for messages; null for a regular file. */
export function fileKind(info: Deno.FileInfo): string | null {
  if (info.isFile) return null;
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

/** Reads `path` as text under the rules above, or throws UnreadableFileError. */
export async function readBoundedTextFile(
  path: string,
  options: BoundedReadOptions,
): Promise<string> {
  const { what } = options;
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UnreadableFileError(path, "not-found", `Cannot read ${what} "${path}": not found.`);
    }
    throw ioError(path, what, error);
  }
  refuseKind(path, info, options);
  const file = await openRegular(path, options);
  try {
    const bytes = await readAtMost(file, options.maxBytes, path, options);
    return decodeUtf8(bytes, path, what);
  } finally {
    file.close();
  }
}

function refuseKind(path: string, info: Deno.FileInfo, options: BoundedReadOptions): void {
  const kind = fileKind(info);
  if (kind) {
    throw new UnreadableFileError(
      path,
      "not-regular",
      `Cannot read ${options.what} "${path}": it is ${kind}, not a regular file. ` +
        "Point it at a regular file.",
    );
  }
  if (info.size > options.maxBytes) throw tooLarge(path, options, info.size);
}

/**
 * Opens for reading and checks the opened file itself (a path swapped after the stat is caught
 * here). Opening a FIFO blocks until a writer appears, and Deno's open takes no O_NONBLOCK: when
 * the open has not returned after a moment and the path is a FIFO, the reader opens its write
 * end, which completes the pending open, and then refuses the FIFO. No FIFO can block it.
 */
export async function openRegular(path: string, options: BoundedReadOptions): Promise<Deno.FsFile> {
  const opening = Deno.open(path, { read: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<"waiting">((resolve) => {
    timer = setTimeout(() => resolve("waiting"), OPEN_CHECK_MS);
  });
  let file: Deno.FsFile;
  try {
    const first = await Promise.race([opening, waited]).catch((error) => {
      throw error instanceof Deno.errors.NotFound
        ? new UnreadableFileError(
          path,
          "not-found",
          `Cannot read ${options.what} "${path}": not found.`,
        )
        : ioError(path, options.what, error);
    });
    if (first === "waiting") {
      const writer = await unblockFifo(path);
      try {
        file = await opening.catch((error) => {
          throw ioError(path, options.what, error);
        });
      } finally {
        writer?.close();
      }
    } else file = first;
  } finally {
    clearTimeout(timer);
  }
  try {
    refuseKind(path, await file.stat(), options);
  } catch (error) {
    file.close();
    throw error;
  }
  return file;
}

/** Opens the write end of the FIFO at `path` (null when it is not one): our pending read-open then completes. */
async function unblockFifo(path: string): Promise<Deno.FsFile | null> {
  try {
    if (!(await Deno.stat(path)).isFifo) return null;
    return await Deno.open(path, { write: true });
  } catch {
    return null;
  }
}

/** Reads up to `max` bytes, and one more to tell a file of exactly `max` bytes from a larger one. */
async function readAtMost(
  file: Deno.FsFile,
  max: number,
  path: string,
  options: BoundedReadOptions,
): Promise<Uint8Array> {
  const buffer = new Uint8Array(Math.min(max + 1, 64 * 1024));
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let n: number | null;
    try {
      n = await file.read(buffer);
    } catch (error) {
      throw ioError(path, options.what, error);
    }
    if (n === null) break;
    total += n;
    if (total > max) throw tooLarge(path, options, null);
    chunks.push(buffer.slice(0, n));
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Decodes UTF-8 (a leading BOM dropped) or names the byte offset of the first invalid sequence. */
export function decodeUtf8(bytes: Uint8Array, path: string, what: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new UnreadableFileError(
      path,
      "not-utf8",
      `Cannot read ${what} "${path}": invalid UTF-8 at byte offset ${offset}. ` +
        "Save the file as UTF-8.",
    );
  }
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    if (i + need >= bytes.length) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function tooLarge(
  path: string,
  options: BoundedReadOptions,
  size: number | null,
): UnreadableFileError {
  return new UnreadableFileError(
    path,
    "too-large",
    `Cannot read ${options.what} "${path}": ${
      size === null ? "it is" : `${size} bytes,`
    } larger than the ${formatBytes(options.maxBytes)} limit. Use a smaller file.`,
  );
}

function ioError(path: string, what: string, error: unknown): UnreadableFileError {
  return new UnreadableFileError(
    path,
    "io",
    `Cannot read ${what} "${path}": ${(error as Error).message}.`,
  );
}

function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}
