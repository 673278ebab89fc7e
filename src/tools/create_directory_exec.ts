import { fileError, lstatOrNull, q } from "./_file.ts";
import { ToolError } from "../errors/mod.ts";
import * as fsOps from "./fs_ops.ts";
import type { ToolContext, ToolOutput } from "./tool.ts";

/** create_directory's parameters, checked by its zod schema (create_directory.ts). */
export interface CreateDirectoryInput {
  path: string;
}

/** Runs create_directory with parameters its schema (create_directory.ts) has checked. */
export async function executeCreateDirectory(
  params: CreateDirectoryInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const dir = await ctx.sandbox.resolve(params.path, ctx.cwd);
  try {
    const info = await lstatOrNull(dir);
    if (info?.isDirectory) return { text: `Directory already exists: ${q(params.path)}` };
    if (info) {
      throw new ToolError(
        "permanent_failure",
        `Cannot create directory ${q(params.path)}: a file with that name exists`,
        { hint: "Choose another name, or delete the file first." },
      );
    }
    await fsOps.mkdir(dir, { recursive: true });
  } catch (error) {
    throw fileError(error, "create directory", params.path);
  }
  return { text: `Created directory: ${q(params.path)}`, locations: [{ path: dir }] };
}
