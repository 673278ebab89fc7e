/** filterToolOutput as main.ts wires it: through the real dispatch boundary, a test-only tool. */
import { expect } from "expect";
import { z } from "zod";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, filterToolOutput } from "../../src/filter/mod.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { type OutputHook, ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const echoTool = defineTool({
  name: "fake_shell",
  description: "Returns canned output as if a command ran (test only).",
  params: z.object({ command: z.string(), output: z.string(), exit: z.number().default(0) }),
  mutates: false,
  kind: "execute",
  group: "command",
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
  group: "read",
  invocation: { type: "call" },
  subjects: () => [],
  execute: (p) => Promise.resolve({ text: p.output }),
});

/** The output hook main.ts builds. */
const filterHook = (engine: FilterEngine): OutputHook => ({
  name: "filter",
  order: 10,
  apply: (result) => filterToolOutput(engine, result),
});

async function setup() {
  const dir = await Deno.makeTempDir();
  const config = defaultConfig();
  Object.assign(config.tools.permissions, {
    "*": [{ pattern: "*", action: "allow" }],
  });
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
  const scope = { cwd: dir, sandbox: await Sandbox.create(dir, {}) };
  return { registry, engine, scope, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("the hook filters outputs carrying filterCommand and sets filterStats", async () => {
  const { registry, engine, scope, cleanup } = await setup();
  try {
    const output = "   Compiling a\n   Compiling b\n   Compiling c\nerror: boom";
    const result = await registry.dispatch({
      id: "1",
      name: "fake_shell",
      input: { command: "cd /p && cargo build 2>&1 | tail -5", output, exit: 101 },
    }, scope);
    expect(result.ok).toBe(true);
    expect(result.text).toBe("error: boom\n[exit code 101]");
    expect(result.filterStats).toEqual({
      rawLines: 5,
      filteredLines: 2,
      rawChars: output.length + "\n[exit code 101]".length,
      filteredChars: result.text.length,
      removedChars: "   Compiling a".length * 3,
      elided: false,
      confidence: "full",
      rules: ["cargo-noise"],
      inline: "[shell] 5 lines -> 2 lines, 60.0% filtered",
    });
    expect(engine.counters.summary()).toBe("F/P/B 1/0/0");
  } finally {
    await cleanup();
  }
});

Deno.test("outputs without filterCommand are left alone", async () => {
  const { registry, engine, scope, cleanup } = await setup();
  try {
    const text = "   Compiling a\n\n\n\x1b[31mred\x1b[0m";
    const result = await registry.dispatch(
      { id: "2", name: "plain", input: { output: text } },
      scope,
    );
    expect([result.text, result.filterStats, engine.counters.commands]).toEqual([
      text,
      undefined,
      0,
    ]);
  } finally {
    await cleanup();
  }
});

Deno.test("bash output is filtered through the registry as the engine filters its text", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const config = defaultConfig();
    const { engine } = await loadFilterEngine(config, { configDir: null });
    const registry = new ToolRegistry({
      tools: [bashTool],
      executor: new LocalExecutor(),
      policy: new PermissionPolicy({ bash: [{ pattern: "*", action: "allow" }] }),
      config,
    });
    registry.addOutputHook(filterHook(engine));
    const scope = { cwd: dir, sandbox: await Sandbox.create(dir) };
    // gcc-style warnings with ‘’ quotes, an emoji, an invalid byte, a security signal on stderr
    // and a credential-shaped string assembled by the shell (none is in this file as such).
    const script = [
      'for i in 1 2 3; do echo "f$i.c: In function \u2018f$i\u2019:"; ' +
      'echo "f$i.c:2:3: warning: unused variable \u2018x$i\u2019 [-Wunused-variable]"; done',
      "printf 'note \\360\\237\\230\\200 \\377\\n'",
      "echo 'Permission denied (publickey)' >&2",
      "echo \"token $(printf 'gh%s_' p)$(printf 'a%.0s' $(seq 36))\"",
      "exit 2",
    ].join("; ");
    for (const command of ["make", "some-tool"]) {
      const line = `${command === "make" ? "make" : "true"} >/dev/null 2>&1; ${script}`;
      const result = await registry.dispatch(
        { id: "e", name: "bash", input: { command: line } },
        scope,
      );
      // The tool's own text, before the hooks: a second run of the script could interleave its
      // stdout and stderr lines in another order.
      const text = result.output!.text;
      expect(text).toContain("\uFFFD");
      const want = new FilterEngine([...engine.rules]).filter(line, text, { failed: true });
      expect(result.text).toBe(want.text);
      expect(result.filterStats?.rules).toEqual(command === "make" ? want.rules : []);
      if (command === "make") expect(want.rules).toContain("make-gcc");
      expect(result.text).toContain("Permission denied");
      expect(result.text).toContain("GitHub token");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
