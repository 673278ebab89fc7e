import { z } from "zod";
import { defineTool } from "./tool.ts";

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
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) =>
    (await import("./delete_path_exec.ts")).executeDeletePath(params, ctx),
});
