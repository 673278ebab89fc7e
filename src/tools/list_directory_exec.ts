import { fileError, q } from "./_file.ts";
import { ToolError } from "../errors/mod.ts";
import type { ToolContext, ToolOutput } from "./tool.ts";

/** list_directory's parameters, checked by its zod schema (list_directory.ts). */
export interface ListDirectoryInput {
  path: string;
}

/** Runs list_directory with parameters its schema (list_directory.ts) has checked. */
export async function executeListDirectory(
  params: ListDirectoryInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const dir = await ctx.sandbox.resolve(params.path, ctx.cwd);
  const dirs: string[] = [];
  const files: string[] = [];
  const links: string[] = [];
  try {
    const info = await Deno.stat(dir);
    if (!info.isDirectory) {
      throw new ToolError("permanent_failure", `Cannot list ${q(params.path)}: not a directory`, {
        hint: "Use read to read a file.",
      });
    }
    for await (const entry of Deno.readDir(dir)) {
      // readDir reports the entry itself (lstat semantics): a symlink is never followed.
      if (entry.isSymlink) links.push(`[symlink] ${entry.name}`);
      else if (entry.isDirectory) dirs.push(`[dir]  ${entry.name}`);
      else files.push(`[file] ${entry.name}`);
    }
  } catch (error) {
    throw fileError(error, "list", params.path);
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const lines = [...dirs.sort(byName), ...files.sort(byName), ...links.sort(byName)];
  if (lines.length === 0) return { text: `Empty directory: ${q(params.path)}` };
  return { text: lines.join("\n"), locations: [{ path: dir }] };
}
