/**
 * The classes of lost signals found on real outputs, each through the built-in rules: a fix in
 * the mechanism, tested on a shape of the class rather than one case.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine, SecurityScanner } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, text: string, failed = false) =>
  engine.filter(command, text, { failed }).text;

Deno.test("a CR inside a line is kept; only a CR that rewrites the line is a redraw", () => {
  const diff = '  - expected: "qty\r"\n  + actual:   "qty"';
  expect(filter("mytool check", diff, true)).toBe('  - expected: "qty␍"\n  + actual:   "qty"');
  expect(filter("mytool fetch", "10%\r55%\r100%\ndone")).toBe("100%\ndone");
  expect(filter("mytool fetch", "downloading a long file name\r\x1b[Kok")).toBe("ok");
});

Deno.test("a CR-heavy output never comes out longer than it came in, whatever path it takes", () => {
  // A test diff with `"qty\r"` on many lines: the kept CRs are shown one character each, so
  // neither the rules, the generic pass, the guard nor an output shown as it came grow it.
  const rows = Array.from(
    { length: 40 },
    (_, i) => `    + actual: "qty\r" row ${i}\n    - expected: "qty" row ${i}`,
  );
  const input = `not ok 1 - parses the order\n  ---\n${rows.join("\n")}\n  ...\n# fail 1\n`;
  for (const command of ["cat out.txt", "mytool check", "node --test", "prove -v", "pytest"]) {
    for (const failed of [true, false]) {
      const out = filter(command, input, failed);
      expect({ command, failed, longer: out.length > input.length }).toEqual({
        command,
        failed,
        longer: false,
      });
      if (failed) expect(out).toContain('    + actual: "qty␍" row 0');
    }
  }
});

Deno.test("a status a plain CR lets a message of another kind overwrite stays as its own line", () => {
  // git prints which commit a rebase is at, then the message that overwrites it.
  const rebase = "Rebasing (1/2)\rAuto-merging settings.toml\nCONFLICT (content): Merge conflict";
  expect(filter("mytool rebase", rebase, true)).toBe(
    "Rebasing (1/2)\nAuto-merging settings.toml\nCONFLICT (content): Merge conflict",
  );
  // Redraws of one status, and progress overwritten by a message, keep only their last state.
  const redraws =
    "Rebasing (1/3)\rRebasing (2/3)\rRebasing (3/3)\rSuccessfully rebased refs/heads/x.";
  expect(filter("mytool rebase", redraws)).toBe(
    "Rebasing (3/3)\nSuccessfully rebased refs/heads/x.",
  );
  for (const progress of ["Fetching 45%", "Fetching [=====>    ]", "⠋ Fetching", "Got 12.5 MB"]) {
    expect(filter("mytool fetch", `${progress}\rDone fetching everything`)).toBe(
      "Done fetching everything",
    );
  }
  // Through the saved-output path too (the fallback shows the input sanitised the same way).
  expect(filter("cat", "Rebasing (1/2)\rAuto-merging a.toml")).toBe(
    "Rebasing (1/2)\nAuto-merging a.toml",
  );
});

Deno.test("truncation keeps every failure-signal line, wherever it is", () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `src/file_${i}.txt`);
  const errors = Array.from({ length: 120 }, (_, k) => 200 + k * 20);
  for (const i of errors) lines[i] = `grep: src/file_${i}.txt: Permission denied`;
  const out = filter("grep -rn needle src", lines.join("\n"), true).split("\n");
  for (const i of errors) expect(out).toContain(`grep: src/file_${i}.txt: Permission denied`);
});

Deno.test("node --test keeps failing subtests' names, locations and messages", async () => {
  const input = await Deno.readTextFile(
    new URL("../fixtures/filters/node-test/subtests.in.txt", import.meta.url),
  );
  const out = filter("node --test", input, true);
  for (
    const fact of [
      "not ok 2 - applies discount",
      "cart.test.mjs:5:3",
      "discount rounding",
      "90 !== 91",
      "not ok 2 - rejects expired card",
      "cart.test.mjs:8:5",
      "card expired check missing",
    ]
  ) expect(out).toContain(fact);
  expect(out).not.toContain("ok 1 - charges card");
});

Deno.test("go test keeps go vet's errors printed before the tests", () => {
  const input = [
    "# example.com/shop/vet",
    "vet/vet.go:5:34: fmt.Sprintf format %s has arg n of wrong type int",
    "FAIL\texample.com/shop/vet [build failed]",
    "ok  \texample.com/shop/strs\t0.002s",
  ].join("\n");
  // Everything stays as printed.
  expect(filter("go test ./...", input, true)).toBe(input);
});

Deno.test("git log -p keeps every commit, not only the newest ones", () => {
  const commits = Array.from({ length: 12 }, (_, c) =>
    [
      `commit ${String(c).padStart(2, "0")}${"a".repeat(38)}`,
      "Author: Dev <dev@example.com>",
      "Date:   Thu Nov 26 09:00:00 2026 +0000",
      "",
      `    change number ${c}`,
      "",
      `diff --git a/f${c}.txt b/f${c}.txt`,
      "--- a/f.txt",
      "+++ b/f.txt",
      "@@ -1,20 +1,20 @@",
      ...Array.from({ length: 20 }, (_, i) => `+line ${i}`),
    ].join("\n"));
  const out = filter("git log -p", commits.join("\n"));
  for (let c = 0; c < 12; c++) {
    expect(out).toContain(`change number ${c}`);
    expect(out).toContain(`diff --git a/f${c}.txt b/f${c}.txt`);
  }
});

/** A commit of `git log -p` as git prints it: its header, subject and patch lines. */
const commit = (n: number, subject: string, patch: string[]) => [
  `commit ${String(n).padStart(2, "0")}${"b".repeat(38)}`,
  "Author: Dev <dev@example.com>",
  "Date:   Fri Nov 20 10:00:00 2026 +0000",
  "",
  `    ${subject}`,
  "",
  ...patch,
  "",
];
/** A hunk of `n` changed lines in `file`, each a line removed and its replacement. */
const hunk = (file: string, n: number) => [
  `diff --git a/${file} b/${file}`,
  "index 69fe833..6c54dd5 100644",
  `--- a/${file}`,
  `+++ b/${file}`,
  `@@ -1,${2 * n} +1,${2 * n} @@`,
  ...Array.from(
    { length: n },
    (_, i) => [`-    return respond(req, ${i})`, `+    return respond(req, ${i}00)`],
  )
    .flat(),
];

