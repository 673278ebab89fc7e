import * as path from "node:path";
import picomatch from "picomatch";
import { fileError, q, throwIfAborted } from "./_file.ts";
import { gitignoreTop, walkFiles } from "../search/mod.ts";
import { SandboxViolation, ToolError } from "../errors/mod.ts";
import type { ToolContext, ToolOutput } from "./tool.ts";

/** find_path's parameters, checked by its zod schema (find_path.ts). */
export interface FindPathInput {
  pattern: string;
  path: string;
  max_results?: number;
  include_ignored: boolean;
}

function hasParentSegment(pattern: string): boolean {
  return pattern.split(/[\\/]+/).includes("..");
}

/** Runs find_path with parameters its schema (find_path.ts) has checked. */
export async function executeFindPath(
  params: FindPathInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
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
}
