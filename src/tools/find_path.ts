import * as path from "node:path";
import { z } from "zod";
import { defineTool } from "./tool.ts";

export const FindPathParams = z.object({
  pattern: z.string().min(1).describe(
    'Glob matched against paths relative to `path`, e.g. "**/*.ts" or "src/*/mod.ts"',
  ),
  path: z.string().default(".").describe(
    "Directory to search in, relative to the workspace or absolute inside it (default: the workspace)",
  ),
  max_results: z.number().int().min(1).optional().describe(
    "Maximum number of paths to return (default: [tools.file] find_max_results, 200)",
  ),
  include_ignored: z.boolean().default(false).describe(
    "Also search files and directories excluded by .gitignore (.git is always skipped)",
  ),
});
export type FindPathParams = z.infer<typeof FindPathParams>;

const DESCRIPTION = `Find files and directories whose path matches a glob pattern.

Parameters:
- pattern: a glob relative to \`path\`: "*" matches within one directory level, "**" across levels,
  "{a,b}" either. "*.ts" only looks at the top level; use "**/*.ts" to search subdirectories.
  Dot files are matched. ".." is not allowed (use \`path\` to choose the directory).
- path: the directory to search (default: the workspace).
- max_results: how many paths to return (default 200).
- include_ignored: true to include paths excluded by .gitignore (default false; .git is never searched).

Returns: matching paths relative to the workspace, one per line, sorted; directories end with "/".
Symlinks whose target lies outside the workspace are left out. When there are more results than
max_results, a note says how many there were.

Errors: the directory or pattern reaches outside the workspace (policy_blocked); the directory does
not exist (permanent_failure).

Example: {"pattern": "**/*_test.ts", "path": "tests"}`;

export const findPathTool = defineTool({
  name: "find_path",
  description: DESCRIPTION,
  params: FindPathParams,
  mutates: false,
  cacheable: true,
  kind: "search",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [path.isAbsolute(p.pattern) ? p.pattern : p.path],
  pathSubjects: true,
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) =>
    (await import("./find_path_exec.ts")).executeFindPath(params, ctx),
});