// A commit that renames a file and changes a line of it, as `git log -p` prints it.
const renameCommit = () =>
  commit(8, "Rename server module to http_server", [
    "diff --git a/app/server.py b/app/http_server.py",
    "similarity index 86%",
    "rename from app/server.py",
    "rename to app/http_server.py",
    "index d310331..69fe833 100755",
    "--- a/app/server.py",
    "+++ b/app/http_server.py",
    "@@ -2,7 +2,7 @@ def handler_0(req):",
    "-def handler_2(req):",
    "+def handle_index(req):",
  ]);

Deno.test("git log -p keeps each commit's diff header lines and its first hunk lines", () => {
  // Captured from `git log -p --follow` across a rename, a mode change and binary files: the
  // middle commits' headers and first changed lines are what the log is read for.
  const log = [
    ...commit(9, "Add health check", hunk("app/http_server.py", 40)),
    ...renameCommit(),
    ...commit(7, "Make server executable", [
      "diff --git a/app/server.py b/app/server.py",
      "old mode 100644",
      "new mode 100755",
    ]),
    ...commit(6, "Add logo", [
      "diff --git a/logo.png b/logo.png",
      "new file mode 100644",
      "index 0000000..e48c0ed",
      "Binary files /dev/null and b/logo.png differ",
    ]),
    ...commit(5, "Drop README", [
      "diff --git a/README.md b/README.md",
      "deleted file mode 100644",
      "index 2c1e0d3..0000000",
      "--- a/README.md",
      "+++ /dev/null",
      "@@ -1,3 +0,0 @@",
      "-# demo",
    ]),
    ...commit(4, "Pass status by keyword", hunk("server.py", 30)),
    ...commit(3, "Add server", hunk("server.py", 40)),
  ];
  const out = filter("git log -p --follow app/http_server.py", log.join("\n")).split("\n");
  for (
    const line of [
      "rename from app/server.py",
      "rename to app/http_server.py",
      "similarity index 86%",
      "+def handle_index(req):",
      "old mode 100644",
      "new mode 100755",
      "new file mode 100644",
      "Binary files /dev/null and b/logo.png differ",
      "deleted file mode 100644",
      "-# demo",
      // Each commit's first changed lines, the oldest's too.
      "+    return respond(req, 100)",
    ]
  ) expect(out).toContain(line);
  expect(out.filter((l) => l === "+    return respond(req, 300)").length).toBe(3);
  // Past a commit's budget its hunk lines are counted, not shown.
  expect(out).not.toContain("+    return respond(req, 3900)");
  expect(out).toContain("... (69 more diff lines: +35 -34) ...");
  expect(out.length).toBeLessThan(log.length / 2);
});

