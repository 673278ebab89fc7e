/**
 * The real dependencies of tools: the local disk for text files, local process groups, the
 * pinned web client and the bash parser of src/permission/shell.ts. The registry uses each one
 * its caller does not replace. The fenced file worker uses only `diskFiles` (disk_files.ts).
 */
import { defaultProcessRunner } from "../exec/mod.ts";
import type { ShellAnalysis } from "../permission/mod.ts";
import { createWebClient, type WebClient } from "../web/mod.ts";
import type { ToolDeps } from "./tool.ts";
import { diskFiles } from "./disk_files.ts";

export { diskFiles };

let webClient: WebClient | null = null;

/** The real dependencies; the web client is created once and shared. */
export function defaultToolDeps(): ToolDeps {
  return {
    files: diskFiles,
    runner: defaultProcessRunner(),
    web: webClient ??= createWebClient(),
    overflow: null,
    analyzeShell,
  };
}

async function analyzeShell(command: string): Promise<ShellAnalysis> {
  // Loaded on first use: the parser is large and most sessions never run a command.
  const shell = await import("../permission/shell.ts");
  return await shell.analyzeShell(command);
}
