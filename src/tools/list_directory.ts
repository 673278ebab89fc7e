import { z } from "zod";
import { defineTool } from "./tool.ts";

export const ListDirectoryParams = z.object({
  path: z.string().describe(
    'Directory to list, relative to the workspace or absolute inside it ("." for the workspace)',
  ),
});
export type ListDirectoryParams = z.infer<typeof ListDirectoryParams>;

const DESCRIPTION = `List the entries of one directory (not recursive).

Parameters:
- path: the directory, relative to the workspace or absolute inside it ("." for the workspace).

Returns: one entry per line, directories first, then files, then symlinks, each group sorted by
name: "[dir]  name", "[file] name", "[symlink] name". Symlinks are reported as links and never
followed. Hidden entries are included. An empty directory is reported as empty.

Errors: the path is outside the workspace (policy_blocked); it does not exist or is not a directory
(permanent_failure).

Example: {"path": "src"}`;

export const listDirectoryTool = defineTool({
  name: "list_directory",
  description: DESCRIPTION,
  params: ListDirectoryParams,
  mutates: false,
  cacheable: true,
  kind: "search",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  pathSubjects: true,
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) =>
    (await import("./list_directory_exec.ts")).executeListDirectory(params, ctx),
});
