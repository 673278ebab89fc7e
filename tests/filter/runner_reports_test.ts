/**
 * What a test runner reports besides its tests, and what a pytest failure says about its inputs,
 * both lost by the built-in rules on real runs: a report section an option or plugin adds to a
 * passing run (pytest's `--durations`), a coverage table when a coverage threshold is what failed
 * the run (pytest-cov, coverage.py's wording, jest, vitest), the failing test's arguments and
 * locals (parametrize, hypothesis, `-l`) and the statement that raised. Tested through the built-in
 * rules on real captures (tests/fixtures/filters, bench/corpus) and on shapes of each class.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

Deno.test("a passing pytest run keeps a report section an option adds, with its rows", async () => {
  for (
    const [command, input] of [
      ["python3 -m pytest --durations=8", await fixture("pytest/durations.in.txt")],
      [
        "python3 -m pytest -v -p no:cacheprovider --durations=8 tests",
        await corpus("python/pytest_durations_verbose.txt"),
      ],
    ]
  ) {
    const out = lines(filter(command, input));
    const all = lines(input);
    const head = all.findIndex((line) => /^=+ slowest 8 durations =+$/.test(line));
    expect(head).toBeGreaterThan(0);
    expect(out).toContain(all[head]);
    // Every row of the report stays as printed, in order, under its header.
    const rows = all.slice(head + 1).filter((line) =>
      /^\d+\.\d+s (call|setup|teardown) /.test(line)
    );
    expect(rows.length).toBe(8);
    const at = out.indexOf(all[head]);
    expect(out.slice(at + 1, at + 1 + rows.length)).toEqual(rows);
    // The passing tests and the session header still go.
    expect(out.some((line) => line.includes(" PASSED ") || line.startsWith("rootdir: "))).toBe(
      false,
    );
  }
});

Deno.test("a report section keeps its first rows and counts the rest", () => {
  const rows = Array.from(
    { length: 45 },
    (_, i) => `${(0.9 - i * 0.01).toFixed(2)}s call     tests/test_a.py::test_${i}`,
  );
  const input = [
    "tests/test_a.py " + ".".repeat(45) + " [100%]",
    "",
    "============================= slowest durations ==============================",
    ...rows,
    "============================= 45 passed in 9.10s ==============================",
  ].join("\n");
  const out = lines(filter("pytest --durations=0", input));
  expect(out).toContain(rows[0]);
  expect(out).toContain(rows[19]);
  expect(out).not.toContain(rows[20]);
  expect(out).toContain("… 25 more lines of this report …");
  // A failed run's result is its failures: the same report keeps its top rows only.
  const failed = input.replace("45 passed", "1 failed, 44 passed")
    .replace("\n=====", "\nFAILED tests/test_a.py::test_9 - assert 1 == 2\n=====");
  const failedOut = lines(filter("pytest --durations=0", failed, true));
  expect(failedOut).toContain("FAILED tests/test_a.py::test_9 - assert 1 == 2");
  expect(failedOut).toContain(rows[4]);
  expect(failedOut).not.toContain(rows[5]);
  expect(failedOut).toContain("… 40 more lines of this report …");
});

Deno.test("a failed run's report keeps five rows, its note after them, not in a row's slot", async () => {
  // pytest 9 (5 rows and the note; 9 rows and the note) and pytest 7 -q, failed runs.
  const note = "(1 durations < 0.005s hidden.  Use -vv to show these durations.)";
  for (
    const name of [
      "durations_failed_note",
      "durations_failed_note_cut",
      "durations_failed_note_quiet",
    ]
  ) {
    const all = lines(await fixture(`pytest/${name}.in.txt`));
    const command = lines(await fixture(`pytest/${name}.cmd`))[0];
    const out = lines(filter(command, all.join("\n"), true));
    const head = all.findIndex((line) => /^=+ slowest \d+ durations =+$/.test(line));
    const rows = all.slice(head + 1).filter((line) => /^\d+\.\d+s call /.test(line));
    const at = out.indexOf(all[head]);
    expect(at).toBeGreaterThan(0);
    const cut = rows.length > 5 ? [`… ${rows.length - 5} more lines of this report …`] : [];
    expect(out.slice(at + 1, at + 7 + cut.length)).toEqual([...rows.slice(0, 5), ...cut, note]);
  }
});

Deno.test("pytest's own sections are not reports: the session header and passing lines go", () => {
  const input = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.7, pytest-9.1.1, pluggy-1.6.0",
    "rootdir: /src/app",
    "collected 2 items",
    "",
    "tests/test_a.py ..                                                       [100%]",
    "",
    "============================== 2 passed in 0.01s ===============================",
  ].join("\n");
  expect(lines(filter("pytest", input))).toEqual([
    "============================== 2 passed in 0.01s ===============================",
  ]);
});

Deno.test("a coverage threshold that fails the run keeps the table and the threshold lines", async () => {
  const cases: [string, string, string[], string[]][] = [
    [
      "python3 -m pytest --cov=ledger --cov-report=term-missing --cov-fail-under=90 -l",
      await fixture("pytest/cov_threshold.in.txt"),
      [
        "ledger/money.py         20      5    75%   23-27",
        "ledger/report.py        12      4    67%   12, 16-18",
        "TOTAL                   32      9    72%",
        "FAIL Required test coverage of 90% not reached. Total coverage: 71.88%",
        "ERROR: Coverage failure: total of 72 is less than fail-under=90",
      ],
      [],
    ],
    [
      "npx jest --ci --coverage",
      await fixture("jest-vitest/coverage_threshold.in.txt"),
      [
        "All files |    57.5 |     37.5 |    62.5 |   64.28 |                   ",
        " ship.js  |       0 |        0 |       0 |       0 | 2-11              ",
        'Jest: "global" coverage threshold for branches (80%) not met: 37.5%',
        'Jest: "global" coverage threshold for lines (90%) not met: 64.28%',
      ],
      // Past the fallback: the passing tests go.
      ["  ✓ cart sums (2 ms)"],
    ],
    [
      "jest --ci --coverage",
      await corpus("node/jest_coverage_threshold.txt"),
      [
        " stock.js   |      40 |       50 |      50 |   42.85 | 2-4,9             ",
        'Jest: "global" coverage threshold for lines (90%) not met: 61.9%',
        "  ● refund sums negative amounts",
      ],
      [" cart.js    |     100 |      100 |     100 |     100 |                   "],
    ],
    [
      "npx vitest run --coverage",
      await fixture("jest-vitest/vitest_threshold.in.txt"),
      [
        "All files |   47.22 |       25 |      50 |      50 |                   ",
        " price.js |   44.44 |        0 |      50 |      50 | 7-9               ",
        "ERROR: Coverage for lines (50%) does not meet global threshold (90%)",
        "ERROR: Coverage for branches (25%) does not meet global threshold (80%)",
      ],
      [" ✓ test/all.test.js (4 tests) 155ms"],
    ],
  ];
  for (const [command, input, kept, gone] of cases) {
    const out = lines(filter(command, input, true));
    for (const line of kept) expect(out).toContain(line);
    for (const line of gone) expect(out).not.toContain(line);
  }
});

Deno.test("coverage.py's and nyc's threshold wordings keep a failed run's table too", () => {
  const table = [
    "Name              Stmts   Miss  Cover   Missing",
    "-----------------------------------------------",
    "pkg/a.py             10      0   100%",
    "pkg/b.py             12      6    50%   7, 12-16",
    "-----------------------------------------------",
    "TOTAL                22      6    73%",
  ];
  const failure = [
    "___________________________________ test_b ___________________________________",
    "E       assert 1 == 2",
    "tests/test_b.py:3: AssertionError",
  ];
  for (
    const threshold of [
      "Coverage failure: total of 73 is less than fail-under=90",
      "ERROR: Coverage for lines (73%) does not meet global threshold (90%)",
    ]
  ) {
    const input = [...failure, ...table, threshold, "1 failed, 3 passed in 0.20s"].join("\n");
    const out = lines(filter("pytest --cov=pkg", input, true));
    expect(out).toContain("pkg/b.py             12      6    50%   7, 12-16");
    expect(out).toContain("TOTAL                22      6    73%");
    expect(out).toContain(threshold);
  }
  // Without a threshold line a failed run's table still goes.
  const plain = [...failure, ...table, "1 failed, 3 passed in 0.20s"].join("\n");
  expect(filter("pytest --cov=pkg", plain, true)).not.toContain("TOTAL");
});

Deno.test("a pytest failure keeps the test's arguments and -l locals printed in its block", async () => {
  const out = lines(
    filter(
      "python3 -m pytest --cov=ledger --cov-report=term-missing --cov-fail-under=90 -l",
      await fixture("pytest/cov_threshold.in.txt"),
      true,
    ),
  );
  for (
    const kept of [
      "text = '0.5', cents = 50",
      "cents      = 50",
      "cents = -1",
      "rows       = [{'name': 'tea', 'amount': '3.x'}]",
      "text = '3.x'",
      "units      = '3'",
    ]
  ) expect(out).toContain(kept);
  // Source lines of the traceback are indented: an assignment in them is no local.
  expect(out).not.toContain('        rows = [{"name": "tea", "amount": "3.x"}]');
  expect(out).not.toContain('        units, _, cents = text.partition(".")');
});

Deno.test("hypothesis' falsifying example stays, on one line or over several", () => {
  const block = (example: string[]) =>
    [
      "_________________________________ test_split _________________________________",
      "",
      "    @given(st.integers(), st.integers(min_value=1))",
      ">   def test_split(cents, parts):",
      "",
      "tests/test_split.py:9: ",
      "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ",
      "",
      "cents = 1, parts = 2",
      "",
      "    @given(st.integers(), st.integers(min_value=1))",
      "    def test_split(cents, parts):",
      ">       assert sum(split_evenly(cents, parts)) == cents",
      "E       assert 0 == 1",
      "",
      "tests/test_split.py:11: AssertionError",
      "---------------------------------- Hypothesis ----------------------------------",
      ...example,
      "=========================== short test summary info ============================",
      "FAILED tests/test_split.py::test_split - assert 0 == 1",
      "============================== 1 failed in 0.52s ===============================",
    ].join("\n");
  const one = lines(
    filter("pytest", block(["Falsifying example: test_split(cents=1, parts=2)"]), true),
  );
  expect(one).toContain("Falsifying example: test_split(cents=1, parts=2)");
  expect(one).toContain("cents = 1, parts = 2");
  expect(one).toContain(">       assert sum(split_evenly(cents, parts)) == cents");
  const several = lines(
    filter(
      "pytest",
      block(["Falsifying example: test_split(", "    cents=1,", "    parts=2,", ")"]),
      true,
    ),
  );
  const at = several.indexOf("Falsifying example: test_split(");
  expect(at).toBeGreaterThan(0);
  expect(several.slice(at, at + 4)).toEqual([
    "Falsifying example: test_split(",
    "    cents=1,",
    "    parts=2,",
    ")",
  ]);
});

Deno.test("pytest keeps the statement of the test's frame and of the frame that raised", async () => {
  // --tb=long prints the statement of every frame; the middle ones go, their locations stay.
  const out = lines(
    filter(
      "python3 -m pytest -q --tb=long tests/test_report.py",
      await fixture("pytest-tidy/tb_long.in.txt"),
      true,
    ),
  );
  expect(out).toContain(">       out = render(rows)");
  expect(out).toContain(">       return int(units) * 100 + int(cents or 0)");
  expect(out).not.toContain(">       lines.append(total_line(rows))");
  expect(out).not.toContain('>       amounts = [parse_amount(r["amount"]) for r in rows]');
  expect(out).toContain("ledger/report.py:11: ");
  // The default --tb=auto: an assertion in the test's own frame keeps its statement.
  const auto = lines(
    filter(
      "python3 -m pytest --cov=ledger --cov-report=term-missing --cov-fail-under=90 -l",
      await fixture("pytest/cov_threshold.in.txt"),
      true,
    ),
  );
  expect(auto).toContain(">       assert parse_amount(text) == cents");
  expect(auto).toContain(">       assert parse_amount(fmt(cents)) == cents");
  expect(auto).toContain(">       out = render(rows)");
  expect(auto).toContain(">       return int(units) * 100 + int(cents or 0)");
  // A statement the E line repeats word for word says nothing the E line does not.
  const literal = [
    "_________________________________ test_lists _________________________________",
    "",
    "    def test_lists():",
    ">       assert [1, 2, 3] == [1, 2, 4]",
    "E       assert [1, 2, 3] == [1, 2, 4]",
    "E         At index 2 diff: 3 != 4",
    "",
    "tests/test_shop.py:21: AssertionError",
    "============================== 1 failed in 0.02s ===============================",
  ].join("\n");
  expect(lines(filter("pytest", literal, true))).toEqual([
    "_________________________________ test_lists _________________________________",
    "E       assert [1, 2, 3] == [1, 2, 4]",
    "E         At index 2 diff: 3 != 4",
    "tests/test_shop.py:21: AssertionError",
    "============================== 1 failed in 0.02s ===============================",
  ]);
});

Deno.test("pytest-cov's threshold met on a passing run stays under its table", () => {
  const input = [
    "tests/test_a.py ...                                                      [100%]",
    "",
    "================================ tests coverage ================================",
    "_______________ coverage: platform linux, python 3.11.7-final-0 ________________",
    "",
    "Name              Stmts   Miss  Cover   Missing",
    "-----------------------------------------------",
    "pkg/a.py             10      1    90%   4",
    "-----------------------------------------------",
    "TOTAL                10      1    90%",
    "Required test coverage of 80% reached. Total coverage: 90.00%",
    "============================== 3 passed in 0.20s ===============================",
  ].join("\n");
  expect(lines(filter("pytest --cov=pkg --cov-fail-under=80", input))).toEqual([
    "_______________ coverage: platform linux, python 3.11.7-final-0 ________________",
    "Name              Stmts   Miss  Cover   Missing",
    "pkg/a.py             10      1    90%   4",
    "TOTAL                10      1    90%",
    "Required test coverage of 80% reached. Total coverage: 90.00%",
    "============================== 3 passed in 0.20s ===============================",
  ]);
});

Deno.test("vitest: a file that failed outside its tests keeps its FAIL line, error and location", () => {
  const suite = [
    " FAIL  test/repo.test.js [ test/repo.test.js ]",
    "Error: connect ECONNREFUSED 127.0.0.1:5432",
    " ❯ test/repo.test.js:3:25",
  ];
  const input = [
    "",
    " RUN  v2.1.9 /p",
    "",
    " ❯ test/repo.test.js (3 tests | 3 skipped) 12ms",
    "",
    "⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯",
    "",
    ...suite,
    '      1| import { beforeAll, it, expect } from "vitest";',
    '      3| beforeAll(() => { throw new Error("connect ECONNREFUSED 127.0.0.1:5432");',
    "       |                         ^",
    "",
    "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯",
    "",
    " Test Files  1 failed (1)",
    "      Tests  3 skipped (3)",
  ];
  for (const command of ["npx vitest run --reporter=dot", "./node_modules/.bin/vitest run"]) {
    const out = filter(command, input.join("\n"), true).split("\n");
    // The file's line (` ❯ … (3 tests | 3 skipped)`) stays above: it names the tests not run.
    expect(out.slice(0, 4)).toEqual([input[3], ...suite]);
  }
});
