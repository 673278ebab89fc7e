import { z } from "zod";
import { defineTool } from "./tool.ts";

export const MovePathParams = z.object({
  source: z.string().describe(
    "File, symlink or directory to move, relative to the workspace or absolute inside it",
  ),
  destination: z.string().describe(
    "New path (not an existing one), relative to the workspace or absolute inside it",
  ),
});
export type MovePathParams = z.infer<typeof MovePathParams>;

const DESCRIPTION = `Move or rename a file, symlink or directory.

Parameters:
- source: what to move, relative to the workspace or absolute inside it. A symlink is moved as a link.
- destination: the new path; it must not exist yet. Missing parent directories are created.

Returns: "Moved: <source> -> <destination>".

Errors: either path is outside the workspace, or the source is the workspace root or above it
(policy_blocked); the source does not exist, the destination exists, the destination is inside the
source, or the move crosses file systems (permanent_failure).

Example: {"source": "src/old_name.ts", "destination": "src/new_name.ts"}`;

export const movePathTool = defineTool({
  name: "move_path",
  description: DESCRIPTION,
  params: MovePathParams,
  mutates: true,
  kind: "move",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.source, p.destination],
  pathSubjects: true,
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) =>
    (await import("./move_path_exec.ts")).executeMovePath(params, ctx),
});
