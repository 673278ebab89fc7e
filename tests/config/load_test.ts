import { expect } from "expect";
import * as path from "node:path";
import { ConfigError, formatIssue } from "../../src/config/errors.ts";
import { ENV_OVERRIDES, loadConfig, locateConfig, parseConfig } from "../../src/config/load.ts";
import { defaultConfig } from "../../src/config/schema.ts";

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "zeph_config_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function configError(p: Promise<unknown>): Promise<ConfigError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

Deno.test("no file anywhere: built-in defaults, no warnings", async () => {
  await withTemp(async (dir) => {
    const loaded = await loadConfig({ env: { XDG_CONFIG_HOME: dir, HOME: dir } });
    expect(loaded).toEqual({
      config: defaultConfig(),
      path: null,
      source: "defaults",
      warnings: [],
      envApplied: [],
    });
  });
});

Deno.test("location precedence: --config, then ZEPH_CONFIG, then XDG, then ~/.config", () => {
  const env = { ZEPH_CONFIG: "/e/c.toml", XDG_CONFIG_HOME: "/x", HOME: "/h" };
  expect(locateConfig({ path: "/f/c.toml", env })).toEqual({
    path: "/f/c.toml",
    source: "flag",
    required: true,
  });
  expect(locateConfig({ env })).toEqual({ path: "/e/c.toml", source: "env", required: true });
  expect(locateConfig({ env: { XDG_CONFIG_HOME: "/x", HOME: "/h" } })).toEqual({
    path: path.join("/x", "zeph", "config.toml"),
    source: "xdg",
    required: false,
  });
  // A relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored.
  expect(locateConfig({ env: { XDG_CONFIG_HOME: "rel", HOME: "/h" } })).toEqual({
    path: path.join("/h", ".config", "zeph", "config.toml"),
    source: "xdg",
    required: false,
  });
  expect(locateConfig({ env: {} })).toEqual({ path: null, source: "defaults", required: false });
});

Deno.test("each location is actually read, the flag winning over the others", async () => {
  await withTemp(async (dir) => {
    const write = async (rel: string, n: number) => {
      const file = path.join(dir, rel);
      await Deno.mkdir(path.dirname(file), { recursive: true });
      await Deno.writeTextFile(file, `[agent]\nmax_tool_iterations = ${n}\n`);
      return file;
    };
    const xdg = await write("xdg/zeph/config.toml", 3);
    const viaEnv = await write("env.toml", 4);
    const viaFlag = await write("flag.toml", 5);
    const base = { XDG_CONFIG_HOME: path.join(dir, "xdg") };
    const a = await loadConfig({ env: base });
    expect([a.path, a.source, a.config.agent.max_tool_iterations]).toEqual([xdg, "xdg", 3]);
    const b = await loadConfig({ env: { ...base, ZEPH_CONFIG: viaEnv } });
    expect([b.path, b.source, b.config.agent.max_tool_iterations]).toEqual([viaEnv, "env", 4]);
    const c = await loadConfig({ path: viaFlag, env: { ...base, ZEPH_CONFIG: viaEnv } });
    expect([c.path, c.source, c.config.agent.max_tool_iterations]).toEqual([viaFlag, "flag", 5]);
  });
});

Deno.test("a missing explicitly given file is an error naming it; a missing XDG file is not", async () => {
  await withTemp(async (dir) => {
    const missing = path.join(dir, "nope.toml");
    const e1 = await configError(loadConfig({ path: missing, env: {} }));
    expect(e1.issues).toEqual([{
      source: missing,
      message:
        "the config file does not exist (given by --config). Create it (see config.example.toml) or fix the path.",
    }]);
    const e2 = await configError(loadConfig({ env: { ZEPH_CONFIG: missing } }));
    expect(e2.issues[0].message).toContain("given by ZEPH_CONFIG");
    const ok = await loadConfig({ env: { XDG_CONFIG_HOME: dir } });
    expect(ok.source).toBe("defaults");
  });
});

