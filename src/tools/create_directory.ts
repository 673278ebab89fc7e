import { z } from "zod";
import { fileError, lstatOrNull, q } from "./_file.ts";
import { ToolError } from "../errors/mod.ts";
import { defineTool } from "./tool.ts";
import * as fsOps from "./fs_ops.ts";

export const CreateDirectoryParams = z.object({
  path: z.string().describe(
    "Directory to create, relative to the workspace or absolute inside it; parents are created too",
  ),
});
export type CreateDirectoryParams = z.infer<typeof CreateDirectoryParams>;

const DESCRIPTION = `Create a directory, including any missing parent directories.

Parameters:
- path: the directory, relative to the workspace or absolute inside it.

Returns: "Created directory: <path>", or "Directory already exists: <path>" (not an error).

Errors: the path is outside the workspace (policy_blocked); a file is in the way (permanent_failure).

Example: {"path": "src/components/button"}`;

export const createDirectoryTool = defineTool({
  name: "create_directory",
  description: DESCRIPTION,
  params: CreateDirectoryParams,
  mutates: true,
  kind: "other",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  pathSubjects: true,
  async execute(params, ctx) {
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
  },
});
