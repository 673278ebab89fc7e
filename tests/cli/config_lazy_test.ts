/**
 * The config loader builds the zod schema only when a file or a `ZEPH_*` variable sets keys
 * (src/config/load.ts). Whatever is set is still validated as before: by `zeph config check` and
 * by a one-shot `zeph tool`, whose start the laziness is for.
 */
import { expect } from "expect";
import * as path from "node:path";
import { type RunResult, withWorkspace, zeph } from "./_run.ts";

const READ = ["tool", "read", '{"path": "a.txt"}'];

/** `zeph config check` and `zeph tool read` with the same config file and environment. */
async function both(
  ws: string,
  home: string,
  config: string | null,
  env: Record<string, string> = {},
): Promise<RunResult[]> {
  await Deno.writeTextFile(path.join(ws, "a.txt"), "alpha\n");
  const flags: string[] = [];
  if (config !== null) {
    await Deno.writeTextFile(path.join(ws, "zeph.toml"), config);
    flags.push("--config", path.join(ws, "zeph.toml"));
  }
  return await Promise.all([
    zeph([...flags, "config", "check"], { cwd: ws, home, env }),
    zeph([...flags, ...READ], { cwd: ws, home, env }),
  ]);
}

Deno.test("an invalid value in a config file is reported by config check and by tool", async () => {
  await withWorkspace(async (ws, home) => {
    for (const r of await both(ws, home, "[tools.file]\nmax_read_lines = 0\n")) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("zeph.toml: tools.file.max_read_lines: expected number to be >=1");
      expect(r.stdout).not.toContain("alpha");
    }
  });
});

Deno.test("an invalid ZEPH_* value is reported without any config file", async () => {
  await withWorkspace(async (ws, home) => {
    const cases: [Record<string, string>, string][] = [
      [{ ZEPH_AGENT_MAX_TOOL_ITERATIONS: "0" }, "agent.max_tool_iterations: expected number"],
      [
        { ZEPH_AGENT_MAX_TOOL_ITERATIONS: "abc" },
        'agent.max_tool_iterations: expected an integer, found "abc"',
      ],
    ];
    for (const [env, message] of cases) {
      for (const r of await both(ws, home, null, env)) {
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`ZEPH_AGENT_MAX_TOOL_ITERATIONS: ${message}`);
      }
    }
  });
});

Deno.test("a set ZEPH_* value applies, an unknown key and a misspelt variable warn", async () => {
  await withWorkspace(async (ws, home) => {
    const [check, read] = await both(ws, home, "[tools.file]\nmax_read_line = 5\n", {
      ZEPH_AGENT_MAX_TOOL_ITERATIONS: "7",
      ZEPH_AGENT_MAX_TOOL_ITERATION: "3",
    });
    for (const r of [check, read]) {
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        'unknown key "tools.file.max_read_line" ignored (did you mean "tools.file.max_read_lines"?)',
      );
      expect(r.stderr).toContain("ZEPH_AGENT_MAX_TOOL_ITERATION is not a zeph variable");
    }
    expect(check.stdout).toContain("max_tool_iterations = 7");
    expect(read.stdout).toContain("alpha");
  });
});

Deno.test("an invalid policy file is reported by config check and by tool", async () => {
  await withWorkspace(async (ws, home) => {
    await Deno.writeTextFile(path.join(ws, "policy.toml"), "[[rules]]\nbogus = 1\n");
    const config = '[tools.policy]\nenabled = true\npolicy_file = "policy.toml"\n';
    for (const r of await both(ws, home, config)) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('rules[0]: unknown key(s) "bogus"');
    }
  });
});

Deno.test("no file and no variable: the defaults, the same as the schema's", async () => {
  await withWorkspace(async (ws, home) => {
    const [check, read] = await both(ws, home, null);
    expect([check.code, read.code]).toEqual([0, 0]);
    expect(check.stdout).toContain("# Resolved from built-in defaults");
    expect(check.stdout).toContain("max_read_lines = 2000");
    expect(read.stdout).toContain("alpha");
    // An empty file (comments only) sets no key either.
    const [fromFile] = await both(ws, home, "# nothing set\n");
    expect(fromFile.code).toBe(0);
    // The same but for where the filter rules were looked for: beside the file given.
    const rules = (out: string) => out.split("\n").find((l) => l.startsWith("# Filter rules:"));
    const others = (out: string) =>
      out.split("\n").slice(1).filter((l) => !l.startsWith("# Filter rules:"));
    expect(others(fromFile.stdout)).toEqual(others(check.stdout));
    expect(rules(check.stdout)).toContain(path.join(home, ".config", "zeph", "filters.toml"));
    expect(rules(fromFile.stdout)).toContain(path.join(ws, "filters.toml"));
  });
});
