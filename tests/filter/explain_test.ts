/** `zeph filter --explain`: which rule and stage removed or added which lines. */
import { expect } from "expect";
import { compileRule, explainFilter, FilterEngine } from "../../src/filter/mod.ts";

Deno.test("explain names each stage with the lines it removed and added", () => {
  const rules = [
    compileRule({
      name: "noise",
      match: { prefix: "tool" },
      strategy: { type: "strip_noise", patterns: ["^progress"] },
    }, "t"),
    compileRule({
      name: "logs",
      match: { prefix: "tool" },
      strategy: { type: "dedup", normalize_patterns: [] },
    }, "t"),
  ];
  const engine = new FilterEngine(rules, { security: false });
  const raw = "progress 1\nsame\n\n\n\nsame\nprogress 2\nsame\nerror: boom";
  expect(explainFilter(engine, "tool run", raw, { failed: true })).toEqual([
    "sanitize: 9 lines in, 7 out, 2 removed, 0 added (confidence full)",
    "  - ",
    "  - ",
    "rule noise (strip_noise): 7 lines in, 5 out, 2 removed, 0 added (confidence full)",
    "  - progress 1   [patterns[0] '^progress']",
    "  - progress 2   [patterns[0] '^progress']",
    "rule logs (dedup): 5 lines in, 4 out, 3 removed, 2 added (confidence full)",
    "  - same",
    "  - same",
    "  - same",
    "  + same (x3)",
    "  + (3 unique lines of 5)",
  ]);
});

Deno.test("explain shows the generic pass for a command no rule matches", () => {
  const engine = new FilterEngine([], { security: false });
  const lines = explainFilter(engine, "mytool", "a\na\na\nb");
  expect(lines[0]).toBe('no rule matches "mytool": the generic pass runs');
  expect(lines.slice(2)).toEqual([
    "generic: 4 lines in, 2 out, 3 removed, 1 added (confidence partial)",
    "  - a",
    "  - a",
    "  - a",
    "  + a (x3)",
  ]);
  const off = new FilterEngine([], { security: false, generic: false });
  expect(explainFilter(off, "mytool", "a")[0]).toBe(
    'no rule matches "mytool" and the generic pass is off',
  );
});

/** A user rule as the loader makes it: compiled, with its file and line. */
function userRule(raw: Record<string, unknown>, at: string, replaces?: string) {
  return { ...compileRule(raw, "/u/filters.toml"), at, ...(replaces ? { replaces } : {}) };
}

Deno.test("explain names the pattern that removed each line, the patterns that took nothing and the failures dropped", () => {
  const prove = userRule({
    name: "prove",
    match: { prefix: "prove" },
    strategy: { type: "strip_noise", patterns: ["^ok \\d+ ", "^#", "^NOPE"] },
  }, "/u/filters.toml:1");
  const engine = new FilterEngine([prove], { security: false, generic: false });
  const raw = "ok 1 - a\n#   Failed test 'b'\nnot ok 2 - b\nResult: FAIL";
  expect(explainFilter(engine, "prove -v t/", raw, { failed: true })).toEqual([
    "sanitize: 4 lines in, 4 out, 0 removed, 0 added (confidence full)",
    "rule prove (strip_noise; /u/filters.toml:1): 4 lines in, 2 out, 2 removed, 0 added (confidence full)",
    "  - ok 1 - a   [patterns[0] '^ok \\d+ ']",
    "  - #   Failed test 'b'   [patterns[1] '^#'; looks like a failure]",
    "  ! patterns[2] '^NOPE' matches no line of this output",
    "  ! 1 removed line reads as a failure: make sure the rule means to drop it",
  ]);
});

Deno.test("explain: keep_matching's removed lines, failed_patterns only on failure, a replaced built-in", () => {
  const keep = userRule(
    {
      name: "git-push",
      match: { prefix: "git push" },
      strategy: { type: "keep_matching", patterns: ["->"] },
    },
    "/u/filters.toml:5",
    "built-in filters/git.toml:40",
  );
  const engine = new FilterEngine([keep], { security: false, generic: false });
  expect(explainFilter(engine, "git push", "Counting objects: 3\n   a..b  main -> main")).toEqual([
    "sanitize: 2 lines in, 2 out, 0 removed, 0 added (confidence full)",
    "rule git-push (keep_matching; /u/filters.toml:5, replaces built-in filters/git.toml:40): 2 lines in, 1 out, 1 removed, 0 added (confidence full)",
    "  - Counting objects: 3   [matches no pattern]",
  ]);
  const build = userRule({
    name: "build",
    match: { prefix: "./build" },
    strategy: { type: "strip_noise", patterns: ["^DEBUG"], failed_patterns: ["^Built "] },
  }, "/u/filters.toml:9");
  const builds = new FilterEngine([build], { security: false, generic: false });
  const out = "DEBUG x\nBuilt lib\nerror: y";
  expect(explainFilter(builds, "./build", out, { failed: true }).slice(2)).toEqual([
    "  - DEBUG x   [patterns[0] '^DEBUG']",
    "  - Built lib   [failed_patterns[0] '^Built ']",
  ]);
  // On success failed_patterns do not run, so they are not reported as matching nothing either.
  expect(explainFilter(builds, "./build", out).slice(1)).toEqual([
    "rule build (strip_noise; /u/filters.toml:9): 3 lines in, 2 out, 1 removed, 0 added (confidence full)",
    "  - DEBUG x   [patterns[0] '^DEBUG']",
  ]);
});

