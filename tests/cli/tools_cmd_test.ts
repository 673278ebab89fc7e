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

const SELECTION_CONFIG = `
[tools.tafc]
enabled = true
complexity_threshold = 0.15
[tools.schema_filter]
enabled = true
top_k = 2
[tools.dependencies]
enabled = true
[tools.dependencies.rules.edit]
requires = ["read"]
prefers = ["grep"]
[[tools.permissions.delete_path]]
pattern = "*"
action = "deny"
`;

Deno.test("zeph tools --explain shows what a request offers and why each tool is left out", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(config, SELECTION_CONFIG);
    const r = await zeph(["--config", config, "tools", "--explain", "rename old.txt to new.txt"], {
      cwd: ws,
      home,
    });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const lines = r.stdout.split("\n");
    expect(lines.slice(0, 2)).toEqual([
      'Tools for "rename old.txt to new.txt" at the start of a session:',
      "  schema filter: on (lexical, top_k 2, min_score 0); dependencies: on; TAFC: on " +
      "(threshold 0.15)",
    ]);
    const row = (name: string) => lines.find((l) => l.includes(` ${name} `))?.trim();
    expect(row("bash")).toMatch(
      /^offered +bash +always on \(\[tools\.schema_filter\] always_on\)$/,
    );
    expect(row("edit")).toMatch(
      /^left out +edit +hidden: requires read \(not completed yet\); thinking field \(complexity 0\.15\)$/,
    );
    expect(row("move_path")).toMatch(/^offered +move_path +ranked, score 1\.000$/);
    expect(row("delete_path")).toMatch(/^left out +delete_path +denied by \[tools\.permissions\]$/);
    expect(row("fetch")).toMatch(/^left out +fetch +no word of the message matches it/);
    expect(lines.at(-2)).toBe(`4 of ${builtinTools().length} tools offered.`);
  });
});

Deno.test("zeph tools --explain --after: completed tools unlock requires and add the prefers boost", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(config, SELECTION_CONFIG);
    const r = await zeph(
      [
        "--config",
        config,
        "--json",
        "tools",
        "--explain",
        "replace text in the file",
        "--after",
        "read,grep",
      ],
      { cwd: ws, home },
    );
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const rows = JSON.parse(r.stdout) as {
      tool: string;
      offered: boolean;
      reason: string;
      boost?: number;
    }[];
    const edit = rows.find((x) => x.tool === "edit")!;
    expect([edit.offered, edit.reason, edit.boost]).toEqual([true, "ranked", 0.15]);
    expect(rows.map((x) => x.tool)).toEqual(builtinTools().map((t) => t.name));
  });
});

Deno.test("zeph tools shows the TAFC thinking field in the schemas it lists when it applies", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(config, "[tools.tafc]\nenabled = true\ncomplexity_threshold = 0.15\n");
    const r = await zeph(["--config", config, "--json", "tools"], { cwd: ws, home });
    const defs = JSON.parse(r.stdout) as { name: string; inputSchema: { properties: object } }[];
    expect(
      defs.filter((d) => "thinking" in d.inputSchema.properties).map((d) => d.name),
    ).toEqual(["edit", "diagnostics", "read_overflow", "update_plan"]);
  });
});
