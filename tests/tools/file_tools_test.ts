import { expect } from "expect";
import { FILE_TOOL_NAMES, FILE_TOOLS } from "../../src/tools/file_tools.ts";
import { toolJsonSchema } from "../../src/tools/tool.ts";

Deno.test("FILE_TOOLS: order, kinds, mutates, invocation", () => {
  expect(FILE_TOOLS.map((t) => [t.name, t.kind, t.mutates, t.invocation.type])).toEqual([
    ["read", "read", false, "call"],
    ["write", "edit", true, "call"],
    ["edit", "edit", true, "call"],
    ["find_path", "search", false, "call"],
    ["grep", "search", false, "call"],
    ["list_directory", "search", false, "call"],
    ["create_directory", "other", true, "call"],
    ["delete_path", "delete", true, "call"],
    ["move_path", "move", true, "call"],
    ["copy_path", "other", true, "call"],
  ]);
});

Deno.test("FILE_TOOL_NAMES: exactly the names of FILE_TOOLS, in order", () => {
  expect([...FILE_TOOL_NAMES]).toEqual(FILE_TOOLS.map((t) => t.name));
});

Deno.test("FILE_TOOLS: subjects are the paths as given", () => {
  const byName = Object.fromEntries(FILE_TOOLS.map((t) => [t.name, t]));
  const subjects = (name: string, input: unknown) =>
    byName[name].subjects(byName[name].params.parse(input));
  expect([
    subjects("read", { path: "a/b.txt" }),
    subjects("grep", { pattern: "x" }),
    subjects("find_path", { pattern: "**/*.ts", path: "src" }),
    subjects("find_path", { pattern: "/abs/**/*.ts" }),
    subjects("move_path", { source: "a", destination: "../b" }),
    subjects("copy_path", { source: "~/x", destination: "y" }),
  ]).toEqual([
    ["a/b.txt"],
    ["."],
    ["src"],
    ["/abs/**/*.ts"],
    ["a", "../b"],
    ["~/x", "y"],
  ]);
});

Deno.test("FILE_TOOLS: every parameter is described; descriptions follow the template", () => {
  for (const tool of FILE_TOOLS) {
    const schema = toolJsonSchema(tool) as { properties: Record<string, { description?: string }> };
    const undocumented = Object.entries(schema.properties)
      .filter(([, p]) => !p.description)
      .map(([k]) => k);
    expect({ tool: tool.name, undocumented }).toEqual({ tool: tool.name, undocumented: [] });
    const sections = ["Parameters:", "Returns:", "Errors:", "Example:"].filter((s) =>
      !tool.description.includes(s)
    );
    expect({ tool: tool.name, missing: sections }).toEqual({ tool: tool.name, missing: [] });
  }
});
