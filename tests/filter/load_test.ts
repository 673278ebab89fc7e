import { expect } from "expect";
import { Config, defaultConfig } from "../../src/config/schema.ts";
import {
  loadBuiltinRules,
  loadFilterEngine,
  MAX_FILTERS_FILE_BYTES,
  mergeUserRules,
} from "../../src/filter/mod.ts";
import { ruleHeaderLines } from "../../src/filter/load.ts";

async function withUserFile(
  toml: string | Uint8Array,
  run: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "zeph-filters-" });
  try {
    const path = `${dir}/filters.toml`;
    if (typeof toml === "string") await Deno.writeTextFile(path, toml);
    else await Deno.writeFile(path, toml);
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("user rules override built-ins by name, disable them, and add new ones", async () => {
  const toml = `
[[rules]]
name = "git-log"
match = { prefix = "git log" }
strategy = { type = "truncate", max_lines = 3, head = 1, tail = 1 }

[[rules]]
name = "ls"
enabled = false

[[rules]]
name = "my-tool"
match = { exact = "my-tool --check" }
strategy = { type = "keep_matching", patterns = ['^RESULT'] }
`;
  await withUserFile(toml, async (dir) => {
    const { engine, warnings } = await loadFilterEngine(defaultConfig(), { configDir: dir });
    expect(warnings).toEqual([]);
    const names = engine.rules.map((r) => r.name);
    expect(names.includes("ls")).toBe(false);
    expect(names.at(-1)).toBe("my-tool");
    // Replaced in place: same position as the built-in.
    expect(engine.rules.find((r) => r.name === "git-log")!.source).toBe(`${dir}/filters.toml`);
    const log = [1, 2, 3, 4, 5].map((n) => `commit ${n} with a long enough subject line`);
    expect(engine.filter("git log", log.join("\n")).text).toBe(
      `${log[0]}\n... (3 lines omitted) ...\n${log[4]}`,
    );
    expect(engine.filter("my-tool --check", "noise\nRESULT ok").text).toBe("RESULT ok");
    expect(engine.match("ls src")).toEqual([]);
  });
});

Deno.test("invalid rules are skipped with a warning naming rule, field and reason", async () => {
  const toml = `
[[rules]]
name = "bad-regex"
match = { regex = "(unclosed" }
strategy = { type = "git_status" }

[[rules]]
name = "two-matchers"
match = { prefix = "a", exact = "b" }
strategy = { type = "git_status" }

[[rules]]
name = "bad-pattern"
match = { prefix = "x" }
strategy = { type = "strip_noise", patterns = ["ok", "${"a".repeat(513)}"] }

[[rules]]
name = "bad-type"
match = { prefix = "x" }
strategy = { type = "summarise" }

[[rules]]
name = "bad-truncate"
match = { prefix = "x" }
strategy = { type = "truncate", max_lines = 5, head = 4, tail = 4 }

[[rules]]
name = "good"
match = { prefix = "good" }
strategy = { type = "strip_noise", patterns = ["^x"] }
`;
  await withUserFile(toml, async (dir) => {
    const { engine, warnings } = await loadFilterEngine(defaultConfig(), { configDir: dir });
    const file = `${dir}/filters.toml`;
    expect(warnings).toEqual([
      `${file}:4: rule "bad-regex" skipped: match.regex: invalid RE2 regex: error parsing regexp: missing closing ): \`(unclosed\`.`,
      `${file}:9: rule "two-matchers" skipped: match: set exactly one of exact, prefix or regex; found exact and prefix: split them into two rules or keep one.`,
      `${file}:15: rule "bad-pattern" skipped: strategy.patterns[1]: the pattern is 513 characters long; the limit is 512.`,
      `${file}:20: rule "bad-type" skipped: strategy.type: unknown strategy type "summarise"; use one of strip_noise, truncate, keep_matching, strip_annotated, test_summary, group_by_rule, git_status, git_diff, dedup, group_paths, git_log, json, fold_blocks, code_frames, group_by_file, join_runs, largest, git_transfer, join_leaves, syscall_trace, fold_records, fold_passed, fold_samples.`,
      `${file}:25: rule "bad-truncate" skipped: strategy.head: head + tail must not exceed max_lines.`,
    ]);
    expect(engine.rules.at(-1)!.name).toBe("good");
  });
});

Deno.test("a built-in pattern V8 could backtrack on is refused at load; the same in a user file runs on re2js", async () => {
  const toml = `
[[rules]]
name = "nested"
match = { prefix = "x" }
strategy = { type = "strip_noise", patterns = ['^ok', '^(a+)+$'] }

[[rules]]
name = "linear"
match = { prefix = "y" }
strategy = { type = "strip_noise", patterns = ['^\\s*Compiling '] }
`;
  await withUserFile(toml, async (dir) => {
    const warnings: string[] = [];
    const builtin = await loadBuiltinRules(dir, warnings);
    expect([builtin.map((r) => r.name), warnings]).toEqual([["linear"], [
      `built-in filters/filters.toml:5: rule "nested" skipped: strategy.patterns[1]: a built-in pattern must run on V8 in linear time: a repeat over a group.`,
    ]]);
    const user = await loadFilterEngine(defaultConfig(), { configDir: dir });
    expect(user.warnings).toEqual([]);
    const nested = user.engine.rules.find((r) => r.name === "nested")!;
    expect(nested.source).toBe(`${dir}/filters.toml`);
    const out = user.engine.filter("x", `${"a".repeat(50_000)}!\naaa\nok\nkeep`);
    // The long line the rule kept is cut in the middle by the generic folds after it.
    expect(out.text).toMatch(/^a{500} …\[\d+ chars cut\]… a{249}!\nkeep$/);
  });
});

Deno.test("a file over 1 MiB is rejected and the built-ins are kept", async () => {
  const big = new TextEncoder().encode("# " + "x".repeat(MAX_FILTERS_FILE_BYTES));
  await withUserFile(big, async (dir) => {
    const { engine, warnings } = await loadFilterEngine(defaultConfig(), { configDir: dir });
    expect(warnings).toEqual([
      `Cannot read filters file "${dir}/filters.toml": ${big.length} bytes, larger than the 1 MiB limit. Use a smaller file. Using the built-in rules only.`,
    ]);
    expect(engine.rules.some((r) => r.name === "cargo-test")).toBe(true);
  });
});

Deno.test("invalid TOML keeps the built-ins and says where", async () => {
  await withUserFile("[[rules]]\nname = \n", async (dir) => {
    const { engine, warnings } = await loadFilterEngine(defaultConfig(), { configDir: dir });
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^Cannot load ${dir}/filters.toml: invalid TOML at line 2, column \\d+: `),
    );
    expect(engine.rules.length).toBeGreaterThan(25);
  });
});

Deno.test("filters_path: explicit file, directory, missing; master and security switches", async () => {
  await withUserFile('[[rules]]\nname = "ls"\nenabled = false\n', async (dir) => {
    const config = (patch: Record<string, unknown>) => Config.parse({ tools: { filters: patch } });
    const byFile = await loadFilterEngine(config({ filters_path: `${dir}/filters.toml` }), {
      configDir: "/nonexistent",
    });
    const byDir = await loadFilterEngine(config({ filters_path: dir }), { configDir: null });
    expect([byFile.warnings, byDir.warnings]).toEqual([[], []]);
    expect(byFile.engine.match("ls")).toEqual([]);
    expect(byDir.engine.match("ls")).toEqual([]);
    const missing = await loadFilterEngine(config({ filters_path: `${dir}/nope.toml` }), {
      configDir: null,
    });
    expect(missing.warnings).toEqual([
      `Cannot read filters file "${dir}/nope.toml": not found. Using the built-in rules; fix [tools.filters] filters_path.`,
    ]);
    const off = await loadFilterEngine(
      config({ enabled: false, security: { enabled: false, extra_patterns: ["(x"] } }),
      { configDir: null },
    );
    expect([off.engine.enabled, off.engine.securityEnabled, off.warnings.length]).toEqual([
      false,
      false,
      1,
    ]);
  });
});

Deno.test("a filters path that is not a regular file is refused at once; the built-ins are kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "zeph-filters-" });
  try {
    const fifo = `${dir}/fifo.toml`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    const zero = `${dir}/zero.toml`;
    await Deno.symlink("/dev/zero", zero);
    const latin1 = `${dir}/latin1.toml`;
    await Deno.writeFile(latin1, new Uint8Array([0x23, 0xe9, 0x0a]));
    const cases: [string, string][] = [
      [fifo, `Cannot read filters file "${fifo}": it is a FIFO (named pipe), not a regular file.`],
      [zero, `Cannot read filters file "${zero}": it is a character device, not a regular file.`],
      [latin1, `Cannot read filters file "${latin1}": invalid UTF-8 at byte offset 1.`],
    ];
    for (const [file, message] of cases) {
      const config = Config.parse({ tools: { filters: { filters_path: file } } });
      const { engine, warnings } = await loadFilterEngine(config, { configDir: null });
      expect([file, warnings.length, warnings[0]]).toEqual([
        file,
        1,
        expect.stringContaining(message),
      ]);
      expect(engine.rules.some((r) => r.name === "cargo-test")).toBe(true);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ruleHeaderLines: each [[rules]] header's line; not inside multi-line strings", () => {
  const cases: [string, string, number[]][] = [
    ["plain", '[[rules]]\nname = "a"\n\n[[rules]]\nname = "b"\n', [1, 4]],
    ["crlf and comment", '[[rules]] # first\r\nname = "a"\r\n  [[ rules ]]\r\n', [1, 3]],
    ["in a multi-line string", '[[rules]]\nx = """\n[[rules]]\n"""\n[[rules]]\n', [1, 5]],
    ["in a literal string", "[[rules]]\nx = '''\n[[rules]]\n'''\n", [1]],
    ["inline array", 'rules = [{ name = "a" }]\n', []],
  ];
  for (const [name, text, lines] of cases) {
    expect([name, ruleHeaderLines(text)]).toEqual([name, lines]);
  }
});

Deno.test("a skipped rule's warning names the line its key at fault is written on", () => {
  const toml = [
    "# my rules",
    "",
    "[[rules]]",
    'name = "cppcheck"',
    'match = { prefix = "cppcheck" }',
    "",
    "[rules.strategy]",
    'type = "strip_noise"',
    "patterns = [",
    "  '^Checking ',",
    "  '^\\d+/\\d+ files (checked',",
    "]",
    "",
    "[[rules]]",
    'name = "chktex"',
    'match = { prefix = "chktex" }',
    "strategy = { type = \"strip_noise\", paterns = ['^ChkTeX v'] }",
    "",
    "[[rules]]",
    'name = "sqlfluff"',
    "[rules.match]",
    'prefix = "sqlfluff"',
  ].join("\n");
  const warnings: string[] = [];
  mergeUserRules([], toml, "D/filters.toml", warnings);
  expect(warnings).toEqual([
    // The entry of the list, not the rule's header (line 3) nor the list's key (line 9).
    'D/filters.toml:11: rule "cppcheck" skipped: strategy.patterns[1]: invalid RE2 regex: error parsing regexp: missing closing ): `^\\d+/\\d+ files (checked`.',
    'D/filters.toml:17: rule "chktex" skipped: strategy.paterns: unknown key "paterns"; did you mean "patterns"?',
    // A missing key is written nowhere: the rule's header.
    'D/filters.toml:19: rule "sqlfluff" skipped: strategy: missing; say what the rule does: strategy = { type = "strip_noise", patterns = [\'^DEBUG \'] }.',
  ]);
});
