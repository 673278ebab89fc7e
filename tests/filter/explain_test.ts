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
