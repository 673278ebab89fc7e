import { z } from "zod";
import { defineTool } from "./tool.ts";

export const WriteParams = z.object({
  path: z.string().describe(
    "File to create or overwrite, relative to the workspace or absolute inside it",
  ),
  content: z.string().describe("The complete new content of the file"),
});
export type WriteParams = z.infer<typeof WriteParams>;

const DESCRIPTION = `Create a file, or replace the whole content of an existing one.

Parameters:
- path: the file, relative to the workspace or absolute inside it. Missing parent directories are created.
- content: the complete new content (use edit to change part of a file).

Returns: whether the file was created or replaced and how many bytes were written, plus a unified
diff when an existing text file was replaced.

Errors: the path is outside the workspace (policy_blocked); the path is a directory or cannot be
written (permanent_failure).

Example: {"path": "notes/todo.md", "content": "# TODO\\n- write tests\\n"}`;

export const writeTool = defineTool({
  name: "write",
  description: DESCRIPTION,
  params: WriteParams,
  mutates: true,
  kind: "edit",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  pathSubjects: true,
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) => (await import("./write_exec.ts")).executeWrite(params, ctx),
});
