/**
 * The executors of the file tools that need no search engine (`<tool>_exec.ts`): no zod (the
 * main thread has checked the parameters), no npm package and no `node:` module. Both file
 * worker entries run them; file_worker.ts adds grep and find_path.
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

/** A tool's executor; its parameters are checked by the tool's schema in the main thread. */
export type Execute = (params: never, ctx: ToolContext) => Promise<ToolOutput>;

/** The file tools but grep and find_path, by name. */
export const PATH_EXECUTORS: Readonly<Record<string, Execute>> = {
  read: executeRead,
  write: executeWrite,
  edit: executeEdit,
  list_directory: executeListDirectory,
  create_directory: executeCreateDirectory,
  delete_path: executeDeletePath,
  move_path: executeMovePath,
  copy_path: executeCopyPath,
};
