// `zeph config check`: the resolved config (secrets masked) or the errors; exit 0/2.
import { expect } from "expect";
import * as path from "node:path";
import { parse } from "smol-toml";
import { defaultConfig } from "../../src/config/schema.ts";
import { withWorkspace, zeph } from "./_run.ts";
import { BUILTIN_FILTERS_DIR, loadBuiltinRules } from "../../src/filter/mod.ts";

const BUILTINS = (await loadBuiltinRules(BUILTIN_FILTERS_DIR)).length;

Deno.test("no config file: the defaults, as TOML, exit 0", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["config", "check"], { cwd: ws, home });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout.split("\n")[0]).toBe("# Resolved from built-in defaults");
    expect(parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(defaultConfig())));
  });
});

Deno.test("file + env, as JSON; unknown keys warned on stderr; --config beats ZEPH_CONFIG", async () => {
  await withWorkspace(async (ws, home) => {
    const file = path.join(home, "c.toml");
    await Deno.writeTextFile(file, "[agent]\nmax_tool_iterations = 7\ncolour = 1\n");
    const other = path.join(home, "other.toml");
    await Deno.writeTextFile(other, "[agent]\nmax_tool_iterations = 99\n");
    const r = await zeph(["config", "check", "--json", "--config", file], {
      cwd: ws,
      home,
      env: { ZEPH_CONFIG: other, ZEPH_TOOLS_SHELL_TIMEOUT: "45" },
    });
    expect(r.code).toBe(0);
    const expected = defaultConfig();
    expected.agent.max_tool_iterations = 7;
    expected.tools.shell.timeout = 45;
    // The config, and beside it what config check found in the filter rules.
    const { filter_rules: _, ...resolved } = JSON.parse(r.stdout);
    expect(resolved).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(r.stderr).toBe(`zeph: warning: ${file}: unknown key "agent.colour" ignored\n`);
  });
});

Deno.test("the XDG location is read; the header names the file and the variables", async () => {
  await withWorkspace(async (ws, home) => {
    const dir = path.join(home, ".config", "zeph");
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(path.join(dir, "config.toml"), '[llm]\nprovider = "claude"\n');
    const r = await zeph(["config", "check"], {
      cwd: ws,
      home,
      env: { ZEPH_LLM_MODEL: "claude-x" },
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(
      `# Resolved from ${path.join(dir, "config.toml")} + ZEPH_LLM_MODEL`,
    );
    const printed = parse(r.stdout) as { llm: { provider: string; claude: { model: string } } };
    expect([printed.llm.provider, printed.llm.claude.model]).toEqual(["claude", "claude-x"]);
  });
});

Deno.test("errors exit 2 and name the file, line and column, or the key, or the variable", async () => {
  await withWorkspace(async (ws, home) => {
    const syntax = path.join(home, "syntax.toml");
    await Deno.writeTextFile(syntax, "[agent]\nmax_tool_iterations = \n");
    const types = path.join(home, "types.toml");
    await Deno.writeTextFile(types, '[tools.file]\nmax_read_lines = "many"\n');
    const missing = path.join(home, "missing.toml");
    const zero = path.join(home, "zero.toml");
    await Deno.symlink("/dev/zero", zero);
    const fifo = path.join(home, "fifo.toml");
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const huge = path.join(home, "huge.toml");
    await Deno.writeTextFile(huge, "[llm]\ntimeout = 99999999999999999999\n");
    const deep = path.join(home, "deep.toml");
    await Deno.writeTextFile(deep, `${Array(5000).fill("k").join(".")} = 1\n`);
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ["--config", syntax],
        {},
        new RegExp(
          `^zeph: Invalid configuration: ${syntax}:2:\\d+: agent\\.max_tool_iterations: TOML syntax error: `,
        ),
      ],
      [
        ["--config", types],
        {},
        new RegExp(
          `^zeph: Invalid configuration: ${types}: tools\\.file\\.max_read_lines: expected a number, found a string "many"\\n$`,
        ),
      ],
      [
        ["--config", missing],
        {},
        new RegExp(
          `^zeph: Invalid configuration: ${missing}: the config file does not exist \\(given by --config\\)`,
        ),
      ],
      [[], { ZEPH_CONFIG: missing }, /given by ZEPH_CONFIG/],
      [
        ["--config", zero],
        {},
        new RegExp(
          `^zeph: Invalid configuration: ${zero}: cannot read it: it is a character device`,
        ),
      ],
      [
        ["--config", fifo],
        {},
        new RegExp(`^zeph: Invalid configuration: ${fifo}: cannot read it: it is a FIFO`),
      ],
      [
        ["--config", huge],
        {},
        new RegExp(
          `^zeph: Invalid configuration: ${huge}:2:\\d+: llm\\.timeout: integer out of range`,
        ),
      ],
      [
        ["--config", deep],
        {},
        new RegExp(
          `^zeph: Invalid configuration: ${deep}: k\\.k\\.k.*: tables nested more than 32 deep`,
        ),
      ],
      [
        [],
        { ZEPH_LLM_PROVIDER: "constructor", ZEPH_LLM_MODEL: "m" },
        /^zeph: Invalid configuration: ZEPH_LLM_PROVIDER: llm\.provider: expected one of/,
      ],
      [
        [],
        { ZEPH_AGENT_MAX_TOOL_ITERATIONS: "lots" },
        new RegExp(
          '^zeph: Invalid configuration: ZEPH_AGENT_MAX_TOOL_ITERATIONS: agent\\.max_tool_iterations: expected an integer, found "lots"\\n$',
        ),
      ],
    ];
    for (const [args, env, pattern] of cases) {
      const r = await zeph(["config", "check", ...args], { cwd: ws, home, env });
      expect([args, env, r.code, r.stdout]).toEqual([args, env, 2, ""]);
      expect(r.stderr).toMatch(pattern);
    }
  });
});

