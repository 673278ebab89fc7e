/**
 * A line the built-in rules keep stays as the command printed it: facts are looked for by being
 * copied from the raw output (a label, a test id, a crate, an archive, a quoted line of code), so
 * a kept line rewritten into another layout loses them. One class per test, each over several
 * outputs of its own (captured here from small projects), plus the rewrites audit
 * (bench/rewrites.ts) over bench/corpus and the goldens for the rules of these classes.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { audit } from "../../bench/rewrites.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, lines: string[], failed = false) =>
  engine.filter(command, lines.join("\n"), { failed }).text;

/** Each of `kept` is a whole line of `out`; none of `gone` is in it. */
function expectLines(out: string, kept: string[], gone: string[] = []): void {
  const lines = out.split("\n");
  expect(kept.filter((line) => !lines.includes(line))).toEqual([]);
  expect(gone.filter((text) => out.includes(text))).toEqual([]);
}

Deno.test("git status keeps git's printed labels and state lines, without the hints", () => {
  const merging = [
    "On branch main",
    "You have unmerged paths.",
    '  (fix conflicts and run "git commit")',
    '  (use "git merge --abort" to abort the merge)',
    "",
    "Unmerged paths:",
    '  (use "git add <file>..." to mark resolution)',
    "\tboth modified:   conf.ini",
    "\tboth modified:   notes.md",
    "",
    "Untracked files:",
    '  (use "git add <file>..." to include in what will be committed)',
    "\ttodo.txt",
    "",
    'no changes added to commit (use "git add" and/or "git commit -a")',
  ];
  const rebasing = [
    "interactive rebase in progress; onto e90c493",
    "Last command done (1 command done):",
    "   pick abf028d side",
    "No commands remaining.",
    "You are currently rebasing branch 'side' on 'e90c493'.",
    '  (fix conflicts and then run "git rebase --continue")',
    "",
    "Unmerged paths:",
    '  (use "git restore --staged <file>..." to unstage)',
    "\tboth modified:   conf.ini",
    "\tdeleted by them: old.txt",
    "\tadded by us:     new.txt",
  ];
  const ahead = [
    "On branch dev",
    "Your branch is ahead of 'origin/dev' by 3 commits.",
    '  (use "git push" to publish your local commits)',
    "",
    "Changes to be committed:",
    '  (use "git restore --staged <file>..." to unstage)',
    "\tnew file:   src/a.ts",
    "\trenamed:    b.ts -> src/b.ts",
    "",
    "Changes not staged for commit:",
    "\tmodified:   README.md",
    "\ttypechange: link",
  ];
  // The closing line is the one that says nothing is staged: it stays, its hint in parentheses too.
  const untracked = [
    "On branch main",
    "Untracked files:",
    '  (use "git add <file>..." to include in what will be committed)',
    "\tb",
    "",
    'nothing added to commit but untracked files present (use "git add" to track)',
  ];
  for (const input of [merging, rebasing, ahead, untracked]) {
    const kept = input.filter((line) => line.trim() && !/^\s*\(/.test(line));
    expect(filter("git status", input).split("\n")).toEqual(kept);
  }
});

Deno.test("cargo keeps the workspace crates' Compiling lines and the Finished line of a passing run", () => {
  const build = [
    "   Compiling libc v0.2.155",
    "   Compiling serde v1.0.203",
    "   Compiling log v0.4.21 (https://github.com/rust-lang/log#a1b2c3d4)",
    "   Compiling queue v0.1.0 (/tmp/vb/ws/queue)",
    "     Running `rustc --crate-name queue --edition=2021 queue/src/lib.rs`",
    "   Compiling app v0.1.0 (/tmp/vb/ws/app)",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.53s",
  ];
  const test = [
    "   Compiling queue v0.1.0 (/tmp/vb/ws/queue)",
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.33s",
    "     Running unittests src/lib.rs (target/debug/deps/queue-71e48d2f0b06507b)",
    "",
    "running 2 tests",
    "test tests::empty ... ok",
    "test tests::pushes ... ok",
    "",
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
  ];
  const dependencies = ["libc v0.2.155", "serde v1.0.203", "log v0.4.21"];
  const local = [
    "   Compiling queue v0.1.0 (/tmp/vb/ws/queue)",
    "   Compiling app v0.1.0 (/tmp/vb/ws/app)",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.53s",
  ];
  expectLines(filter("cargo build -v", build), local, dependencies);
  expectLines(filter("cargo run", build), local, dependencies);
  expectLines(filter("cargo build -v && cargo test", [...build, ...test]), [
    ...local,
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.33s",
    // The result line as printed, counts and timing whole.
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
  ], dependencies);
  expectLines(filter("cargo test --workspace", test), [
    test[0],
    test[1],
    test[test.length - 1],
  ]);
  // Beside errors the Compiling lines are progress: they go, but the failed crate's, which comes
  // back right before the `could not compile` line naming it.
  const broken = [
    "   Compiling app v0.1.0 (/tmp/vb/ws/app)",
    "   Compiling queue v0.1.0 (/tmp/vb/ws/queue)",
    "error[E0425]: cannot find value `n` in this scope",
    " --> queue/src/lib.rs:3:5",
    "error: could not compile `queue` (lib) due to 1 previous error",
  ];
  for (const command of ["cargo build", "cargo test"]) {
    expectLines(filter(command, broken, true), broken.slice(1), ["Compiling app"]);
  }
});

Deno.test("make keeps the archive and link steps when the warnings are grouped; compile echoes go", () => {
  const warning = (file: string, line: number, name: string) =>
    `${file}:${line}:5: warning: unused variable '${name}' [-Wunused-variable]`;
  const builds: { command: string; input: string[]; results: string[]; compiles: string[] }[] = [
    {
      command: "make",
      input: [
        "gcc -Wall -O0 -c src/vec.c -o build/vec.o",
        warning("src/vec.c", 2, "unused"),
        "gcc -Wall -O0 -c src/stats.c -o build/stats.o",
        warning("src/stats.c", 3, "spare"),
        "ar rcs build/libstats.a build/vec.o build/stats.o",
        "gcc -Wall -O0 -o build/app src/main.c -Lbuild -lstats",
      ],
      results: [
        "ar rcs build/libstats.a build/vec.o build/stats.o",
        "gcc -Wall -O0 -o build/app src/main.c -Lbuild -lstats",
      ],
      compiles: ["-c src/vec.c", "-c src/stats.c"],
    },
    {
      command: "make -j4",
      input: [
        "clang++ -std=c++17 -fPIC -c lib/a.cpp -o obj/a.o",
        warning("lib/a.cpp", 7, "tmp"),
        "clang++ -std=c++17 -fPIC -c lib/b.cpp -o obj/b.o",
        warning("lib/b.cpp", 9, "old"),
        "clang++ -shared -o libshapes.so obj/a.o obj/b.o",
        "ar rc libshapes.a obj/a.o obj/b.o",
        "ranlib libshapes.a",
      ],
      results: [
        "clang++ -shared -o libshapes.so obj/a.o obj/b.o",
        "ar rc libshapes.a obj/a.o obj/b.o",
      ],
      compiles: ["-c lib/a.cpp", "-c lib/b.cpp", "ranlib"],
    },
  ];
  for (const { command, input, results, compiles } of builds) {
    const out = filter(command, input);
    expect(out).toContain("-Wunused-variable (2):");
    expectLines(out, results, compiles);
  }
});

Deno.test("pytest's failure header and short-summary FAILED line both stay as printed", () => {
  const block = (name: string, error: string) => [
    `${"_".repeat(20)} ${name} ${"_".repeat(20)}`,
    "",
    `    def ${name}():`,
    `>       ${error}`,
    `E       ${error}`,
    "",
    `tests/test_inv.py:11: AssertionError`,
  ];
  const runs: string[][] = [
    [
      "=== FAILURES ===",
      ...block("test_count", "assert 2 == 3"),
      ...block("test_name", "assert 'ABC' == 'ABd'"),
      "=== short test summary info ===",
      "FAILED tests/test_inv.py::test_count - assert 2 == 3",
      "FAILED tests/test_inv.py::test_name - assert 'ABC' == 'ABd'",
      "2 failed, 1 passed in 0.57s",
    ],
    [
      "=== ERRORS ===",
      "___ ERROR at setup of test_add ___",
      "E       RuntimeError: database file missing",
      "tests/test_inv.py:5: RuntimeError",
      "=== FAILURES ===",
      ...block("test_even[3]", "assert 3 % 2 == 0"),
      "=== short test summary info ===",
      "FAILED tests/test_inv.py::test_even[3] - assert 3 % 2 == 0",
      "ERROR tests/test_inv.py::test_add - RuntimeError: database file missing",
      "=== 1 failed, 1 error in 0.12s ===",
    ],
  ];
  for (const input of runs) {
    const out = filter("pytest -q", input, true);
    // Each FAILED and ERROR line whole, as printed.
    const summary = input.filter((line) => /^(FAILED|ERROR) tests\//.test(line));
    expect(summary.length).toBe(2);
    expectLines(out, summary);
    // Each failure's header names its test where its trace is, as printed.
    for (const head of input.filter((line) => /^_+ .* _+$/.test(line))) {
      expect(out.split("\n")).toContain(head);
    }
  }
});

Deno.test("shellcheck keeps the line of code each finding quotes, its indentation too", () => {
  const finding = (file: string, n: number, code: string, mark: string) => [
    "",
    `In ${file} line ${n}:`,
    code,
    mark,
    "",
    "Did you mean: ",
    code.replace(/\$(\w+)/, '"$$$1"'),
  ];
  const input = [
    ...finding(
      "sc/sync.sh",
      4,
      "    rsync -a $src /backup/",
      "             ^--^ SC2086 (info): Double quote to prevent globbing and word splitting.",
    ),
    ...finding(
      "sc/sync.sh",
      5,
      '  echo "synced" > $LOGFILE',
      "                  ^------^ SC2086 (info): Double quote to prevent globbing and word splitting.",
    ),
    ...finding(
      "sc/sync.sh",
      8,
      "  sync_dir $d",
      "           ^-- SC2086 (info): Double quote to prevent globbing and word splitting.",
    ),
    ...finding(
      "sc/clean.sh",
      3,
      "cd $tmp",
      "^-----^ SC2164 (warning): Use 'cd ... || exit' or 'cd ... || return' in case cd fails.",
    ),
  ];
  const out = filter("shellcheck sc/sync.sh sc/clean.sh", input, true);
  expect(out).toContain("SC2086 (info): Double quote to prevent globbing and word splitting. (3)");
  for (
    const code of ["    rsync -a $src /backup/", '  echo "synced" > $LOGFILE', "  sync_dir $d"]
  ) {
    expect(out).toContain(code);
  }
  // A finding alone in its group is shown as shellcheck printed it.
  expect(out).toContain(input.slice(-6, -3).join("\n"));
  // The suggested fixes go.
  expect(out).not.toContain('"$src"');
});

Deno.test("the rewrites audit finds no rewritten line in the rules of these classes", async () => {
  const { findings, runs } = await audit();
  const rules = [
    "git-status",
    "cargo-build-tidy",
    "cargo-test",
    "cargo-test-tidy",
    "pytest",
    "make",
    "shellcheck",
    "apt-get",
    "pre-commit",
  ];
  for (const rule of rules) expect(runs.get(rule) ?? 0).toBeGreaterThan(0);
  const rewritten = findings.filter((f) => f.kind === "rewritten" && rules.includes(f.rule));
  // Kept on purpose: porcelain `git status` (codes already) is grouped per section, and a make
  // whose rules removed every line says so.
  const porcelain = (f: { rule: string; source: string }) =>
    f.rule === "git-status" && /status_short|porcelain|\/short$/.test(f.source);
  expect(rewritten.filter((f) => !porcelain(f) && f.line !== "make: ok")).toEqual([]);
});
