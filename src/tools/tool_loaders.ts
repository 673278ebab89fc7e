/**
 * The built-in tools: the one place a new tool is added (one line each), in the order the catalog
 * and `zeph tools` show them. Each module loads on demand: a one-shot `zeph tool <id>` loads the
 * one tool it names, the catalog (catalog.ts) all of them. The specifiers are literals so
 * `deno compile` includes every module.
 */
import type { AnyTool } from "./tool.ts";

const LOADERS: Readonly<Record<string, () => Promise<AnyTool>>> = {
  bash: async () => (await import("./bash.ts")).bashTool,
  read: async () => (await import("./read.ts")).readTool,
  write: async () => (await import("./write.ts")).writeTool,
  edit: async () => (await import("./edit.ts")).editTool,
  find_path: async () => (await import("./find_path.ts")).findPathTool,
  grep: async () => (await import("./grep.ts")).grepTool,
  list_directory: async () => (await import("./list_directory.ts")).listDirectoryTool,
  create_directory: async () => (await import("./create_directory.ts")).createDirectoryTool,
  delete_path: async () => (await import("./delete_path.ts")).deletePathTool,
  move_path: async () => (await import("./move_path.ts")).movePathTool,
  copy_path: async () => (await import("./copy_path.ts")).copyPathTool,
  web_scrape: async () => (await import("./web_scrape.ts")).webScrapeTool,
  fetch: async () => (await import("./fetch.ts")).fetchTool,
  diagnostics: async () => (await import("./diagnostics.ts")).diagnosticsTool,
  read_overflow: async () => (await import("./read_overflow.ts")).readOverflowTool,
  update_plan: async () => (await import("./update_plan.ts")).updatePlanTool,
  switch_mode: async () => (await import("./switch_mode.ts")).switchModeTool,
};

/** The built-in tool ids, in the catalog's order. */
export const BUILTIN_TOOL_IDS: readonly string[] = Object.keys(LOADERS);

/** The built-in tool `id` (its module loaded now); null when no built-in tool has that id. */
export async function loadBuiltinTool(id: string): Promise<AnyTool | null> {
  return Object.hasOwn(LOADERS, id) ? await LOADERS[id]() : null;
}
