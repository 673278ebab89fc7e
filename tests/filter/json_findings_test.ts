/**
 * JSON reporters rendered as text: the input is JSON, so there are no lines "as printed" to keep;
 * each finding the built-in rule renders carries its file, its line (and column where the tool
 * has one), its rule and its message as the JSON string holds it — spaces, quotes and line
 * breaks included — so a fact copied from the report's strings is found in the output.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { audit } from "../../bench/rewrites.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });

/** The lines the named rule's stage emits for `doc` (later rules may group them further). */
/** A rule's output for a document on one line (a pretty one keeps its lines: json_test.ts). */
function rendered(command: string, rule: string, doc: unknown): string[] {
  const text = typeof doc === "string" ? doc : JSON.stringify(doc);
  const stage = engine.trace(command, text, { failed: true }).find((s) => s.name === rule);
  if (!stage) throw new Error(`rule ${rule} did not run for ${command}`);
  return stage.output;
}

/** A message with what a rewrite would lose: two spaces, quotes, a backtick, a second line. */
const TRICKY = 'Argument of type "str"  is not `int`\n  "str" is incompatible with "int"';

interface Case {
  rule: string;
  command: string;
  doc: unknown;
  /** Each finding: the texts that must all be on the finding's first line. */
  findings: string[][];
  /** The message's later lines, each a line of the output after its first line. */
  after?: string[];
}

