// The JSON Schemas the model sees are a contract: any change must be deliberate. Regenerate with
//   UPDATE_SNAPSHOTS=1 ./node_modules/deno/deno test -A tests/tools/catalog_test.ts
import { expect } from "expect";
import * as path from "node:path";
import { builtinTools } from "../../src/tools/catalog.ts";
import { type AnyTool, toolJsonSchema } from "../../src/tools/tool.ts";

const SNAPSHOT = path.join(import.meta.dirname!, "..", "fixtures", "tool_schemas.json");

Deno.test("every built-in tool's JSON Schema matches the committed snapshot", async () => {
  const actual = Object.fromEntries(builtinTools().map((t) => [t.name, toolJsonSchema(t)]));
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(SNAPSHOT, JSON.stringify(actual, null, 2) + "\n");
  }
  const expected = JSON.parse(await Deno.readTextFile(SNAPSHOT));
  // Key order too: the snapshot lists the tools in catalog order.
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  expect(actual).toEqual(expected);
});

Deno.test("built-in tools: unique snake_case ids, object schemas, every parameter described", () => {
  const tools = builtinTools();
  const ids = tools.map((t) => t.name);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  expect(ids.filter((id) => !/^[a-z][a-z0-9_]*$/.test(id))).toEqual([]);
  const undescribed: string[] = [];
  for (const tool of tools) {
    const schema = toolJsonSchema(tool) as {
      type?: string;
      properties?: Record<string, { description?: string }>;
    };
    expect([tool.name, schema.type]).toEqual([tool.name, "object"]);
    for (const [key, prop] of Object.entries(schema.properties ?? {})) {
      if (!prop.description) undescribed.push(`${tool.name}.${key}`);
    }
    expect([tool.name, tool.description.trim().length > 0]).toEqual([tool.name, true]);
  }
  expect(undescribed).toEqual([]);
});

Deno.test("invocation hints: fenced blocks for bash and web_scrape only", () => {
  const fenced = (t: AnyTool) => t.invocation.type === "fenced";
  const tools = builtinTools();
  expect(tools.filter(fenced).map((t) => t.name)).toEqual(
    tools.map((t) => t.name).filter((n) => n === "bash" || n === "web_scrape"),
  );
});

Deno.test("the README's tool list is exactly builtinTools()", async () => {
  const readme = await Deno.readTextFile(path.join(import.meta.dirname!, "..", "..", "README.md"));
  const section = readme.split(/^## /m).find((s) => s.startsWith("Tools"));
  expect(section !== undefined).toBe(true);
  const listed = [...section!.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((m) => m[1]);
  expect(listed).toEqual(builtinTools().map((t) => t.name));
});
