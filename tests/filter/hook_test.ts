/** The filter hook through the real dispatch boundary, with a test-only tool. */
import { expect } from "expect";
import { z } from "zod";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, filterHook } from "../../src/filter/mod.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { LocalExecutor } from "../../src/tools/executor.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/tool.ts";

const echoTool = defineTool({
  name: "fake_shell",
  description: "Returns canned output as if a command ran (test only).",
  params: z.object({ command: z.string(), output: z.string(), exit: z.number().default(0) }),
  mutates: false,
  kind: "execute",
  invocation: { type: "call" },
  subjects: (p) => [p.command],
  execute: (p) =>
    Promise.resolve({
      text: p.exit ? `${p.output}\n[exit code ${p.exit}]` : p.output,
      exitCode: p.exit,
      failed: p.exit !== 0,
      filterCommand: p.command,
    }),
});

const plainTool = defineTool({
  name: "plain",
  description: "Output without a filter command (test only).",
  params: z.object({ output: z.string() }),
  mutates: false,
  kind: "read",
  invocation: { type: "call" },
  subjects: () => [],
  execute: (p) => Promise.resolve({ text: p.output }),
});

async function setup() {
  const dir = await Deno.makeTempDir();
  const config = defaultConfig();
  config.tools.permissions = { "*": [{ pattern: "*", action: "allow" }] };
  const registry = new ToolRegistry({
    tools: [echoTool, plainTool],
    executor: new LocalExecutor(),
    policy: PermissionPolicy.fromConfig(config),
    config,
  });
  const engine = new FilterEngine([
    compileRule({
      name: "cargo-noise",
      match: { regex: "^cargo\\s+build" },
      strategy: { type: "strip_noise", patterns: ["^\\s*Compiling "] },
    }, "test"),
  ]);
  registry.addOutputHook(filterHook(engine));
  const session = { cwd: dir, sandbox: await Sandbox.create(dir, {}) };
  return { registry, engine, session, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("the hook filters outputs carrying filterCommand and sets filterStats", async () => {
  const { registry, engine, session, cleanup } = await setup();
  try {
    const output = "   Compiling a\n   Compiling b\n   Compiling c\nerror: boom";
    const result = await registry.dispatch({
      id: "1",
      name: "fake_shell",
      input: { command: "cd /p && cargo build 2>&1 | tail -5", output, exit: 101 },
    }, session);
    expect(result.ok).toBe(true);
    expect(result.text).toBe("error: boom\n[exit code 101]");
    expect(result.filterStats).toEqual({
      rawLines: 5,
      filteredLines: 2,
      rawChars: output.length + "\n[exit code 101]".length,
      filteredChars: result.text.length,
      confidence: "full",
      rules: ["cargo-noise"],
      inline: "[shell] 5 lines -> 2 lines, 60.0% filtered",
    });
    expect(engine.session.summary()).toBe("F/P/B 1/0/0");
  } finally {
    await cleanup();
  }
});

Deno.test("outputs without filterCommand are left alone", async () => {
  const { registry, engine, session, cleanup } = await setup();
  try {
    const text = "   Compiling a\n\n\n\x1b[31mred\x1b[0m";
    const result = await registry.dispatch(
      { id: "2", name: "plain", input: { output: text } },
      session,
    );
    expect([result.text, result.filterStats, engine.session.commands]).toEqual([
      text,
      undefined,
      0,
    ]);
  } finally {
    await cleanup();
  }
});
