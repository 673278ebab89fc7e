import { osPath as path } from "../sandbox/mod.ts";
import { fileError, lstatOrNull, q } from "./_file.ts";
import { SandboxViolation, ToolError } from "../errors/mod.ts";
import { isInside, type Sandbox } from "../sandbox/mod.ts";
import * as fsOps from "./fs_ops.ts";
import type { ToolContext, ToolOutput } from "./tool.ts";

/** move_path's parameters, checked by its zod schema (move_path.ts). */
export interface MovePathInput {
  source: string;
  destination: string;
}

/**
 * deny_read entries at or below `entry` (symlinks are not followed: a moved link still resolves
 * to its denied target). deny_read matches paths, so moving such an entry would unlock it.
 */
async function deniedBelow(
  entry: string,
  info: Deno.FileInfo,
  sandbox: Sandbox,
  signal: AbortSignal,
): Promise<string[]> {
  if (info.isSymlink) return [];
  if (!sandbox.canRead(entry)) return [sandbox.display(entry)];
  if (!info.isDirectory) return [];
  const found: string[] = [];
  const pending = [entry];
  while (pending.length && found.length < 3) {
    if (signal.aborted) throw new ToolError("cancelled", "Cannot finish the move: cancelled");
    const dir = pending.pop()!;
    for await (const e of Deno.readDir(dir)) {
      if (e.isSymlink) continue;
      const child = path.join(dir, e.name);
      if (!sandbox.canRead(child)) found.push(sandbox.display(child));
      else if (e.isDirectory) pending.push(child);
    }
  }
  return found.sort();
}

/** Runs move_path with parameters its schema (move_path.ts) has checked. */
export async function executeMovePath(
  params: MovePathInput,
  ctx: ToolContext,
): Promise<ToolOutput> {
  const source = await ctx.sandbox.resolveEntry(params.source, ctx.cwd);
  const destination = await ctx.sandbox.resolveEntry(params.destination, ctx.cwd);
  if (ctx.sandbox.isRootOrAbove(source)) {
    throw new SandboxViolation(
      params.source,
      "is an allowed root (or above one) and cannot be moved",
    );
  }
  const action = `move ${q(params.source)} to`;
  try {
    const info = await lstatOrNull(source);
    if (!info) {
      throw new ToolError(
        "permanent_failure",
        `Cannot move ${q(params.source)}: no such file or directory`,
        { hint: "Check the path with list_directory or find_path." },
      );
    }
    const denied = await deniedBelow(source, info, ctx.sandbox, ctx.signal);
    if (denied.length === 1 && denied[0] === ctx.sandbox.display(source)) {
      throw new SandboxViolation(params.source, "is denied by [tools.file] deny_read");
    }
    if (denied.length) {
      throw new SandboxViolation(
        params.source,
        `holds files denied by [tools.file] deny_read (${denied.join(", ")}); ` +
          "moving them would make them readable",
      );
    }
    if (await lstatOrNull(destination)) {
      throw new ToolError(
        "permanent_failure",
        `Cannot ${action} ${q(params.destination)}: the destination already exists`,
        { hint: "Choose a new destination path, or delete the existing one first." },
      );
    }
    if (isInside(destination, source)) {
      throw new ToolError(
        "permanent_failure",
        `Cannot ${action} ${q(params.destination)}: the destination is inside the source`,
        { hint: "Choose a destination outside the directory being moved." },
      );
    }
    await fsOps.mkdir(path.dirname(destination), { recursive: true });
    await fsOps.rename(source, destination);
  } catch (error) {
    throw fileError(error, action, params.destination);
  }
  return {
    text: `Moved: ${q(params.source)} -> ${q(params.destination)}`,
    locations: [{ path: destination }],
  };
}
