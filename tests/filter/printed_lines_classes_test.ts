/**
 * Lines a whole-line reader looks for, each class through the built-in rules on outputs the
 * real tools print here: a history's commit and subject lines (not joined into one), a C/C++
 * diagnostic's include chain, pytest's failure headers, unexpected passes and warnings summary.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, text: string, failed = false) =>
  engine.filter(command, text, { failed }).text.split("\n");

async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd: dir,
    env: { GIT_CONFIG_NOSYSTEM: "1", HOME: dir, TZ: "UTC" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** A repository of `n` commits by two authors over two days, each touching two files. */
async function history(n: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "zeph-gitlog-" });
  await git(dir, "init", "-q", "-b", "main");
  for (let i = 1; i <= n; i++) {
    await Deno.writeTextFile(`${dir}/handler_${i}.ts`, `export const route = "/v${i}";\n`);
    await Deno.writeTextFile(`${dir}/routes.ts`, `// ${i} routes\n`, { append: true });
    await git(dir, "add", "-A");
    const who = i % 5 === 0 ? "Bob <bob@example.com>" : "Dev <dev@example.com>";
    const date = `2026-11-${i <= n / 2 ? 23 : 24}T10:${String(i).padStart(2, "0")}:00Z`;
    await git(
      dir,
      "-c",
      `user.name=${who.split(" <")[0]}`,
      "-c",
      `user.email=${who.split("<")[1].slice(0, -1)}`,
      "commit",
      "-q",
      `--date=${date}`,
      "-m",
      `handler ${i}: route /v${i}`,
      "-m",
      `Adds the /v${i} route.\nIt is served by handler_${i}.ts.`,
    );
  }
  return dir;
}

