// `zeph tools`: what the model sees, as text or JSON, with denied tools hidden.
import { expect } from "expect";
import * as path from "node:path";
import { builtinTools } from "../../src/tools/catalog.ts";
import { toolJsonSchema } from "../../src/tools/tool.ts";
import { withWorkspace, zeph } from "./_run.ts";

Deno.test("zeph tools --json lists every built-in tool with its description and JSON Schema", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["tools", "--json"], { cwd: ws, home });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(JSON.parse(r.stdout)).toEqual(
      builtinTools().map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: toolJsonSchema(t),
        origin: "builtin",
      })),
    );
  });
});

Deno.test("zeph tools prints one block per tool: id, first description line, schema", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["tools"], { cwd: ws, home });
    expect(r.code).toBe(0);
    const expected = builtinTools().map((t) =>
      `${t.name}\n  ${t.description.split("\n")[0]}\n  schema: ${
        JSON.stringify(toolJsonSchema(t))
      }\n\n`
    ).join("");
    expect(r.stdout).toBe(expected);
  });
});

Deno.test("fully denied tools are hidden from zeph tools", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(
      config,
      '[[tools.permissions.bash]]\npattern = "*"\naction = "deny"\n' +
        '[[tools.permissions.delete_path]]\npattern = "*"\naction = "deny"\n',
    );
    const r = await zeph(["--config", config, "--json", "tools"], { cwd: ws, home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((d: { name: string }) => d.name)).toEqual(
      builtinTools().map((t) => t.name).filter((n) => n !== "bash" && n !== "delete_path"),
    );
  });
});
