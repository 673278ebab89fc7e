/**
 * The built-in tool list: the one place a new tool is added (one line each), in the order the
 * catalog and `zeph tools` show them. main.ts registers exactly this list; the JSON Schema
 * snapshot (tests/fixtures/tool_schemas.json) covers exactly this list.
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
