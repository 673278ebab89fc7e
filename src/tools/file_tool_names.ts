/**
 * The names of the ten sandboxed file tools (file_tools.ts has the tools). A module of its own:
 * the file worker executor routes by name, and starting the worker must not wait for the main
 * thread to load the tools themselves.
 */
export const FILE_TOOL_NAMES: ReadonlySet<string> = new Set([
  "read",
  "write",
  "edit",
  "find_path",
  "grep",
  "list_directory",
  "create_directory",
  "delete_path",
  "move_path",
  "copy_path",
]);

/** The file tools that use the search engine (file_worker_lite.ts runs the others). */
export const SEARCH_TOOL_NAMES: ReadonlySet<string> = new Set(["grep", "find_path"]);