Deno.test("git show of several commits keeps every commit and its renames past the diff budget", () => {
  // `git show A..B`: the newest commit's patch spends the budget; the older ones still say
  // which commit, what for, and which files they renamed or added, under their own commit.
  const show = [
    ...commit(
      9,
      "Add health checks",
      ["a", "b", "c", "d", "e", "f"].flatMap((m) => hunk(`app/${m}.py`, 100)),
    ),
    ...renameCommit(),
    ...commit(6, "Add logo", [
      "diff --git a/logo.png b/logo.png",
      "new file mode 100644",
      "index 0000000..e48c0ed",
      "Binary files /dev/null and b/logo.png differ",
    ]),
  ];
  const out = filter("git show HEAD~3..HEAD", show.join("\n")).split("\n");
  const at = (line: string) => out.indexOf(line);
  for (
    const line of [
      `commit 08${"b".repeat(38)}`,
      "    Rename server module to http_server",
      "rename from app/server.py",
      "rename to app/http_server.py",
      `commit 06${"b".repeat(38)}`,
      "    Add logo",
      "Binary files /dev/null and b/logo.png differ",
    ]
  ) expect(out).toContain(line);
  // Each listed file is under its own commit, before the next one.
  expect(at("rename from app/server.py")).toBeGreaterThan(at(`commit 08${"b".repeat(38)}`));
  expect(at("rename from app/server.py")).toBeLessThan(at(`commit 06${"b".repeat(38)}`));
  expect(out).not.toContain("+def handle_index(req):");
});

/**
 * `make -k -j4` over C files with -Wall -Wextra and two errors (captured with gcc 12; trimmed to
 * three files): the compiles are echoed before their diagnostics, warnings and errors mixed.
 */
const MAKE_J4 = [
  "gcc -Wall -Wextra -O2 -Isrc -c src/net.c -o src/net.o",
  "gcc -Wall -Wextra -O2 -Isrc -c src/tls.c -o src/tls.o",
  "gcc -Wall -Wextra -O2 -Isrc -c src/conf.c -o src/conf.o",
  "src/net.c: In function 'net_open':",
  "src/net.c:2:41: warning: unused variable 'unused' [-Wunused-variable]",
  "    2 | int net_open(int port, int flags) { int unused; return port; }",
  "      |                                         ^~~~~~",
  "src/net.c:2:28: warning: unused parameter 'flags' [-Wunused-parameter]",
  "    2 | int net_open(int port, int flags) { int unused; return port; }",
  "      |                        ~~~~^~~~~",
  "src/tls.c: In function 'tls_state':",
  "src/tls.c:5:13: error: 'struct conn' has no member named 'session'; did you mean 'sess'?",
  "    5 |   return p->session->state;",
  "      |             ^~~~~~~",
  "      |             sess",
  "src/tls.c:4:7: warning: unused variable 'unused' [-Wunused-variable]",
  "    4 |   int unused;",
  "      |       ^~~~~~",
  "make: *** [Makefile:9: src/tls.o] Error 1",
  "src/conf.c: At top level:",
  "src/conf.c:2:37: warning: unused parameter 'mode' [-Wunused-parameter]",
  "    2 | int conf_load(const char *path, int mode) { return 0; }",
  "      |                                 ~~~~^~~~",
  "src/conf.c: In function 'conf_bad':",
  "src/conf.c:3:29: error: 'undefined_var' undeclared (first use in this function)",
  "    3 | int conf_bad(void) { return undefined_var + 1; }",
  "      |                             ^~~~~~~~~~~~~",
  "src/conf.c:3:29: note: each undeclared identifier is reported only once for each function it appears in",
  "make: *** [Makefile:9: src/conf.o] Error 1",
  "make: Target 'app' not remade because of errors.",
];

Deno.test("make + gcc keeps each failed object's compile command and its errors' code frames", () => {
  const out = filter("make -k -j4", MAKE_J4.join("\n"), true).split("\n");
  // The failed objects' compiles stay, leading with the errors; the others go.
  expect(out.slice(0, 2)).toEqual([MAKE_J4[1], MAKE_J4[2]]);
  expect(out).not.toContain(MAKE_J4[0]);
  // An error keeps its code frame, right under it; a warning's goes.
  const at = out.indexOf(MAKE_J4[11]);
  expect(out.slice(at, at + 5)).toEqual(MAKE_J4.slice(11, 15).concat(MAKE_J4[18]));
  expect(out).toContain("    3 | int conf_bad(void) { return undefined_var + 1; }");
  expect(out).not.toContain("    4 |   int unused;");
  expect(out).not.toContain(
    "    2 | int net_open(int port, int flags) { int unused; return port; }",
  );
  // An error's function header stays right before it (it says which function the error is in);
  // no header is left over warnings alone.
  expect(out.filter((l) => /: (In function|At top level)/.test(l))).toEqual([
    MAKE_J4[10],
    MAKE_J4[23],
  ]);
  expect(out[out.indexOf(MAKE_J4[11]) - 1]).toBe(MAKE_J4[10]);
  expect(out[out.indexOf(MAKE_J4[24]) - 1]).toBe(MAKE_J4[23]);
});

