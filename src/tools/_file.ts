/**
 * Helpers shared by the ten file tools: OS errors turned into "Cannot <action>" tool errors,
 * binary detection, text decoding and line splitting. Imported only from src/tools/.
 */
import { ToolError } from "../errors/mod.ts";
import { PathChangedError } from "./_atomic_write.ts";
import { ConfinedDenialError } from "./fs_ops.ts";
import type { WriteReport } from "./tool.ts";

/**
 * How much of a file is looked at for NUL bytes: search's BINARY_SNIFF_BYTES (a test keeps the
 * two equal), defined here so that the file worker's read and write load no search engine.
 */
export const BINARY_SNIFF_BYTES = 8192;

/** Why the bytes are binary (a NUL byte in the first 8 KiB), or null. */
export function binaryReason(bytes: Uint8Array): string | null {
  const head = bytes.length > BINARY_SNIFF_BYTES ? bytes.subarray(0, BINARY_SNIFF_BYTES) : bytes;
  if (head.indexOf(0) !== -1) return "it contains NUL bytes";
  return null;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes a text file, or says why it is binary (NUL byte early on, or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): { text: string } | { binary: string } {
  const reason = binaryReason(bytes);
  if (reason) return { binary: reason };
  try {
    return { text: STRICT_UTF8.decode(bytes) };
  } catch {
    return { binary: "it is not valid UTF-8 text" };
  }
}

/** Splits on `\n` and `\r\n`; a trailing newline does not add an empty last line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Cuts a line to `max` characters and says how long it was. */
export function clipLine(line: string, max: number): string {
  if (line.length <= max) return line;
  return `${line.slice(0, max)}… [line truncated: ${line.length} characters]`;
}

/** Quoted path for messages: `"src/a.ts"`. */
export function q(shown: string): string {
  return JSON.stringify(shown);
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * Maps an OS error to a tool error: `Cannot <action> "<path>": <reason>` plus a hint. NotFound and
 * other file system failures are permanent failures; NotCapable (the worker fence) is a policy
 * block; anything already a ToolError is kept.
 */
export function fileError(error: unknown, action: string, shown: string): ToolError {
  if (error instanceof ToolError) return error;
  const target = `Cannot ${action} ${q(shown)}`;
  if (error instanceof PathChangedError) {
    return new ToolError(
      "policy_blocked",
      `${target}: a directory on its path changed during the call (replaced by a symbolic link?); nothing was written`,
      { hint: "Check the directory with list_directory before trying again.", cause: error },
    );
  }
  if (error instanceof ConfinedDenialError) {
    // Beneath the roots the kernel sandbox allows every change, so its refusal means the path
    // led elsewhere; when the swap is over by now, the file's own permissions may be the cause.
    return error.escaped
      ? new ToolError(
        "policy_blocked",
        `${target}: it escaped the workspace during the call (a directory was replaced by a ` +
          "symbolic link); the kernel sandbox (Landlock) refused it and nothing was written outside",
        { hint: "Check the directory with list_directory before trying again.", cause: error },
      )
      : new ToolError(
        "policy_blocked",
        `${target}: permission denied by the operating system, or by the kernel sandbox ` +
          "(Landlock) because a directory on the path led outside the workspace during the call",
        {
          hint: "Check the path and its permissions with list_directory before trying again.",
          cause: error,
        },
      );
  }
  if (error instanceof Deno.errors.NotFound) {
    return new ToolError("permanent_failure", `${target}: no such file or directory`, {
      hint: "Check the path with list_directory or find_path.",
      cause: error,
    });
  }
  if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
    const why = error instanceof Deno.errors.NotCapable
      ? "outside the file permissions of the sandbox"
      : "permission denied by the operating system";
    return new ToolError("policy_blocked", `${target}: ${why}`, {
      hint: "Only paths inside the workspace (or [tools.file] allowed_paths) can be used.",
      cause: error,
    });
  }
  if (error instanceof Deno.errors.IsADirectory) {
    return new ToolError("permanent_failure", `${target}: it is a directory`, {
      hint: "Use list_directory to see what it contains.",
      cause: error,
    });
  }
  if (error instanceof Deno.errors.NotADirectory) {
    return new ToolError("permanent_failure", `${target}: a part of the path is not a directory`, {
      hint: "Check the path with list_directory.",
      cause: error,
    });
  }
  if (error instanceof Deno.errors.AlreadyExists) {
    return new ToolError("permanent_failure", `${target}: it already exists`, {
      hint: "Choose another path or delete the existing one first.",
      cause: error,
    });
  }
  if (error instanceof Deno.errors.FilesystemLoop) {
    return new ToolError("permanent_failure", `${target}: too many levels of symbolic links`, {
      cause: error,
    });
  }
  if (error instanceof DOMException && error.name === "AbortError") {
    return new ToolError("cancelled", `${target}: cancelled`, { cause: error });
  }
  const code = errorCode(error);
  if (code === "ENOTEMPTY") {
    return new ToolError("permanent_failure", `${target}: the directory is not empty`, {
      hint: "Pass recursive: true to delete it and everything in it.",
      cause: error,
    });
  }
  if (code === "EXDEV") {
    return new ToolError("permanent_failure", `${target}: it cannot move across file systems`, {
      hint: "Use copy_path and then delete_path instead.",
      cause: error,
    });
  }
  if (code === "ENAMETOOLONG") {
    return new ToolError("permanent_failure", `${target}: the file name is too long`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError("permanent_failure", `${target}: ${message}`, { cause: error });
}

/** The sentence a write or edit adds when it broke hard links (empty when none). */
export function hardLinkNote(report: WriteReport | void): string {
  const n = report?.hardLinksBroken ?? 0;
  if (n === 0) return "";
  return `\nThe file had ${n} other hard link${
    n === 1 ? "" : "s"
  }: only this name now has the new content; the other${
    n === 1 ? " keeps" : "s keep"
  } the old content.`;
}

/** lstat that returns null when nothing is there. */
export async function lstatOrNull(p: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(p);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Throws `cancelled` when the call's signal fired. */
export function throwIfAborted(signal: AbortSignal, action: string): void {
  if (signal.aborted) throw new ToolError("cancelled", `Cannot ${action}: cancelled`);
}