Deno.test("explain: passed_patterns drop only on success, and are named for the lines they drop", () => {
  const run = userRule({
    name: "run",
    match: { prefix: "./run" },
    strategy: { type: "strip_noise", patterns: ["^DEBUG"], passed_patterns: ["^Tasks: "] },
  }, "/u/filters.toml:9");
  const engine = new FilterEngine([run], { security: false, generic: false });
  const out = "DEBUG x\nTasks: 1 successful, 2 total\nerror: y";
  expect(explainFilter(engine, "./run", out).slice(2)).toEqual([
    "  - DEBUG x   [patterns[0] '^DEBUG']",
    "  - Tasks: 1 successful, 2 total   [passed_patterns[0] '^Tasks: ']",
  ]);
  expect(engine.filter("./run", out, { failed: false }).text).not.toContain("Tasks:");
  expect(explainFilter(engine, "./run", out, { failed: true }).slice(2)).toEqual([
    "  - DEBUG x   [patterns[0] '^DEBUG']",
  ]);
  expect(engine.filter("./run", out, { failed: true }).text).toContain(
    "Tasks: 1 successful, 2 total",
  );
});

const RAW_BUILTIN = {
  name: "other",
  match: { prefix: "other" },
  strategy: { type: "strip_noise", patterns: ["^x"] },
};

Deno.test("explain lists the rules of yours that match neither the command nor its last segment", () => {
  const mine = userRule({
    name: "perl-prove",
    match: { prefix: "perl-prove" },
    strategy: { type: "strip_noise", patterns: ["^ok"] },
  }, "/u/filters.toml:1");
  // A built-in that does not match is not listed: there are a hundred of them.
  const builtin = {
    ...compileRule(RAW_BUILTIN, "built-in filters/x.toml"),
    at: "built-in filters/x.toml:1",
  };
  const engine = new FilterEngine([mine, builtin], { security: false });
  expect(explainFilter(engine, "cd t && prove -v 2>&1", "ok 1").slice(-2)).toEqual([
    'your rules that do not match "cd t && prove -v 2>&1" or "prove -v":',
    "  perl-prove: prefix 'perl-prove' (/u/filters.toml:1)",
  ]);
});

Deno.test("explain names what took a line for frame_marks and group_by_rule, and a line_pattern that matches nothing", () => {
  const chktex = userRule({
    name: "chktex",
    match: { prefix: "chktex" },
    strategy: { type: "strip_noise", patterns: ["^ChkTeX v"], frame_marks: ["^\\s*\\^+$"] },
  }, "/u/filters.toml:1");
  const frames = new FilterEngine([chktex], { security: false, generic: false });
  const tex = [
    "ChkTeX v1.7.8 - Copyright 1995-96 Jens T. Berger Thielemann.",
    "Warning 26 in paper.tex line 8: You ought to remove spaces in front of punctuation.",
    "Let $x=1$ , then $(a+b]$.",
    "         ^",
  ].join("\n");
  expect(explainFilter(frames, "chktex paper.tex", tex, { failed: true }).slice(2)).toEqual([
    "  - ChkTeX v1.7.8 - Copyright 1995-96 Jens T. Berger Thielemann.   [patterns[0] '^ChkTeX v']",
    "  - Let $x=1$ , then $(a+b]$.   [the code line above a frame_marks[0] '^\\s*\\^+$' mark]",
    "  -          ^   [frame_marks[0] '^\\s*\\^+$']",
  ]);

  const sqlfluff = userRule({
    name: "sqlfluff",
    match: { prefix: "sqlfluff" },
    strategy: {
      type: "group_by_rule",
      noise_patterns: ["^All Finished!$", "^NOPE"],
      file_pattern: "^== \\[(\\S+)\\] FAIL$",
      // Written for one space after `L:`; sqlfluff pads the line number.
      line_pattern: "^L: (?P<loc>\\d+ \\| P: \\d+) \\| (?P<rule>\\w+) \\| (?P<msg>.+)$",
    },
  }, "/u/filters.toml:5");
  const grouped = new FilterEngine([sqlfluff], { security: false, generic: false });
  const lint = [
    "== [sql/orders.sql] FAIL",
    "L:   2 | P:  13 | L011 | Implicit/explicit aliasing of table.",
    "All Finished!",
  ].join("\n");
  expect(explainFilter(grouped, "sqlfluff lint sql", lint, { failed: true }).slice(2)).toEqual([
    "  - == [sql/orders.sql] FAIL   [file_pattern '^== \\[(\\S+)\\] FAIL$': the file goes into its findings' locations; looks like a failure]",
    "  - All Finished!   [noise_patterns[0] '^All Finished!$']",
    "  ! noise_patterns[1] '^NOPE' matches no line of this output",
    "  ! line_pattern '^L: (?P<loc>\\d+ \\| P: \\d+) \\| (?P<rule>\\w+) \\| (?P<msg>.+)$' matches no line of this output",
    "  ! 1 removed line reads as a failure: make sure the rule means to drop it",
    "! the command failed and the rules left no line that reads as a failure: its 1 failure-looking line comes back after what they left",
  ]);
  expect(grouped.filter("sqlfluff lint sql", lint, { failed: true }).text.split("\n")).toEqual([
    "L:   2 | P:  13 | L011 | Implicit/explicit aliasing of table.",
    "== [sql/orders.sql] FAIL",
  ]);
});

