/** The ten sandboxed file tools, in the registration order of the spec. */
import { copyPathTool } from "./copy_path.ts";
import { createDirectoryTool } from "./create_directory.ts";
import { deletePathTool } from "./delete_path.ts";
import { editTool } from "./edit.ts";
import { findPathTool } from "./find_path.ts";
import { grepTool } from "./grep.ts";
import { listDirectoryTool } from "./list_directory.ts";
import { movePathTool } from "./move_path.ts";
import { readTool } from "./read.ts";
import type { AnyTool } from "./tool.ts";
import { writeTool } from "./write.ts";

export const FILE_TOOLS: AnyTool[] = [
  readTool,
  writeTool,
  editTool,
  findPathTool,
  grepTool,
  listDirectoryTool,
  createDirectoryTool,
  deletePathTool,
  movePathTool,
  copyPathTool,
];

/** Tool names the file worker executor handles (file_tool_names.ts; a test keeps both equal). */
export { FILE_TOOL_NAMES } from "./file_tool_names.ts";

/** What the fenced file worker runs them with: the real dependencies, text files on disk. */
