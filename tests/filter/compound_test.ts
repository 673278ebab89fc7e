/**
 * Compound commands (`A && B`, `A; B`): each strategy that drops, folds or cuts lines it does not
 * know reads only its own part of the shared output (`owns`, `sharedStage`), and every strategy
 * file says how it treats the other commands' lines. Inputs are real captures.
 */
import { expect } from "expect";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { sharedStage } from "../../src/filter/strategies/mod.ts";
import type { CompiledStrategy, StageContext } from "../../src/filter/types.ts";
import { filter, fixture, lines } from "./_builtin.ts";

const STRATEGIES = new URL("../../src/filter/strategies/", import.meta.url);

/** Runs `strategy`'s shared stage over `input` with `shared`, returning what it emitted. */
function run(
  strategy: CompiledStrategy,
  input: string[],
  shared: StageContext["shared"],
): { out: string[]; confidence: string } {
  const out: string[] = [];
  const stage = sharedStage(strategy, { emit: (l) => void out.push(l), failed: true, shared });
  for (const line of input) stage.push(line);
  return { out, confidence: stage.finish() };
}

Deno.test("sharedStage: only the own part reaches the stage, the others' lines keep their places", () => {
  const seen: string[] = [];
  const strategy: CompiledStrategy = {
    type: "t",
    owns: (l) => l.startsWith("own"),
    createStage: (ctx) => ({
      push: (l) => void seen.push(l),
      finish: () => {
        ctx.emit(`(${seen.length} own lines)`);
        return "full";
      },
    }),
  };
  const input = ["a", "", "own 1", "  under", "own 2", "  under 2", "b", "", "c"];
  expect(run(strategy, input, { before: false, after: true })).toEqual({
    out: ["(6 own lines)", "b", "", "c"],
    confidence: "full",
  });
  seen.length = 0;
  expect(run(strategy, input, { before: true, after: false }).out).toEqual([
    "a",
    "",
    "(7 own lines)",
  ]);
  seen.length = 0;
  // No own line: everything is the other commands', as printed.
  expect(run(strategy, ["x", "y"], { before: false, after: true })).toEqual({
    out: ["x", "y"],
    confidence: "fallback",
  });
  // Without `shared` the stage reads everything.
  seen.length = 0;
  expect(run(strategy, input, undefined).out).toEqual(["(9 own lines)"]);
});

Deno.test("sharedStage: the inner stage hands its lines on whole in both branches, in their places", () => {
  // A summarising stage that emits its own part whole when the receiver takes arrays.
  const strategy: CompiledStrategy = {
    type: "t",
    owns: (l) => l.startsWith("own"),
    createStage: (ctx) => {
      const held: string[] = [];
      return {
        push: (l) => void held.push(l),
        finish: () => {
          if (ctx.emitAll) ctx.emitAll(held.map((l) => `whole ${l}`));
          else for (const l of held) ctx.emit(l);
          return "full";
        },
      };
    },
  };
  const input = ["a", "own 1", "own 2", "b"];
  for (
    const [shared, expected] of [
      [{ before: true, after: false }, ["a", "whole own 1", "whole own 2", "whole b"]],
      [{ before: false, after: true }, ["whole a", "whole own 1", "whole own 2", "b"]],
      [{ before: true, after: true }, ["a", "whole own 1", "whole own 2", "b"]],
    ] as const
  ) {
    const out: string[] = [];
    const stage = sharedStage(strategy, {
      emit: (l) => void out.push(l),
      emitAll: (lines) => void out.push(...lines),
      failed: true,
      shared,
    });
    for (const line of input) stage.push(line);
    stage.finish();
    expect(out).toEqual(expected);
  }
});

