/**
 * What a test run prints around its failures that says where and how they happened, lost by the
 * built-in rules on real runs: pytest --pdb's traceback printed in place of a failures section
 * (with the progress line naming the test's file, and pdb's stop), a report the command asked
 * for on a failed run (`--durations`), the paths under a collection error's message, npm's banner
 * and error naming the failed workspace of `npm test --workspaces`, vitest's snapshot counts under
 * their label, and turbo's tally of tasks on a failed run. Tested through the built-in rules on
 * real captures (tests/fixtures/filters) and on shapes of each class.
 */
import { expect } from "expect";
import { filter, fixture, lines } from "./_builtin.ts";

Deno.test("pytest --pdb's traceback reads as a failure, with its file's progress and pdb's stop", async () => {
  const input = await fixture("pytest/pdb_post_mortem.in.txt");
  const out = lines(filter("python3 -m pytest -p no:cacheprovider --pdb tests", input, true));
  for (
    const line of [
      "tests/test_ledger.py ..F",
      ">       assert debit(5, 8) == -3",
      "tests/test_ledger.py:12: ",
      "E           RuntimeError: overdraft: 8 > 5",
      "ledger.py:3: RuntimeError",
      "> /tmp/fix21a_cap/pdb/ledger.py(3)debit()",
      '-> raise RuntimeError(f"overdraft: {amount} > {balance}")',
      "(Pdb) ",
      "FAILED tests/test_ledger.py::test_overdraft - RuntimeError: overdraft: 8 > 5",
    ]
  ) expect(out).toContain(line);
  // The source context and the session header still go.
  expect(out).not.toContain("    def test_overdraft():");
  expect(out.some((line) => line.startsWith("rootdir: "))).toBe(false);
  // The progress line stays over the traceback it heads, not where it was alone.
  expect(out.indexOf("tests/test_ledger.py ..F") + 1).toBe(
    out.findIndex((line) => /^>+ traceback >+$/.test(line)),
  );
});

Deno.test("a progress row with a failure mark is kept once, with or without a pdb traceback", async () => {
  const row = "tests/test_a.py .F                                                       [100%]";
  const input = [
    row,
    "",
    "=================================== FAILURES ===================================",
    "____________________________________ test_b ____________________________________",
    "E       assert 1 == 2",
    "tests/test_a.py:4: AssertionError",
    "========================= 1 failed, 1 passed in 0.02s ==========================",
  ].join("\n");
  expect(lines(filter("pytest", input, true)).filter((line) => line === row)).toHaveLength(1);
  const pdb = lines(
    filter(
      "python3 -m pytest -p no:cacheprovider --pdb tests",
      await fixture("pytest/pdb_post_mortem.in.txt"),
      true,
    ),
  );
  expect(pdb.filter((line) => line === "tests/test_ledger.py ..F")).toHaveLength(1);
});

Deno.test("a failed pytest run keeps the top rows of a report it asked for", async () => {
  const input = await fixture("pytest/durations_failed.in.txt");
  const out = lines(
    filter("python3 -m pytest -p no:cacheprovider --durations=8 tests", input, true),
  );
  const all = lines(input);
  const head = all.findIndex((line) => /^=+ slowest 8 durations =+$/.test(line));
  expect(out).toContain(all[head]);
  expect(out.slice(out.indexOf(all[head]) + 1, out.indexOf(all[head]) + 6)).toEqual(
    all.slice(head + 1, head + 6),
  );
  expect(out).not.toContain(all[head + 6]);
  expect(out).toContain("… 3 more lines of this report …");
  expect(out).toContain("FAILED tests/test_step7.py::test_step_7 - assert 7 != 7");
});

Deno.test("a failed run's report with no rows under its head says nothing", () => {
  const input = [
    "tests/test_a.py Fx                                                       [100%]",
    "",
    "=================================== FAILURES ===================================",
    "____________________________________ test_a ____________________________________",
    "E       assert 1 == 2",
    "tests/test_a.py:4: AssertionError",
    "=================================== XPASSES ====================================",
    "=========================== short test summary info ============================",
    "FAILED tests/test_a.py::test_a - assert 1 == 2",
    "==================== 1 failed, 1 xpassed in 0.02s =====================",
  ].join("\n");
  expect(filter("pytest -rA", input, true)).not.toContain("XPASSES");
});

Deno.test("a collection error keeps the paths under its message's colon lines", async () => {
  const input = await fixture("pytest/collect_file_mismatch.in.txt");
  const out = lines(filter("python3 -m pytest -p no:cacheprovider tests", input, true));
  for (
    const line of [
      "import file mismatch:",
      "imported module 'test_models' has this __file__ attribute:",
      "  /tmp/fix21a_cap/dup/tests/api/test_models.py",
      "which is not the same as the test file we want to collect:",
      "  /tmp/fix21a_cap/dup/tests/db/test_models.py",
      "ERROR tests/db/test_models.py",
    ]
  ) expect(out).toContain(line);
});

Deno.test("npm test --workspaces keeps the failed workspace's banner and npm's error naming it", async () => {
  const input = await fixture("jest-vitest/npm_workspaces_node_test.in.txt");
  const out = lines(filter("npm test --workspaces --if-present", input, true));
  const banner = out.indexOf("> @depot/billing@1.2.0 test");
  expect(banner).toBeGreaterThanOrEqual(0);
  expect(out[banner + 1]).toBe("not ok 2 - billing rounds");
  expect(out).toContain("npm error Lifecycle script `test` failed with error:");
  expect(out).toContain("npm error workspace @depot/billing@1.2.0");
  // The passing workspaces' banners, the script's echo and npm's lines repeating the banner go.
  expect(out).not.toContain("> @depot/auth@1.2.0 test");
  expect(out).not.toContain("> node --test test/");
  expect(out).not.toContain("npm error code 1");
  expect(out).not.toContain("npm error command failed");
});

