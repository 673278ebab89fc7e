import { z } from "zod";
import { decodeText, fileError, hardLinkNote, lstatOrNull, q } from "./_file.ts";
import type { WriteReport } from "./tool.ts";
import { unifiedDiff } from "./_diff.ts";
import { ToolError } from "../errors/mod.ts";
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

const ENCODER = new TextEncoder();

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
  async execute(params, ctx) {
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
      text = `Replaced ${
        q(params.path)
      } (${bytes.length} bytes): the content was already identical.`;
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
  },
});