Deno.test("keep_matching: `git push && npm test` keeps the failing test's lines and counts", async () => {
  const input = await fixture("git-push/then_npm_test.in.txt");
  const out = lines(filter("git push origin HEAD:main && npm test", input, true));
  expect(out).toContain("   f1b3c3a..71ac4f1  HEAD -> main");
  expect(out).toContain("not ok 1 - adds");
  expect(out).toContain("    2 !== 3");
  expect(out).toContain("# tests 2");
  expect(out).toContain("# pass 1");
});

Deno.test("strip_noise: `cargo fmt --check ; cargo clippy` keeps clippy's indented location", async () => {
  // rustfmt's diff context lines (a leading space) go uncounted; clippy's ` --> ` line is no
  // context line of the diff, and its error's place stays under it.
  const input = await fixture("cargo-fmt-check/then_clippy.in.txt");
  const out = lines(filter("cargo fmt --check ; cargo clippy", input, true));
  expect(out).toContain("  --> src/main.rs:32:18");
  expect(out.indexOf("(120 changed lines of rustfmt's diff not shown: `cargo fmt` applies it)"))
    .toBeLessThan(out.indexOf("error[E0308]: mismatched types"));
});

Deno.test("git_diff: `git diff ; npm test` ends the diff where its last hunk's counted lines do", async () => {
  const input = await fixture("git-diff/then_npm_test.in.txt");
  const out = lines(filter("git diff ; npm test", input, true));
  const totals = out.indexOf("3 files changed, 701 insertions(+), 302 deletions(-)");
  expect(totals).toBeGreaterThan(0);
  // The test run's lines come after the diff's totals, as printed, not cut as hunk lines.
  expect(out.indexOf("not ok 1 - adds")).toBeGreaterThan(totals);
  expect(out).toContain("    2 !== 3");
  expect(out).toContain("# fail 1");
  expect(out).toContain("... (270 more lines in this hunk: +270 -0) ...");
});

Deno.test("git_diff: in `git diff ; npm test`, a file's `\\ No newline at end of file` after its last hunk does not end the diff", () => {
  // Real `git diff` of a file without a final newline, then another file's change.
  const diff = [
    "diff --git a/a.txt b/a.txt",
    "index 9ed40b4..530cc72 100644",
    "--- a/a.txt",
    "+++ b/a.txt",
    "@@ -1,2 +1,2 @@",
    " one",
    "-two",
    "\\ No newline at end of file",
    "+TWO",
    "\\ No newline at end of file",
    "diff --git a/b.txt b/b.txt",
    "index 7b5d34d..3927efa 100644",
    "--- a/b.txt",
    "+++ b/b.txt",
    "@@ -1,3 +1,3 @@",
    " 1",
    "-2",
    "+X2",
    " 3",
  ];
  const tests = ["not ok 1 - adds", "# tests 1", "# fail 1"];
  const out = lines(filter("git diff ; npm test", [...diff, ...tests].join("\n"), true));
  const totals = out.indexOf("2 files changed, 2 insertions(+), 2 deletions(-)");
  expect(totals).toBeGreaterThan(out.indexOf("+X2"));
  expect(out.indexOf("not ok 1 - adds")).toBeGreaterThan(totals);
  expect(out.filter((l) => l.endsWith(" changed, 1 insertions(+), 1 deletions(-)"))).toEqual([]);
});