const cases: Case[] = [
  {
    rule: "ruff-json",
    command: "ruff check --output-format=json .",
    doc: [
      {
        code: "F401",
        filename: "/src/app/main.py",
        location: { row: 3, column: 8 },
        end_location: { row: 3, column: 10 },
        message: "`os`  imported but unused",
        url: "https://docs.astral.sh/ruff/rules/unused-import",
      },
      {
        code: "E722",
        filename: "/src/app/util.py",
        location: { row: 10, column: 5 },
        message: TRICKY,
      },
    ],
    findings: [
      ["/src/app/main.py", ":3:8", "F401", "`os`  imported but unused"],
      ["/src/app/util.py", ":10:5", "E722", 'Argument of type "str"  is not `int`'],
    ],
    after: ['"str" is incompatible with "int"'],
  },
  {
    rule: "pylint-json",
    command: "pylint --output-format=json inventory",
    doc: [
      {
        type: "convention",
        module: "inventory.typed",
        obj: "",
        line: 1,
        column: 0,
        path: "inventory/typed.py",
        symbol: "missing-module-docstring",
        message: "Missing module docstring",
        "message-id": "C0114",
      },
      {
        type: "error",
        module: "inventory.store",
        obj: "load",
        line: 12,
        column: 4,
        path: "inventory/store.py",
        symbol: "no-member",
        message: TRICKY,
        "message-id": "E1101",
      },
    ],
    findings: [
      [
        "inventory/typed.py",
        ":1:0",
        "C0114",
        "missing-module-docstring",
        "Missing module docstring",
      ],
      ["inventory/store.py", ":12:4", "E1101", 'Argument of type "str"  is not `int`'],
    ],
    after: ['"str" is incompatible with "int"', "no-member"],
  },
  {
    rule: "pyright-json",
    command: "pyright --outputjson shop",
    doc: {
      version: "1.1.400",
      time: "1700000000000",
      generalDiagnostics: [{
        file: "/w/shop/cart.py",
        severity: "error",
        message: TRICKY,
        range: { start: { line: 25, character: 30 }, end: { line: 25, character: 33 } },
        rule: "reportArgumentType",
      }, {
        file: "/w/shop/tax.py",
        severity: "warning",
        message: 'Import "yaml" could not be resolved',
        range: { start: { line: 0, character: 7 }, end: { line: 0, character: 11 } },
        rule: "reportMissingModuleSource",
      }],
      summary: { filesAnalyzed: 2, errorCount: 1, warningCount: 1 },
    },
    findings: [
      ["/w/shop/cart.py", ":26:31", "error", 'Argument of type "str"  is not `int`'],
      [
        "/w/shop/tax.py",
        ":1:8",
        "reportMissingModuleSource",
        'Import "yaml" could not be resolved',
      ],
    ],
    after: ['"str" is incompatible with "int"', "reportArgumentType"],
  },
  {
    rule: "golangci-lint-json",
    command: "golangci-lint run --out-format=json ./...",
    doc: {
      Issues: [
        {
          FromLinter: "errcheck",
          Text: "Error return value of `rows.Close` is not checked",
          Severity: "",
          SourceLines: ["\tdefer rows.Close()"],
          Pos: { Filename: "internal/store/db.go", Offset: 812, Line: 42, Column: 12 },
        },
        {
          FromLinter: "ineffassign",
          Text: "ineffectual assignment to err",
          SourceLines: ["\terr = nil"],
          Pos: { Filename: "internal/store/db.go", Offset: 900, Line: 47, Column: 2 },
        },
      ],
      Report: { Linters: [{ Name: "errcheck", Enabled: true }] },
    },
    // Two findings of one file: each still names it.
    findings: [
      ["internal/store/db.go", ":42:12", "errcheck", "Error return value of `rows.Close` is not"],
      ["internal/store/db.go", ":47:2", "ineffassign", "ineffectual assignment to err"],
    ],
  },
  {
    rule: "rubocop-json",
    command: "bundle exec rubocop --format json",
    doc: {
      metadata: { rubocop_version: "1.60.0" },
      files: [{
        path: "lib/shop/cart.rb",
        offenses: [{
          severity: "convention",
          message: "Style/StringLiterals: Prefer single-quoted strings when you don't need  it.",
          cop_name: "Style/StringLiterals",
          corrected: false,
          location: { start_line: 7, start_column: 12, last_line: 7, last_column: 18, line: 7 },
        }, {
          severity: "warning",
          message: "Lint/UselessAssignment: Useless assignment to variable - `total`.",
          cop_name: "Lint/UselessAssignment",
          location: { start_line: 9, start_column: 5, line: 9, column: 5 },
        }],
      }, { path: "lib/shop.rb", offenses: [] }],
      summary: { offense_count: 2, target_file_count: 2, inspected_file_count: 2 },
    },
    findings: [
      [
        "lib/shop/cart.rb",
        ":7:12",
        "Style/StringLiterals",
        "Prefer single-quoted strings when you don't need  it.",
      ],
      ["lib/shop/cart.rb", ":9:5", "Lint/UselessAssignment", "Useless assignment to variable"],
    ],
  },
  {
    rule: "rspec-json",
    command: "bundle exec rspec --format json",
    doc: {
      version: "3.13.0",
      examples: [{
        id: "./spec/cart_spec.rb[1:1]",
        description: "adds an item",
        full_description: "Shop::Cart#add adds an item",
        status: "passed",
        file_path: "./spec/cart_spec.rb",
        line_number: 5,
      }, {
        id: "./spec/cart_spec.rb[1:2]",
        description: "rejects a negative price",
        full_description: "Shop::Cart#add rejects a negative price",
        status: "failed",
        file_path: "./spec/cart_spec.rb",
        line_number: 17,
        exception: {
          class: "RSpec::Expectations::ExpectationNotMetError",
          message: "\nexpected ArgumentError but nothing was raised",
          backtrace: ["./spec/cart_spec.rb:18:in `block (3 levels) in <top (required)>'"],
        },
      }],
      summary: { duration: 0.01, example_count: 2, failure_count: 1 },
      summary_line: "2 examples, 1 failure",
    },
    // rspec has no column and no rule: the example's line and the exception class stand for them.
    findings: [[
      "./spec/cart_spec.rb:17",
      "Shop::Cart#add rejects a negative price",
      "RSpec::Expectations::ExpectationNotMetError",
    ]],
    after: ["expected ArgumentError but nothing was raised"],
  },
];

Deno.test("JSON reporters: each finding carries its file, line:col, rule and message as the JSON holds it", () => {
  for (const c of cases) {
    const out = rendered(c.command, c.rule, c.doc);
    for (const facts of c.findings) {
      const line = out.find((l) => facts.every((f) => l.includes(f)));
      expect({ rule: c.rule, facts, line }).toEqual({
        rule: c.rule,
        facts,
        line: expect.any(String),
      });
    }
    for (const text of c.after ?? []) {
      expect({ rule: c.rule, text, found: out.some((l) => l.includes(text)) }).toEqual({
        rule: c.rule,
        text,
        found: true,
      });
    }
  }
});

Deno.test("JSON reporters: a field that is absent leaves no double blank, a message's own spaces stay", () => {
  const out = rendered("ruff check --output-format=json .", "ruff-json", [
    { filename: "a.py", location: { row: 1, column: 1 }, message: "x  y" },
  ]);
  // No code: the template's blank closes up; the message's two spaces are the report's.
  expect(out[0]).toBe("a.py:1:1 x  y");
});