/** More of that capture: warnings of the files compiled after them (grouping pays off). */
const MORE_WARNINGS = [
  "src/log.c: In function 'log_level':",
  "src/log.c:2:28: warning: unused parameter 'other' [-Wunused-parameter]",
  "    2 | int log_level(int lvl, int other) { return lvl; }",
  "      |                        ~~~~^~~~~",
  "src/main.c: In function 'main':",
  "src/main.c:2:14: warning: unused parameter 'argc' [-Wunused-parameter]",
  "    2 | int main(int argc, char **argv) { return util_len(argv[0]); }",
  "      |          ~~~~^~~~",
];

Deno.test("make with a quiet echo (kbuild's `  CC x.o`) or ninja keeps the failed step's line", async () => {
  const quiet = await Deno.readTextFile(
    new URL("../../bench/corpus/make/make_k_quiet_echo.txt", import.meta.url),
  );
  const out = filter("make -k -f Makefile.quiet", quiet, true).split("\n");
  expect(out.slice(0, 3)).toEqual([
    "  CC      src/tls.o",
    "src/tls.c: In function 'tls_state':",
    "src/tls.c:5:13: error: 'struct conn' has no member named 'session'; did you mean 'sess'?",
  ]);
  expect(out).toContain("  CC      src/conf.o");
  expect(out).not.toContain("  CC      src/util.o");
  const ninja = [
    "[1/3] Building C object CMakeFiles/app.dir/src/net.c.o",
    "[2/3] Building C object CMakeFiles/app.dir/src/tls.c.o",
    "FAILED: CMakeFiles/app.dir/src/tls.c.o ",
    ...MAKE_J4.slice(3, 18),
    ...MORE_WARNINGS,
    "ninja: build stopped: subcommand failed.",
  ];
  const built = filter("ninja", ninja.join("\n"), true).split("\n");
  expect(built.slice(0, 4)).toEqual(ninja.slice(1, 3).concat(MAKE_J4[10], MAKE_J4[11]));
});

Deno.test("cmake --build, ninja and make over a CMake tree keep each failed compile's command and error frame", async () => {
  // Two targets failing to compile with warnings before and between them (real captures): the
  // Makefile and Ninja generators through `cmake --build`, and ninja and make run in their trees.
  for (
    const name of [
      "cmake_build_make_two_failures",
      "cmake_build_ninja_two_failures",
      "ninja_cmake_two_failures",
      "make_cmake_two_failures",
      "make_verbose_cmake_two_failures",
    ]
  ) {
    const read = (ext: string) =>
      Deno.readTextFile(new URL(`../../bench/corpus/native/${name}.${ext}`, import.meta.url));
    const input = await read("txt");
    const { command } = JSON.parse(await read("json"));
    const out = filter(command, input, true).split("\n");
    const kept = (line: string) => out.includes(line);
    const printed = input.split("\n");
    for (const object of ["app.dir/src/a.c.o", "tool.dir/src/b.c.o"]) {
      // The failed object's compile command (ninja prints it under `FAILED:`; make under VERBOSE).
      const echoed = printed.find((l) =>
        l.startsWith("/usr/bin/cc ") && l.includes(`-o CMakeFiles/${object}`)
      );
      if (echoed) expect({ name, kept: kept(echoed) }).toEqual({ name, kept: true });
    }
    // Each error keeps its code frame (the source line and the caret under it).
    for (const frame of ['    4 |     int x = "a";', "    5 |     return missing_var;"]) {
      expect({ name, frame, kept: kept(frame) }).toEqual({ name, frame, kept: true });
    }
    // A compile that passed: its command goes.
    const passed = printed.find((l) => l.startsWith("/usr/bin/cc ") && l.includes("util.c.o"));
    if (passed) expect({ name, passed: kept(passed) }).toEqual({ name, passed: false });
  }
});

Deno.test("npm install keeps engine warnings and skipped install scripts", () => {
  const input = [
    "npm warn deprecated inflight@1.0.6: This module is not supported",
    "npm warn EBADENGINE Unsupported engine {",
    "npm warn EBADENGINE   package: 'vite@6.0.0',",
    "npm warn EBADENGINE   required: { node: '^18.0.0 || >=20.0.0' },",
    "npm warn EBADENGINE   current: { node: 'v16.20.2', npm: '8.19.4' }",
    "npm warn EBADENGINE }",
    "",
    "added 118 packages in 26s",
    "npm warn install-scripts 1 package has install scripts not yet covered by allowScripts:",
    "npm warn install-scripts   esbuild@0.21.5 (postinstall: node install.js)",
  ];
  const out = filter("npm install", input.join("\n"));
  // Everything stays as printed but the deprecation notice and the blank line.
  expect(out).toBe([...input.slice(1, 6), ...input.slice(7)].join("\n"));
  const pnpm = "Packages: +3\n+++\n│   Ignored build scripts: esbuild.   │\nDone in 1.2s";
  expect(filter("pnpm install", pnpm)).toContain("Ignored build scripts: esbuild.");
});