Deno.test("git_diff: in `git show A B ; npm test`, the blank line before the second commit does not end the diff", () => {
  // Real `git show HEAD~1 HEAD` lines: a blank line between the first commit's last hunk and the
  // second commit's header.
  const commit = (hash: string, subject: string, from: string, to: string) => [
    `commit ${hash}`,
    "Author: x <x@y>",
    "Date:   Sat Nov 28 05:20:11 2026 +0000",
    "",
    `    ${subject}`,
    "",
    "diff --git a/b.txt b/b.txt",
    "index 7b5d34d..3927efa 100644",
    "--- a/b.txt",
    "+++ b/b.txt",
    "@@ -1,3 +1,3 @@",
    " 1",
    `-${from}`,
    `+${to}`,
    " 3",
  ];
  const input = [
    ...commit("91ac259f176befe217aae7b221d884ab22bcbacb", "second", "2", "X2"),
    "",
    ...commit("efd2bf2066ea8b3cf8144ba976cb48505f322445", "init", "two", "2"),
    "not ok 1 - adds",
    "# tests 1",
    "# fail 1",
  ];
  const out = lines(filter("git show HEAD~1 HEAD ; npm test", input.join("\n"), true));
  // One count of both commits' files, after the second commit's diff, before the test run.
  const totals = out.indexOf("2 files changed, 2 insertions(+), 2 deletions(-)");
  expect(totals).toBeGreaterThan(out.indexOf("+2"));
  expect(out.indexOf("not ok 1 - adds")).toBeGreaterThan(totals);
  expect(out.filter((l) => / changed, /.test(l))).toHaveLength(1);
  // The second commit's file header is read as the diff's, as in `git show A B` alone.
  expect(out).not.toContain("index 7b5d34d..3927efa 100644");
});

Deno.test("group_paths: `find src -type f && npm test` does not group the test run's lines", async () => {
  const input = await fixture("find/then_npm_test.in.txt");
  const out = lines(filter("find src -type f && npm test", input, true));
  expect(out).toContain("not ok 1 - adds");
  expect(out).toContain("> nd@1.0.0 test");
  expect(out).toContain("# pass 1");
  expect(out[0]).toBe(
    "(60 paths grouped by directory: names after the first path are in its directory)",
  );
});

Deno.test("join_leaves: `tree src/a && npm test` joins the tree's leaves, not the test run's lines", async () => {
  const input = await fixture("tree-leaves/then_npm_test.in.txt");
  const out = lines(filter("tree src/a && npm test", input, true));
  expect(out).toContain("> nd@1.0.0 test");
  expect(out).toContain("not ok 1 - adds");
  expect(out).toContain("# tests 2");
  expect(out.some((l) => l.startsWith("├── m1.js, m10.js, "))).toBe(true);
});

Deno.test("fold_blocks: a later command's lines after a block the output ends inside are not folded", async () => {
  // A plan cut short inside a resource block (the run was stopped), then a test run's report.
  const plan = lines(await fixture("terraform-destroyed/destroy.in.txt")).slice(0, 30);
  const tests = lines(await fixture("git-push/then_npm_test.in.txt")).slice(2);
  const out = lines(filter("terraform plan ; npm test", [...plan, ...tests].join("\n"), true));
  expect(out).toContain("# tests 2");
  expect(out).toContain("# pass 1");
  expect(out.indexOf("      … (9 attribute lines removed with it)")).toBeLessThan(
    out.indexOf("not ok 1 - adds"),
  );
});

Deno.test("strip_annotated: another command's lines are neither cut nor put under its heading", async () => {
  const rules = [
    compileRule({
      name: "build",
      match: { prefix: "cargo build" },
      strategy: {
        type: "strip_annotated",
        patterns: ["^\\s*(Compiling|Checking) "],
        summary_pattern: "^\\s*Finished ",
        long_output_threshold: 3,
        keep_head: 1,
        keep_tail: 1,
      },
    }, "t"),
    compileRule({ name: "run", match: { prefix: "npm" }, strategy: { type: "truncate" } }, "t"),
  ];
  const engine = new FilterEngine(rules, { security: false, generic: false, guard: false });
  const tests = lines(await fixture("git-push/then_npm_test.in.txt")).slice(2);
  const input = [
    "   Compiling rs v0.1.0 (/tmp/zeph-compound/rs)",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.20s",
    ...tests,
  ];
  const out = lines(engine.filter("cargo build && npm test", input.join("\n")).text);
  expect(out.slice(0, 2)).toEqual([
    "Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.20s",
    "(2 noise lines removed)",
  ]);
  expect(out).toContain("  location: '/tmp/zeph-compound/gp/test/a.test.js:2:1'");
  expect(out).toContain("# pass 1");
});

