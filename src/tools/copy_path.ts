import { z } from "zod";
import { defineTool } from "./tool.ts";

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
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) =>
    (await import("./copy_path_exec.ts")).executeCopyPath(params, ctx),
});
