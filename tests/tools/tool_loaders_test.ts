import { expect } from "expect";
import { builtinTools } from "../../src/tools/catalog.ts";
import { BUILTIN_TOOL_IDS, loadBuiltinTool } from "../../src/tools/tool_loaders.ts";

Deno.test("tool loaders: the catalog's ids in its order, each loading the catalog's tool", async () => {
  const catalog = builtinTools();
  expect(BUILTIN_TOOL_IDS).toEqual(catalog.map((t) => t.name));
  for (const tool of catalog) expect(await loadBuiltinTool(tool.name)).toBe(tool);
});

Deno.test("tool loaders: an id no built-in tool has loads nothing", async () => {
  for (const id of ["reed", "", "toString", "__proto__", "mcp__srv__read"]) {
    expect(await loadBuiltinTool(id)).toBe(null);
  }
});