Deno.test("truncate: a cut is bounded by the last command's first line its rules find", () => {
  const strategy = compileRule({
    name: "list",
    match: { prefix: "ls" },
    strategy: { type: "truncate", max_lines: 6, head: 2, tail: 2 },
  }, "t").strategy;
  const rows = Array.from({ length: 10 }, (_, i) => `row ${i}`);
  const tests = [
    "== session starts ==",
    "def test_a():",
    "    x = 1",
    "E   assert 1 == 2",
    "== 1 failed ==",
  ];
  const later = (line: string) => line.startsWith("==");
  // The rows are cut to their head and tail; the run, from its header on, passes as printed.
  expect(run(strategy, [...rows, ...tests], { before: false, after: true, lastOwns: later }))
    .toEqual({
      out: ["row 0", "row 1", "... (6 lines omitted) ...", "row 8", "row 9", ...tests],
      confidence: "partial",
    });
  // Without a later rule's lines the cut reads everything, as in a command alone.
  expect(run(strategy, [...rows, ...tests], { before: false, after: true }).out).toEqual([
    "row 0",
    "row 1",
    "... (11 lines omitted) ...",
    "E   assert 1 == 2",
    "== 1 failed ==",
  ]);
  // For the last command: the earlier commands' lines before its first are cut to their own head
  // and tail (a script's traceback at their end stays whole), its own to what is left.
  const script = ["seed 1", "seed 2", "seed 3", "Traceback (most recent call last):", "    main()"];
  const own = (line: string) => line.startsWith("row");
  expect(run(strategy, [...script, ...rows], { before: true, after: false, lastOwns: own }))
    .toEqual({
      out: [
        "seed 1",
        "seed 2",
        "... (1 line omitted) ...",
        "Traceback (most recent call last):",
        "    main()",
        "... (8 lines omitted) ...",
        "row 8",
        "row 9",
      ],
      confidence: "partial",
    });
  // A later command's run right after a short listing: nothing to cut.
  expect(
    run(strategy, [...rows.slice(0, 3), ...tests], { before: false, after: true, lastOwns: later }),
  )
    .toEqual({ out: [...rows.slice(0, 3), ...tests], confidence: "fallback" });
});

Deno.test("truncate: when the last command's rules own no line, the cut is still bounded", () => {
  const strategy = compileRule({
    name: "list",
    match: { prefix: "ls" },
    strategy: { type: "truncate", max_lines: 6, head: 2, tail: 2 },
  }, "t").strategy;
  const rows = Array.from({ length: 30 }, (_, i) => `row ${i}`);
  const never = () => false;
  const bounded = ["row 0", "row 1", "... (26 lines omitted) ...", "row 28", "row 29"];
  // For an earlier command (its cut would stop at the last command's first line), for the last
  // command (its earlier commands' part would end there), and for both.
  for (
    const side of [{ before: false, after: true }, { before: true, after: false }, {
      before: true,
      after: true,
    }]
  ) {
    expect({ side, ...run(strategy, rows, { ...side, lastOwns: never }) }).toEqual({
      side,
      out: bounded,
      confidence: "partial",
    });
  }
});

Deno.test("truncate: a listing before a command that printed no line its rules know is cut to head and tail", () => {
  // `ls -la` of a large directory, then `go test ./...` outside a module (go 1.19's one line):
  // go-test's rules own none of its lines.
  const listing = Array.from(
    { length: 1500 },
    (_, i) => `-rw-r--r--  1 root root   ${1000 + i} Nov 24 22:43 lib${i}.so.1`,
  );
  const go = [
    "pattern ./...: directory prefix . does not contain main module or its selected dependencies",
  ];
  const out = lines(filter("ls -la /usr/lib; go test ./...", [...listing, ...go].join("\n"), true));
  expect(out.length).toBeLessThan(100);
  expect(out.slice(-1)).toEqual(go);
});

