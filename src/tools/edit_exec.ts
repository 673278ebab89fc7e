import { decodeText, fileError, hardLinkNote, q } from "./_file.ts";
import { unifiedDiff } from "./_diff.ts";
import { ToolError } from "../errors/mod.ts";
import type { ToolContext, ToolOutput, WriteReport } from "./tool.ts";

/** edit's parameters, checked by its zod schema (edit.ts). */
export interface EditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all: boolean;
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) {
    count++;
  }
  return count;
}

/** Plain substitution: no `$&`-style patterns, unlike String.prototype.replace. */
function replaceFirst(text: string, needle: string, replacement: string): string {
  const i = text.indexOf(needle);
  return text.slice(0, i) + replacement + text.slice(i + needle.length);
}

/** Runs edit with parameters its schema (edit.ts) has checked. */
export async function executeEdit(params: EditInput, ctx: ToolContext): Promise<ToolOutput> {
  if (params.old_string === "") {
    throw new ToolError(
      "invalid_parameters",
      `Cannot edit ${q(params.path)}: old_string is empty`,
      {
        hint: "Give the exact text to replace, or use write to create or replace a whole file.",
      },
    );
  }
  if (params.old_string === params.new_string) {
    throw new ToolError(
      "invalid_parameters",
      `Cannot edit ${q(params.path)}: old_string and new_string are identical`,
      { hint: "Pass the changed text as new_string." },
    );
  }
  const file = await ctx.sandbox.resolve(params.path, ctx.cwd);
  // An edit shows the file (diff, match counts): deny_read covers it as it covers read.
  ctx.sandbox.assertReadable(file, params.path);
  let bytes: Uint8Array;
  try {
    const opened = await ctx.files.open(file);
    if (opened.kind !== "file") {
      const what = opened.kind === "directory" ? "a directory" : "not a regular file";
      throw new ToolError("permanent_failure", `Cannot edit ${q(params.path)}: it is ${what}`, {
        hint: "Only regular text files can be edited.",
      });
    }
    bytes = await opened.bytes(ctx.signal);
  } catch (error) {
    throw fileError(error, "edit", params.path);
  }
  const decoded = decodeText(bytes);
  if ("binary" in decoded) {
    throw new ToolError(
      "permanent_failure",
      `Cannot edit ${q(params.path)}: it is a binary file (${decoded.binary})`,
      { hint: "Only text files can be edited." },
    );
  }
  const oldText = decoded.text;
  let needle = params.old_string;
  let replacement = params.new_string;
  let count = countOccurrences(oldText, needle);
  // Models write "\n"; a file with CRLF line ends gets the same edit with "\r\n".
  if (count === 0 && oldText.includes("\r\n") && needle.includes("\n")) {
    const crlf = needle.replace(/\r?\n/g, "\r\n");
    const crlfCount = countOccurrences(oldText, crlf);
    if (crlfCount > 0) {
      needle = crlf;
      replacement = replacement.replace(/\r?\n/g, "\r\n");
      count = crlfCount;
    }
  }
  if (count === 0) {
    throw new ToolError(
      "permanent_failure",
      `Cannot edit ${q(params.path)}: old_string was not found in the file`,
      {
        hint:
          "Read the file again and copy old_string exactly, including whitespace and indentation.",
      },
    );
  }
  if (count > 1 && !params.replace_all) {
    throw new ToolError(
      "permanent_failure",
      `Cannot edit ${q(params.path)}: old_string occurs ${count} times, it must occur exactly once`,
      {
        hint: "Include more surrounding lines to make it unique, or pass replace_all: true.",
      },
    );
  }
  const newText = params.replace_all
    ? oldText.split(needle).join(replacement)
    : replaceFirst(oldText, needle, replacement);
  let report: WriteReport | void;
  try {
    report = await ctx.files.write(file, newText, ctx.signal);
  } catch (error) {
    throw fileError(error, "edit", params.path);
  }
  const firstLine = oldText.slice(0, oldText.indexOf(needle)).split("\n").length;
  const diff = unifiedDiff(oldText, newText, { path: ctx.sandbox.display(file) });
  const what = count === 1 ? "1 occurrence" : `${count} occurrences`;
  return {
    text: `Edited ${q(params.path)}: replaced ${what}.${hardLinkNote(report)}\n\n${diff}`,
    diff: { path: file, oldText, newText },
    locations: [{ path: file, line: firstLine }],
  };
}
