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

Deno.test("zeph tools prints one block per tool: id, first description line, parameter table", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["tools"], { cwd: ws, home });
    expect(r.code).toBe(0);
    for (const t of builtinTools()) {
      expect(r.stdout).toContain(`${t.name}\n  ${t.description.split("\n")[0]}\n`);
    }
    expect(r.stdout).toContain(
      [
        "read",
        "  Read a text file and return its lines, numbered.",
        "  Parameters:",
        "    path    string   required",
        "            File to read, relative to the workspace or absolute inside it",
        "    offset  integer  optional, default 0",
      ].join("\n"),
    );
    expect(r.stdout).not.toContain('{"type":"object"');
    expect(r.stdout).toContain("details: zeph tool <id> --help");
  });
});

Deno.test("zeph tool <id> --help: the whole description and the parameter table; unknown id exits 2", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["tool", "grep", "--help"], { cwd: ws, home });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const grep = builtinTools().find((t) => t.name === "grep")!;
    expect(r.stdout.startsWith(`grep\n  ${grep.description.split("\n")[0]}\n`)).toBe(true);
    expect(r.stdout).toMatch(/\n {4}pattern +string +required\n/);
    expect(r.stdout).toContain("Usage: zeph tool grep '<json>' | - | @file");
    const generic = await zeph(["tool", "--help"], { cwd: ws, home });
    expect(generic.code).toBe(0);
    expect(generic.stdout).toContain("Usage: zeph tool [options] [id] [input]");
    const bad = await zeph(["tool", "gerp", "--help"], { cwd: ws, home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown tool "gerp". Available tools: bash, read');
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