Deno.test("a permission section for a misspelt tool is a warning, not silence", async () => {
  await withWorkspace(async (ws, home) => {
    const file = path.join(home, "c.toml");
    await Deno.writeTextFile(
      file,
      '[[tools.permissions.raed]]\npattern = "*.env"\naction = "deny"\n',
    );
    const r = await zeph(["config", "check", "--config", file], { cwd: ws, home });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^zeph: warning: \[tools\.permissions\.raed\] names no tool, its rules apply to nothing \(did you mean "read"\?\)\. Tools: bash, read, /,
    );
  });
});

Deno.test("config check warns about shadowed rules and sidestepped deny globs, exit 0", async () => {
  await withWorkspace(async (ws, home) => {
    const file = path.join(home, "c.toml");
    await Deno.writeTextFile(
      file,
      '[tools.permissions]\nautonomy = "readonly"\n\n' +
        '[[tools.permissions.bash]]\npattern = "git *"\naction = "allow"\n\n' +
        '[[tools.permissions.bash]]\npattern = "git push*"\naction = "deny"\n\n' +
        '[[tools.permissions.bash]]\npattern = "rm -rf*"\naction = "deny"\n',
    );
    const r = await zeph(["config", "check", "--json", "--config", file], { cwd: ws, home });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).tools.permissions.autonomy).toBe("readonly");
    const heads = r.stderr.split("\n").filter(Boolean).map((l) => l.split(/ never| can/)[0]);
    expect(heads).toEqual([
      'zeph: warning: [tools.permissions.bash][1] deny "git push*"',
      'zeph: warning: [tools.permissions.bash][2] deny "rm -rf*"',
    ]);
    expect(r.stderr).toContain('"rm -fr*", "rm -r -f*", "rm --recursive --force*"');
  });
});

/** A rule the loader refuses (`max_results` acts only with `results`), its strategy on line 4. */
const REFUSED_RULE = '[[rules]]\nname = "mine"\nmatch = { prefix = "mytool" }\n' +
  "strategy = { type = \"strip_noise\", patterns = ['^x'], max_results = 3 }\n";

/** `fn` in a workspace whose home holds an empty config file and a filters.toml of `text`. */
async function withFiltersFile(
  text: string,
  fn: (ws: string, home: string, files: { config: string; filters: string }) => Promise<void>,
): Promise<void> {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(config, "");
    const filters = path.join(home, "filters.toml");
    await Deno.writeTextFile(filters, text);
    await fn(ws, home, { config, filters });
  });
}

// A skipped rule is a mistake in a file the user wrote, and the commands it was for run unfiltered
// (or filtered by a built-in the user meant to replace): config check fails (exit 2), so CI that
// runs it sees the rule, its file, line and key and the fix, and the config still prints.
Deno.test("a filters.toml rule refused at load fails config check (exit 2), naming the rule, key and fix", async () => {
  await withFiltersFile(REFUSED_RULE, async (ws, home, { config, filters }) => {
    const r = await zeph(["config", "check", "--config", config], { cwd: ws, home });
    expect([r.code, r.stderr]).toEqual([
      2,
      `zeph: error: ${filters}:4: rule "mine" skipped: strategy.max_results: acts only with results (the regexes of per-item result lines), which is not set; set results or remove max_results.\n` +
      `zeph: error: 1 filter rule error above: a skipped rule's commands are filtered by the built-in rules only. Fix it, or switch the rule off with enabled = false.\n`,
    ]);
    // The summary does not say the file has no rules: it says they were skipped.
    expect(r.stdout.split("\n")[2]).toBe(
      `# Filter rules: ${BUILTINS} built-in, none of yours (${filters}: 1 skipped, see the errors)`,
    );
    // A filters.toml that does not parse: every rule in it is skipped.
    await Deno.writeTextFile(filters, '[[rules]]\nname = "mine\n');
    const broken = await zeph(["config", "check", "--config", config], { cwd: ws, home });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(new RegExp(`^zeph: error: Cannot load ${filters}: invalid TOML`));
  });
});

Deno.test("config check --json carries the filter rules' summary, errors and warnings", async () => {
  await withFiltersFile(`colour = 1\n${REFUSED_RULE}`, async (ws, home, { config, filters }) => {
    const r = await zeph(["config", "check", "--json", "--config", config], { cwd: ws, home });
    expect(r.code).toBe(2);
    const { filter_rules } = JSON.parse(r.stdout);
    expect(filter_rules.summary).toBe(
      `Filter rules: ${BUILTINS} built-in, none of yours (${filters}: 1 skipped, see the errors)`,
    );
    expect(filter_rules.errors).toEqual([
      `${filters}:5: rule "mine" skipped: strategy.max_results: acts only with results (the regexes of per-item result lines), which is not set; set results or remove max_results.`,
    ]);
    expect(filter_rules.warnings).toEqual([
      `${filters}: unknown top-level key "colour" ignored; a filters file holds only [[rules]] tables.`,
    ]);
    const clean = await zeph(["config", "check", "--json"], { cwd: ws, home: ws });
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout).filter_rules).toMatchObject({ errors: [], warnings: [] });
  });
});
