import { RE2JS } from "re2js";
import { clipLine, fileError, q, throwIfAborted } from "./_file.ts";
import { grep } from "../search/mod.ts";
import { ToolError } from "../errors/mod.ts";
import type { ToolContext, ToolOutput } from "./tool.ts";

/** grep's parameters, checked by its zod schema (grep.ts). */
export interface GrepInput {
  pattern: string;
  path: string;
  case_sensitive: boolean;
  glob?: string;
  context: number;
}

function compile(pattern: string, flags: number): RE2JS {
  try {
    return RE2JS.compile(pattern, flags);
  } catch (error) {
    throw new ToolError(
      "invalid_parameters",
      `Cannot search for ${q(pattern)}: invalid regular expression (${(error as Error).message})`,
      {
        hint: "Use RE2 syntax: escape special characters with \\ and avoid backreferences " +
          "and lookaround.",
      },
    );
  }
}

/** Runs grep with parameters its schema (grep.ts) has checked. */
export async function executeGrep(params: GrepInput, ctx: ToolContext): Promise<ToolOutput> {
  // re2js validates (its errors name the problem); V8 runs the pattern when provably linear.
  compile(params.pattern, params.case_sensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  const start = await ctx.sandbox.resolve(params.path, ctx.cwd);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(start);
  } catch (error) {
    throw fileError(error, "search", params.path);
  }
  if (info.isFile) ctx.sandbox.assertReadable(start, params.path);

  const max = ctx.config.tools.file.grep_max_matches;
  const maxChars = ctx.config.tools.file.max_line_chars;
  const contextLines = params.context;
  const sandbox = ctx.sandbox;
  const hits = await grep({
    path: start,
    isFile: info.isFile,
    pattern: params.pattern,
    caseSensitive: params.case_sensitive,
    max,
    glob: params.glob,
    context: contextLines,
    sandbox,
    signal: ctx.signal,
    // The threads failed, not the search: it ran again on one thread; the user hears why.
    onNotice: (message) => ctx.emit({ type: "notice", callId: ctx.callId, tool: "grep", message }),
    // Live output, not a notice: the CLI's status line and an ACP call's content show it.
    onProgress: (message) =>
      ctx.emit({
        type: "output",
        callId: ctx.callId,
        tool: "grep",
        stream: "stderr",
        chunk: `grep: ${message}\n`,
      }),
  }).catch((error) => {
    // Only reading a single file fails with the runtime's error; a tree search skips them.
    throw info.isFile ? fileError(error, "search", params.path) : error;
  });
  throwIfAborted(ctx.signal, "search");

  // Walk order, then the first `max` matching lines; anything beyond means the cap cut.
  const out: string[] = [];
  const locations: { path: string; line: number }[] = [];
  let matches = 0;
  let cut = false;
  let filesWithMatches = 0;
  const strip = (s: string) => (s.endsWith("\r") ? s.slice(0, -1) : s);
  for (const h of hits) {
    if (matches >= max) {
      cut = true;
      break;
    }
    let matched = h.matched;
    if (matches + matched.length > max) {
      matched = matched.slice(0, max - matches);
      cut = true;
    }
    matches += matched.length;
    filesWithMatches++;
    const shown = sandbox.display(h.walked);
    const isMatch = new Set(matched);
    let lastShown = -2;
    for (const n of matched) {
      locations.push({ path: h.file, line: n + 1 });
      if (contextLines === 0) {
        out.push(`${shown}:${n + 1}: ${clipLine(strip(h.lines[n]), maxChars)}`);
        continue;
      }
      const from = Math.max(0, n - contextLines, lastShown + 1);
      const to = Math.min(h.lines.length - 1, n + contextLines);
      if (from > lastShown + 1 && out.length) out.push("--");
      for (let k = from; k <= to; k++) {
        const sep = isMatch.has(k) ? ":" : "-";
        out.push(`${shown}${sep}${k + 1}${sep} ${clipLine(strip(h.lines[k]), maxChars)}`);
      }
      lastShown = Math.max(lastShown, to);
    }
    if (cut) break;
  }

  if (matches === 0) {
    return { text: `No matches for ${q(params.pattern)} in ${q(params.path)}.` };
  }
  const summary = cut
    ? `\n\n[Stopped after ${matches} matching lines; there are more. Narrow the pattern, ` +
      `path or glob to see the rest.]`
    : "";
  return {
    text: out.join("\n") + summary,
    locations,
    truncated: cut,
    raw: { matches, files: filesWithMatches, truncated: cut },
  };
}
