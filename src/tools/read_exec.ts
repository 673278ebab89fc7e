import { binaryReason, decodeText, fileError, q, splitLines } from "./_file.ts";
import { ToolError } from "../errors/mod.ts";
import type { OpenedFile, ToolContext, ToolOutput } from "./tool.ts";

/** read's parameters, checked by its zod schema (read.ts). */
export interface ReadInput {
  path: string;
  offset: number;
  limit?: number;
}

/** Runs read with parameters its schema (read.ts) has checked. */
export async function executeRead(params: ReadInput, ctx: ToolContext): Promise<ToolOutput> {
  const file = await ctx.sandbox.resolve(params.path, ctx.cwd);
  ctx.sandbox.assertReadable(file, params.path);
  let bytes: Uint8Array;
  try {
    const opened = await ctx.files.open(file);
    if (opened.kind === "directory") {
      throw new ToolError(
        "permanent_failure",
        `Cannot read ${q(params.path)}: it is a directory`,
        {
          hint: "Use list_directory to see what it contains.",
        },
      );
    }
    if (opened.kind !== "file") {
      throw new ToolError(
        "permanent_failure",
        `Cannot read ${q(params.path)}: it is not a regular file`,
        { hint: "Only regular text files can be read." },
      );
    }
    if (opened.size > LARGE_FILE_BYTES) {
      // Big logs are scanned, not loaded: memory stays at one chunk plus the shown lines.
      const scanned = await scanWindow(opened, file, params.offset, limitOf(params, ctx), ctx);
      if ("binary" in scanned) throw binaryError(params.path, scanned.binary, opened.size);
      return render(scanned, file, params, ctx);
    }
    bytes = await opened.bytes(ctx.signal);
  } catch (error) {
    throw fileError(error, "read", params.path);
  }
  const decoded = decodeText(bytes);
  if ("binary" in decoded) throw binaryError(params.path, decoded.binary, bytes.length);
  const lines = splitLines(decoded.text);
  const limit = limitOf(params, ctx);
  const shown = lines.slice(params.offset, params.offset + limit);
  return render(
    { shown: shown.map((text) => ({ text, length: text.length })), total: lines.length },
    file,
    params,
    ctx,
  );
}

/** Files above this size are scanned line by line instead of loaded whole. */
const LARGE_FILE_BYTES = 16 * 1024 * 1024;

interface Window {
  /** The lines shown, each cut to a little over max_line_chars, with its real length. */
  shown: { text: string; length: number }[];
  /** Lines in the whole file. */
  total: number;
}

function limitOf(params: ReadInput, ctx: ToolContext): number {
  const max = ctx.config.tools.file.max_read_lines;
  return Math.min(params.limit ?? max, max);
}

function binaryError(shown: string, reason: string, size: number): ToolError {
  return new ToolError(
    "permanent_failure",
    `Cannot read ${q(shown)}: it is a binary file (${reason}, ${size} bytes)`,
    { hint: "Only text files can be read; use list_directory or find_path to find text files." },
  );
}

/** Numbered lines, the notes on what was left out, and the location for editors. */
function render(window: Window, file: string, params: ReadInput, ctx: ToolContext): ToolOutput {
  const { total, shown } = window;
  if (total === 0) {
    return { text: `File ${q(params.path)} is empty.`, locations: [{ path: file }] };
  }
  if (params.offset >= total) {
    throw new ToolError(
      "invalid_parameters",
      `Cannot read ${q(params.path)} from offset=${params.offset}: the file has ${total} lines`,
      { hint: `Use an offset below ${total} (offset counts lines to skip, from 0).` },
    );
  }
  const maxChars = ctx.config.tools.file.max_line_chars;
  const body = shown.map((line, i) =>
    `${String(params.offset + i + 1).padStart(4)}\t${
      line.length > maxChars
        ? `${line.text.slice(0, maxChars)}… [line truncated: ${line.length} characters]`
        : line.text
    }`
  );
  const end = params.offset + shown.length;
  const clippedLines = shown.some((line) => line.length > maxChars);
  const notes: string[] = [];
  if (end < total) {
    notes.push(
      `[Showing lines ${params.offset + 1}-${end} of ${total}. Use offset=${end} to read further.]`,
    );
  }
  if (clippedLines) notes.push(`[Lines longer than ${maxChars} characters were truncated.]`);
  const text = notes.length ? `${body.join("\n")}\n\n${notes.join("\n")}` : body.join("\n");
  return {
    text,
    locations: [{ path: file, line: params.offset + 1 }],
    truncated: end < total || clippedLines,
  };
}

/**
 * Reads a large file chunk by chunk: counts every line, keeps only the requested window (each
 * line cut a little past max_line_chars), and refuses binary content (NUL bytes in the first
 * chunk, invalid UTF-8 anywhere) like the small-file path.
 */
async function scanWindow(
  opened: OpenedFile,
  file: string,
  offset: number,
  limit: number,
  ctx: ToolContext,
): Promise<Window | { binary: string }> {
  const keep = ctx.config.tools.file.max_line_chars + 1;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const shown: Window["shown"] = [];
  let line = 0; // index of the line being read
  let current = ""; // kept prefix of the current line (only inside the window)
  let length = 0; // characters of the current line so far
  let pendingCR = false;
  let sawAny = false;
  const inWindow = () => line >= offset && line < offset + limit;
  const endLine = () => {
    if (inWindow()) shown.push({ text: current, length });
    line++;
    current = "";
    length = 0;
  };
  let first = true;
  for await (const bytes of opened.chunks()) {
    if (ctx.signal.aborted) throw new ToolError("cancelled", `Cannot read ${q(file)}: cancelled`);
    if (first) {
      first = false;
      const reason = binaryReason(bytes);
      if (reason) return { binary: reason };
    }
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch {
      return { binary: "it is not valid UTF-8 text" };
    }
    if (text) sawAny = true;
    let start = 0;
    while (start <= text.length) {
      const nl = text.indexOf("\n", start);
      let piece = nl < 0 ? text.slice(start) : text.slice(start, nl);
      if (pendingCR && nl !== start) {
        // A "\r" that ended the previous chunk belonged to the line.
        if (inWindow() && current.length < keep) current = (current + "\r").slice(0, keep);
        length++;
      }
      pendingCR = false;
      if (nl < 0 && piece.endsWith("\r")) {
        pendingCR = true;
        piece = piece.slice(0, -1);
      } else if (nl >= 0 && piece.endsWith("\r")) piece = piece.slice(0, -1);
      if (inWindow() && current.length < keep) current = (current + piece).slice(0, keep);
      length += piece.length;
      if (nl < 0) break;
      endLine();
      start = nl + 1;
    }
  }
  try {
    decoder.decode();
  } catch {
    return { binary: "it is not valid UTF-8 text" };
  }
  // A last line without "\n" still counts (a final lone "\r" is part of it); a trailing "\n"
  // adds no empty line.
  if (pendingCR) {
    if (inWindow() && current.length < keep) current = (current + "\r").slice(0, keep);
    length++;
  }
  if (length > 0) endLine();
  return { shown, total: sawAny ? line : 0 };
}
