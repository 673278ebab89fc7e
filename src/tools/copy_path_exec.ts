import { osPath as path } from "../sandbox/mod.ts";
import { writeFileAtomic } from "./_atomic_write.ts";
import { fileError, lstatOrNull, q, throwIfAborted } from "./_file.ts";
import { ToolError } from "../errors/mod.ts";
import { isInside } from "../sandbox/mod.ts";
import * as fsOps from "./fs_ops.ts";
import type { ToolContext, ToolOutput } from "./tool.ts";

/** copy_path's parameters, checked by its zod schema (copy_path.ts). */
export interface CopyPathInput {
  source: string;
  destination: string;
}

interface TreeStats {
  files: number;
  dirs: number;
  skippedLinks: string[];
  skippedDenied: string[];
}

/** Recursive copy on lstat: regular files and directories only; symlinks are skipped. */
async function copyTree(from: string, to: string, ctx: ToolContext, stats: TreeStats) {
  await fsOps.mkdir(to);
  stats.dirs++;
  for await (const entry of Deno.readDir(from)) {
    throwIfAborted(ctx.signal, "copy");
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isSymlink) {
      stats.skippedLinks.push(ctx.sandbox.display(src));
    } else if (entry.isDirectory) {
      await copyTree(src, dst, ctx, stats);
    } else if (entry.isFile) {
      if (!ctx.sandbox.canRead(src)) {
        stats.skippedDenied.push(ctx.sandbox.display(src));
        continue;
      }
      await fsOps.copyFile(src, dst);
      stats.files++;
    }
  }
}

/** Runs copy_path with parameters its schema (copy_path.ts) has checked. */
export async function executeCopyPath(
  params: CopyPathInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
  // The source is fully resolved: a symlink source is copied by content, and only when its
  // target is inside the sandbox (resolve refuses the rest).
  const source = await ctx.sandbox.resolve(params.source, ctx.cwd);
  ctx.sandbox.assertReadable(source, params.source);
  const destination = await ctx.sandbox.resolve(params.destination, ctx.cwd);
  const action = `copy ${q(params.source)} to`;
  const info = await Deno.stat(source).catch((error) => {
    throw fileError(error, "copy", params.source);
  });
  if (isInside(destination, source)) {
    throw new ToolError(
      "permanent_failure",
      `Cannot ${action} ${q(params.destination)}: the destination is inside the source`,
      { hint: "Choose a destination outside the directory being copied." },
    );
  }
  const existing = await lstatOrNull(destination);
  if (info.isDirectory) {
    if (existing) {
      throw new ToolError(
        "permanent_failure",
        `Cannot ${action} ${q(params.destination)}: the destination already exists`,
        { hint: "Choose a destination that does not exist yet." },
      );
    }
    const stats: TreeStats = { files: 0, dirs: 0, skippedLinks: [], skippedDenied: [] };
    try {
      await fsOps.mkdir(path.dirname(destination), { recursive: true });
      await copyTree(source, destination, ctx, stats);
    } catch (error) {
      throw fileError(error, action, params.destination);
    }
    const notes: string[] = [];
    if (stats.skippedLinks.length) {
      notes.push(
        `Skipped ${stats.skippedLinks.length} symlink(s): ${stats.skippedLinks.sort().join(", ")}`,
      );
    }
    if (stats.skippedDenied.length) {
      notes.push(
        `Skipped ${stats.skippedDenied.length} file(s) denied by deny_read: ` +
          stats.skippedDenied.sort().join(", "),
      );
    }
    return {
      text: `Copied directory: ${q(params.source)} -> ${q(params.destination)} ` +
        `(${stats.files} files, ${stats.dirs} directories)` +
        (notes.length ? `\n${notes.join("\n")}` : ""),
      locations: [{ path: destination }],
    };
  }
  if (existing?.isDirectory) {
    throw new ToolError(
      "permanent_failure",
      `Cannot ${action} ${q(params.destination)}: the destination is a directory`,
      { hint: "Give the full path of the new file, including its name." },
    );
  }
  try {
    // Through a temporary file and a rename, as write does: a crash never leaves half a copy, a
    // hard link at the destination is broken, and a directory swapped for a symlink mid-call
    // fails the copy instead of writing outside. The copy gets the source's mode bits.
    const input = await Deno.open(source, { read: true });
    try {
      await writeFileAtomic(destination, input.readable, {
        signal: ctx.signal,
        mode: info.mode ?? undefined,
      });
    } finally {
      try {
        input.close();
      } catch {
        // the stream closed it
      }
    }
  } catch (error) {
    throw fileError(error, action, params.destination);
  }
  return {
    text: `Copied file: ${q(params.source)} -> ${q(params.destination)}` +
      (existing ? " (replaced the existing file)" : ""),
    locations: [{ path: destination }],
  };
}
