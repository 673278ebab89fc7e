/**
 * The built-in tool list, in the order the catalog and `zeph tools` show them, every module
 * loaded. A new tool is added here and, for one-shot calls that load one tool, in
 * tool_loaders.ts (tests/tools/tool_loaders_test.ts fails until both agree). main.ts registers
 * exactly this list; the JSON Schema snapshot (tests/fixtures/tool_schemas.json) covers it.
 */
import { bashTool } from "./bash.ts";
import { diagnosticsTool } from "./diagnostics.ts";
import { fetchTool } from "./fetch.ts";
import { FILE_TOOLS } from "./file_tools.ts";
import { readOverflowTool } from "./read_overflow.ts";
import { switchModeTool } from "./switch_mode.ts";
import type { AnyTool } from "./tool.ts";
import { updatePlanTool } from "./update_plan.ts";
import { webScrapeTool } from "./web_scrape.ts";

export function builtinTools(): AnyTool[] {
  return [
    bashTool,
    ...FILE_TOOLS,
    webScrapeTool,
    fetchTool,
    diagnosticsTool,
    readOverflowTool,
    updatePlanTool,
    switchModeTool,
  ];
}