Deno.test("pnpm install keeps its last progress line, what it added and its warnings", () => {
  const progress = [
    "Progress: resolved 1, reused 0, downloaded 0, added 0",
    "Progress: resolved 40, reused 0, downloaded 3, added 0",
    "Progress: resolved 59, reused 0, downloaded 51, added 0",
  ];
  const kept = [
    "Progress: resolved 59, reused 0, downloaded 59, added 59, done",
    "dependencies:",
    "+ react-dom 18.2.0 (19.3.1 is available)",
    "\u2009WARN\u2009 Issues with peer dependencies found",
    ".",
    "└─┬ react-dom 18.2.0",
    "  └── ✕ missing peer react@^18.2.0",
    "Done in 4.2s using pnpm v9.15.9",
  ];
  const input = [
    ...progress,
    "Packages: +59",
    "+".repeat(59),
    "Progress: resolved 59, reused 0, downloaded 58, added 12",
    kept[0],
    "",
    ...kept.slice(1, 3),
    "",
    ...kept.slice(3, 7),
    "",
    kept[7],
  ];
  for (const command of ["pnpm install", "pnpm add react-dom@18.2.0", "pnpm -r install"]) {
    expect(filter(command, input.join("\n"))).toBe(kept.join("\n"));
  }
  const failed = [
    ".../node_modules/shop-native postinstall$ node install.js",
    ".../node_modules/shop-native postinstall: gyp ERR! stack Error: not found: make",
    ".../node_modules/shop-native postinstall: Failed",
    "\u2009ELIFECYCLE\u2009 Command failed with exit code 1.",
  ];
  expect(filter("pnpm install", [...progress, ...failed].join("\n"), true)).toBe(failed.join("\n"));
});

Deno.test("the security pass does not flag lint wording; HTTP 403 and RBAC refusals it does", () => {
  const flagged = (text: string) => {
    const scanner = new SecurityScanner();
    scanner.scan(text);
    return scanner.signalLines;
  };
  expect(flagged("src/a.ts:3:7 lint/style/noNonNullAssertion Forbidden non-null assertion."))
    .toEqual([]);
  expect(flagged("HTTP/1.1 403 Forbidden")).toEqual(["HTTP/1.1 403 Forbidden"]);
  const rbac = 'Error from server (Forbidden): pods is forbidden: User "dev" cannot list';
  expect(flagged(rbac)).toEqual([rbac]);
});

Deno.test("nextest failures keep the assertion and its left/right values", () => {
  const input = [
    "    Starting 2 tests across 1 binary",
    "        PASS [   0.006s] (1/2) calc tests::adds",
    "        FAIL [   0.006s] (2/2) calc tests::totals",
    "",
    "  stderr ───",
    "",
    "    thread 'tests::totals' panicked at src/lib.rs:15:9:",
    "    assertion `left == right` failed",
    "      left: 90",
    "     right: 81",
    "",
    "────────────",
    "     Summary [   0.007s] 2 tests run: 1 passed, 1 failed, 0 skipped",
    "        FAIL [   0.006s] (2/2) calc tests::totals",
    "error: test run failed",
  ].join("\n");
  const out = filter("cargo nextest run", input, true);
  for (const fact of ["assertion `left == right` failed", "left: 90", "right: 81"]) {
    expect(out).toContain(fact);
  }
});

Deno.test("make whose output is only compiler command lines is not emptied", () => {
  const input = "gcc -O2 -c foo.c -o foo.o\ngcc -O2 -c bar.c -o bar.o\ngcc -o app foo.o bar.o";
  expect(filter("make", input)).toBe(input);
});

Deno.test("a failed command never comes out emptier than its failure", () => {
  // The make rules drop compiler command lines; the failure is on one of them.
  const input =
    "cc -O2 -c x.c 2>&1 | tee log || echo 'error: compiler crashed'\nmake: *** [all] Error 1";
  const out = filter("make", input, true);
  expect(out).toContain("Error 1");
});

Deno.test("a pytest class test's failure keeps its name as printed beside its id", () => {
  const input = [
    "=================================== FAILURES ===================================",
    "____________________ CartTests.test_total ____________________",
    "",
    "    def test_total(self):",
    ">       self.assertEqual(total([1, 2]), 4)",
    "E       AssertionError: 3 != 4",
    "",
    "tests/test_cart.py:9: AssertionError",
    "____________________ test_empty ____________________",
    ">       assert total([]) == 1",
    "E       assert 0 == 1",
    "",
    "tests/test_cart.py:14: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_cart.py::CartTests::test_total - AssertionError: 3 != 4",
    "FAILED tests/test_cart.py::test_empty - assert 0 == 1",
    "========================= 2 failed, 4 passed in 0.52s ==========================",
  ].join("\n");
  const out = filter("pytest", input, true);
  expect(out).toContain("CartTests.test_total");
  expect(out).toContain("tests/test_cart.py::CartTests::test_total");
  // The header, as printed, heads the failure (its statement and E line under it); the short
  // summary's line stays as printed too.
  expect(out).toContain(
    "____________________ test_empty ____________________\n>       assert total([]) == 1\nE       assert 0 == 1",
  );
  expect(out).toContain("FAILED tests/test_cart.py::test_empty - assert 0 == 1");
});

