/**
 * Passing tests of runners no rule knows: in an output with a failure, runs of lines that report
 * a passing test in a shape runners share — `test_x (mod.Class.test_x) ... ok` (unittest, cargo),
 * `t/basic.t ..... ok` (prove), `path::test PASSED` (pytest -v), `✓ name` (mocha, node, bats),
 * TAP's `ok 12 - name`, `--- PASS: Name` (go), gtest's `[ RUN ] X` + `[ OK ] X`, minitest's
 * `Class#test = 0.00 s = .`, ctest's `Test #1: name .... Passed`, `Passed Name` (dotnet) and
 * lines of `.` progress — fold into one count line. Failing lines, the sections that explain
 * them and the summary stay: nothing but a passing line is ever folded. A run that passed folds
 * them too, but only runs of `MIN_RUN_PASSED` or more: its answer is that it passed and how
 * many, and a few `✓ Compiled` steps of a build are no test run to count (an output of more than
 * MAX_SHAPED_LINES lines that passed is left to the generic pass's cut).
 *
 * A checker run item by item says the same of each item that passed its check: `No syntax errors
 * detected in src/a.php` (php -l), `a.pl syntax OK` (perl -c), `a.bin: OK` (sha256sum -c),
 * `a.xml validates` (xmllint), `db.orders_2024_01     OK` (mysqlcheck, its name padded to a
 * column whatever digits it carries). Those runs fold the same way into a count of their own; each item
 * that failed (`Errors parsing src/b.php`, `a.bin: FAILED`, a table's name alone over its
 * `error    : Corrupt`), the tool's closing warning and the
 * output's last line stay.
 * A verdict line is one of these shapes as a whole, so a line that says anything else is none.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED, runFolder } from "./generic_folds.ts";
import { MAX_SHAPED_LINES } from "./generic_shapes.ts";

const PASS_SHAPES: RegExp[] = [
  / \.{2,} ok(?: \(\d[\d.]{0,12}m?s\))?$/,
  /^[^\s[]\S{0,500} PASSED(?: {1,40}\[ {0,2}\d{1,3}%\])?$/,
  /^\s{0,40}[✓✔√] \S/,
  /^\s{0,40}ok \d{1,7}\b/,
  /^\s{0,40}--- PASS: /,
  /^\[ {1,12}OK \] /,
  /^\S{1,500}#\S{1,500} = \d{1,6}\.\d{1,6} s = \.$/,
  /^\s{0,12}\d{1,6}\/\d{1,6} Test {1,6}#\d{1,6}: \S{1,500} \.{0,200} {1,40}Passed\b/,
  /^\s{1,12}Passed \S/,
  /^\.{1,2000}$/,
  // TAP's plan and prove's verdict under a test file's name.
  /^\s{0,40}1\.\.\d{1,7}$/,
  /^ok$/,
];
/** A checked item's verdict that it passed, the whole line (one pattern, read once per line). */
const CHECK_PASSED = new RegExp(
  [
    // php -l, and checkers printing the same sentence
    String.raw`^No (?:syntax )?errors (?:detected|found) in \S{1,500}$`,
    // perl -c, ruby -c
    String.raw`^(?:\S{1,500} )?[Ss]yntax OK$`,
    // sha256sum -c, md5sum -c, shasum -c
    String.raw`^\S{1,500}: OK$`,
    // xmllint --schema
    String.raw`^\S{1,500} validates$`,
    // mysqlcheck, mariadb-upgrade: the item's name padded to a column, then its verdict
    String.raw`^\S{1,500} {2,200}(?:OK|ok|[Pp]assed|(?:Table is )?already up to date)$`,
  ].map((s) => `(?:${s})`).join("|"),
);

/** Whether a line is a checker's verdict that one item passed its check. */
export function isPassedCheck(line: string): boolean {
  return line.length <= MAX_TESTED && CHECK_PASSED.test(line);
}

/** On a run without a failure, shorter runs of passing lines stay as printed. */
export const MIN_RUN_PASSED = 5;

/** A test's start line, folded with the passing line right after it. */
const START = /^(?:\[ RUN {0,12}\] |=== RUN {1,6})\S/;
/** prove's test file line; it folds when the file's lines below it end in the `ok` verdict. */
const FILE_START = /^\S{1,500} \.{2,200} ?$/;

/** A failing test line in the same shapes (a failed command counts as one too). */
const FAILING =
  /(?: \.\.\. (?:FAIL|ERROR)\b| FAILED\b|^\s{0,40}not ok \d|--- FAIL: |^\[ {0,4}FAILED {0,4}\] |^\s{0,40}[✗✘×✖] \S| = \d{1,6}\.\d{1,6} s = [FE]$)/;

/** The shapes as one pattern: a line is read once, not once per shape. */
const PASSING = new RegExp(PASS_SHAPES.map((re) => `(?:${re.source})`).join("|"));

/** Whether a line reports a passing test. */
export function isPassingTest(line: string): boolean {
  return line.length <= MAX_TESTED && PASSING.test(line) && line.trim() !== "";
}

/**
 * The lines with runs of passing-test lines folded: every run when the output has a failure,
 * runs of at least `MIN_RUN_PASSED` lines when it has none.
 */
export function foldPassingTests(lines: readonly string[], failed: boolean): readonly string[] {
  const passed = !failed &&
    !lines.some((line) => line.length <= MAX_TESTED && FAILING.test(line));
  if (passed && lines.length > MAX_SHAPED_LINES) return lines;
  const out = new FoldedLines(lines);
  const run = runFolder(
    out,
    (n, first) => `${/^\s*/.exec(first)![0]}… ${n} passing test lines folded …`,
    { min: passed ? MIN_RUN_PASSED : undefined },
  );
  const checks = runFolder(
    out,
    (n, first) => `${/^\s*/.exec(first)![0]}… ${n} lines of items that passed the check folded …`,
    { min: passed ? MIN_RUN_PASSED : undefined },
  );
  // The output's last line stays as printed when it is a passed check: it shows where the run
  // ended, as the last lines of an output do (generic_shapes.ts).
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === "") last--;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i !== last && isPassedCheck(line)) {
      run.flush();
      checks.add(line);
      continue;
    }
    checks.flush();
    if (isPassingTest(line)) {
      run.add(line);
    } else if (
      line.length <= MAX_TESTED && START.test(line) && i + 1 < lines.length &&
      isPassingTest(lines[i + 1])
    ) {
      run.add(line);
      run.add(lines[++i]);
    } else if (line.length <= MAX_TESTED && FILE_START.test(line)) {
      let end = i + 1;
      while (end < lines.length && lines[end] !== "ok" && isPassingTest(lines[end])) end++;
      if (lines[end] !== "ok") {
        run.flush();
        out.push(line);
        continue;
      }
      for (let k = i; k <= end; k++) run.add(lines[k]);
      i = end;
    } else {
      run.flush();
      out.push(line);
    }
  }
  run.flush();
  checks.flush();
  return out.lines();
}
