/**
 * Results a runner or linter prints apart from what names them, lost on real runs: pytest's status
 * after a test's prints (`-s`) or after its fixtures (`--setup-show`), jest's open-handles block
 * after its counts, node --test's own coverage table on a failed run, pylint's module banner over
 * a kept finding; and the footer of a rule that renders its input rather than dropping lines.
 */
import { expect } from "expect";
import { filter, fixture, lines } from "./_builtin.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { statsLine } from "../../src/cli/filter_cmd.ts";

Deno.test("pytest -s: a status on its own line keeps the test's id line over it", async () => {
  const out = lines(filter("pytest -s -v tests", await fixture("pytest/s_prints.in.txt"), true));
  const at = out.indexOf("tests/test_x.py::test_y connecting db");
  expect(out.slice(at, at + 4)).toEqual([
    "tests/test_x.py::test_y connecting db",
    "FAILED",
    "tests/test_x.py::test_z making file",
    "FAILED",
  ]);
  // A passing test's id line and status go.
  expect(out.some((line) => line.includes("test_ok"))).toBe(false);
});

Deno.test("pytest --setup-show: a status after the fixtures used is a result", async () => {
  const out = lines(
    filter("pytest --setup-show tests", await fixture("pytest/setup_show.in.txt"), true),
  );
  expect(out).toContain("        tests/test_x.py::test_y (fixtures used: db)F");
  expect(out).toContain(
    "        tests/test_x.py::test_z (fixtures used: request, tmp_path, tmp_path_factory)F",
  );
  expect(out.some((line) => line.includes("test_ok"))).toBe(false);
  const verbose = lines(
    filter("pytest --setup-show -v tests", await fixture("pytest/setup_show_v.in.txt"), true),
  );
  expect(verbose).toContain("        tests/test_x.py::test_y (fixtures used: db)FAILED");
  // A fixture's failed setup is the result of the id line over it.
  const at = verbose.indexOf("tests/test_x.py::test_err ");
  expect(verbose.slice(at, at + 2)).toEqual([
    "tests/test_x.py::test_err ",
    "        SETUP    F brokenERROR",
  ]);
});

Deno.test("jest: a block after the counts keeps its headline with its items", async () => {
  const out = lines(
    filter(
      "npx jest --detectOpenHandles",
      await fixture("jest-vitest/open_handles.in.txt"),
      true,
    ),
  );
  const at = out.indexOf(
    "Jest has detected the following 2 open handles potentially keeping Jest from exiting:",
  );
  expect(at).toBeGreaterThan(out.indexOf("Tests:       1 failed, 1 passed, 2 total"));
  expect(out[at + 1]).toBe("  ●  TCPSERVERWRAP");
});

Deno.test("node --test: its coverage table is read, and kept on a failed run", async () => {
  for (
    const [command, name, mark] of [
      ["node --test --experimental-test-coverage", "coverage_tap_failed", "#"],
      [
        "node --test --experimental-test-coverage --test-reporter=spec",
        "coverage_spec_failed",
        "ℹ",
      ],
    ]
  ) {
    const out = lines(filter(command, await fixture(`node-test/${name}.in.txt`), true));
    expect(out).toContain(`${mark} lib/money.js       |  46.67 |    75.00 |   66.67 | 4-5 9-14`);
    expect(out).toContain(`${mark} all files          |  65.22 |    90.00 |   85.71 |`);
    // The rules and the closing line go.
    expect(out.some((line) => line.startsWith(`${mark} ------`))).toBe(false);
    expect(out).not.toContain(`${mark} end of coverage report`);
  }
  // Fully covered rows in a run fold; a missed threshold is a failure and stays.
  const text = [
    "ℹ tests 1",
    "ℹ pass 1",
    "ℹ fail 0",
    "ℹ start of coverage report",
    "ℹ -----------------------------------------------------",
    "ℹ file        | line % | branch % | funcs % | uncovered lines",
    "ℹ -----------------------------------------------------",
    "ℹ lib/a.js    | 100.00 |   100.00 |  100.00 | ",
    "ℹ lib/b.js    | 100.00 |   100.00 |  100.00 | ",
    "ℹ lib/c.js    |  80.00 |   100.00 |  100.00 | 3-4",
    "ℹ -----------------------------------------------------",
    "ℹ all files   |  93.33 |   100.00 |  100.00 |",
    "ℹ -----------------------------------------------------",
    "ℹ end of coverage report",
    "ℹ Error: 93.33% line coverage does not meet threshold of 95%.",
  ].join("\n");
  const out = lines(filter("node --test --test-coverage-lines=95", text, true));
  expect(out).toContain("… 2 fully covered rows folded …");
  expect(out).toContain("ℹ lib/c.js    |  80.00 |   100.00 |  100.00 | 3-4");
  expect(out).toContain("ℹ Error: 93.33% line coverage does not meet threshold of 95%.");
});

Deno.test("pylint: a module's banner stays over its kept finding, goes when all fold", async () => {
  const out = lines(filter("pylint reports", await fixture("pylint/many_modules.in.txt"), true));
  const at = out.indexOf("************* Module reports.delta");
  expect(out[at + 1]).toBe(
    "reports/delta.py:3:11: E0602: Undefined variable 'undefined_name' (undefined-variable)",
  );
  // A group's finding listed as printed keeps its banner over it; modules whose findings all
  // folded into a group's `… more saying this` lose theirs.
  const at5 = out.indexOf("************* Module reports.m5");
  expect(out[at5 + 1]).toBe(
    "  reports/m5.py:1:0: C0114: Missing module docstring (missing-module-docstring)",
  );
  expect(out.filter((line) => line.startsWith("*************"))).toEqual([
    "************* Module reports.delta",
    "************* Module reports.m5",
    "************* Module reports.beta",
    "************* Module reports.alpha",
  ]);
});

Deno.test("the footer says a rule rendered its input when no line was removed", async () => {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const json = JSON.stringify([{
    filePath: "/tmp/a/bad.js",
    messages: [{
      ruleId: "no-var",
      severity: 2,
      message: "Unexpected var, use let or const instead.",
      line: 2,
      column: 1,
      nodeType: "VariableDeclaration",
      messageId: "unexpectedVar",
      endLine: 2,
      endColumn: 11,
    }],
    suppressedMessages: [],
    errorCount: 1,
    fatalErrorCount: 0,
    warningCount: 0,
    fixableErrorCount: 1,
    fixableWarningCount: 0,
    source: "const a = 1\nvar b = 2\n",
    usedDeprecatedRules: [],
  }]);
  const outcome = engine.filter("npx eslint --format json .", json, { failed: true });
  expect(statsLine(outcome.stats)).toMatch(/^\[shell\] 1 lines -> \d+ lines, rendered \(/);
});

Deno.test("pytest -n: a worker's crash keeps its failure block's lines (no E line or location in it)", async () => {
  // Captured: `pytest -v -s -n 2` where a test calls os._exit(1).
  const out = lines(
    filter("pytest -v -s -n 2 test_b.py", await fixture("pytest/xdist_crash.in.txt"), true),
  );
  const at = out.indexOf(
    "__________________________________ test_b.py ___________________________________",
  );
  expect(out.slice(at, at + 3)).toEqual([
    "__________________________________ test_b.py ___________________________________",
    "[gw1] linux -- Python 3.11.7 /usr/bin/python3",
    "worker 'gw1' crashed while running 'test_b.py::test_zcrash'",
  ]);
});
