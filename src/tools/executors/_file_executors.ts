/**
 * The file worker's executors of the ten file tools (`<tool>_exec.ts`): no zod (the main thread
 * has checked the parameters) and no npm package or `node:` module for read, write, edit and the
 * other path tools. grep and find_path load the search engine on their first call.
 */
import type { ToolContext, ToolOutput } from "../tool.ts";
import { executeRead } from "../read_exec.ts";
import { executeWrite } from "../write_exec.ts";
import { executeEdit } from "../edit_exec.ts";
import { executeListDirectory } from "../list_directory_exec.ts";
import { executeCreateDirectory } from "../create_directory_exec.ts";
import { executeDeletePath } from "../delete_path_exec.ts";
import { executeMovePath } from "../move_path_exec.ts";
import { executeCopyPath } from "../copy_path_exec.ts";

export type Execute = (params: never, ctx: ToolContext) => Promise<ToolOutput>;

/** The port of `search` requests, until a search tool first loads the search engine. */
let searchPort: MessagePort | null = null;

/** Keeps the search link's port for the first search tool call. */
export function setSearchPort(port: MessagePort): void {
  searchPort = port;
}

/** Loads a search tool's executor and, the first time, hands the engine the search link. */
async function withSearch<T>(load: () => Promise<T>): Promise<T> {
  const { useSearchLink } = await import("../../search/mod.ts");
  if (searchPort) useSearchLink(searchPort);
  searchPort = null;
  return await load();
}

/** The ten file tools' executors by name (a test keeps the names equal to FILE_TOOL_NAMES). */
export const EXECUTORS: Readonly<Record<string, () => Execute | Promise<Execute>>> = {
  read: () => executeRead,
  write: () => executeWrite,
  edit: () => executeEdit,
  find_path: () => withSearch(() => import("../find_path_exec.ts")).then((m) => m.executeFindPath),
  grep: () => withSearch(() => import("../grep_exec.ts")).then((m) => m.executeGrep),
  list_directory: () => executeListDirectory,
  create_directory: () => executeCreateDirectory,
  delete_path: () => executeDeletePath,
  move_path: () => executeMovePath,
  copy_path: () => executeCopyPath,
};
