import { z } from "zod";
import { defineTool } from "./tool.ts";

export const GrepParams = z.object({
  pattern: z.string().min(1).describe(
    "Regular expression (RE2 syntax: no backreferences or lookaround) matched against each line",
  ),
  path: z.string().default(".").describe(
    "File or directory to search, relative to the workspace or absolute inside it (default: the workspace)",
  ),
  case_sensitive: z.boolean().default(true).describe("Match letter case exactly (default true)"),
  glob: z.string().min(1).optional().describe(
    'Only search files matching this glob: with a "/" it is matched against the path relative ' +
      'to `path` (e.g. "src/**/*.ts"); without one, against the file name at any depth (e.g. "*.ts")',
  ),
  context: z.number().int().min(0).max(20).default(0).describe(
    "Lines of context to show before and after each matching line (default 0)",
  ),
});
export type GrepParams = z.infer<typeof GrepParams>;

const DESCRIPTION = `Search file contents for a regular expression.

Parameters:
- pattern: a regular expression in RE2 syntax (like JavaScript, without backreferences or
  lookaround), matched against each line separately.
- path: the file or directory to search (default: the workspace). Directories are searched
  recursively, skipping files excluded by .gitignore, the .git directory, binary files and
  unreadable files.
- case_sensitive: false to ignore letter case (default true).
- glob: only search matching files. A glob with a "/" is matched against the path relative to \`path\` (e.g. "src/**/*.ts"); one without a "/" against the file name at any depth, as in ripgrep (e.g. "*.ts").
- context: lines to show before and after each match (default 0).

Returns: matching lines as "<path>:<line>: <text>", with paths relative to the workspace and
1-based line numbers; context lines as "<path>-<line>- <text>" with "--" between groups. At most 100
matching lines are returned; a note says when the search stopped early.

Errors: invalid regular expression (invalid_parameters); path outside the workspace or denied by
[tools.file] deny_read (policy_blocked); path does not exist (permanent_failure).

Example: {"pattern": "function\\\\s+load\\\\w*", "path": "src", "glob": "**/*.ts", "context": 2}`;

export const grepTool = defineTool({
  name: "grep",
  description: DESCRIPTION,
  params: GrepParams,
  mutates: false,
  cacheable: true,
  kind: "search",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  pathSubjects: true,
  // Loaded on the first local run: the file worker runs it, this thread needs the schema only.
  execute: async (params, ctx) => (await import("./grep_exec.ts")).executeGrep(params, ctx),
});
