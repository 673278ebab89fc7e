import { expect } from "expect";
import * as path from "node:path";
import { ConfigError, formatIssue } from "../../src/config/errors.ts";
import { suggestKey } from "../../src/config/keys.ts";
import {
  type Env,
  ENV_OVERRIDES,
  loadConfig,
  locateConfig,
  MAX_CONFIG_FILE_BYTES,
  parseConfig,
} from "../../src/config/load.ts";
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
    expect(issue.key).toBe("agent.doom_loop_threshold");
    expect(error.message).toContain(`${file}:3:23: agent.doom_loop_threshold: TOML syntax error`);
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

Deno.test("a key an earlier version read names the key that replaced it", async () => {
  const loaded = await parseConfig("[agent]\nrepetition_window = 2\nrepeat_threshold = 5\n", {
    source: "c.toml",
  });
  expect(loaded.warnings).toEqual([
    'c.toml: unknown key "agent.repetition_window" ignored (replaced by "agent.repeat_threshold": ' +
    "identical calls in a row that run before zeph asks whether to go on)",
  ]);
  expect(loaded.config.agent.repeat_threshold).toBe(5);
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
      ZEPH_TOOLS_FILTERS_KEEP_UNFILTERED: "failures",
      ZEPH_TOOLS_AUDIT_ENABLED: "0",
      ZEPH_TOOLS_AUDIT_PATH: "/tmp/audit.jsonl",
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
  expected.tools.filters.keep_unfiltered = "failures";
  expected.tools.audit.enabled = false;
  expected.tools.audit.path = "/tmp/audit.jsonl";
  expected.memory.sqlite_path = "/tmp/z.db";
  expect(loaded.config).toEqual(expected);
  expect(loaded.envApplied).toEqual([
    "ZEPH_AGENT_MAX_TOOL_ITERATIONS",
    "ZEPH_LLM_MODEL",
    "ZEPH_LLM_TIMEOUT",
    "ZEPH_TOOLS_SHELL_TIMEOUT",
    "ZEPH_TOOLS_FILTERS_ENABLED",
    "ZEPH_TOOLS_FILTERS_KEEP_UNFILTERED",
    "ZEPH_TOOLS_AUDIT_ENABLED",
    "ZEPH_TOOLS_AUDIT_PATH",
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
    [{ ZEPH_TOOLS_FILTERS_KEEP_UNFILTERED: "sometimes" }, [
      'ZEPH_TOOLS_FILTERS_KEEP_UNFILTERED: tools.filters.keep_unfiltered: expected one of "always", "failures", "never", found a string "sometimes"',
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

Deno.test("fuzz findings: deep keys, prototype names, huge keys and out-of-range integers are clear errors", async () => {
  const deep = (n: number) => Array(n).fill("k").join(".");
  const cases: [string, string, Env, RegExp][] = [
    [
      "dotted key of 3000 parts",
      `${deep(3000)} = 1\n`,
      {},
      /^c\.toml: k\.k\..*: tables nested more than 32 deep/,
    ],
    [
      "table header of 3000 parts",
      `[${deep(3000)}]\n`,
      {},
      /^c\.toml: k\.k\..*: tables nested more than 32 deep/,
    ],
    ["dotted key of 100000 parts", `${deep(100_000)} = 1\n`, {}, /tables nested more than 32 deep/],
    [
      "inline tables 500 deep",
      `a = ${"{b=".repeat(500)}1${"}".repeat(500)}\n`,
      {},
      /^c\.toml: a\.b\.b.*: tables nested more than 32 deep/,
    ],
    [
      "provider constructor by env",
      "",
      { ZEPH_LLM_PROVIDER: "constructor", ZEPH_LLM_MODEL: "m" },
      /^ZEPH_LLM_PROVIDER: llm\.provider: expected one of "ollama"/,
    ],
    [
      "provider __proto__ by env",
      "",
      { ZEPH_LLM_PROVIDER: "__proto__", ZEPH_LLM_MODEL: "m" },
      /^ZEPH_LLM_PROVIDER: llm\.provider: expected one of/,
    ],
    [
      "provider toString in file",
      '[llm]\nprovider = "toString"\n',
      { ZEPH_LLM_MODEL: "m" },
      /^c\.toml: llm\.provider: expected one of/,
    ],
    ["provider hasOwnProperty in file", '[llm]\nprovider = "hasOwnProperty"\n', {
      ZEPH_LLM_MODEL: "m",
    }, /^c\.toml: llm\.provider: expected one of/],
    [
      "integer TOML cannot hold",
      "[llm]\ntimeout = 99999999999999999999\n",
      {},
      /^c\.toml:2:11: llm\.timeout: integer out of range/,
    ],
    [
      "negative integer TOML cannot hold",
      "[tools.shell]\n\ntimeout = -99999999999999999999 # x\n",
      {},
      /^c\.toml:3:11: tools\.shell\.timeout: integer out of range/,
    ],
    [
      "out of range in a dotted key",
      "tools.scrape.timeout = 99999999999999999999\n",
      {},
      /^c\.toml:1:24: tools\.scrape\.timeout: integer out of range/,
    ],
  ];
  for (const [name, text, env, pattern] of cases) {
    const error = await configError(parseConfig(text, { source: "c.toml", env }));
    expect([name, error.issues.length]).toEqual([name, 1]);
    expect([name, formatIssue(error.issues[0])]).toEqual([name, expect.stringMatching(pattern)]);
  }
  // Nothing leaked onto Object.prototype through a "__proto__" key path.
  expect(Object.hasOwn(Object.prototype, "model")).toBe(false);
});

Deno.test("a megabyte-long unknown key: no suggestion search, and the warning quotes it cut short", async () => {
  const key = "x".repeat(1 << 20);
  const { warnings } = await parseConfig(`${key} = 1\n`, { source: "c.toml", env: {} });
  expect(warnings).toEqual([`c.toml: unknown key "${"x".repeat(77)}…" ignored`]);
  // A long key that matches a known one exactly still gets no suggestion: the work is bounded.
  const long = "y".repeat(65);
  expect(suggestKey(long, [long])).toBe(null);
  expect(suggestKey("y".repeat(64), ["y".repeat(64)])).toBe("y".repeat(64));
});

Deno.test("numbers are bounded where the runtime has limits, with messages naming the key", async () => {
  const cases: [string, string][] = [
    ["[llm]\ntimeout = 86401", "llm.timeout: expected at most 86400 seconds (24 h)"],
    [
      "[tools.shell]\ntimeout = 2147484",
      "tools.shell.timeout: expected at most 86400 seconds (24 h)",
    ],
    [
      "[tools.scrape]\ntimeout = 86401",
      "tools.scrape.timeout: expected at most 86400 seconds (24 h)",
    ],
    [
      "[tools.retry]\nbudget_secs = 86401",
      "tools.retry.budget_secs: expected at most 86400 seconds",
    ],
    ["[tools.retry]\nmax_ms = 86400001", "tools.retry.max_ms: expected at most 86400000 ms (24 h)"],
    [
      "[tools.retry]\nbase_ms = 9007199254740991",
      "tools.retry.base_ms: expected at most 86400000 ms",
    ],
    [
      "[tools.shell]\nmax_output_bytes = 268435457",
      "tools.shell.max_output_bytes: expected at most 268435456 bytes (256 MiB)",
    ],
    [
      "[tools.scrape]\nmax_body_bytes = 4294967296",
      "tools.scrape.max_body_bytes: expected at most 268435456 bytes",
    ],
    [
      "[tools.overflow]\nthreshold = 268435457",
      "tools.overflow.threshold: expected at most 268435456 bytes",
    ],
    [
      "[tools.overflow]\nmax_overflow_bytes = 268435457",
      "tools.overflow.max_overflow_bytes: expected at most 268435456 bytes",
    ],
  ];
  for (const [text, message] of cases) {
    const error = await configError(parseConfig(text, { source: "c.toml", env: {} }));
    expect([text, formatIssue(error.issues[0])]).toEqual([
      text,
      expect.stringContaining(`c.toml: ${message}`),
    ]);
  }
  const atLimit = await parseConfig("[llm]\ntimeout = 86400\n[tools.shell]\ntimeout = 86400\n", {
    source: "c.toml",
    env: {},
  });
  expect([atLimit.config.llm.timeout, atLimit.config.tools.shell.timeout]).toEqual([86400, 86400]);
});

Deno.test("the config file: a BOM and CRLF load; bad files are refused by name", async () => {
  await withTemp(async (dir) => {
    const good = path.join(dir, "good.toml");
    await Deno.writeFile(
      good,
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("[llm]\r\ntimeout = 7\r\n")]),
    );
    expect((await loadConfig({ path: good, env: {} })).config.llm.timeout).toBe(7);
    const zero = path.join(dir, "zero.toml");
    await Deno.symlink("/dev/zero", zero);
    const fifo = path.join(dir, "fifo.toml");
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const big = path.join(dir, "big.toml");
    await Deno.writeTextFile(big, `# ${"x".repeat(MAX_CONFIG_FILE_BYTES)}\n`);
    const latin1 = path.join(dir, "latin1.toml");
    await Deno.writeFile(latin1, new Uint8Array([0x23, 0x20, 0xe9, 0x0a]));
    const cases: [string, string][] = [
      [zero, "cannot read it: it is a character device, not a regular file"],
      [fifo, "cannot read it: it is a FIFO (named pipe), not a regular file"],
      [dir, "cannot read it: it is a directory, not a regular file"],
      [big, `cannot read it: ${MAX_CONFIG_FILE_BYTES + 3} bytes, larger than the 1 MiB limit`],
      [latin1, "cannot read it: invalid UTF-8 at byte offset 2"],
    ];
    for (const [file, message] of cases) {
      const error = await configError(loadConfig({ path: file, env: {} }));
      expect([file, formatIssue(error.issues[0])]).toEqual([
        file,
        expect.stringContaining(`${file}: ${message}`),
      ]);
    }
    // The same refusal for the XDG location, where a missing file is fine.
    const xdg = path.join(dir, "xdg");
    await Deno.mkdir(path.join(xdg, "zeph"), { recursive: true });
    await Deno.symlink("/dev/zero", path.join(xdg, "zeph", "config.toml"));
    const error = await configError(loadConfig({ env: { XDG_CONFIG_HOME: xdg } }));
    expect(error.message).toContain("it is a character device");
  });
});

Deno.test("a ZEPH_ variable one typo away from a known one is named in a warning, others are not", async () => {
  const loaded = await parseConfig("", {
    source: "c.toml",
    env: {
      ZEPH_TOOLS_SHEL_TIMEOUT: "5",
      ZEPH_LLM_PROVDIER: "claude",
      ZEPH_CONFG: "/x.toml",
      ZEPH_UNRELATED: "x",
      ZEPH_LOG: "debug",
    },
  });
  expect(loaded.config).toEqual(defaultConfig());
  expect(loaded.warnings).toEqual([
    "ZEPH_TOOLS_SHEL_TIMEOUT is not a zeph variable and is ignored (did you mean ZEPH_TOOLS_SHELL_TIMEOUT?).",
    "ZEPH_LLM_PROVDIER is not a zeph variable and is ignored (did you mean ZEPH_LLM_PROVIDER?).",
    "ZEPH_CONFG is not a zeph variable and is ignored (did you mean ZEPH_CONFIG?).",
  ]);
});
