import { z } from "zod";
import { fileError, lstatOrNull, q } from "./_file.ts";
import { SandboxViolation, ToolError } from "../errors/mod.ts";
import { defineTool } from "./tool.ts";
import * as fsOps from "./fs_ops.ts";

export const DeletePathParams = z.object({
  path: z.string().describe(
    "File, symlink or directory to delete, relative to the workspace or absolute inside it",
  ),
  recursive: z.boolean().default(false).describe(
    "Delete a non-empty directory and everything in it (default false)",
  ),
});
export type DeletePathParams = z.infer<typeof DeletePathParams>;

const DESCRIPTION = `Delete a file, a symlink or a directory.

Parameters:
- path: what to delete, relative to the workspace or absolute inside it. A symlink is deleted
  itself; its target is left alone.
- recursive: true to delete a non-empty directory with everything in it (default false: only
  files, symlinks and empty directories).

Returns: "Deleted file: <path>", "Deleted directory: <path>" or "Deleted symlink: <path>".

Errors: the path is outside the workspace, or is the workspace root or above it (policy_blocked);
it does not exist, or is a non-empty directory without recursive (permanent_failure).

Example: {"path": "build", "recursive": true}`;

export const deletePathTool = defineTool({
  name: "delete_path",
  description: DESCRIPTION,
  params: DeletePathParams,
  mutates: true,
  kind: "delete",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  pathSubjects: true,
  async execute(params, ctx) {
    const target = await ctx.sandbox.resolveEntry(params.path, ctx.cwd);
    if (ctx.sandbox.isRootOrAbove(target)) {
      throw new SandboxViolation(
        params.path,
        "is an allowed root (or above one) and cannot be deleted",
      );
    }
    let kind: string;
    try {
      const info = await lstatOrNull(target);
      if (!info) {
        throw new ToolError(
          "permanent_failure",
          `Cannot delete ${q(params.path)}: no such file or directory`,
          { hint: "Check the path with list_directory or find_path." },
        );
      }
      kind = info.isSymlink ? "symlink" : info.isDirectory ? "directory" : "file";
      // Recursive removal does not follow symlinks inside the tree: links are removed as links.
      await fsOps.remove(target, { recursive: info.isDirectory && params.recursive });
    } catch (error) {
      throw fileError(error, "delete", params.path);
    }
    return { text: `Deleted ${kind}: ${q(params.path)}` };
  },
});
