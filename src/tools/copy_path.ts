import * as path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "./_atomic_write.ts";
import { fileError, lstatOrNull, q, throwIfAborted } from "./_file.ts";
import { ToolError } from "../errors/mod.ts";
import { defineTool, type ToolContext } from "./tool.ts";
import { isInside } from "../sandbox/mod.ts";
import * as fsOps from "./fs_ops.ts";

export const CopyPathParams = z.object({
  source: z.string().describe(
    "File or directory to copy, relative to the workspace or absolute inside it",
  ),
  destination: z.string().describe(
    "Path of the copy, relative to the workspace or absolute inside it; an existing file is " +
      "overwritten, an existing directory is refused",
  ),
});
export type CopyPathParams = z.infer<typeof CopyPathParams>;

const DESCRIPTION = `Copy a file, or a directory with everything in it.

Parameters:
- source: the file or directory, relative to the workspace or absolute inside it.
- destination: the path of the copy. Missing parent directories are created. A file destination
  that exists is overwritten; a directory copy needs a destination that does not exist yet.

Returns: what was copied ("Copied file: a -> b" or "Copied directory: a -> b (N files, M
directories)"), and which entries were skipped: symlinks inside a copied directory are never
followed or copied, and files denied by [tools.file] deny_read are left out.

Errors: either path is outside the workspace, or the source is denied by deny_read
(policy_blocked); the source does not exist, or the destination is inside the source
(permanent_failure).

Example: {"source": "templates/basic", "destination": "projects/new"}`;

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

export const copyPathTool = defineTool({
  name: "copy_path",
  description: DESCRIPTION,
  params: CopyPathParams,
  mutates: true,
  kind: "other",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.source, p.destination],
  pathSubjects: true,
  async execute(params, ctx) {
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
          `Skipped ${stats.skippedLinks.length} symlink(s): ${
            stats.skippedLinks.sort().join(", ")
          }`,
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
  },
});
