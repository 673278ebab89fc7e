import { z } from "zod";
import { fileError, q } from "./_file.ts";
import { ToolError } from "../errors/mod.ts";
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
  async execute(params, ctx) {
    const dir = await ctx.sandbox.resolve(params.path, ctx.cwd);
    const dirs: string[] = [];
    const files: string[] = [];
    const links: string[] = [];
    try {
      const info = await Deno.stat(dir);
      if (!info.isDirectory) {
        throw new ToolError("permanent_failure", `Cannot list ${q(params.path)}: not a directory`, {
          hint: "Use read to read a file.",
        });
      }
      for await (const entry of Deno.readDir(dir)) {
        // readDir reports the entry itself (lstat semantics): a symlink is never followed.
        if (entry.isSymlink) links.push(`[symlink] ${entry.name}`);
        else if (entry.isDirectory) dirs.push(`[dir]  ${entry.name}`);
        else files.push(`[file] ${entry.name}`);
      }
    } catch (error) {
      throw fileError(error, "list", params.path);
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const lines = [...dirs.sort(byName), ...files.sort(byName), ...links.sort(byName)];
    if (lines.length === 0) return { text: `Empty directory: ${q(params.path)}` };
    return { text: lines.join("\n"), locations: [{ path: dir }] };
  },
});
