import { decodeText, fileError, hardLinkNote, lstatOrNull, q } from "./_file.ts";
import { unifiedDiff } from "./_diff.ts";
import { ToolError } from "../errors/mod.ts";
import type { ToolContext, ToolOutput, WriteReport } from "./tool.ts";

/** write's parameters, checked by its zod schema (write.ts). */
export interface WriteInput {
  path: string;
  content: string;
}

const ENCODER = new TextEncoder();

/** Runs write with parameters its schema (write.ts) has checked. */
export async function executeWrite(params: WriteInput, ctx: ToolContext): Promise<ToolOutput> {
  const file = await ctx.sandbox.resolve(params.path, ctx.cwd);
  const bytes = ENCODER.encode(params.content);
  let oldText: string | null = null;
  let existed = false;
  let oldSize = 0;
  let report: WriteReport | void;
  try {
    const info = await lstatOrNull(file);
    if (info?.isDirectory) {
      throw new ToolError(
        "permanent_failure",
        `Cannot write ${q(params.path)}: it is a directory`,
        {
          hint: "Choose a file path inside the directory.",
        },
      );
    }
    if (info && !ctx.sandbox.canRead(file)) {
      // A deny_read file is replaced blind: its old content must not reach the diff.
      existed = true;
      oldSize = info.size;
    } else {
      try {
        const old = await (await ctx.files.open(file)).bytes(ctx.signal);
        existed = true;
        oldSize = old.length;
        const decoded = decodeText(old);
        oldText = "text" in decoded ? decoded.text : null;
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    // A missing file is created with its parents; the editor may show the change for review.
    report = await ctx.files.write(file, params.content, ctx.signal);
  } catch (error) {
    throw fileError(error, "write", params.path);
  }
  const shown = ctx.sandbox.display(file);
  let text: string;
  if (!existed) {
    text = `Created ${q(params.path)} (${bytes.length} bytes).`;
  } else if (oldText !== null && oldText === params.content) {
    text = `Replaced ${q(params.path)} (${bytes.length} bytes): the content was already identical.`;
  } else {
    const diff = oldText === null ? "" : unifiedDiff(oldText, params.content, { path: shown });
    text = `Replaced ${q(params.path)} (${bytes.length} bytes, was ${oldSize} bytes).` +
      (diff ? `\n\n${diff}` : "");
  }
  return {
    text: text + hardLinkNote(report),
    diff: { path: file, oldText, newText: params.content },
    locations: [{ path: file }],
  };
}
