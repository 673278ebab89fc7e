/**
 * The lines around a test run's failures that say how it ran and why it stopped, lost by
 * test_summary on real runs: pytest's session header when it says more than a count (`collected
 * 244 items / 1 error`, a plugin's `run-last-failure: …`) and its `!!! Interrupted … !!!` banner,
 * the statement under a short traceback frame, the test or file over each warning of the warnings
 * summary, and vitest's line of a failing file, its `×` failed-test lines and the head of a failed
 * suite (a `beforeAll` that threw). Tested through the built-in rules on real captures
 * (bench/corpus) and on shapes of each class.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

const SESSION = "============================= test session starts ==============================";
const HEADER = [
  SESSION,
  "platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0 -- /usr/bin/python3",
  "cachedir: .pytest_cache",
  "rootdir: /src/app",
  "configfile: pyproject.toml",
  "plugins: randomly-3.15.0, xdist-3.8.0, cov-7.1.0",
];

Deno.test("pytest keeps a collection error's header, frame statement and Interrupted banner", async () => {
  const out = lines(
    filter(
      "python3 -m pytest -p no:cacheprovider tests",
      await corpus("python/pytest_collect_error.txt"),
      true,
    ),
  );
  expect(out[0]).toBe("collected 162 items / 1 error");
  const frame = out.indexOf("tests/api/conftest.py:2: in <module>");
  expect(out.slice(frame, frame + 3)).toEqual([
    "tests/api/conftest.py:2: in <module>",
    "    from metrics.client import ApiClient",
    "E   ModuleNotFoundError: No module named 'metrics.client'",
  ]);
  expect(out).toContain(
    "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!",
  );
  // The machine's and the project's setup still go, and so do the frames of Python's import
  // machinery: their statements say nothing about the project.
  expect(out.some((line) => line.startsWith("platform ") || line.startsWith("rootdir:"))).toBe(
    false,
  );
  expect(out).not.toContain("    return _bootstrap._gcd_import(name[level:], package, level)");
  expect(out).not.toContain("    ???");
});

Deno.test("pytest keeps a run's mode, short frames' statements and each warning's test", async () => {
  const out = lines(
    filter(
      "python3 -m pytest --lf --tb=short tests",
      await corpus("python/pytest_lf_short.txt"),
      true,
    ),
  );
  expect(out[0]).toBe("run-last-failure: rerun previous 2 failures (skipped 1 file)");
  // `collected 2 items` says no more than the counts.
  expect(out).not.toContain("collected 2 items");
  const frames = out.indexOf("tests/test_agg.py:20: in test_fail_b");
  expect(out.slice(frames, frames + 7)).toEqual([
    "tests/test_agg.py:20: in test_fail_b",
    "    assert mean([]) == 0",
    "metrics/agg.py:11: in mean",
    "    return _div(sum(xs), len(xs))",
    "metrics/agg.py:15: in _div",
    "    return a / b",
    "E   ZeroDivisionError: division by zero",
  ]);
  const root = "/tmp/zeph-corpus/runheads/py/metrics/agg.py";
  const warning = out.indexOf("tests/test_agg.py::test_fail_b");
  expect(out.slice(warning, warning + 2)).toEqual([
    "tests/test_agg.py::test_fail_b",
    `  ${root}:10: UserWarning: mean() of ints rounds`,
  ]);
  // The source line under a warning still goes.
  expect(out).not.toContain('    warnings.warn("mean() of ints rounds", UserWarning)');
});

Deno.test("pytest's header keeps what it says besides the count and how the run runs", () => {
  const run = (header: string[]) =>
    lines(filter("pytest -k fail", [...HEADER, ...header, "", "1 passed in 0.10s"].join("\n")));
  for (
    const said of [
      ["collecting ... collected 27 items / 21 deselected / 6 selected"],
      ["collected 27 items / 3 skipped"],
      ["Using --randomly-seed=1234", "collected 4 items"],
      ["collected 4 items", "run-last-failure: rerun previous 6 failures first"],
      ["collected 4 items", "stepwise: skipping 2 already passed items."],
    ]
  ) {
    const kept = said.filter((line) => line !== "collected 4 items");
    expect(run(said)).toEqual([...kept, "1 passed in 0.10s"]);
  }
  // A plain count goes: the counts line repeats it.
  expect(run(["collected 4 items"])).toEqual(["1 passed in 0.10s"]);
});

Deno.test("pytest's `!!! … !!!` banners are closing status lines", () => {
  for (
    const banner of [
      "!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!",
      "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! KeyboardInterrupt !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!",
    ]
  ) {
    const text = [
      "___ test_b ___",
      "E       assert 1 == 2",
      "t.py:5: AssertionError",
      "FAILED t.py::test_b - assert 1 == 2",
      banner,
      "===== 1 failed, 3 passed in 0.01s =====",
    ].join("\n");
    expect(lines(filter("pytest -x", text, true))).toContain(banner);
  }
  // A line of `!` is no banner.
  expect(lines(filter("pytest", `${"!".repeat(40)}\n1 passed in 0.1s`))).toEqual([
    "1 passed in 0.1s",
  ]);
});

Deno.test("pytest keeps the statement under a project's short frame, not an installed one's", () => {
  const text = [
    "___ test_get ___",
    "tests/test_api.py:8: in test_get",
    "    assert client.get('/x').status == 200",
    "/venv/lib/python3.12/site-packages/httpx/_client.py:1054: in get",
    "    return self.request(",
    "/usr/lib/python3.12/json/__init__.py:346: in loads",
    "    return _default_decoder.decode(s)",
    "<frozen importlib._bootstrap>:1204: in _gcd_import",
    "    ???",
    "app/client.py:12: in get",
    "    raise ApiError(resp.status)",
    "E   app.client.ApiError: 500",
    "FAILED tests/test_api.py::test_get - app.client.ApiError: 500",
    "===== 1 failed in 0.01s =====",
  ].join("\n");
  const out = lines(filter("pytest --tb=short", text, true));
  expect(out).toContain("    assert client.get('/x').status == 200");
  expect(out).toContain("    raise ApiError(resp.status)");
  expect(out).not.toContain("    return self.request(");
  expect(out).not.toContain("    return _default_decoder.decode(s)");
  expect(out).not.toContain("    ???");
});

Deno.test("pytest keeps the file or test over each distinct warning it keeps", () => {
  const text = [
    "============ warnings summary ============",
    "tests/test_agg.py: 160 warnings",
    "  /p/metrics/agg.py:4: DeprecationWarning: total() is deprecated",
    "    warnings.warn(...)",
    "",
    ...Array.from({ length: 5 }, (_, k) => `tests/test_io_${k}.py::test_read`),
    "  /p/io.py:8: ResourceWarning: unclosed file",
    "    open(p)",
    "",
    "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
    "167 passed, 165 warnings in 1.31s",
  ].join("\n");
  expect(lines(filter("pytest", text))).toEqual([
    "tests/test_agg.py: 160 warnings",
    "  /p/metrics/agg.py:4: DeprecationWarning: total() is deprecated",
    // The nearest stays, a line of ours counts the rest.
    "… 4 more tests or files above …",
    "tests/test_io_4.py::test_read",
    "  /p/io.py:8: ResourceWarning: unclosed file",
    "167 passed, 165 warnings in 1.31s",
  ]);
});

Deno.test("vitest keeps a failing file's line, its `×` tests and a failed hook's suite", async () => {
  const out = lines(
    filter("vitest run --reporter=dot", await corpus("node/vitest_dot_before_all.txt"), true),
  );
  expect(out.slice(0, 6)).toEqual([
    " ❯ test/repo.test.js (3 tests | 3 skipped) 24ms",
    " ❯ test/util.test.js (3 tests | 1 failed) 50ms",
    "   × util > rounds down 37ms",
    " FAIL  test/repo.test.js [ test/repo.test.js ]",
    "Error: connect ECONNREFUSED 127.0.0.1:5432",
    " ❯ test/repo.test.js:3:25",
  ]);
  // The `×` line's message repeats the failure report's; passing files still go.
  expect(out).not.toContain("     → expected 2.4 to be 2.5 // Object.is equality");
  expect(out).not.toContain(" ✓ test/ok.test.js (1 test) 3ms");
});

Deno.test("vitest's failed suite head and file line, with a project name", () => {
  const text = [
    " ❯ |unit| test/repo.test.ts (2 tests | 2 skipped) 7ms",
    " ✓ |unit| test/ok.test.ts (1 test) 2ms",
    "",
    "⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯",
    "",
    " FAIL  |unit| test/repo.test.ts [ test/repo.test.ts ]",
    "Error: no database",
    " ❯ test/repo.test.ts:3:9",
    "",
    " Test Files  1 failed | 1 passed (2)",
    "      Tests  1 passed | 2 skipped (3)",
  ].join("\n");
  expect(lines(filter("npx vitest run", text, true))).toEqual([
    " ❯ |unit| test/repo.test.ts (2 tests | 2 skipped) 7ms",
    " FAIL  |unit| test/repo.test.ts [ test/repo.test.ts ]",
    "Error: no database",
    " ❯ test/repo.test.ts:3:9",
    " Test Files  1 failed | 1 passed (2)",
    "      Tests  1 passed | 2 skipped (3)",
  ]);
});

/** mocha's spec report: the tree (up to the counts), then one numbered block per failure. */
function mochaReport(text: string): { tree: string[]; details: string[][] } {
  const all = lines(text);
  const counts = all.findIndex((line) => /^\s*\d+ passing\b/.test(line));
  const tree = all.slice(0, counts);
  const details: string[][] = [];
  for (const line of all.slice(counts)) {
    if (/^\s{2}\d+\) \S/.test(line)) details.push([line]);
    else if (details.length) details[details.length - 1].push(line);
  }
  return { tree, details };
}

