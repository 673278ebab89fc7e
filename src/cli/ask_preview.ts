/**
 * What an approval question shows above "Allow …?": the diff a write or edit would make (as
 * Claude Code shows it), and for bash the command's simple commands as the analyser read them
 * with what each does, so a person approves what runs rather than a path or a raw line.
 */
import type { Sandbox } from "../sandbox/mod.ts";
import { type AskRequest, unifiedDiff } from "../tools/mod.ts";
import { visible } from "./ask.ts";

/** Diff lines shown before "… N more lines". */
const MAX_DIFF_LINES = 40;

export interface PreviewOptions {
  sandbox: Sandbox;
  cwd: string;
  color?: boolean;
}

/** The preview text (ends with a newline), or "" when there is nothing to add. */
export async function askPreview(request: AskRequest, options: PreviewOptions): Promise<string> {
  const params = (request.params ?? {}) as Record<string, unknown>;
  if (request.tool.name === "bash") return commandPreview(request);
  if (request.tool.name !== "write" && request.tool.name !== "edit") return "";
  if (typeof params.path !== "string") return "";
  const current = await readCurrent(params.path, options);
  if (current === HIDDEN) {
    return "  (no diff: the file is covered by [tools.file] deny_read)\n";
  }
  const next = proposed(request.tool.name, params, current);
  if (next === null) return "";
  const diff = unifiedDiff(current ?? "", next, { path: params.path });
  if (!diff) return "  (no change)\n";
  const lines = diff.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
  const shown = lines.slice(0, MAX_DIFF_LINES).map((l) => `  ${paint(l, options.color)}`);
  if (lines.length > MAX_DIFF_LINES) {
    shown.push(`  … ${lines.length - MAX_DIFF_LINES} more lines of the diff`);
  }
  return shown.join("\n") + "\n";
}

/** The file's text after the call; null when it cannot be worked out (the tool will say why). */
function proposed(
  tool: string,
  params: Record<string, unknown>,
  current: string | null,
): string | null {
  if (tool === "write") return typeof params.content === "string" ? params.content : null;
  const { old_string: from, new_string: to, replace_all: all } = params;
  if (current === null || typeof from !== "string" || typeof to !== "string" || !from) {
    return null;
  }
  if (!current.includes(from)) return null;
  return all === true ? current.split(from).join(to) : current.replace(from, () => to);
}

/** A file the read rules hide: its content stays off the screen as it stays from the model. */
const HIDDEN = Symbol("hidden");

async function readCurrent(
  file: string,
  options: PreviewOptions,
): Promise<string | null | typeof HIDDEN> {
  let resolved: string;
  try {
    resolved = await options.sandbox.resolve(file, options.cwd);
  } catch {
    return null; // outside the sandbox: the tool reports it
  }
  if (!options.sandbox.canRead(resolved)) return HIDDEN;
  try {
    return await Deno.readTextFile(resolved);
  } catch {
    return null; // a new file, or one the tool will report on
  }
}

function commandPreview(request: AskRequest): string {
  const d = request.decision;
  const commands = d.commands ?? [];
  const lines = commands.map((c) => {
    const effect = c.effect.effect === "read_only" ? "reads only" : c.effect.effect;
    return `  $ ${visible(c.command)}  (${effect}: ${visible(c.effect.reason)})`;
  });
  const why = d.reason ?? d.policyMatch ?? "no rule allows it without asking";
  return [...lines, `  asks because: ${visible(why)}`].join("\n") + "\n";
}

function paint(line: string, color = false): string {
  const text = visible(line.replace(/\t/g, "    "));
  if (!color) return text;
  if (line.startsWith("+") && !line.startsWith("+++")) return `\x1b[32m${text}\x1b[0m`;
  if (line.startsWith("-") && !line.startsWith("---")) return `\x1b[31m${text}\x1b[0m`;
  return text;
}