Deno.test("the rewrites audit counts the JSON reporters' lines as rendered from JSON, none rewritten but their summaries", async () => {
  const { findings, runs } = await audit();
  const rules = cases.map((c) => c.rule);
  for (const rule of rules) expect(runs.get(rule) ?? 0).toBeGreaterThan(0);
  const ofRules = findings.filter((f) => rules.includes(f.rule));
  expect(ofRules.filter((f) => f.kind === "json").length).toBeGreaterThan(0);
  // The count lines after the findings (`pylint: 12 messages`) are the only lines without a
  // string of the JSON.
  const rewritten = ofRules.filter((f) => f.kind === "rewritten");
  expect(rewritten.filter((f) => !/^(\S+: )?\d+ \w+|^\d+ examples?,/.test(f.line))).toEqual([]);
});

/**
 * The built-in rules with `printed = true` on every json strategy (a copy of filters/ with that
 * option added): what a user who wants a report's lines as printed sets.
 */
const printedEngine = await (async () => {
  const dir = await Deno.makeTempDir();
  const builtin = new URL("../../filters/", import.meta.url);
  for await (const entry of Deno.readDir(builtin)) {
    if (!entry.name.endsWith(".toml")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, builtin));
    await Deno.writeTextFile(
      `${dir}/${entry.name}`,
      text.replaceAll('{ type = "json"', '{ type = "json", printed = true'),
    );
  }
  const loaded = await loadFilterEngine(defaultConfig(), { configDir: null, builtinDir: dir });
  await Deno.remove(dir, { recursive: true });
  return loaded.engine;
})();

/** The whole output of the built-in rules, each json strategy with `printed = true`. */
function filtered(command: string, text: string): string[] {
  return printedEngine.filter(command, text, { failed: true }).text.split("\n");
}

Deno.test("by default a rule renders a pretty-printed report: one line per finding, shorter than the document's", () => {
  const doc = JSON.stringify(
    {
      files: [
        { path: "lib/a.rb", offenses: [] },
        {
          path: "lib/b.rb",
          offenses: [{
            severity: "warning",
            message: "Lint/UselessAssignment: Useless assignment to variable - `x`.",
            cop_name: "Lint/UselessAssignment",
            location: { start_line: 3, start_column: 5 },
          }],
        },
      ],
      summary: { offense_count: 1, inspected_file_count: 2 },
    },
    null,
    2,
  );
  const out = engine.filter("rubocop --format json lib | jq .", doc, { failed: true }).text;
  expect(out.split("\n")[0]).toBe(
    "lib/b.rb:3:5: warning: Lint/UselessAssignment: Lint/UselessAssignment: Useless assignment to variable - `x`.",
  );
  expect(out.length).toBeLessThan(doc.length / 2);
  // With `printed = true` the lines of the same finding stay as printed.
  expect(filtered("rubocop --format json lib | jq .", doc)).toContain(
    '          "cop_name": "Lint/UselessAssignment",',
  );
});