Deno.test("npm's closing error loses the same echoed lines under a test run and a task runner's prefix", async () => {
  // npm 11 `npm test` in a workspace package (node --test failing), turbo 2 `turbo run build`.
  const runs = [
    ["npm test", await fixture("npm-script-error/single_node_test.in.txt"), ""],
    ["turbo run build", await fixture("task-runners/turbo_failed.in.txt"), "web:build: "],
  ] as const;
  for (const [command, input, prefix] of runs) {
    const out = lines(filter(command, input, true));
    const npm = out.filter((line) => line.startsWith(`${prefix}npm error `));
    // What failed stays, and the workspace where no prefix names it.
    expect(npm).toEqual([
      `${prefix}npm error Lifecycle script \`${prefix ? "build" : "test"}\` failed with error:`,
      ...(prefix ? [] : ["npm error workspace @shop/a@0.1.0"]),
    ]);
  }
});

Deno.test("npm's closing error loses the same lines when a wrapper starts the test script", async () => {
  // Real npm 11 captures under c8 and nyc (a workspace's node --test failing), and the fixture of
  // `npm test --workspaces` under each wrapper the command normaliser removes.
  const workspaces = await fixture("jest-vitest/npm_workspaces_node_test.in.txt");
  const runs = [
    [
      "c8 -r text npm test --workspaces",
      await fixture("npm-script-error/c8_workspaces_node_test.in.txt"),
    ],
    [
      "nyc --reporter=text npm test -w @fixr3/calc",
      await fixture("npm-script-error/nyc_workspace_node_test.in.txt"),
    ],
    ["c8 npm test --workspaces", workspaces],
    ["nyc npm test", workspaces],
    ["cross-env CI=1 npm test --workspaces", workspaces],
    ["dotenv -e .env.test -- npm test", workspaces],
    ["npx c8 npm test", workspaces],
  ] as const;
  for (const [command, input] of runs) {
    const out = lines(filter(command, input, true));
    expect(out.filter((line) => line.startsWith("npm error "))).toEqual([
      "npm error Lifecycle script `test` failed with error:",
      input.match(/^npm error workspace .*$/m)![0],
    ]);
    // The failure stays.
    expect(out.some((line) => /^not ok \d+ - /.test(line))).toBe(true);
  }
});

Deno.test("npm's banner of a one-package test script goes", () => {
  const input = [
    "",
    "> shop@1.0.0 test",
    "> node --test",
    "",
    "not ok 1 - adds",
    "  ---",
    "  error: 'Expected values to be strictly equal:\\n\\n1 !== 2\\n'",
    "  ...",
    "# tests 1",
    "# pass 0",
    "# fail 1",
  ].join("\n");
  const out = lines(filter("npm test", input, true));
  expect(out).toContain("not ok 1 - adds");
  expect(out).not.toContain("> shop@1.0.0 test");
});

Deno.test("vitest's snapshot counts keep the lines under their label", async () => {
  const input = await fixture("jest-vitest/vitest_update_snapshots.in.txt");
  const out = lines(filter("npx vitest run -u", input));
  const at = out.indexOf("  Snapshots  2 written");
  expect(at).toBeGreaterThanOrEqual(0);
  expect(out.slice(at + 1, at + 5)).toEqual([
    "             1 updated ",
    "             1 removed",
    "             ↳ test/slug.test.js",
    "               · slug legacy 1",
  ]);
  expect(out).toContain(" Test Files  1 passed (1)");
});

Deno.test("turbo's tally of tasks stays on a failed run and goes on a passing one", async () => {
  const failed = lines(
    filter(
      "npx turbo run test --continue",
      await fixture("task-runners/turbo_continue_failed.in.txt"),
      true,
    ),
  );
  expect(failed).toContain(" Tasks:    2 successful, 3 total");
  expect(failed).toContain("Failed:    @mono/api#test");
  // A run that passed (turbo.in.txt's `Failed:    web#build` says that run failed, whatever
  // exit code it is given).
  const passed = lines(
    filter("turbo run build", await fixture("task-runners/turbo_cache_hit.in.txt")),
  );
  expect(passed.some((line) => line.includes("Tasks:"))).toBe(false);
});

Deno.test("a long list of removed snapshots keeps its first lines and counts the rest", () => {
  const names = Array.from({ length: 30 }, (_, i) => `               · case ${i} 1`);
  const input = [
    " ✓ test/a.test.js (3 tests) 5ms",
    "",
    "  Snapshots  30 removed",
    "             ↳ test/a.test.js",
    ...names,
    "",
    " Test Files  1 passed (1)",
    "      Tests  3 passed (3)",
  ].join("\n");
  const out = lines(filter("npx vitest run -u", input));
  expect(out).toContain(names[18]);
  expect(out).not.toContain(names[19]);
  expect(out).toContain("... (11 lines omitted) ...");
  expect(out).toContain(" Test Files  1 passed (1)");
});

Deno.test("vitest's labels after its snapshot counts are read as themselves, not as more counts", () => {
  const input = [
    " ❯ test/b.test.js (1 test | 1 failed) 5ms",
    "",
    "  Snapshots  2 written",
    "             1 updated",
    " Test Files  1 failed | 1 passed (2)",
    "      Tests  1 failed | 3 passed (4)",
    "     Errors  1 error",
    "   Start at  11:07:29",
    "   Duration  1.43s",
  ].join("\n");
  const out = lines(filter("vitest run", input, true));
  expect(out).toContain("             1 updated");
  expect(out).toContain("     Errors  1 error");
  // The run's start time is no count of the snapshots: it goes, as in any vitest summary.
  expect(out).not.toContain("   Start at  11:07:29");
});