Deno.test("explain says when every line went and the output's last lines come back instead", () => {
  const cppcheck = userRule({
    name: "cppcheck",
    match: { prefix: "cppcheck" },
    strategy: { type: "strip_noise", patterns: ["^Checking ", "files checked"] },
  }, "/u/filters.toml:1");
  const engine = new FilterEngine([cppcheck], { security: false, generic: false });
  const raw = "Checking a.c ...\n1/1 files checked 100% done";
  // The stage emits nothing, yet the output is the two lines: the explanation says why.
  expect(engine.filter("cppcheck a.c", raw).text).toBe(raw);
  expect(explainFilter(engine, "cppcheck a.c", raw).at(-1)).toBe(
    '! every line went, so the output is its last lines as they came (rules never empty an output); strip_noise\'s on_empty = "…" is the line a clean run shows instead',
  );
  // With on_empty set, nothing comes back and nothing is said.
  const quiet = userRule({
    name: "cppcheck",
    match: { prefix: "cppcheck" },
    strategy: { type: "strip_noise", patterns: ["^Checking ", "files checked"], on_empty: "ok" },
  }, "/u/filters.toml:1");
  const said = explainFilter(
    new FilterEngine([quiet], { security: false, generic: false }),
    "cppcheck a.c",
    raw,
  );
  expect(said.some((line) => line.startsWith("!"))).toBe(false);
});

Deno.test("explain says why a rule of yours nearly matching the command does not, and only when none of yours ran", () => {
  const exact = userRule({
    name: "cppcheck",
    match: { exact: "cppcheck" },
    strategy: { type: "strip_noise", patterns: ["^Checking "] },
  }, "/u/filters.toml:1");
  const prefix = userRule({
    name: "sqlfluff",
    match: { prefix: "sqlfluff" },
    strategy: { type: "strip_noise", patterns: ["PASS$"] },
  }, "/u/filters.toml:5");
  const engine = new FilterEngine([exact, prefix], { security: false });
  expect(explainFilter(engine, "cppcheck --enable=all src", "x").slice(-4)).toEqual([
    'your rules that do not match "cppcheck --enable=all src":',
    "  cppcheck: exact 'cppcheck' (/u/filters.toml:1)",
    '    exact compares the whole command, arguments too: prefix = "cppcheck" matches it with any',
    "  sqlfluff: prefix 'sqlfluff' (/u/filters.toml:5)",
  ]);
  expect(explainFilter(engine, "python3 -m sqlfluff lint sql", "x").slice(-1)).toEqual([
    "    prefix compares the command's start, and \"sqlfluff\" comes later in it: match = { regex = '\\bsqlfluff\\b' } finds it anywhere",
  ]);
  // sqlfluff's rule ran: the cppcheck rule is for another command, not a rule that failed to match.
  expect(explainFilter(engine, "sqlfluff lint sql", "x").join("\n")).not.toContain(
    "your rules that do not match",
  );
});

Deno.test("explain says when no line shows the results are an echo: none folds", () => {
  const rule = compileRule({
    name: "script",
    match: { prefix: "sqlite3" },
    strategy: {
      type: "strip_noise",
      patterns: ["^\\s*$"],
      results: ["^INSERT "],
      results_evidence: ["^\\.mode "],
      max_results: 1,
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, generic: false });
  const rows = "INSERT INTO t VALUES(1);\nINSERT INTO t VALUES(2);\nINSERT INTO t VALUES(3);";
  const said =
    "  ! results_evidence (1 pattern) matches no line of this output: the result lines stay as printed, none folds";
  expect(explainFilter(engine, "sqlite3 t.db", rows)).toContain(said);
  expect(explainFilter(engine, "sqlite3 t.db", `.mode insert t\n${rows}`)).not.toContain(said);
});