Deno.test("a pretty-printed report (`| jq .`) keeps its failing findings' and summary's lines as printed", () => {
  const example = (n: number, status: string, extra: Record<string, unknown> = {}) => ({
    id: `./spec/calc_spec.rb[1:${n}]`,
    description: `case ${n}`,
    full_description: `Calc case ${n}`,
    status,
    file_path: "./spec/calc_spec.rb",
    line_number: n + 3,
    run_time: 0.0004,
    pending_message: null,
    ...extra,
  });
  const frames = [
    ...Array.from(
      { length: 9 },
      (_, i) =>
        `/usr/share/rubygems-integration/all/gems/rspec-core-3.12.0/lib/rspec/core/x${i}.rb:1:in \`run'`,
    ),
    "/tmp/p/spec/calc_spec.rb:6:in `block (2 levels) in <top (required)>'",
    "/usr/bin/rspec:4:in `<main>'",
  ];
  const rspec = JSON.stringify(
    {
      version: "3.12.0",
      examples: [
        example(1, "passed"),
        example(2, "failed", {
          exception: {
            class: "RSpec::Expectations::ExpectationNotMetError",
            message: "\nexpected: 5\n     got: 4\n\n(compared using ==)\n",
            backtrace: frames,
          },
        }),
        ...[3, 4, 5, 6].map((n) => example(n, "passed")),
      ],
      summary: { duration: 0.03, example_count: 6, failure_count: 1, pending_count: 0 },
      summary_line: "6 examples, 1 failure",
    },
    null,
    2,
  );
  const input = rspec.split("\n");
  const out = filtered("rspec --format json | jq .", rspec);
  for (
    const kept of [
      '      "full_description": "Calc case 2",',
      '      "status": "failed",',
      '      "file_path": "./spec/calc_spec.rb",',
      '      "line_number": 5,',
      '        "class": "RSpec::Expectations::ExpectationNotMetError",',
      '        "message": "\\nexpected: 5\\n     got: 4\\n\\n(compared using ==)\\n",',
      `          "${frames[0]}",`,
      `          "${frames[9]}",`,
      '    "failure_count": 1,',
      '  "summary_line": "6 examples, 1 failure"',
    ]
  ) {
    expect({ kept, input: input.includes(kept), output: out.includes(kept) })
      .toEqual({ kept, input: true, output: true });
  }
  // Every line but the counts is a line of the input; the passing examples and library frames go.
  expect(out.filter((l) => !input.includes(l))).toEqual([
    "(8 more lines not shown)",
    "(5 passing items not shown)",
  ]);
  expect(out.some((l) => l.includes("Calc case 3"))).toBe(false);
  expect(out.some((l) => l.includes("run_time"))).toBe(false);

  // rubocop's offenses through files.offenses: a file's path with its offenses, clean files counted.
  const offense = (line: number, cop: string, message: string) => ({
    severity: "convention",
    message,
    cop_name: cop,
    corrected: false,
    correctable: false,
    location: {
      start_line: line,
      start_column: 1,
      last_line: line,
      last_column: 9,
      length: 9,
      line,
      column: 1,
    },
  });
  const rubocop = JSON.stringify(
    {
      metadata: { rubocop_version: "1.39.0", ruby_engine: "ruby" },
      files: [
        { path: "lib/a.rb", offenses: [] },
        {
          path: "lib/calc.rb",
          offenses: [offense(2, "Layout/SpaceAfterComma", "Space missing after comma.")],
        },
        { path: "lib/b.rb", offenses: [] },
      ],
      summary: { offense_count: 1, target_file_count: 3, inspected_file_count: 3 },
    },
    null,
    2,
  );
  const rubo = filtered("rubocop --format json lib | jq .", rubocop);
  const printed = rubocop.split("\n");
  expect(rubo.filter((l) => !printed.includes(l))).toEqual(["(2 passing items not shown)"]);
  for (
    const kept of [
      '      "path": "lib/calc.rb",',
      '          "message": "Space missing after comma.",',
      '          "cop_name": "Layout/SpaceAfterComma",',
      '    "offense_count": 1,',
    ]
  ) expect({ kept, found: rubo.includes(kept) }).toEqual({ kept, found: true });
  expect(rubo.some((l) => l.includes("lib/a.rb") || l.includes("rubocop_version"))).toBe(false);
});

Deno.test("a pretty-printed document without findings (eslint -f json, npm audit --json) keeps its lines as printed", () => {
  const file = (path: string, messages: unknown[]) => ({
    filePath: path,
    messages,
    errorCount: messages.length,
    warningCount: 0,
    source: messages.length ? "let x = 1;\nlet y = 2;" : undefined,
  });
  const eslint = JSON.stringify(
    [
      file("/p/a.js", []),
      file("/p/bad.js", [{
        ruleId: "no-undef",
        severity: 2,
        message: "'q' is not defined.",
        line: 6,
        column: 3,
      }]),
      file("/p/b.js", []),
    ],
    null,
    2,
  );
  const out = filtered("npx eslint -f json . | jq .", eslint);
  const printed = eslint.split("\n");
  expect(out.filter((l) => !printed.includes(l))).toEqual(["(2 passing items not shown)"]);
  expect(out).toContain('    "filePath": "/p/bad.js",');
  expect(out).toContain('        "message": "\'q\' is not defined.",');
  expect(out.some((l) => l.includes("let x") || l.includes("/p/a.js"))).toBe(false);
  // On one line the same document is rendered: no line of it could stay.
  const compact = filtered("npx eslint -f json .", JSON.stringify(JSON.parse(eslint)));
  expect(compact[0]).toContain('"filePath":"/p/bad.js"');
});
