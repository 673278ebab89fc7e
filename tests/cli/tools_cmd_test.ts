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

Deno.test("zeph tools shows the tools of a mode: --mode, else [agent] default_mode; none when tools are off", async () => {
  await withWorkspace(async (ws, home) => {
    const names = (stdout: string) => JSON.parse(stdout).map((d: { name: string }) => d.name);
    const ask = await zeph(["--json", "tools", "--mode", "ask"], { cwd: ws, home });
    expect(names(ask.stdout)).toEqual([
      "read",
      "find_path",
      "grep",
      "list_directory",
      "web_scrape",
      "fetch",
      "read_overflow",
      "update_plan",
      "switch_mode",
    ]);
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(config, '[agent]\ndefault_mode = "architect"\n');
    const architect = await zeph(["--config", config, "--json", "tools"], { cwd: ws, home });
    expect(names(architect.stdout)).toEqual([
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
      "read_overflow",
      "update_plan",
      "switch_mode",
    ]);
    await Deno.writeTextFile(config, "[tools]\nenabled = false\n");
    const off = await zeph(["--config", config, "tools"], { cwd: ws, home });
    expect([off.code, off.stdout]).toEqual([
      0,
      "No tools are available ([tools] enabled = false).\n",
    ]);
  });
});
