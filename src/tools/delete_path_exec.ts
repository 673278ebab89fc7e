import { fileError, lstatOrNull, q } from "./_file.ts";
import { SandboxViolation, ToolError } from "../errors/mod.ts";
import * as fsOps from "./fs_ops.ts";
import type { ToolContext, ToolOutput } from "./tool.ts";

/** delete_path's parameters, checked by its zod schema (delete_path.ts). */
export interface DeletePathInput {
  path: string;
  recursive: boolean;
}

/** Runs delete_path with parameters its schema (delete_path.ts) has checked. */
export async function executeDeletePath(
  params: DeletePathInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
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
}