Deno.test("a TOML syntax error names the file, line and column", async () => {
  await withTemp(async (dir) => {
    const file = path.join(dir, "bad.toml");
    await Deno.writeTextFile(
      file,
      "[agent]\nmax_tool_iterations = 10\ndoom_loop_threshold = = 3\n",
    );
    const error = await configError(loadConfig({ path: file, env: {} }));
    expect(error.issues.length).toBe(1);
    const issue = error.issues[0];
    expect([issue.source, issue.line, issue.column]).toEqual([file, 3, 23]);
    expect(issue.message).toMatch(/^TOML syntax error: /);
    expect(error.message).toContain(`${file}:3:23: TOML syntax error`);
  });
});

Deno.test("wrong types name the key path, the expected type and the value found", async () => {
  const text = [
    "[tools.shell]",
    'timeout = "30s"',
    "[agent]",
    "max_tool_iterations = 0",
    "context_budget_ratio = true",
    "[llm]",
    'provider = "gpt"',
    "[[tools.permissions.bash]]",
    'pattern = "*"',
    'action = "maybe"',
  ].join("\n");
  const error = await configError(parseConfig(text, { source: "c.toml" }));
  expect(error.issues.map(formatIssue).sort()).toEqual([
    "c.toml: agent.context_budget_ratio: expected a number, found a boolean true",
    "c.toml: agent.max_tool_iterations: expected number to be >=1, found an integer 0",
    'c.toml: llm.provider: expected one of "ollama", "claude", "openai", "script", found a string "gpt"',
    'c.toml: tools.permissions.bash[0].action: expected one of "allow", "ask", "deny", found a string "maybe"',
    'c.toml: tools.shell.timeout: expected a number, found a string "30s"',
  ]);
});

Deno.test("unknown keys are warnings with a did-you-mean; the rest is validated and kept", async () => {
  const text = [
    "colour = 1",
    "[agent]",
    "max_tool_iteration = 4",
    "doom_loop_threshold = 5",
    "[tools.shel]",
    "timeout = 9",
    "[tools.file]",
    "grep_max_match = 7",
  ].join("\n");
  const loaded = await parseConfig(text, { source: "c.toml" });
  expect(loaded.warnings.sort()).toEqual([
    'c.toml: unknown key "agent.max_tool_iteration" ignored (did you mean "agent.max_tool_iterations"?)',
    'c.toml: unknown key "colour" ignored',
    'c.toml: unknown key "tools.file.grep_max_match" ignored (did you mean "tools.file.grep_max_matches"?)',
    'c.toml: unknown key "tools.shel" ignored (did you mean "tools.shell"?)',
  ]);
  const expected = defaultConfig();
  expected.agent.doom_loop_threshold = 5;
  expect(loaded.config).toEqual(expected);
});

Deno.test("unknown keys next to real errors: warnings are not enough, the errors are reported", async () => {
  const error = await configError(
    parseConfig('[agent]\nmax_tool_iteratoins = 4\ndoom_loop_threshold = "x"\n', {
      source: "c.toml",
    }),
  );
  expect(error.issues.map(formatIssue)).toEqual([
    'c.toml: agent.doom_loop_threshold: expected a number, found a string "x"',
  ]);
});

Deno.test("env overrides apply over file values and are listed", async () => {
  const text = '[agent]\nmax_tool_iterations = 4\n[llm]\nprovider = "claude"\n';
  const loaded = await parseConfig(text, {
    source: "c.toml",
    env: {
      ZEPH_AGENT_MAX_TOOL_ITERATIONS: "25",
      ZEPH_LLM_MODEL: "claude-opus-4",
      ZEPH_LLM_TIMEOUT: "60",
      ZEPH_TOOLS_SHELL_TIMEOUT: "90",
      ZEPH_TOOLS_FILTERS_ENABLED: "false",
      ZEPH_TOOLS_AUDIT_ENABLED: "0",
      ZEPH_MEMORY_SQLITE_PATH: "/tmp/z.db",
      ZEPH_UNRELATED: "x",
    },
  });
  const expected = defaultConfig();
  expected.agent.max_tool_iterations = 25;
  expected.llm.provider = "claude";
  expected.llm.claude.model = "claude-opus-4";
  expected.llm.timeout = 60;
  expected.tools.shell.timeout = 90;
  expected.tools.filters.enabled = false;
  expected.tools.audit.enabled = false;
  expected.memory.sqlite_path = "/tmp/z.db";
  expect(loaded.config).toEqual(expected);
  expect(loaded.envApplied).toEqual([
    "ZEPH_AGENT_MAX_TOOL_ITERATIONS",
    "ZEPH_LLM_MODEL",
    "ZEPH_LLM_TIMEOUT",
    "ZEPH_TOOLS_SHELL_TIMEOUT",
    "ZEPH_TOOLS_FILTERS_ENABLED",
    "ZEPH_TOOLS_AUDIT_ENABLED",
    "ZEPH_MEMORY_SQLITE_PATH",
  ]);
  expect(loaded.warnings).toEqual([]);
});