Deno.test("mocha keeps every suite title that heads a failing test, wherever it falls", async () => {
  const text = await fixture("jest-vitest/mocha_nested_failures.in.txt");
  const out = lines(filter("npx mocha", text, true));
  const { tree, details } = mochaReport(text);
  // In the tree: each failing test's enclosing suites (a suite printed after a failing test,
  // `#checkout()` included), as often as the tree prints them.
  const heads = new Set<number>();
  tree.forEach((line, i) => {
    if (!/^\s+\d+\) /.test(line)) return;
    let indent = line.search(/\S/);
    for (let k = i - 1; k >= 0 && indent > 2; k--) {
      const at = tree[k].search(/\S/);
      if (at >= 0 && at < indent) {
        heads.add(k);
        indent = at;
      }
    }
  });
  const count = (all: string[], line: string) => all.filter((l) => l === line).length;
  const treeOut = out.slice(0, out.findIndex((line) => /^\s*\d+ passing\b/.test(line)));
  expect(heads.size).toBe(15);
  expect([...heads].map((k) => tree[k]).filter((line) => count(treeOut, line) < count(tree, line)))
    .toEqual([]);
  // In each failure's block: its suites and the test's title, down to the `title:` line.
  const titles = details.flatMap((block) =>
    block.slice(0, block.findIndex((l) => l.endsWith(":")) + 1)
  );
  expect(titles.length).toBeGreaterThan(30);
  expect(titles.filter((line) => !out.includes(line))).toEqual([]);
  // The tree's failing-test lines do not use up the failures shown in full.
  const tenth = out.indexOf(details[9][0]);
  const eleventh = out.indexOf(details[10][0]);
  expect(out.slice(0, eleventh).filter((line) => line.startsWith("... ("))).toEqual([]);
  expect(tenth).toBeGreaterThan(0);
});
