import * as path from "node:path";
import picomatch from "picomatch";
import { z } from "zod";
import { fileError, q, throwIfAborted } from "./_file.ts";
import { gitignoreTop, walkFiles } from "../search/mod.ts";
import { SandboxViolation, ToolError } from "../errors/mod.ts";
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

function hasParentSegment(pattern: string): boolean {
  return pattern.split(/[\\/]+/).includes("..");
}

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
  async execute(params, ctx) {
    if (params.pattern.includes("\0")) {
      throw new SandboxViolation(params.pattern, "contains a NUL byte");
    }
    if (hasParentSegment(params.pattern)) {
      throw new SandboxViolation(
        params.pattern,
        'uses ".." to reach outside the search directory',
      );
    }
    // The static head of the pattern ("src/lib" in "src/lib/**/*.ts") is a directory to resolve
    // through the sandbox like any path; only the glob tail is matched while walking.
    const scan = picomatch.scan(params.pattern);
    const absolute = path.isAbsolute(params.pattern);
    const baseInput = absolute
      ? (scan.base || "/")
      : scan.base
      ? path.join(params.path, scan.base)
      : params.path;
    const base = await ctx.sandbox.resolve(baseInput, ctx.cwd);
    const max = params.max_results ?? ctx.config.tools.file.find_max_results;
    const shownBase = ctx.sandbox.display(base);

    if (!scan.isGlob) {
      // A literal path: report whether it exists.
      try {
        const info = await Deno.stat(base);
        return { text: shownBase + (info.isDirectory ? "/" : "") };
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) {
          return { text: `No files matching ${q(params.pattern)} in ${q(params.path)}.` };
        }
        throw fileError(error, "search", baseInput);
      }
    }
    try {
      const info = await Deno.stat(base);
      if (!info.isDirectory) {
        throw new ToolError("permanent_failure", `Cannot search ${q(baseInput)}: not a directory`, {
          hint: "Pass a directory as path.",
        });
      }
    } catch (error) {
      throw fileError(error, "search", baseInput);
    }

    const isMatch = picomatch(scan.glob, { dot: true });
    const prefix = base.length + 1;
    const found: string[] = [];
    let total = 0;
    const top = gitignoreTop(base, ctx.sandbox.workspace, ctx.sandbox.roots);
    walkFiles(
      base,
      { gitignore: !params.include_ignored, top, signal: ctx.signal, directories: true },
      (entry) => {
        const rel = entry.path.slice(prefix);
        if (!isMatch(rel)) return true;
        if (entry.isSymlink) {
          // Post-filter (spec): a symlink counts only if its target is inside the sandbox.
          let target: string;
          try {
            target = Deno.realPathSync(entry.path);
          } catch {
            return true;
          }
          if (!ctx.sandbox.contains(target)) return true;
        }
        total++;
        if (found.length < max) {
          found.push(ctx.sandbox.display(entry.path) + (entry.isDirectory ? "/" : ""));
        }
        return true;
      },
    );
    throwIfAborted(ctx.signal, "search");
    if (total === 0) {
      const hint = !params.pattern.includes("/") && !params.pattern.includes("**")
        ? ` Patterns without "/" only match at the top level; use "**/${params.pattern}" to search subdirectories.`
        : "";
      return { text: `No files matching ${q(params.pattern)} in ${q(params.path)}.${hint}` };
    }
    const note = total > found.length
      ? `\n\n[Showing the first ${found.length} of ${total} matches. Narrow the pattern or raise max_results.]`
      : "";
    return { text: found.join("\n") + note, truncated: total > found.length };
  },
});