Deno.test("ZEPH_LLM_MODEL follows the provider chosen by ZEPH_LLM_PROVIDER, else the default", async () => {
  const a = await parseConfig('[llm]\nprovider = "claude"\n', {
    source: "c",
    env: { ZEPH_LLM_PROVIDER: "openai", ZEPH_LLM_MODEL: "gpt-5" },
  });
  expect([a.config.llm.provider, a.config.llm.openai.model, a.config.llm.claude.model]).toEqual(
    ["openai", "gpt-5", defaultConfig().llm.claude.model],
  );
  const b = await parseConfig("", { source: "c", env: { ZEPH_LLM_MODEL: "llama3" } });
  expect(b.config.llm.ollama.model).toBe("llama3");
  const c = await parseConfig("", {
    source: "c",
    env: { ZEPH_LLM_PROVIDER: "script", ZEPH_LLM_MODEL: "m" },
  });
  expect(c.warnings).toEqual([
    'ZEPH_LLM_MODEL is ignored: provider "script" has no "llm.script.model" setting.',
  ]);
});

Deno.test("a bad env value is an error naming the variable", async () => {
  const cases: [Record<string, string>, string[]][] = [
    [{ ZEPH_AGENT_MAX_TOOL_ITERATIONS: "ten" }, [
      'ZEPH_AGENT_MAX_TOOL_ITERATIONS: agent.max_tool_iterations: expected an integer, found "ten"',
    ]],
    [{ ZEPH_TOOLS_FILTERS_ENABLED: "maybe" }, [
      'ZEPH_TOOLS_FILTERS_ENABLED: tools.filters.enabled: expected true or false, found "maybe"',
    ]],
    [{ ZEPH_AGENT_MAX_TOOL_ITERATIONS: "0" }, [
      "ZEPH_AGENT_MAX_TOOL_ITERATIONS: agent.max_tool_iterations: expected number to be >=1, found an integer 0",
    ]],
    [{ ZEPH_LLM_PROVIDER: "gemini" }, [
      'ZEPH_LLM_PROVIDER: llm.provider: expected one of "ollama", "claude", "openai", "script", found a string "gemini"',
    ]],
    [{ ZEPH_TOOLS_SHELL_TIMEOUT: "1.5" }, [
      'ZEPH_TOOLS_SHELL_TIMEOUT: tools.shell.timeout: expected an integer, found "1.5"',
    ]],
  ];
  for (const [env, messages] of cases) {
    const error = await configError(parseConfig("", { source: "c.toml", env }));
    expect(error.issues.map(formatIssue)).toEqual(messages);
  }
});

Deno.test("every documented override maps onto a real config key", async () => {
  const { schemaAt } = await import("../../src/config/keys.ts");
  for (const o of ENV_OVERRIDES) {
    const key = o.key.replace("{provider}", "claude");
    expect([o.name, schemaAt(key.split(".")) !== null]).toEqual([o.name, true]);
    expect(o.name).toBe(
      `ZEPH_${o.key.replace(".{provider}", "").replaceAll(".", "_").toUpperCase()}`,
    );
  }
});

Deno.test("permission sections naming no tool are warnings with a did-you-mean", async () => {
  const { permissionToolWarnings } = await import("../../src/config/load.ts");
  const config = defaultConfig();
  Object.assign(config.tools.permissions, {
    raed: [{ pattern: "*", action: "deny" }],
    bash: [{ pattern: "*", action: "ask" }],
    zzz: [],
  });
  expect(permissionToolWarnings(config, ["bash", "read", "write"])).toEqual([
    '[tools.permissions.raed] names no tool, its rules apply to nothing (did you mean "read"?). Tools: bash, read, write.',
    "[tools.permissions.zzz] names no tool, its rules apply to nothing. Tools: bash, read, write.",
  ]);
  expect(permissionToolWarnings(defaultConfig(), ["bash"])).toEqual([]);
});