Deno.test("every strategy honours a compound command's output or says why it need not", async () => {
  const missing: string[] = [];
  for await (const entry of Deno.readDir(STRATEGIES)) {
    if (entry.name.startsWith("_") || entry.name === "mod.ts") continue;
    const text = await Deno.readTextFile(new URL(entry.name, STRATEGIES));
    const doc = /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? "";
    const honours = /\n\s+owns[:,]/.test(text) || text.includes("ctx.shared");
    if (!honours && !/compound command/i.test(doc.replace(/\s+\*\s+/g, " "))) {
      missing.push(entry.name);
    }
  }
  expect(missing.sort()).toEqual([]);
});

/** A command's real captured output (tests/fixtures/compound), with lines it printed when failing. */
const HALVES: Record<string, { command: string; file: string; failure: string[] }> = {
  vite: {
    command: "npm run build",
    file: "vite_build_failed.txt",
    failure: [
      "✗ Build failed in 252ms",
      "error during build:",
      "Could not resolve './missing.js' in src/main.js",
    ],
  },
  node: {
    command: "npm test",
    file: "node_test_failed.txt",
    failure: ["not ok 2 - adds wrong", "4 !== 5", "# fail 1"],
  },
  meson: {
    command: "meson test",
    file: "meson_test_failed.txt",
    failure: ["2/2 subtracts FAIL", "Fail:               1"],
  },
  go: {
    command: "go test ./...",
    file: "go_test_failed.txt",
    failure: ["--- FAIL: TestSubtracts (0.00s)", "a_test.go:13: 3-1 = 2, want 1"],
  },
  cargo: {
    command: "cargo test",
    file: "cargo_test_failed.txt",
    failure: ["test tests::adds_wrong ... FAILED", "panicked at src/lib.rs:17:9:", "  left: 4"],
  },
  make: {
    command: "make",
    file: "make_failed.txt",
    failure: ["‘undefined_x’ undeclared", "make: *** [Makefile:3: prog] Error 1"],
  },
  pytest: {
    command: "pytest",
    file: "pytest_failed.txt",
    failure: ["E       assert 2 == 1", "FAILED test_a.py::test_subtracts - assert 2 == 1"],
  },
};

const half = (path: string): Promise<string> =>
  Deno.readTextFile(new URL(`../fixtures/compound/${path}`, import.meta.url));

for (
  const [first, second] of [
    ["vite", "node"],
    ["node", "vite"],
    ["meson", "go"],
    ["go", "meson"],
    ["make", "pytest"],
    ["pytest", "make"],
    ["make", "cargo"],
    ["cargo", "make"],
  ]
) {
  const a = HALVES[first];
  const b = HALVES[second];
  Deno.test(`test runners: \`${a.command} ; ${b.command}\` keeps both failed commands' failure lines`, async () => {
    // Composed as a shell prints `A ; B`: the first command's output, then the second's.
    const input = (await half(a.file)) + (await half(b.file));
    const out = filter(`${a.command} ; ${b.command}`, input, true);
    for (const line of [...a.failure, ...b.failure]) expect(out).toContain(line);
  });
}

for (const runner of ["pytest", "cargo", "go", "node", "make"]) {
  const { command, file, failure } = HALVES[runner];
  Deno.test(`a command no rule knows: \`./seed.sh && ${command}\` keeps the script's failure line`, async () => {
    // `sh` goes on past a command not found: the script's exit code is 0 and the runner runs.
    const input = (await half("seed_sh_failed.txt")) + (await half(file));
    const out = filter(`./seed.sh && ${command}`, input, true);
    expect(out).toContain("./seed.sh: 3: ./tools/load-fixtures: not found");
    for (const line of failure) expect(out).toContain(line);
  });
}