Deno.test("a clean make build keeps its compiler commands, the link step included", () => {
  const input = [
    "mkdir -p build",
    "cc -Wall -c -o build/a.o src/a.c",
    "cc -Wall -c -o build/b.o src/b.c",
    "cc -Wall -o app build/a.o build/b.o",
  ].join("\n");
  expect(filter("make", input)).toContain("cc -Wall -o app build/a.o build/b.o");
  // With warnings grouped, the command lines around them go.
  const warned = [
    "cc -Wall -c -o build/a.o src/a.c",
    "cc -Wall -c -o build/b.o src/b.c",
    "cc -Wall -c -o build/c.o src/c.c",
    ...Array.from(
      { length: 4 },
      (_, i) => `src/a${i}.c:2:5: warning: unused variable ‘x’ [-Wunused-variable]`,
    ),
    "cc -Wall -o app build/a.o",
  ].join("\n");
  expect(filter("make", warned)).not.toContain("cc -Wall -c");
});

Deno.test("gcc keeps the function header right over an error; over a warning it goes", () => {
  // g++ 12 on two files (captured), one error and one warning.
  const input = [
    "hull.cpp: In function ‘std::vector<Point> hull(std::vector<Point>)’:",
    "hull.cpp:10:19: error: could not convert ‘(h.std::vector<Point>::size() + ((std::vector<Point>::size_type)n))’ from ‘std::vector<Point>::size_type’ {aka ‘long unsigned int’} to ‘std::vector<Point>’",
    "   10 |   return h.size() + n;",
    "      |          ~~~~~~~~~^~~",
    "util.cpp: In function ‘int offset(int)’:",
    "util.cpp:2:25: warning: unused variable ‘z’ [-Wunused-variable]",
    "    2 | int offset(int v) { int z; return v; }",
    "      |                         ^",
  ];
  const out = filter("g++ -Wall -c hull.cpp util.cpp", input.join("\n"), true).split("\n");
  expect(out).toEqual([input[0], input[1], input[5]]);
});

/** `go test -coverprofile=c.out ./...; go tool cover -func=c.out` over two packages (go 1.2x, captured). */
const GO_TEST_THEN_COVER = [
  "--- FAIL: TestAdd (0.00s)",
  "    mathx_test.go:5: bad",
  "FAIL",
  "coverage: 42.9% of statements",
  "FAIL\texample.com/covkit/mathx\t0.004s",
  "ok  \texample.com/covkit/textx\t0.003s\tcoverage: 20.0% of statements",
  "FAIL",
  "example.com/covkit/mathx/mathx.go:3:\tAdd\t\t100.0%",
  "example.com/covkit/mathx/mathx.go:5:\tMax\t\t66.7%",
  "example.com/covkit/mathx/mathx.go:12:\tAbs\t\t0.0%",
  "example.com/covkit/textx/textx.go:5:\tUpper\t\t100.0%",
  "example.com/covkit/textx/textx.go:7:\tReverse\t\t0.0%",
  "total:\t\t\t\t\t(statements)\t33.3%",
];

/** `cargo clippy && cargo test` on a small crate (captured; clippy's help blocks trimmed). */
const CLIPPY_THEN_TEST = [
  "warning: unneeded `return` statement",
  " --> src/lib.rs:6:5",
  "  |",
  "6 |     return t;",
  "  |     ^^^^^^^^",
  "  |",
  "  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return",
  "  = note: `#[warn(clippy::needless_return)]` on by default",
  "  |",
  "6 -     return t;",
  "6 +     t",
  "  |",
  "",
  "warning: the loop variable `i` is only used to index `xs`",
  " --> src/lib.rs:3:14",
  "  |",
  "3 |     for i in 0..xs.len() {",
  "  |              ^^^^^^^^^^^",
  "  |",
  "  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_range_loop",
  "  = note: `#[warn(clippy::needless_range_loop)]` on by default",
  "  |",
  "3 -     for i in 0..xs.len() {",
  "3 +     for <item> in &xs {",
  "  |",
  "",
  "warning: manual implementation of an assign operation",
  " --> src/lib.rs:4:9",
  "  |",
  "4 |         t = t + xs[i];",
  "  |         ^^^^^^^^^^^^^ help: replace it with: `t += xs[i]`",
  "  |",
  "  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#assign_op_pattern",
  "  = note: `#[warn(clippy::assign_op_pattern)]` on by default",
  "",
  "warning: writing `&String` instead of `&str` involves a new object where a slice will do",
  " --> src/lib.rs:9:25",
  "  |",
  "9 | pub fn is_empty_name(s: &String) -> bool {",
  "  |                         ^^^^^^^",
  "  |",
  "  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#ptr_arg",
  "  = note: `#[warn(clippy::ptr_arg)]` on by default",
  "  |",
  "9 - pub fn is_empty_name(s: &String) -> bool {",
  "9 + pub fn is_empty_name(s: &str) -> bool {",
  "  |",
  "",
  "warning: length comparison to zero",
  "  --> src/lib.rs:10:5",
  "   |",
  "10 |     s.len() == 0",
  "   |     ^^^^^^^^^^^^ help: using `is_empty` is clearer and more explicit: `s.is_empty()`",
  "   |",
  "   = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#len_zero",
  "   = note: `#[warn(clippy::len_zero)]` on by default",
  "",
  "warning: `ledger` (lib) generated 5 warnings (run `cargo clippy --fix --lib -p ledger -- ` to apply 3 suggestions)",
  "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.38s",
  "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.61s",
  "     Running unittests src/lib.rs (target/debug/deps/ledger-6bc935356f631c94)",
  "",
  "running 3 tests",
  "test tests::empty ... ok",
  "test tests::one ... ok",
  "test tests::sums ... ok",
  "",
  "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
  "",
  "   Doc-tests ledger",
  "",
  "running 0 tests",
  "",
  "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
];

