// Modes at the registry's dispatch boundary (real move_path and delete_path on a temp
// workspace), and compiling the mode tables.
import { expect } from "expect";
import { z } from "zod";
import { defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { compileModes, ModeConfigError, ModeState } from "../../src/tools/modes.ts";
import { movePathTool } from "../../src/tools/move_path.ts";
import { readTool } from "../../src/tools/read.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { switchModeTool } from "../../src/tools/switch_mode.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { builtinTools } from "../../src/tools/catalog.ts";

async function setup(mode: string) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph-modes-" }));
  const config = defaultConfig();
  const registry = new ToolRegistry({
    tools: [readTool, movePathTool, switchModeTool],
    executor: new LocalExecutor(),
    policy: PermissionPolicy.fromConfig(config, { autonomy: "full" }),
    config,
  });
  const modes = new ModeState(config, { initial: mode });
  const scope = { cwd: dir, sandbox: await Sandbox.create(dir), modes };
  return {
    dir,
    registry,
    modes,
    scope,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("every built-in tool has a group; the groups split as the modes expect", () => {
  const byGroup: Record<string, string[]> = {};
  for (const t of builtinTools()) (byGroup[t.group] ??= []).push(t.name);
  expect(byGroup).toEqual({
    command: ["bash", "diagnostics"],
    read: ["read", "find_path", "grep", "list_directory", "read_overflow"],
    edit: ["write", "edit", "create_directory", "delete_path", "move_path", "copy_path"],
    web: ["web_scrape", "fetch"],
    always: ["update_plan", "switch_mode"],
  });
});

Deno.test("architect: a move must keep both paths inside the file regex", async () => {
  await using s = await setup("architect");
  await Deno.writeTextFile(`${s.dir}/a.md`, "x");
  const out = await s.registry.dispatch(
    { id: "m1", name: "move_path", input: { source: "a.md", destination: "a.ts" } },
    s.scope,
  );
  expect([out.ok, out.error]).toEqual([
    false,
    'Tool "move_path" in mode "architect" can only edit files matching pattern: \\.md$ ' +
    "(Markdown files only). Got: a.ts",
  ]);
  await Deno.stat(`${s.dir}/a.md`);
  const ok = await s.registry.dispatch(
    { id: "m2", name: "move_path", input: { source: "a.md", destination: "b.md" } },
    s.scope,
  );
  expect(ok.ok).toBe(true);
  await Deno.stat(`${s.dir}/b.md`);
});

Deno.test("the mode is checked before the parameters: an out-of-mode call with bad input names the mode", async () => {
  await using s = await setup("ask");
  const out = await s.registry.dispatch({ id: "m1", name: "move_path", input: {} }, s.scope);
  expect(out.error).toBe(
    'Tool "move_path" is not available in mode "ask". Available tools: read, switch_mode',
  );
  // An unknown tool lists only what the mode offers.
  const unknown = await s.registry.dispatch({ id: "u1", name: "rm", input: {} }, s.scope);
  expect(unknown.error).toBe('Unknown tool "rm". Available tools: read, switch_mode');
});

Deno.test("a dispatch without modes (zeph tool) is not restricted; switch_mode then says it needs a session", async () => {
  await using s = await setup("ask");
  await Deno.writeTextFile(`${s.dir}/a.ts`, "x");
  const scope = { cwd: s.scope.cwd, sandbox: s.scope.sandbox };
  const moved = await s.registry.dispatch(
    { id: "m1", name: "move_path", input: { source: "a.ts", destination: "b.ts" } },
    scope,
  );
  expect(moved.ok).toBe(true);
  const sw = await s.registry.dispatch(
    { id: "s1", name: "switch_mode", input: { mode_slug: "code" } },
    scope,
  );
  expect(sw.error).toBe("Cannot switch modes: this call does not belong to an agent session");
});

Deno.test("compileModes: a [modes.<slug>] replaces a built-in of the same slug and adds new ones", () => {
  const config = defaultConfig();
  config.modes = {
    ask: { groups: ["read"], description: "", file_regex: "", file_regex_description: "" },
    review: {
      name: "Review",
      groups: ["read", "edit"],
      description: "Comments only",
      file_regex: "(?i)\\.(md|txt)$",
      file_regex_description: "",
    },
  };
  const modes = compileModes(config);
  expect(modes.map((m) => [m.slug, m.name, [...m.groups]])).toEqual([
    ["code", "Code", ["read", "edit", "command", "web", "mcp"]],
    ["ask", "ask", ["read"]],
    ["architect", "Architect", ["read", "edit"]],
    ["review", "Review", ["read", "edit"]],
  ]);
  expect(modes[3].fileRegex?.test("NOTES.MD")).toBe(true);
  expect(modes[3].fileRegex?.test("notes.ts")).toBe(false);
});

Deno.test("compileModes: lookaround and overlong patterns are refused with the key and a fix", () => {
  const config = defaultConfig();
  const bad = (file_regex: string) => {
    config.modes = {
      x: { groups: ["edit"], description: "", file_regex, file_regex_description: "" },
    };
    try {
      compileModes(config);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ModeConfigError);
      return [(error as ModeConfigError).key, (error as Error).message];
    }
  };
  const [key, message] = bad("(?!x)y")!;
  expect(key).toBe("modes.x.file_regex");
  expect(message).toContain('Cannot use the file_regex "(?!x)y" of mode "x": invalid RE2 regex');
  expect(bad("a".repeat(513))![1]).toContain("the limit is 512");
  expect(bad("\\.md$")).toBe(null);
});

Deno.test("ModeState: listeners hear who switched; an unknown slug leaves the mode as it was", () => {
  const modes = new ModeState(defaultConfig());
  const heard: string[] = [];
  const stop = modes.onChange((m, by) => heard.push(`${m.slug}/${by}`));
  modes.switchTo("ask", "user");
  expect(() => modes.switchTo("nope", "model")).toThrow(
    'Cannot switch to mode "nope": there is no such mode. Modes: code, ask, architect',
  );
  stop();
  modes.switchTo("code", "model");
  expect(heard).toEqual(["ask/user"]);
  expect(modes.current.slug).toBe("code");
});

Deno.test("an MCP tool (group mcp) is offered in code mode and refused in ask and architect", async () => {
  await using s = await setup("code");
  s.registry.register(defineTool({
    name: "github_create_issue",
    description: "An MCP server's tool.",
    params: z.object({}).passthrough(),
    mutates: false,
    kind: "other",
    group: "mcp",
    invocation: { type: "call" },
    subjects: () => [],
    execute: () => Promise.resolve({ text: "created" }),
  }));
  const call = { id: "g1", name: "github_create_issue", input: {} };
  expect((await s.registry.dispatch(call, s.scope)).text).toBe("created");
  for (const mode of ["ask", "architect"]) {
    s.modes.switchTo(mode, "user");
    expect(s.registry.visible(undefined, s.modes).map((t) => t.name)).not.toContain(
      "github_create_issue",
    );
    expect((await s.registry.dispatch(call, s.scope)).error).toContain(
      `Tool "github_create_issue" is not available in mode "${mode}"`,
    );
  }
});