for (const runner of ["pytest", "cargo", "go", "node", "make"]) {
  const { command, file, failure } = HALVES[runner];
  Deno.test(`a quiet command's failure: \`cd build; cp config.example.py config.py; ${command}\` keeps it`, async () => {
    // After `;` the next command runs even when `cd` or `cp` failed, so their errors (which they
    // print only then) come before the runner's output.
    const input = (await half("cd_cp_failed.txt")) + (await half(file));
    const out = filter(`cd build; cp config.example.py config.py; ${command}`, input, true);
    expect(out).toContain("sh: 1: cd: can't cd to build");
    expect(out).toContain("cp: cannot stat 'config.example.py': No such file or directory");
    for (const line of failure) expect(out).toContain(line);
  });
}

/** A script's real failure on standard error: its frames and the source line it failed at. */
const SCRIPTS: Record<string, string[]> = {
  "node_script_failed.txt": [
    "/tmp/mend2/cap/tools/seed2.js:2",
    "console.log(config.port);",
    "TypeError: Cannot read properties of undefined (reading 'port')",
    "    at Object.<anonymous> (/tmp/mend2/cap/tools/seed2.js:2:20)",
  ],
  "ruby_script_failed.txt": [
    "tools/crash.rb:2:in `read': No such file or directory @ rb_sysopen - fixtures/rows.json (Errno::ENOENT)",
    "\tfrom tools/crash.rb:2:in `load'",
    "\tfrom tools/crash.rb:4:in `<main>'",
  ],
  "bash_script_failed.txt": [
    "syn.sh: line 4: syntax error near unexpected token `fi'",
    "syn.sh: line 4: `fi fi'",
  ],
};

for (const runner of ["pytest", "cargo", "go", "node", "make"]) {
  const { command, file, failure } = HALVES[runner];
  Deno.test(`a quieted command's errors: \`./run.sh >/dev/null ; ${command}\` keeps the script's frames and source line`, async () => {
    // Its standard output goes to /dev/null, its standard error (the failure) still shows.
    for (const quiet of [">/dev/null", "-q"]) {
      for (const [script, lines] of Object.entries(SCRIPTS)) {
        const input = (await half(script)) + (await half(file));
        const out = filter(`./run.sh ${quiet} ; ${command}`, input, true).split("\n");
        for (const line of [...lines, ...failure]) {
          expect([quiet, script, out.some((l) => l.includes(line))]).toEqual([quiet, script, true]);
        }
      }
    }
  });
}

Deno.test("a cut for the last command cuts the earlier lines on their own: `./run.sh ; make` keeps the script's frames with their source lines", async () => {
  // A real run: the script's progress and traceback, then a long make that failed (the make
  // rules cut it to its head and tail).
  const input = await half("script_then_make_failed.txt");
  const out = lines(filter("./run.sh ; make -C big", input, true));
  const frames = [
    '  File "/tmp/mend2/cap/tools/long.py", line 11, in <module>',
    '    rows = load("fixtures/rows.json")',
    '  File "/tmp/mend2/cap/tools/long.py", line 5, in load',
    "    with open(path) as f:",
    "FileNotFoundError: [Errno 2] No such file or directory: 'fixtures/rows.json'",
  ];
  const at = out.indexOf(frames[0]);
  expect(out.slice(at, at + frames.length)).toEqual(frames);
  expect(out).toContain(
    "main.c:1:25: error: ‘undefined_x’ undeclared (first use in this function)",
  );
  expect(out).toContain("make: *** [Makefile:6: main.o] Error 1");
  // The script's lines are cut to their head and tail, make's to what is left of the head and
  // max_lines (as in one cut of both) and its tail.
  expect(out).toContain("... (2 lines omitted) ...");
  expect(out).toContain("... (53 lines omitted) ...");
  expect(out.length).toBeLessThan(50);
});