Deno.test("a compound command's other output survives a test run's summary, before and after it", () => {
  // go test's summary keeps only what it knows; the coverage report printed after its last
  // package result is go tool cover's, for its own rule.
  const cover = filter(
    "go test -coverprofile=c.out ./...; go tool cover -func=c.out",
    GO_TEST_THEN_COVER.join("\n"),
    true,
  ).split("\n");
  for (const line of GO_TEST_THEN_COVER.filter((l) => / 0\.0%$| 66\.7%$|^total:/.test(l))) {
    expect(cover).toContain(line);
  }
  expect(cover).toContain("    mathx_test.go:5: bad");
  // clippy's warnings come before cargo test's run: they stay for the clippy rule, which groups
  // them; the tests' counts stay too.
  for (const command of ["cargo clippy && cargo test", "cargo clippy; cargo test"]) {
    const out = filter(command, CLIPPY_THEN_TEST.join("\n")).split("\n");
    for (const line of CLIPPY_THEN_TEST.filter((l) => /^(warning: |test result: )/.test(l))) {
      expect({ command, kept: out.some((l) => l.startsWith(line.replace(/ {2}\[.*$/, ""))) })
        .toEqual({ command, kept: true });
    }
  }
});

Deno.test("a failure cut past its trace limit keeps the assertion's compared values", () => {
  // cargo test (captured, rust 1.95): a test printing 240 lines before its assertion fails.
  const orders = Array.from({ length: 240 }, (_, i) => {
    const total = 7 * i * (i + 1) / 2;
    return `order ${i} settled, running total ${total}`;
  });
  const input = [
    "running 4 tests",
    "test tests::sums ... ok",
    "test noisy::settles_orders ... FAILED",
    "",
    "failures:",
    "",
    "---- noisy::settles_orders stdout ----",
    ...orders,
    "",
    "thread 'noisy::settles_orders' (16026) panicked at src/lib.rs:33:9:",
    "assertion `left == right` failed",
    "  left: 200760",
    " right: 3500000",
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    "",
    "failures:",
    "    noisy::settles_orders",
    "",
    "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.59s",
  ];
  const out = filter("cargo test", input.join("\n"), true).split("\n");
  expect(out).toContain("  left: 200760");
  expect(out).toContain(" right: 3500000");
  expect(out).not.toContain(orders[120]);
  // pytest's `E` lines under an assertion and go's got/want lines, past the limit, the same way.
  const pytest = [
    "=================================== FAILURES ===================================",
    "__________________________________ test_sum ___________________________________",
    ...Array.from({ length: 80 }, (_, i) => `    x${i} = step(${i})`),
    ">       assert total(rows) == 42",
    "E       assert 41 == 42",
    "E        +  where 41 = total([1, 2, 3])",
    "",
    "tests/test_sum.py:90: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_sum.py::test_sum - assert 41 == 42",
    "============================== 1 failed in 0.03s ===============================",
  ];
  const py = filter("pytest --tb=long", pytest.join("\n"), true).split("\n");
  expect(py).toContain("E        +  where 41 = total([1, 2, 3])");
});

Deno.test("a cut inside a long diff hunk keeps a conflict's marker lines and the lines next to them", async () => {
  // Real git 2.39 runs over a yarn lockfile that both branches bumped: `git diff` during the
  // merge (a combined diff, `++<<<<<<<`), and a plain diff of the merge committed with its
  // conflict in (`+<<<<<<<`); in both the conflict sits in the middle of a hunk of 300 lines.
  const cases = [
    ["merge_conflict_long", "git merge deps/upgrade-all; git diff"],
    ["committed_conflict_long", "git diff HEAD^1^1 HEAD"],
  ];
  for (const [name, command] of cases) {
    const input = (await Deno.readTextFile(
      new URL(`../fixtures/filters/git-diff/${name}.in.txt`, import.meta.url),
    )).split("\n");
    const out = filter(command, input.join("\n")).split("\n");
    expect(out.length).toBeLessThan(input.length / 3);
    // Each marker stays with the lines before and after it as printed, in their order.
    const markers = input.flatMap((l, i) => /^\+\+?(<{7}|={7}$|>{7})/.test(l) ? [i] : []);
    expect(markers.length).toBe(3);
    for (const at of markers) {
      const printed = input.slice(at - 1, at + 2).map((l) => l.trimEnd());
      const shown = out.indexOf(input[at]);
      expect({ name, around: out.slice(shown - 1, shown + 2) }).toEqual({ name, around: printed });
    }
  }
});

Deno.test("cargo build keeps the Compiling line of the crate that fails, also after grouped warnings", async () => {
  // A real cargo 1.95 run over a workspace: one member builds with warnings (grouped), the
  // member built after it fails; its `Compiling` line comes back right before `could not compile`.
  const input = await Deno.readTextFile(
    new URL(
      "../fixtures/filters/cargo-build-tidy/member_error_after_warnings.in.txt",
      import.meta.url,
    ),
  );
  const out = filter("cargo build -p api", input, true).split("\n");
  expect(out.slice(-2)).toEqual([
    "   Compiling api v0.2.0 (/tmp/fix21b/ws/api)",
    'error: could not compile `api` (bin "api") due to 1 previous error',
  ]);
  // The crate that built goes: its warnings name it.
  expect(out.some((line) => line.includes("Compiling pricing"))).toBe(false);
});

Deno.test("tsc --pretty keeps the code frame of an error alone in its code beside a flood of another", async () => {
  // A real tsc 5.9 run: 160 TS7006 in one file ported from JavaScript, and two hand-written
  // errors of their own codes, one with related information quoting its own frame.
  const input = await Deno.readTextFile(
    new URL("../fixtures/filters/tsc/pretty_flood_and_singles.in.txt", import.meta.url),
  );
  const out = filter("npx tsc --pretty -p .", input, true).split("\n");
  const at = out.indexOf(
    "src/invoice.ts:8:9 - error TS2322: Type 'string' is not assignable to type 'number'.",
  );
  expect(out.slice(at, at + 9)).toEqual([
    "src/invoice.ts:8:9 - error TS2322: Type 'string' is not assignable to type 'number'.",
    "8   const label: number = inv.id;",
    "          ~~~~~",
    "src/invoice.ts:9:26 - error TS2551: Property 'totl' does not exist on type 'Invoice'. Did you mean 'total'?",
    "9   return `${label} ${inv.totl} ${inv.currency}`;",
    "                           ~~~~",
    "  src/invoice.ts:3:3",
    "    3   total: number;",
    "        ~~~~~",
  ]);
  // The flood's frames go: its findings are listed by their lines.
  expect(out.some((line) => line.includes("export function metric"))).toBe(false);
  expect(out.length).toBeLessThan(200);
});

Deno.test("psql keeps every command tag that counts rows, an insert's too; only one-row inserts go with the DDL tags", async () => {
  // Real psql 15 runs: a migration in one transaction whose `INSERT … SELECT` steps copy
  // thousands of rows before a unique index fails, and a load script run on past its error with
  // seeds `ON CONFLICT DO NOTHING` (`INSERT 0 0`: the row was there), a COPY and a bulk insert.
  const cases = [
    [
      "migration_bulk_counts",
      "psql -X -d library -v ON_ERROR_STOP=1 --single-transaction -f a.sql",
    ],
    ["load_counts_continue", "psql -X -d metrics -f load.sql"],
  ];
  for (const [name, command] of cases) {
    const input = (await Deno.readTextFile(
      new URL(`../fixtures/filters/psql/${name}.in.txt`, import.meta.url),
    )).split("\n");
    const out = filter(command, input.join("\n"), name === "migration_bulk_counts").split("\n");
    const counts = input.filter((l) =>
      /^(INSERT \d+ (?!1$)\d+|UPDATE \d+|DELETE \d+|COPY \d+|SELECT \d+)$/.test(l)
    );
    expect(counts.length).toBeGreaterThan(3);
    expect({ name, kept: out.filter((l) => counts.includes(l)) }).toEqual({ name, kept: counts });
    // The acknowledgements go: one-row inserts, DDL and transaction tags (COMMENT's is one word).
    expect({
      name,
      acks: out.filter((l) => /^(INSERT 0 1|CREATE TABLE|BEGIN|COMMIT|COMMENT)$/.test(l)),
    })
      .toEqual({ name, acks: [] });
    expect(out.some((l) => l.startsWith("psql:"))).toBe(true);
  }
});