Deno.test("git log keeps each commit line and subject line as printed, in every default format", async () => {
  const dir = await history(16);
  try {
    for (const args of [["log"], ["log", "--stat"], ["log", "-p"], ["log", "--format=fuller"]]) {
      const raw = await git(dir, ...args);
      const rawLines = raw.split("\n");
      const out = filter(`git ${args.join(" ")}`, raw);
      // Every emitted commit/subject line is an input line as printed.
      for (let i = 1; i <= 16; i++) expect(out).toContain(`    handler ${i}: route /v${i}`);
      const hashes = rawLines.filter((l) => l.startsWith("commit "));
      expect(hashes.length).toBe(16);
      for (const line of hashes) expect(out).toContain(line);
      // Nothing is joined: each line of the output that names a commit is a line git printed.
      for (const line of out.filter((l) => l.startsWith("commit "))) {
        expect(rawLines).toContain(line);
      }
      // The author appears where it changes, not for every commit.
      expect(out.filter((l) => l.startsWith("Author:")).length).toBeLessThan(16);
      expect(out.some((l) => /^Author: +Bob <bob@example.com>$/.test(l))).toBe(true);
      expect(out.length).toBeLessThan(rawLines.length);
    }
    // One line per commit (--oneline, --graph) passes as printed.
    const oneline = await git(dir, "log", "--oneline", "--graph");
    expect(filter("git log --oneline --graph", oneline).join("\n")).toBe(oneline.trimEnd());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("git log --oneline/--graph keeps every commit line and ref decoration from its cut", async () => {
  // Ten feature branches of six commits each, merged into main with --no-ff, each merge tagged.
  const dir = await Deno.makeTempDir({ prefix: "zeph-gitlog-" });
  try {
    await git(dir, "init", "-q", "-b", "main");
    const commit = (message: string) =>
      git(
        dir,
        "-c",
        "user.name=Dev",
        "-c",
        "user.email=dev@example.com",
        "commit",
        "-q",
        "-m",
        message,
      );
    await Deno.writeTextFile(`${dir}/main.txt`, "0\n");
    await git(dir, "add", "-A");
    await commit("initial layout");
    for (let f = 1; f <= 10; f++) {
      await git(dir, "checkout", "-q", "-b", `feature/f${f}`, "main");
      for (let c = 1; c <= 6; c++) {
        await Deno.writeTextFile(`${dir}/f${f}.txt`, `${c}\n`, { append: true });
        await git(dir, "add", "-A");
        await commit(`f${f}: step ${c} of the feature`);
      }
      await git(dir, "checkout", "-q", "main");
      await Deno.writeTextFile(`${dir}/main.txt`, `${f}\n`, { append: true });
      await git(dir, "add", "-A");
      await commit(`main: fix ${f}`);
      await git(
        dir,
        "-c",
        "user.name=Dev",
        "-c",
        "user.email=dev@example.com",
        "merge",
        "-q",
        "--no-ff",
        "-m",
        `Merge branch 'feature/f${f}'`,
        `feature/f${f}`,
      );
      await git(dir, "tag", `v1.${f}`);
    }
    for (const args of [["--oneline", "--graph", "--decorate"], ["--oneline", "--decorate"]]) {
      const raw = await git(dir, "log", ...args);
      const lines = raw.trimEnd().split("\n");
      const out = filter(`git log ${args.join(" ")}`, raw);
      // A history of 81 commits keeps every commit line; the graph's lines without one go.
      if (args.includes("--graph")) expect(out.length).toBeLessThan(lines.length);
      const wanted = lines.filter((line) => /[0-9a-f]{7} /.test(line));
      expect(wanted.filter((line) => /[0-9a-f]{7} \(/.test(line)).length).toBeGreaterThan(10);
      expect(wanted.filter((line) => !out.includes(line))).toEqual([]);
    }
    // The long format under --graph keeps each commit and subject line as without it.
    const graph = await git(dir, "log", "--graph", "--stat", "--decorate");
    const lines = graph.trimEnd().split("\n");
    const out = filter("git log --graph --stat --decorate", graph);
    expect(out.length).toBeLessThan(lines.length / 2);
    const wanted = lines.filter((line) => /^[*|\\/ ]*commit [0-9a-f]{40}|^[|* ]* {4}\S/.test(line));
    expect(wanted.filter((line) => !out.includes(line))).toEqual([]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a history of thousands of commits keeps the newest ones' commit and subject lines, not all of them", () => {
  const hex = (i: number) => i.toString(16).padStart(40, "0");
  const log = Array.from({ length: 3_000 }, (_, i) =>
    [
      `commit ${hex(3_000 - i)}`,
      "Author: Ann <ann@example.com>",
      `Date:   Mon Nov ${(i % 28) + 1} 10:00:00 2026 +0000`,
      "",
      `    change ${3_000 - i}: adjust the parser`,
      "",
    ].join("\n")).join("\n");
  for (const command of ["git log", "git log -p"]) {
    const out = filter(command, log);
    // The newest commits come whole; a hundred or more keep their commit and subject lines.
    expect(out).toContain(`commit ${hex(3_000)}`);
    expect(out).toContain("    change 2900: adjust the parser");
    expect(out.filter((l) => l.startsWith("commit ")).length).toBeLessThan(200);
    expect(out.length).toBeLessThan(400);
    expect(out.some((l) => /^\.\.\. \(\d+ lines omitted\) \.\.\.$/.test(l))).toBe(true);
  }
});

/** gcc 12 and clang 14 on a source whose headers hold a warning and an error (captured here). */
const GCC_CHAIN = [
  "In file included from include/net/conn.h:3,",
  "                 from src/conn.c:2:",
  "include/net/types.h: In function ‘endpoint_valid’:",
  "include/net/types.h:4:54: warning: unused variable ‘unused_flag’ [-Wunused-variable]",
  "    4 | static inline int endpoint_valid(endpoint_t e) { int unused_flag; return e.fd >= 0; }",
  "      |                                                      ^~~~~~~~~~~",
  "include/net/conn.h: In function ‘conn_state’:",
  "include/net/conn.h:6:59: error: ‘conn_t’ has no member named ‘stat’; did you mean ‘state’?",
  "    6 | static inline int conn_state(const conn_t *c) { return c->stat; }",
  "      |                                                           ^~~~",
  "      |                                                           state",
  "src/conn.c: In function ‘conn_close’:",
  "src/conn.c:13:16: error: ‘undefined_state’ undeclared (first use in this function)",
  "   13 |     c->state = undefined_state;",
  "      |                ^~~~~~~~~~~~~~~",
  "src/conn.c:13:16: note: each undeclared identifier is reported only once for each function it appears in",
];
const CLANG_CHAIN = [
  "In file included from src/conn.c:2:",
  "In file included from include/net/conn.h:3:",
  "include/net/types.h:4:54: warning: unused variable 'unused_flag' [-Wunused-variable]",
  "static inline int endpoint_valid(endpoint_t e) { int unused_flag; return e.fd >= 0; }",
  "                                                     ^",
  "In file included from src/conn.c:2:",
  "include/net/conn.h:6:59: error: no member named 'stat' in 'conn_t'; did you mean 'state'?",
  "static inline int conn_state(const conn_t *c) { return c->stat; }",
  "                                                          ^~~~",
  "src/conn.c:13:16: error: use of undeclared identifier 'undefined_state'",
  "    c->state = undefined_state;",
  "               ^",
  "1 warning and 2 errors generated.",
];

Deno.test("a C/C++ diagnostic keeps its include chain as printed, right before it", () => {
  for (const command of ["gcc -Wall -Iinclude -c src/conn.c", "g++ -c src/conn.c"]) {
    expect(filter(command, GCC_CHAIN.join("\n"), true)).toEqual([
      "In file included from include/net/conn.h:3,",
      "                 from src/conn.c:2:",
      "include/net/types.h:4:54: warning: unused variable ‘unused_flag’ [-Wunused-variable]",
      // An error's function header stays: it says which function the error is in.
      "include/net/conn.h: In function ‘conn_state’:",
      "include/net/conn.h:6:59: error: ‘conn_t’ has no member named ‘stat’; did you mean ‘state’?",
      "src/conn.c: In function ‘conn_close’:",
      "src/conn.c:13:16: error: ‘undefined_state’ undeclared (first use in this function)",
    ]);
  }
  expect(filter("clang -Wall -Iinclude -c src/conn.c", CLANG_CHAIN.join("\n"), true)).toEqual([
    "In file included from src/conn.c:2:",
    "In file included from include/net/conn.h:3:",
    "include/net/types.h:4:54: warning: unused variable 'unused_flag' [-Wunused-variable]",
    // clang's source line stays (as under the earlier rule); its caret goes.
    "static inline int endpoint_valid(endpoint_t e) { int unused_flag; return e.fd >= 0; }",
    "In file included from src/conn.c:2:",
    "include/net/conn.h:6:59: error: no member named 'stat' in 'conn_t'; did you mean 'state'?",
    "static inline int conn_state(const conn_t *c) { return c->stat; }",
    "src/conn.c:13:16: error: use of undeclared identifier 'undefined_state'",
    "    c->state = undefined_state;",
    "1 warning and 2 errors generated.",
  ]);
});

/** pytest 9 with -ra on failing, xfail, xpass (strict and not), skipped and warning tests (captured here). */
const PYTEST_RA = [
  "============================= test session starts ==============================",
  "collected 12 items",
  "",
  "tests/test_report.py .F.F..Xxxss F                                       [100%]",
  "",
  "=================================== FAILURES ===================================",
  "____________________________ test_percent[1-8-12.6] ____________________________",
  "",
  "part = 1, whole = 8, expected = 12.6",
  "",
  "    def test_percent(part, whole, expected):",
  ">       assert percent(part, whole) == expected",
  "E       assert 12.5 == 12.6",
  "E        +  where 12.5 = percent(1, 8)",
  "",
  "tests/test_report.py:8: AssertionError",
  "________________________________ test_thousands ________________________________",
  "[XPASS(strict)] thousands separator bug #57",
  "=============================== warnings summary ===============================",
  "tests/test_report.py::test_ratio_zero",
  "  /tmp/pyrep/report.py:6: RuntimeWarning: ratio with zero denominator",
  '    warnings.warn("ratio with zero denominator", RuntimeWarning)',
  "",
  "tests/test_report.py::test_render",
  "  /tmp/pyrep/report.py:16: DeprecationWarning: render() is deprecated, use render_table()",
  '    warnings.warn("render() is deprecated, use render_table()", DeprecationWarning)',
  "",
  "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
  "=========================== short test summary info ============================",
  "SKIPPED [1] tests/test_report.py:34: windows paths only",
  "XFAIL tests/test_report.py::test_rounding - rounding mode",
  "XPASS tests/test_report.py::test_negative - known bug #41",
  "FAILED tests/test_report.py::test_percent[1-8-12.6] - assert 12.5 == 12.6",
  "FAILED tests/test_report.py::test_thousands - [XPASS(strict)] thousands separ...",
  "=== 2 failed, 4 passed, 1 skipped, 1 xfailed, 1 xpassed, 2 warnings in 3.96s ===",
];

Deno.test("pytest keeps failure headers, unexpected passes and indented warnings as printed", () => {
  const out = filter("python3 -m pytest -ra tests", PYTEST_RA.join("\n"), true);
  for (
    const line of [
      "____________________________ test_percent[1-8-12.6] ____________________________",
      "________________________________ test_thousands ________________________________",
      "[XPASS(strict)] thousands separator bug #57",
      "  /tmp/pyrep/report.py:6: RuntimeWarning: ratio with zero denominator",
      "  /tmp/pyrep/report.py:16: DeprecationWarning: render() is deprecated, use render_table()",
      "XPASS tests/test_report.py::test_negative - known bug #41",
      "FAILED tests/test_report.py::test_percent[1-8-12.6] - assert 12.5 == 12.6",
      "FAILED tests/test_report.py::test_thousands - [XPASS(strict)] thousands separ...",
      "E       assert 12.5 == 12.6",
    ]
  ) expect(out).toContain(line);
  // The header heads its failure's trace: the test's arguments and statement, then its E line.
  const head = out.indexOf(
    "____________________________ test_percent[1-8-12.6] ____________________________",
  );
  expect(
    out.slice(head + 1, out.indexOf("E       assert 12.5 == 12.6")).every((line) =>
      /^(>|\w+ = )/.test(line)
    ),
  ).toBe(true);
  expect(out.indexOf("E       assert 12.5 == 12.6")).toBeGreaterThan(head);
  // The short summary's reasons a test did not count stay; the warnings' test ids and source
  // lines go.
  expect(out).toContain("SKIPPED [1] tests/test_report.py:34: windows paths only");
  expect(out).toContain("XFAIL tests/test_report.py::test_rounding - rounding mode");
  expect(out.join("\n")).not.toContain("warnings.warn(");
  // pytest -v names an unexpected pass on its progress line: it stays too.
  const verbose = [
    "tests/test_report.py::test_render PASSED                                 [ 50%]",
    "tests/test_report.py::test_negative XPASS (known bug #41)                [100%]",
    "=================== 1 passed, 1 xpassed in 0.05s ===================",
  ];
  expect(filter("pytest -v", verbose.join("\n"))).toEqual(verbose.slice(1));
});