Deno.test("a rule's strategy wrapped (scopes, verdicts, a common directory, frames) still says which lines it owns", async () => {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  // Every rule of a strategy type that declares its lines declares them, however it is wrapped.
  const owning = new Set(
    engine.rules.filter((rule) => rule.strategy.owns).map((rule) => rule.strategy.type),
  );
  const lost = engine.rules.filter((rule) => owning.has(rule.strategy.type) && !rule.strategy.owns)
    .map((rule) => rule.name);
  expect(lost).toEqual([]);
});

/**
 * The lines of `out` that are lines of `input` (ends trimmed) and come before a line of `input`
 * an earlier one of them was read at: kept lines out of the order printed.
 */
function outOfOrder(input: string, out: string): string[] {
  const printed = input.split("\n").map((l) => l.trim());
  const moved: string[] = [];
  let at = 0;
  for (const line of out.split("\n").map((l) => l.trim())) {
    if (line === "" || !printed.includes(line)) continue;
    const next = printed.indexOf(line, at);
    if (next < 0) moved.push(line);
    else at = next + 1;
  }
  return moved;
}

Deno.test("kept lines stay in printed order across a compound command's segments", async () => {
  // Every pair of the captures, as a shell prints `A ; B`, and a real `cargo build && cargo test`
  // whose lines the guard put back by their words before (a later `(lib test)` summary line
  // restored in place of an earlier `(lib)` one).
  const moved: string[] = [];
  const runs = [
    ...Object.values(HALVES),
    { command: "cargo build", file: "cargo_build_ok.txt" },
    { command: "make", file: "make_ok.txt" },
    { command: "npm run build", file: "vite_build_ok.txt" },
  ];
  for (const a of runs) {
    for (const b of runs) {
      if (a === b) continue;
      const input = (await half(a.file)) + (await half(b.file));
      const out = filter(`${a.command} ; ${b.command}`, input, true);
      for (const line of outOfOrder(input, out)) moved.push(`${a.command} ; ${b.command}: ${line}`);
    }
  }
  const real = await half("cargo_build_then_test_failed.txt");
  for (const line of outOfOrder(real, filter("cargo build && cargo test", real, true))) {
    moved.push(`cargo build && cargo test: ${line}`);
  }
  expect(moved).toEqual([]);
});

Deno.test("every golden case's rules keep a failed command's failure lines before or after it", async () => {
  // A command no rule knows and a test runner, each printed before and after every single
  // command's golden input, as a shell prints `A ; B`.
  const others = [
    {
      command: "./seed.sh",
      text: await half("seed_sh_failed.txt"),
      failure: ["./seed.sh: 3: ./tools/load-fixtures: not found"],
    },
    { command: "pytest", text: await half(HALVES.pytest.file), failure: HALVES.pytest.failure },
  ];
  const lost: string[] = [];
  const root = new URL("../fixtures/filters/", import.meta.url);
  for await (const dir of Deno.readDir(root)) {
    if (!dir.isDirectory) continue;
    for await (const file of Deno.readDir(new URL(`${dir.name}/`, root))) {
      if (!file.name.endsWith(".in.txt")) continue;
      const name = `${dir.name}/${file.name.slice(0, -".in.txt".length)}`;
      const input = (await fixture(`${name}.in.txt`)).replace(/\n?$/, "\n");
      const command = (await fixture(`${name}.cmd`)).split("\n")[0];
      if (/[;&|]/.test(command)) continue;
      for (const other of others) {
        const first = filter(`${other.command} ; ${command}`, other.text + input, true);
        if (!other.failure.every((l) => first.includes(l))) {
          lost.push(`${other.command} before ${name}`);
        }
        const last = filter(`${command} ; ${other.command}`, input + other.text, true);
        if (!other.failure.every((l) => last.includes(l))) {
          lost.push(`${other.command} after ${name}`);
        }
      }
    }
  }
  expect(lost.sort()).toEqual([]);
});
