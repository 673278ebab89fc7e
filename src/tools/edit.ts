import { z } from "zod";
import { defineTool } from "./tool.ts";

export const EditParams = z.object({
  path: z.string().describe("File to edit, relative to the workspace or absolute inside it"),
  old_string: z.string().describe(
    "Exact text to replace, including whitespace and indentation; must occur exactly once " +
      "unless replace_all is true",
  ),
  new_string: z.string().describe("Text to put in its place"),
  replace_all: z.boolean().default(false).describe(
    "Replace every occurrence of old_string instead of requiring exactly one",
  ),
});
export type EditParams = z.infer<typeof EditParams>;

const DESCRIPTION = `Replace exact text in a file.

Parameters:
- path: the file, relative to the workspace or absolute inside it.
- old_string: the exact text to replace (copy it from read output without the line numbers). It must
  occur exactly once; include surrounding lines to make it unique.
- new_string: the replacement text.
- replace_all: true to replace every occurrence (default false).

Returns: how many occurrences were replaced and a unified diff of the change.

Errors: old_string is empty or equal to new_string (invalid_parameters); old_string is not found, or
found more than once without replace_all — the message says how many times (permanent_failure); the
file is missing or binary (permanent_failure); the path is outside the workspace (policy_blocked).

Example: {"path": "src/app.ts", "old_string": "const port = 80;", "new_string": "const port = 8080;"}`;

export const editTool = defineTool({
  name: "edit",
  description: DESCRIPTION,
  params: EditParams,
  mutates: true,
  kind: "edit",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  pathSubjects: true,
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) => (await import("./edit_exec.ts")).executeEdit(params, ctx),
});
