/**
 * The built-in tool list: the one place a new tool is added (one line each), in the order the
 * catalog and `zeph tools` show them. main.ts registers exactly this list; the JSON Schema
 * snapshot (tests/fixtures/tool_schemas.json) covers exactly this list.
 */
import type { AnyTool } from "./tool.ts";

export function builtinTools(): AnyTool[] {
  return [
    // File tools (src/tools/file_tools.ts) and bash (src/tools/bash.ts) are added here as they land.
  ];
}
