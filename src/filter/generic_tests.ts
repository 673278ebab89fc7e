/**
 * Passing tests of runners no rule knows: in an output with a failure, runs of lines that report
 * a passing test in a shape runners share — `test_x (mod.Class.test_x) ... ok` (unittest, cargo),
 * `t/basic.t ..... ok` (prove), `path::test PASSED` (pytest -v), `✓ name` (mocha, node, bats),
 * TAP's `ok 12 - name`, `--- PASS: Name` (go), gtest's `[ RUN ] X` + `[ OK ] X`, minitest's
 * `Class#test = 0.00 s = .`, ctest's `Test #1: name .... Passed`, `Passed Name` (dotnet) and
 * lines of `.` progress — fold into one count line. Failing lines, the sections that explain
 * them and the summary stay: nothing but a passing line is ever folded.
 */

/** Lines longer than this are never taken for a test line. */
const MAX_TESTED = 2000;
/** Runs shorter than this stay as they are. */
const MIN_FOLDED = 2;

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
];
/** A test's start line, folded with the passing line right after it. */
const START = /^(?:\[ RUN {0,12}\] |=== RUN {1,6})\S/;
/** A failing test line in the same shapes (a failed command counts as one too). */
const FAILING =
  /(?: \.\.\. (?:FAIL|ERROR)\b| FAILED\b|^\s{0,40}not ok \d|--- FAIL: |^\[ {0,4}FAILED {0,4}\] |^\s{0,40}[✗✘×✖] \S| = \d{1,6}\.\d{1,6} s = [FE]$)/;

/** Whether a line reports a passing test. */
export function isPassingTest(line: string): boolean {
  return line.length <= MAX_TESTED && line.trim() !== "" && PASS_SHAPES.some((re) => re.test(line));
}

/** The lines with runs of passing-test lines folded, when the output has a failure. */
export function foldPassingTests(lines: readonly string[], failed: boolean): string[] {
  if (!failed && !lines.some((line) => line.length <= MAX_TESTED && FAILING.test(line))) {
    return [...lines];
  }
  const out: string[] = [];
  let run: string[] = [];
  let tests = 0;
  const flush = () => {
    if (tests >= MIN_FOLDED) {
      out.push(`${/^\s*/.exec(run[0])![0]}… ${tests} passing test lines folded …`);
    } else out.push(...run);
    run = [];
    tests = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isPassingTest(line)) {
      run.push(line);
      tests++;
    } else if (
      line.length <= MAX_TESTED && START.test(line) && i + 1 < lines.length &&
      isPassingTest(lines[i + 1])
    ) {
      run.push(line, lines[++i]);
      tests++;
    } else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}
