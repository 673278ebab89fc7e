import { z } from "zod";
import { defineTool } from "./tool.ts";

export const ReadParams = z.object({
  path: z.string().describe("File to read, relative to the workspace or absolute inside it"),
  offset: z.number().int().min(0).default(0).describe(
    "Number of lines to skip before the first line shown (0-based: offset=0 starts at line 1, " +
      "offset=2000 starts at line 2001)",
  ),
  limit: z.number().int().min(1).optional().describe(
    "Maximum number of lines to show (default and upper bound: [tools.file] max_read_lines, 2000)",
  ),
});
export type ReadParams = z.infer<typeof ReadParams>;

const DESCRIPTION = `Read a text file and return its lines, numbered.

Parameters:
- path: the file, relative to the workspace or absolute inside it.
- offset: how many lines to skip first (0-based). offset=0 starts at line 1; offset=2000 starts at line 2001.
- limit: how many lines to show (at most 2000 by default).

Returns: one line per row as "<line number><TAB><text>"; line numbers are 1-based and count from the
start of the file, so they stay correct with an offset. At most 2000 lines and 2000 characters per
line are shown; a note at the end says how to read further (for example "Use offset=2000 to read
further"). An empty file is reported as empty.

Errors: the path is outside the workspace or denied by [tools.file] deny_read (policy_blocked); the
file does not exist, is a directory or is binary (permanent_failure); offset is past the end of the
file (invalid_parameters).

Example: {"path": "src/main.ts", "offset": 100, "limit": 50} shows lines 101-150.`;

export const readTool = defineTool({
  name: "read",
  description: DESCRIPTION,
  params: ReadParams,
  mutates: false,
  cacheable: true,
  kind: "read",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  pathSubjects: true,
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) => (await import("./read_exec.ts")).executeRead(params, ctx),
});
