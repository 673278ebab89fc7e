import { z } from "zod";
import { clipLine, decodeText, fileError, q, splitLines } from "./_file.ts";
import { ToolError } from "./errors.ts";
import { defineTool, type TextFileBackend } from "./tool.ts";

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
  kind: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  async execute(params, ctx) {
    const file = await ctx.sandbox.resolve(params.path, ctx.cwd);
    ctx.sandbox.assertReadable(file, params.path);
    const editor = ctx.services.textFiles as TextFileBackend | undefined;
    let bytes: Uint8Array;
    try {
      if (editor) {
        // The editor's buffer (unsaved changes included) is the truth for this session.
        bytes = new TextEncoder().encode(await editor.readTextFile(file));
      } else {
        const info = await Deno.stat(file);
        if (info.isDirectory) {
          throw new ToolError(
            "permanent_failure",
            `Cannot read ${q(params.path)}: it is a directory`,
            {
              hint: "Use list_directory to see what it contains.",
            },
          );
        }
        if (!info.isFile) {
          throw new ToolError(
            "permanent_failure",
            `Cannot read ${q(params.path)}: it is not a regular file`,
            { hint: "Only regular text files can be read." },
          );
        }
        bytes = await Deno.readFile(file, { signal: ctx.signal });
      }
    } catch (error) {
      throw fileError(error, "read", params.path);
    }
    const decoded = decodeText(bytes);
    if ("binary" in decoded) {
      throw new ToolError(
        "permanent_failure",
        `Cannot read ${
          q(params.path)
        }: it is a binary file (${decoded.binary}, ${bytes.length} bytes)`,
        {
          hint: "Only text files can be read; use list_directory or find_path to find text files.",
        },
      );
    }
    const lines = splitLines(decoded.text);
    const location = [{ path: file, line: params.offset + 1 }];
    if (lines.length === 0) {
      return { text: `File ${q(params.path)} is empty.`, locations: [{ path: file }] };
    }
    if (params.offset >= lines.length) {
      throw new ToolError(
        "invalid_parameters",
        `Cannot read ${
          q(params.path)
        } from offset=${params.offset}: the file has ${lines.length} lines`,
        { hint: `Use an offset below ${lines.length} (offset counts lines to skip, from 0).` },
      );
    }
    const { max_read_lines: maxLines, max_line_chars: maxChars } = ctx.config.tools.file;
    const limit = Math.min(params.limit ?? maxLines, maxLines);
    const shown = lines.slice(params.offset, params.offset + limit);
    const body = shown.map((line, i) =>
      `${String(params.offset + i + 1).padStart(4)}\t${clipLine(line, maxChars)}`
    );
    const end = params.offset + shown.length;
    const clippedLines = shown.some((line) => line.length > maxChars);
    const notes: string[] = [];
    if (end < lines.length) {
      notes.push(
        `[Showing lines ${params.offset + 1}-${end} of ${lines.length}. ` +
          `Use offset=${end} to read further.]`,
      );
    }
    if (clippedLines) notes.push(`[Lines longer than ${maxChars} characters were truncated.]`);
    const text = notes.length ? `${body.join("\n")}\n\n${notes.join("\n")}` : body.join("\n");
    return { text, locations: location, truncated: end < lines.length || clippedLines };
  },
});
