import { z } from "zod";
import { defineTool } from "./tool.ts";

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
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) =>
    (await import("./create_directory_exec.ts")).executeCreateDirectory(params, ctx),
});
