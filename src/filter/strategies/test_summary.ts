/**
 * test_summary: keeps what a model needs from a test run: every failing test's name, the first
 * `truncate_stack_trace` lines of each failure (message and trace) for the first `max_failures`
 * failures, and the runner's final counts; passing tests and progress go (a progress row with a
 * failure mark stays: it says which file or where in the run). Understands cargo test,
 * cargo nextest, pytest, go test (plain and -v), jest, vitest, deno test, node --test, mocha.
 * Improvement over the reference (cargo only): every runner above, failures kept whatever the
 * exit code (a `| tail` hides it), and output with no recognisable structure passes unchanged.
 * A passing run also keeps what it reports besides its tests (a coverage table, pytest's
 * `slowest 8 durations` and other sections an option adds); a failed run keeps its coverage table
 * when a missed coverage threshold is one of its failures.
 */
import { appendAll, HeldLines } from "../arrays.ts";
import { z } from "zod";
import { indentOf, isBlank } from "../sanitize.ts";
import { FAILURE_SIGNAL, keepFailuresPast, omitted } from "./_shared.ts";
import { mergeCutNotes } from "../notes.ts";
import { COMPILER_TRAILER } from "../signals.ts";
import { CoverageReader, coveredFold } from "../coverage.ts";
import { foldStackFrames, frameOwner } from "../generic_folds.ts";
import { isRuntimeReportHead } from "./_reports.ts";
import { firstNonSpace, StartIndex } from "../line_start.ts";
import { type CompiledStrategy, emitLines, type Stage, type StageContext } from "../types.ts";

export const TestSummaryConfig = z.object({
  type: z.literal("test_summary"),
  max_failures: z.number().int().min(1).default(10).describe("Failures shown with their trace"),
  truncate_stack_trace: z.number().int().min(1).default(50).describe(
    "Lines kept per failure",
  ),
}).strict();
export type TestSummaryConfig = z.infer<typeof TestSummaryConfig>;

/** Final counts of every runner; always kept, and they end a failure block. */
const SUMMARY = [
  /^test result: /, // cargo
  /^\s*Summary \[.*\btests? run:/, // nextest
  /^\d+ (passed|failed|errors?|skipped)\b.* in [\d.]+m?s/, // pytest -q
  /^(ok|FAIL|\?)\s+\S+\s+(\(cached\)|[\d.]+s|\[no test files\]|\[build failed\]|\[setup failed\])/, // go
  /^FAIL$/, // go
  /^(Tests|Test Suites|Snapshots):\s+\d/, // jest
  /^Time:\s+[\d.]+ ?m?s\b/, // jest
  /^\s*(Test Files|Tests)\s+\d+ (passed|failed|skipped)/, // vitest
  // vitest's snapshot counts (printed when one failed, was written or is obsolete) and its
  // count of errors outside tests
  /^\s*(Snapshots|Errors)\s+\d+ (failed|obsolete|written|updated|removed|passed|errors?)\b/,
  /^\s*Duration\s+[\d.]+m?s\b/, // vitest
  /^(ok|FAILED) \| \d+ passed/, // deno
  /^[ℹ#] (tests|suites|pass|fail|cancelled|skipped|todo) \d+$/, // node --test
  /^\s*\d+ (passing|failing|pending)\b/, // mocha
  /^error: test failed, to rerun pass/, // cargo
  /^error: test run failed$/, // nextest
  /^error: Test failed$/, // deno
  /^\[json\] \d+ passed, \d+ failed\b/, // the json strategy's count of a JSON reporter
];

// `\S.*` where `\S+.*` would say the same: V8 backtracks `\S+.*` over every split of the word
// when the rest fails (quadratic in the test name, on every passing cargo line). A pytest id's
// first `::` is found by `PYTEST_ID` (no colon pair before it), so there is one split to try,
// not one per `:` of a line of colons. Its repeated group takes a single `:` and what follows it,
// not one character: V8 keeps a backtracking entry per turn of a group, and a turn per character
// overflows the stack on a line of a few million characters. Before the first `::` is the test
// file's path, which holds a few single colons at most.
const PYTEST_ID = ":?[^\\s:]+(?::[^\\s:]+){0,16}::";

/** One line naming a failed test; kept even when its trace is not. */
const FAILED_MARKER = [
  /^test \S.* \.\.\. FAILED$/, // cargo
  /^\s*(FAIL|SIGSEGV|SIGABRT|SIGKILL|TIMEOUT|LEAK) \[/, // nextest
  new RegExp(`^${PYTEST_ID}\\S.* (FAILED|ERROR)\\b`), // pytest -v
  // pytest-xdist -v: the worker and progress (none in the classic style), then the status
  // before the id
  /^\[gw\d{1,4}\] (\[\s{0,3}\d{1,3}%\] )?(FAILED|ERROR) \S/,
  /^(FAILED|ERROR) \S+/, // pytest short summary
  /^SUBFAILED(\([^)]{0,300}\))? \S/, // pytest short summary of a failed unittest subTest
  /^FAIL\s+\S/, // jest file, vitest
  /^\s*(✕|×|✗|✖) /, // jest, vitest, node --test
  // vitest's file line: `❯` marks a file with a failure, also one whose tests a failed `beforeAll`
  // skipped (`❯ a.test.js (3 tests | 3 skipped) 7ms`), where that line is all that names the file's
  // tests as not run.
  /^\s*❯ .*\bfailed\b/, // vitest file
  /^\s*❯ (?:\|[^|\s]{1,100}\| )?\S{1,1000} \(\d{1,9} tests?\b/, // vitest file
  /^\s*not ok \d+ /, // TAP (subtests indented)
];

/**
 * A pytest result line whose status comes later: with `-s` a test's prints follow its id
 * (`tests/t.py::test_a connecting db`), its status word on a line of its own after them; with
 * `--setup-show -v` the id line stands alone over the fixtures' `SETUP` lines. Only a `.py` file's
 * id: the line is held until a status says what it was.
 */
const PYTEST_PENDING = /^\s{0,8}[^\s:]{1,1000}\.py::\S/;
/** pytest's status word alone on a line, the result of the last id line (`FAILED`, `PASSED [ 50%]`). */
const PYTEST_LATE_STATUS =
  /^(FAILED|ERROR|PASSED|SKIPPED|XFAIL|XPASS)(?: \([^()]{0,300}\))?(?:\s{1,100}\[\s{0,3}\d{1,3}%\])?$/;
/**
 * `--setup-show`'s result line, indented under the fixtures' `SETUP` lines, its status glued to
 * its end: a letter after the fixtures it used (`tests/t.py::test_a (fixtures used: db)F`), a word
 * with -v (`…(fixtures used: db)FAILED`, `tests/t.py::test_bERROR`); and a fixture's own failed
 * setup or teardown (`SETUP    F brokenERROR`, `TEARDOWN F db (fixtures used: x)E`).
 */
const PYTEST_SETUP_SHOW_FAILED = new RegExp(
  `^\\s{0,12}(?:${PYTEST_ID}\\S|(?:SETUP|TEARDOWN) {1,8}[SMCPF] \\S)[^()]{0,1000}?` +
    `(?: \\(fixtures used: [^)]{0,1000}\\))?(?:FAILED|ERROR|(?<=\\))[FE])$`,
);

/** Lines that open a failure's message/trace block. */
const BLOCK_START = [
  /^---- \S.* std(out|err) ----$/, // cargo
  /^\s*(---|────) (STDOUT|STDERR):\s/, // nextest
  /^\s*(stdout|stderr) ───/, // nextest 0.9.9x: the test is named by the FAIL line before it
  /^_{3,} .+ _{3,}$/, // pytest
  /^\s*--- FAIL: /, // go
  // go test -bench: a failed benchmark's record, its result in place of the row's metrics (the
  // name column printed before it ran), its log lines under it
  /^Benchmark\S{1,300}\s{1,40}--- FAIL: \S/,
  /^panic: /, // go
  /^fatal error: /, // go's runtime (`concurrent map writes`, a deadlock), its goroutines under it
  /^\s*● /, // jest
  /^ ?FAIL\s+\S.* > /, // vitest
  /^ ?FAIL {1,4}(?:\|[^|\s]{1,100}\| )?\S{1,1000} \[ \S{1,1000} \]$/, // vitest's failed suite (a hook)
  /^\s*(✖|×) /, // node --test, vitest
  /^\s*not ok \d+ /, // TAP (subtests indented)
  /^\s*\d+\) \S/, // mocha
  // pytest --pdb's banners (`>>>> traceback >>>>`, `>>>> entering PDB >>>>`, `>>>> PDB post_mortem
  // (IO-capturing turned off) >>>>`): printed in place of the failures section
  /^>{3,} \S.{0,200} >{3,}$/,
];

/** Passing tests, progress and headers: dropped, and they end a failure block. */
const PASSING = [
  /^test \S.* \.\.\. (ok|ignored)\b/,
  /^\s*PASS \[/,
  new RegExp(`^${PYTEST_ID}\\S.* (PASSED|SKIPPED|XFAIL)\\b`),
  /^\[gw\d{1,4}\] (\[\s{0,3}\d{1,3}%\] )?(PASSED|SKIPPED|XFAIL) \S/, // pytest-xdist -v
  /^\s*--- (PASS|SKIP): /, // a skip is kept as an outcome (`GO_SKIP`), not a failure
  /^=== (RUN|PAUSE|CONT|NAME)\s/,
  // go test -v -bench: a benchmark's name alone as it starts, its `=== RUN` (what it logs follows)
  /^Benchmark\S{1,300}$/,
  /^\s*(✓|✔|√) /,
  /^PASS\s/,
  /^PASS$/,
  /^\s*ok \d+ /,
  /^running \d+ tests?\b/,
  /^\s*Running \S/,
  /^\s*Starting \d+ tests? across/,
  /^PASSED \S/, // pytest -rA's short summary
];

/** Section headers: they end a block without being kept. */
const SECTION = [
  /^(failures|successes):$/,
  /^=+ .* =+$/,
  /^ (ERRORS|FAILURES) $/,
  /^\s*⎯{3,}/,
  /^\s*─{5,}\s*$/,
  /^-{5,}\s*(output|output end)\s*-{5,}$/,
  /^\s*# Subtest: /,
  /^\s*1\.\.\d+$/,
];

/**
 * cargo test's result split by the test's own output (`-- --nocapture`): `test a ... ` and what
 * the test printed first on one line, more of its output under it, then its status alone on a
 * line. The output is held as a failure's block until the status says whether the test passed
 * (its output goes, as captured output of a passing test does) or failed (it stays).
 */
const CARGO_PENDING = /^test \S.* \.\.\. (?!(?:ok|FAILED|ignored)(?: |$))\S/;
const CARGO_LATE_STATUS = /^(?:ok|FAILED|ignored)$/;
/** A libtest run's first line, and its result when every test passed. */
const LIBTEST_RUNNING = /^running \d+ tests?$/;
const LIBTEST_PASSED = /^test result: ok\. /;

/**
 * Lines outside any block that still matter (a crash outside a test, a collection error, pytest's
 * `!!!` verdicts, go's `go build example.com/pkg: invalid flag in #cgo CFLAGS: …`).
 */
const LOOSE_SIGNAL_START =
  /^(error(\[\w+\])?:|Error:|ERROR\b|fatal|FATAL|panic:|Segmentation fault|Traceback|!{3,} \S|go (build|vet) [^\s:]{1,300}: \S)/;
/**
 * A compiler's or vet's `file:line[:col]: message` at column 0, and go's `# package` header over
 * them (`# example.com/pkg [example.com/pkg.test]` when the package's test build failed): `go test` prints go vet's and the build's errors before (or instead of) any test.
 */
const LOOSE_LOCATION =
  /^(?:[^\s:]{1,300}:\d{1,7}(?::\d{1,7})?: \S|# [^\s]{1,300}(?: \[[^\s\]]{1,300}\])?$)/;
/**
 * What a passing test run's build made, as cargo prints it: a workspace crate's `Compiling app v0.1.0
 * (/src/app)` (a dependency's has no path: it is progress) and `Finished \`test\` profile …`.
 */
const BUILT =
  /^\s{0,12}(?:Compiling [\w-]{1,100} v\S{1,60} \(\/[^)]{0,400}\)|Finished `\w{1,40}` profile )/;
/** `LOOSE_SIGNAL_START`, a location line, or "panicked at" anywhere. */
const looseSignal = (line: string) =>
  LOOSE_SIGNAL_START.test(line) || LOOSE_LOCATION.test(line) || line.includes("panicked at");
/**
 * A warning in Python's format (`path:12: DeprecationWarning: text`), as pytest's warnings summary
 * lists it under each test that raised it: the run passes, but the warning is what to act on.
 * Each location is a place to fix: a warning is kept once per location and message, with how
 * often it came there.
 */
const PY_WARNING = /^\s*\S{1,300}:\d{1,7}: ([A-Z]\w{0,60}Warning: .{1,1000})$/;
/**
 * An unexpected pass: pytest's short summary `XPASS t.py::test_b - reason` (with -rX or -ra) and
 * -v's `t.py::test_b XPASS (reason)`. It is a result, not a passing test: the bug the xfail marks
 * is fixed, or the test no longer tests it.
 */
const XPASS = new RegExp(
  `^(?:XPASS \\S|\\[gw\\d{1,4}\\] (?:\\[\\s{0,3}\\d{1,3}%\\] )?XPASS \\S|${PYTEST_ID}\\S.* XPASS\\b)`,
);
/**
 * pytest's short summary lines of tests that did not run or were expected to fail, with their
 * reason (`SKIPPED [1] tests/t.py:12: needs a database`, `XFAIL t.py::test_b - bug #12`, with -rs,
 * -rx, -ra or -rA): why a test did not count is a result, and there are few of them.
 */
const PYTEST_OUTCOME = /^(?:SKIPPED \[\d{1,9}\] \S|XFAIL \S)/;
/** The number of tests a `SKIPPED [3] …` line stands for. */
const SKIPPED_COUNT = /^SKIPPED \[(\d{1,9})\]/;
/**
 * vitest's snapshot counts, one per line under its `Snapshots` label (`  Snapshots  2 written`,
 * then `1 updated`, `1 removed` and the removed snapshots' files and names, indented to the first
 * count's column; the summary's other labels, padded to one width, start left of it): the lines
 * under it are the same count's, kept with it (the first MAX_LIST_LINES;
 * a line of ours counts the rest).
 */
const VITEST_SNAPSHOTS = /^(\s{1,40}Snapshots\s{1,40})\d/;
/**
 * npm's banner over a package script's output (`> @shop/pricing@0.1.0 test`): in a workspaces run
 * (more than one banner) it names the package whose tests follow, kept over the first failure
 * under it; a run of one package's script names nothing the command does not.
 */
const NPM_SCRIPT_BANNER = /^> (?:@[\w.-]{1,214}\/)?[\w.-]{1,214}@\S{1,100} [\w:.-]{1,100}$/;
/**
 * npm's closing error over a failed script: what failed, in which workspace. Its lines that repeat
 * the banner (`code 1`, `path`, the script's text) are gone before: the npm-script-error rule
 * (filters/build.toml) holds npm's list of them.
 */
const NPM_ERROR = /^npm (?:error|ERR!) \S/;
/** Outcome lines kept; a line of ours counts the rest. */
const MAX_OUTCOMES = 20;
/**
 * pytest-xdist's collection line, `2 workers [51 items]`: the one line saying the tests ran in
 * parallel (an order- or state-dependent failure reads differently), and how many. pytest's own
 * `collected 51 items` goes: the counts line gives the same number.
 */
const XDIST_WORKERS = /^\d{1,4} workers? \[\d{1,9} items?\]$/;
/**
 * pytest's collection line when it says more than the count the final line repeats: `collected
 * 244 items / 1 error`, `collecting ... collected 27 items / 21 deselected / 6 selected`.
 */
const PYTEST_COLLECTED_MORE = /^(?:collecting \.\.\. )?collected \d{1,9} items? \/ \S/;
/** A `name: value` line of pytest's session header, its own or a plugin's. */
const PYTEST_HEADER_FIELD = /^[A-Za-z][\w .-]{0,60}: \S/;
/**
 * The header's lines about the machine and the project's setup, the same on every run: they go.
 * The other fields say how this run runs (`run-last-failure: rerun previous 6 failures`,
 * `stepwise: skipping 4 already passed items.`) and stay, with a plugin's `Using --randomly-seed=12`.
 */
const PYTEST_SETUP_FIELD =
  /^(?:platform|cachedir|rootdir|configfile|inifile|testpaths|plugins|benchmark|asyncio|django|metadata|created|timeout(?: method| func_only)?):/;
const PYTEST_RUN_OPTION = /^Using --[\w-]{1,60}=\S{1,200}$/;
/**
 * A frame of pytest's short traceback style (`--tb=short`, the middle frames of `auto`, a
 * collection error): `tests/conftest.py:2: in <module>`, the statement it ran indented under it.
 */
const PYTEST_SHORT_FRAME = /^(\S{1,1000}):\d{1,7}: in \S/;
/** Python's own library: a frame there is not the project's to fix. */
const PY_STDLIB = /[/\\]lib[/\\]python\d[\d.]{0,8}[/\\]/;
/**
 * A line over a warning in pytest's warnings summary saying where it was raised: a test id
 * (`tests/test_a.py::test_b`) or a file's count (`tests/test_agg.py: 160 warnings`).
 */
const WARNING_HEAD = /^(?!-- Docs: )\S/;
/** Such lines kept over one warning: the nearest; a line of ours counts the rest. */
const MAX_WARNING_HEADS = 1;
/**
 * node --test's spec reporter names each test of its closing `✖ failing tests:` list by its
 * location (`test at price.test.mjs:8:3`) over the failure, printed again: the location line ends
 * the failure before it and stays.
 */
const NODE_TEST_AT = /^test at \S{1,1000}:\d{1,7}:\d{1,7}$/;
/** Distinct warnings kept; the runner's count line still says how many there were. */
const MAX_WARNINGS = 20;
/**
 * Locations kept of one warning message: the same deprecation raised by forty test files is one
 * thing to fix, shown at its first places, with how many more places raised it.
 */
const MAX_WARNING_LOCATIONS = 5;
/** A location in an installed package: not the project's to fix, so its first place is enough. */
const INSTALLED = /[/\\](?:site|dist)-packages[/\\]/;
/**
 * A closing status line that introduces a list (cargo's `error: 2 targets failed:` over the
 * targets to rerun): kept lines ending in a colon keep the indented lines right under them.
 */
const LIST_HEAD = /:\s*$/;
const LIST_ITEM = /^\s+\S/;
/** Lines of such a list kept. */
const MAX_LIST_LINES = 20;
/**
 * Python's traceback head: its list is frames, the innermost (where the error is) last, and the
 * exception under them at column 0, so its last MAX_LIST_LINES lines stay, with the exception.
 */
const TRACEBACK_HEAD = /^Traceback \(most recent call last\):\s*$/;
/**
 * The head of an exception group's traceback (`  + Exception Group Traceback (most recent call
 * last):`), its frames and sub-exceptions behind `| ` gutters: pytest prints it so whatever --tb
 * says, and it reads as a plain traceback.
 */
const GROUP_TRACEBACK_HEAD = /^\s*\+ Exception Group Traceback \(most recent call last\):\s*$/;
/** The exception ending a traceback: `ValueError: bad`, `pkg.mod.Failed: x`, `KeyboardInterrupt`. */
const PY_EXCEPTION = /^[A-Za-z_][\w.]{0,200}(?:: .*|Error|Exception|Interrupt|Exit)$/;
/**
 * A run's closing lines after its last counts (jest's `Ran all test suites matching /tests/i.`)
 * stay when they are few and none of them is a test, a failure or a section: more than this is
 * further output, not a closing.
 */
const MAX_TAIL_LINES = 5;
/**
 * Whether an item of the summary is a failure block or a failed-test line: a plain line after the
 * counts right over one is the headline of a block the run printed after them (jest's `Jest has
 * detected the following 2 open handles …:` over its `●` items), kept with the items it heads.
 */
const headsBlock = (item: unknown): boolean =>
  typeof item === "object" && item !== null && ("head" in item || "line" in item);
/** node --test's run time after its counts: timing, not a closing line. */
const TAIL_TIMING = /^[ℹ#] duration_ms [\d.]+$/;
/**
 * A result of `go test -bench`: `BenchmarkGet-8  52341234  22.91 ns/op [48 B/op  1 allocs/op]`.
 * It is what the run was for, so it stays as printed, with the `PASS` that closes its package.
 */
const GO_BENCH_RESULT = /^Benchmark\S{1,300}\s{1,40}\d{1,15}\s{1,40}\d[\d.]{0,30} ns\/op\b/;
/** The machine a benchmark ran on (`goos: linux`, `cpu: …`), printed per package: kept once. */
const GO_BENCH_HEADER = /^(?:goos|goarch|pkg|cpu): \S/;
/**
 * go test -v's line that says which test the log lines after it belong to (`=== CONT` after a
 * parallel test resumes, `=== NAME` in newer releases).
 */
const GO_RUN = /^=== (RUN|CONT|NAME|PAUSE)\s+(\S{1,1000})$/;
/**
 * go's `--- FAIL: TestX/sub (0.00s)` (and PASS, SKIP): the test it closes. A benchmark's has no
 * duration (`--- FAIL: BenchmarkX-2`).
 */
const GO_RESULT = /^\s*--- (?:FAIL|PASS|SKIP): (\S{1,1000})(?: \(|$)/;
/**
 * Running go tests whose `=== RUN   TestX` line is held: a failed test's stays over its `--- FAIL:`
 * line, saying where the test started (the log lines after it are its own).
 */
const MAX_GO_RUNS = 10_000;
/**
 * Lines held of each kind a running go test prints (its log lines, its other lines) until its
 * result says whether they are shown: the first ones and the last ones.
 */
const MAX_GO_LOG = 1000;
/**
 * Where a go test binary's run may have died: a panic or a fatal runtime error (which end it
 * before the running tests print a result: a panic in another goroutine, `-timeout`'s `panic: test
 * timed out after 2s`, `fatal error: concurrent map writes`). A test that prints its result after
 * it (a panic it recovered and printed) was not the one the run died in.
 */
const GO_RUN_DYING = /^(?:panic: |fatal error: )/;
/**
 * Where a go test binary's run ends: the package's result line (after an `os.Exit` inside a test,
 * the binary's end prints nothing else). A test started and not resolved by then is the one the
 * run died in.
 */
const GO_RUN_END = /^(?:FAIL\t|ok {2})/;
/** A line of a go test's log (`    a_test.go:8: text`) or a runtime report's head over its frames. */
const isGoTestLog = (line: string) => isRuntimeReportHead(line) || /^\s+\S/.test(line);

/**
 * Lines of one kind a go test printed, at most `cap` first ones and `cap` last ones, each with its
 * place among all the test's lines: however much a test prints, its last lines (the `t.Errorf`
 * before its result) are held; `note` counts those between them.
 */
class GoHeldLines {
  constructor(
    private readonly cap = MAX_GO_LOG,
    private readonly note: (n: number) => string = goLinesCut,
  ) {}
  readonly first: [number, string][] = [];
  readonly last: [number, string][] = [];
  /** Where the next of the last lines is written once they are full. */
  private at = 0;
  /** Lines between the first and the last ones that are no longer held. */
  cut = 0;

  push(place: number, line: string): void {
    if (this.first.length < this.cap) this.first.push([place, line]);
    else if (this.last.length < this.cap) this.last.push([place, line]);
    else {
      this.last[this.at] = [place, line];
      this.at = (this.at + 1) % this.cap;
      this.cut++;
    }
  }

  /** Whether it holds no line. */
  get empty(): boolean {
    return this.first.length === 0;
  }

  /** The lines held in the order printed, a count of those cut in their place. */
  lines(): string[] {
    return this.entries().map(([, line]) => line);
  }

  /** The lines held in the order printed, a count of those cut in their place. */
  entries(): [number, string][] {
    const last = [...this.last.slice(this.at), ...this.last.slice(0, this.at)];
    if (this.cut === 0) return [...this.first, ...last];
    return [...this.first, [last[0][0] - 0.5, this.note(this.cut)], ...last];
  }
}

/** What a running go test printed, held until its result: its log lines and its other lines. */
class GoTestOutput {
  private readonly logs = new GoHeldLines();
  private readonly others = new GoHeldLines();
  /** How many lines it printed: a place among them. */
  printed = 0;

  push(line: string): void {
    (isGoTestLog(line) ? this.logs : this.others).push(this.printed++, line);
  }

  /** Its log lines: the reason a skipped test gives is its last. */
  logLines(): string[] {
    return this.logs.lines();
  }

  /**
   * Every line held that it printed before `upTo`, in order: shown when it fails or the run dies
   * in it.
   */
  allLines(upTo = Infinity): string[] {
    return [...this.logs.entries(), ...this.others.entries()].filter(([place]) => place < upTo)
      .sort((a, b) => a[0] - b[0]).map(([, line]) => line);
  }
}

/**
 * A go test's last lines before its result (`--- FAIL:`, or the end of a run that died in it):
 * where it logs what failed (`t.Errorf`, `t.Fatalf`) or prints why it stopped. They stay past a
 * failure's trace limit, whether or not they read as a failure.
 */
const GO_LAST_LINES = 5;
/**
 * Lines printed before a go failure's `--- FAIL:` line without -v shown over it: this many first
 * ones (a race report's head) and last ones (the failing test's own prints come right before its
 * result), the others counted.
 */
const MAX_GO_PRINTED = 20;
/** A line of go's fuzzing engine (`fuzz: elapsed: 3s, execs: …`): no test printed it. */
const GO_FUZZ_LINE = /^fuzz: /;
/** Our line in place of a go test's printed lines not held. */
/** Frames in the user's own code a failure's trace keeps past its cut, at most. */
const OWN_FRAMES = 2;
const goLinesCut = (n: number) => `... (${n} more lines printed by the test)`;
/** A line of ours that counts a go test's lines not held: it stays past a failure's trace limit. */
const GO_LINES_CUT = /^\.\.\. \(\d+ more lines printed by the test\)$/;
/**
 * go's `--- SKIP: TestX (0.00s)`: a test that did not run is an outcome, with its reason (the
 * `t.Skip` message, logged before the line under -v, indented under it otherwise), as pytest's
 * `SKIPPED [1] t.py:3: reason` is.
 */
const GO_SKIP = /^(\s*)--- SKIP: \S/;
/** Log lines kept of a skipped go test, its last: `t.Skip` logs the reason as it ends the test. */
const MAX_SKIP_LOG = 3;
/**
 * `go test -shuffle on` prints the seed it shuffled with (`-test.shuffle 1700000000`): the run
 * option that reproduces the order, as pytest's `Using --randomly-seed=12` is.
 */
const GO_SHUFFLE = /^-test\.shuffle -?\d{1,20}$/;

/**
 * pytest's progress row of one file: its path, one mark per test (`.` passed, `F` failed, `E`
 * error, `s`, `x`, `X`), then the run's progress (`tests/test_a.py ..F.   [ 40%]`). A row with a
 * failure mark names the file its failures are in; a file's row too long for the terminal goes on
 * in rows of marks alone (`CONTINUED_PROGRESS`). Checked in two steps: the row's shape, then
 * whether its marks hold a failure.
 */
const PYTEST_PROGRESS =
  /^[^\s:]{1,1000}\.\w{1,10} [.FEsxX]{1,1000}(?:\s{1,100}\[\s{0,3}\d{1,3}%\])?\s{0,100}$/;
const CONTINUED_PROGRESS = /^[.FEsxX]{1,1000}\s{1,100}\[\s{0,3}\d{1,3}%\]\s{0,100}$/;
/** The marks of a failed or erroring test in a progress row. */
const PROGRESS_FAILURE = /[FE]/;
/**
 * node --test's dot reporter: a row of one mark per test (`.` passed, `X` failed), then `Failed
 * tests:` over the failures it prints again. A row with an `X` says where in the run they came;
 * the header says what the `✖` lines under it are.
 */
const DOT_ROW = /^[.X]{1,1000}$/;
const DOT_FAILED_HEAD = "Failed tests:";
/**
 * pytest-xdist's notices of a worker that died (`[gw0] node down: Not properly terminated`,
 * `replacing crashed worker gw0`): the crash is the failure of the test it was running, and
 * the tests after it ran on a new worker. Without -v the notice follows the progress marks on
 * their line.
 */
const XDIST_CRASH =
  /^(?:[.FEsxX]{0,1000}\[gw\d{1,4}\] node down: \S|replacing crashed worker gw\d{1,4}$)/;

/** Stack frames from runtimes and test harnesses: never where the bug is. */
const TRACE_NOISE = [
  /^\s+at \/rustc\//,
  /^\s+\d+: (std|core|alloc|test|__rustc)::/,
  /^\s+\d+: <(fn|F as|alloc|core|std)[\s(:<]/,
  /^\s+at \S+\/library\/(std|core|alloc|test)\//,
  /^note: Some details are omitted, run with `RUST_BACKTRACE=full`/,
  /^\s+at (node:internal\/|process\.processTicksAndRejections|async Promise\.all|new Promise \(<anonymous>\))/,
  /^\s+at .*\(node:internal\//,
  /^\s+at .*\/node_modules\/(vitest|@vitest|jest-|jest\/|mocha|tinypool)/,
  /^\s+at ext:(cli|core|deno_)/,
  /^\s+\d+: <unknown>$/,
  /^Stack backtrace:$/,
  // `\s+.*` would retry the whole rest of a line for every split of its indentation (quadratic
  // on a long indented line): the rest starts at the first non-space, the same lines match.
  /^\s+(?:\S.*)?\(node:(internal\/|async_hooks:)/,
  /^\s+(duration_ms|failureType|type): /,
  // RUST_BACKTRACE hint, the backtrace header, and the test's own closure frame (its `at` line
  // goes with it, below): the panic line already names the test and the location.
  /^note: run with `RUST_BACKTRACE=/,
  /^stack backtrace:$/,
  /^\s+\d+: \S+::\{\{closure\}\}$/,
  // A doctest's generated `main` (rustdoc names the crate `rust_out`): the `---- src/lib.rs -
  // Unit::to (line 34) stdout ----` head names the doctest already.
  /^\s+\d+: rust_out::main(::_doctest_main_\w+)?$/,
  // TAP YAML bookkeeping (node --test): the block markers and the fields that repeat the error.
  /^\s+(---|\.\.\.)$/,
  /^\s+(code|name|operator): '[^']*'$/,
  /^\s+(stack|error): \|-$/,
];

// deno's `name ... ok`, `name ... FAILED`, `name => file:1:2` start with any text, so a regex
// must scan the whole line; they are only tried on lines holding their literal. A failed step is
// indented under its test (`  second ... FAILED (0ms)`) and is a failed-test line too.
const DENO_FAILED = /^\s{0,40}\S.* \.\.\. FAILED\b/;
const DENO_BLOCK = /^\S.* => \S+:\d+:\d+$/;
const DENO_OK = /^\S.* \.\.\. ok\b/;
/** A line holding one of the literals above. */
const DENO_LITERALS = / => | \.\.\. (?:FAILED|ok)/;

const join = (list: RegExp[]) => list.map((re) => `(?:${re.source})`).join("|");
const KINDS = ["summary", "block", "marker", "passing", "section"] as const;
/**
 * Every shape, all anchored at column 0, kind by kind in precedence order summary > block start >
 * failed marker > passing > section; a line is tried only on the shapes its first non-whitespace
 * character can start.
 */
const CLASSIFY = new StartIndex([SUMMARY, BLOCK_START, FAILED_MARKER, PASSING, SECTION]);
const MARKER = new RegExp(join([...FAILED_MARKER, DENO_FAILED]));
const NOISE_FRAME = new StartIndex([TRACE_NOISE]);

type LineKind = "summary" | "block" | "marker" | "passing" | "section" | null;

const PYTEST_COUNTS = /\b(passed|failed|errors?|skipped|deselected|xfailed|xpassed|no tests ran)\b/;
const PYTEST_TIME = / in [\d.]+m?s\b/;

/**
 * pytest's final line, `==== 1 failed, 2 passed in 0.12s ====`: checked piece by piece, since
 * one regex of its three free-text parts would backtrack over their splits (cubic on a line of
 * `= passed in 1s` repeated).
 */
function pytestSummary(line: string): boolean {
  if (!line.startsWith("=") || !line.endsWith("=")) return false;
  const open = /^=+ /.exec(line);
  const close = / =+$/.exec(line);
  if (!open || !close || close.index < open[0].length) return false;
  const inner = line.slice(open[0].length, close.index);
  return PYTEST_COUNTS.test(inner) && PYTEST_TIME.test(inner);
}

/**
 * pytest's banner saying why a run ended early: `!!!! Interrupted: 1 error during collection !!!!`,
 * `!!!! stopping after 2 failures !!!!`, `!!!! KeyboardInterrupt !!!!`. A closing status line,
 * checked piece by piece as `pytestSummary` is.
 */
function pytestBanner(line: string): boolean {
  return line.endsWith("!!!") && /^!{3,} [^\s!]/.test(line) && /[^\s!] !{3,}$/.test(line);
}

/** The line's kind (exported for tests). */
export function classifyLine(line: string, first?: string): LineKind {
  if (pytestSummary(line)) return "summary";
  if (line.startsWith("!!!") && pytestBanner(line)) return "summary";
  const at = CLASSIFY.which(line, first);
  const kind: LineKind = at < 0 ? null : KINDS[at];
  if (kind === "summary" || kind === "block") return kind;
  // deno's whole-line shapes, checked by their literals first (one search for all three).
  if (!DENO_LITERALS.test(line)) return kind;
  if (line.includes(" => ") && DENO_BLOCK.test(line)) return "block";
  if (kind === "marker") return kind;
  if (line.includes(" ... FAILED") && DENO_FAILED.test(line)) return "marker";
  if (kind === "passing") return kind;
  if (line.includes(" ... ok") && DENO_OK.test(line)) return "passing";
  return kind;
}

/**
 * Shapes a test runner prints that other tools print too, so a line of them is not for sure a
 * runner's: a check mark without a test's duration or count (vite's `✓ 4 modules transformed.`,
 * `✗ Build failed in 252ms`), a numbered list item (mocha's `1) adds`), a `Running …` step that is
 * not cargo's `Running unittests src/lib.rs (…)`, a `=== … ===` banner that is not one of pytest's
 * sections, and a rule of box-drawing dashes.
 */
const NOT_ONLY_RUNNERS = [
  /^\s*[✓✔√✕×✗✖] (?!.*(?:\(\d[\d.]* ?m?s\)|\(\d+ (?:tests?|subtests?)\b))/,
  /^\s*\d+\) \S/,
  /^\s*Running (?!(?:unittests )?\S+ \()/,
  /^=+ (?!test session starts|FAILURES|ERRORS|short test summary info|warnings summary|PASSES|slowest)/,
  /^\s*─{5,}\s*$/,
];

/**
 * Whether a line is, for sure, a test runner's (a count, a failure's head or marker, a test's
 * result, a runner's section): the lines a compound command's other commands print are not.
 */
export function runnerLine(line: string): boolean {
  const kind = classifyLine(line);
  if (kind === null) return false;
  return kind === "summary" || !NOT_ONLY_RUNNERS.some((shape) => shape.test(line));
}

/**
 * A runner's count or verdict that says the run failed: a count of failures above zero (`Tests:
 * 1 failed`, `2 failing`, `ℹ fail 1`), a failed verdict (go's `FAIL\tpkg`, cargo's `test result:
 * FAILED`, `error: test failed`).
 */
const FAILED_COUNTS =
  /^\s*(?:FAIL\b|FAILED\b|test result: FAILED|error: )|\b(?:fail|failed|failing|errors?) [1-9]|\b[1-9]\d{0,9} (?:failed|failing|errors?)\b/;
/** A failure's head that only a failed run prints: go's `--- FAIL:`, a failed benchmark, a panic. */
const FAILED_HEAD = /^\s*--- FAIL: |^Benchmark\S{1,300}\s{1,40}--- FAIL: |^(?:panic|fatal error): /;
/** TAP's directives that make a `not ok` no failure (an expected one, a test not run). */
const TAP_DIRECTIVE = /# ?(?:TODO|SKIP)\b/i;

/**
 * Whether a line records a failed test or a failed run, whatever the exit code said: a failed
 * test's line, a failure's head only a failure prints, a count or verdict saying the run failed.
 */
export function recordsTestFailure(line: string): boolean {
  const kind = classifyLine(line);
  if (kind === "marker") return !TAP_DIRECTIVE.test(line);
  if (kind === "summary") return FAILED_COUNTS.test(line);
  return kind === "block" && FAILED_HEAD.test(line);
}

/**
 * In a compound command's output (`npm run build ; npm test`) the run is its part from its first
 * line that is for sure a runner's (`runnerLine`) to its last and the indented lines under it; the
 * other commands' lines pass as printed in their places (a build's failure after its `✓` progress
 * line is no test's to drop).
 */
export function compileTestSummary(config: TestSummaryConfig): CompiledStrategy {
  return {
    type: "test_summary",
    owns: runnerLine,
    recordsFailure: recordsTestFailure,
    createStage(ctx: StageContext): Stage {
      // Held for the unchanged pass-through (Fallback).
      const input = new HeldLines();
      const s = summarizer(config, ctx.failed);
      return {
        push(line) {
          input.push(line);
          s.push(line);
        },
        finish() {
          const result = s.finish();
          // The input is let go before the next stage reads what this one emits, or as it reads it.
          if (result) emitLines(ctx, keptOnce(result.lines, input));
          else if (ctx.emitAll) ctx.emitAll(input.take());
          else input.drain((line) => ctx.emit(line));
          return result?.confidence ?? "fallback";
        },
      };
    },
  };
}

/**
 * The summary's lines, each input line in it no more often than the input has it: a line read
 * twice (a go test's log line held as the closing after a package's counts, and again as the log
 * of the `--- FAIL` under it) is shown once, where it is last, the failure it belongs to. Lets the
 * input go.
 */
function keptOnce(lines: string[], input: HeldLines): string[] {
  const seen = new Map<string, number>();
  for (const line of lines) seen.set(line, (seen.get(line) ?? 0) + 1);
  // Per line shown more than once, how many times the input has it; a line of ours (a count, a
  // fold) is in no input and stays as often as it comes.
  const printed = new Map<string, number>();
  for (const [line, n] of seen) if (n > 1) printed.set(line, 0);
  if (printed.size === 0) {
    input.clear();
    return lines;
  }
  input.drain((line) => {
    const n = printed.get(line);
    if (n !== undefined) printed.set(line, n + 1);
  });
  const excess = new Map<string, number>();
  for (const [line, n] of printed) if (n > 0) excess.set(line, seen.get(line)! - n);
  return lines.filter((line) => {
    const n = excess.get(line) ?? 0;
    if (n <= 0) return true;
    excess.set(line, n - 1);
    return false;
  });
}

interface Block {
  head: string;
  body: string[];
  /** pytest's long traceback: source context is dropped, as `--tb=short` would. */
  pytest: boolean;
  /** Inside a pytest `Captured stdout/stderr/log` section: kept as is. */
  captured?: boolean;
  /** Inside a multi-line hypothesis example, until its closing `)`. */
  example?: boolean;
  /** The line before was a short frame of the project's: the statement under it stays. */
  statement?: boolean;
  /** The last such statement kept: a comprehension's frame repeats its caller's line. */
  lastStatement?: string;
  /**
   * A plain Python traceback (`--tb=native`, a doctest's unexpected exception) was opened: its
   * frames, its exception and the message under it stay; the library frames fold at the end.
   */
  native?: boolean;
  /** The line before was a collection error's message ending in a colon: what it names follows. */
  valuesUnder?: boolean;
  /** Indented lines still kept under a doctest's `Expected:` or `Got:` (0: none). */
  doctestValues?: number;
  /** The last numbered source line of a doctest read: the example that failed, once its result comes. */
  doctestExample?: string;
  /** Its last lines that stay past the trace limit (a go test's, `GO_LAST_LINES`). */
  keepLast?: number;
  /**
   * Lines printed before its head that may be its test's, shown over it as printed: a go test's
   * prints without -v (no `=== RUN` line says whose they are, its log lines follow its head).
   */
  before?: string[];
  /**
   * A cargo test whose printed output this is passed after all (`--nocapture`), a go test held
   * at a panic that printed its result after it: it goes.
   */
  passed?: boolean;
  /**
   * A passing cargo test's output under libtest's `successes:` (`--show-output`): on a failed run
   * it goes, counted; on a passing one it is what the run was asked for, and stays whole.
   */
  succeeded?: boolean;
  /** The earlier block of the same head (a runner's second report of a failure). */
  repeats?: Block;
  /**
   * pytest's lines that went as source context (at most MAX_UNREAD_LINES): a block that kept
   * nothing else (xdist's `worker 'gw1' crashed while running …`) shows them.
   */
  unread?: string[];
}

/** Lines a pytest block with no kept line shows of what it printed. */
const MAX_UNREAD_LINES = 20;

/** A failed-test line. */
interface Marker {
  line: string;
}

/** A line after the run's counts, kept at the end if the run's tail turns out to be its closing. */
interface Tail {
  tail: string;
}

const FRAME_LINE = /^\s+\d+: /;
const TAP_VALUE = /^(\s+)(?:expected|actual):(.*)$/;
/**
 * A TAP `expected:`/`actual:` value that opens a block (YAML `|-`, `>`) rather than being one: its
 * lines repeat the assertion's diff.
 */
const TAP_BLOCK_VALUE = /^\s*[|>][-+]?\s*$/;
/**
 * Longest one-line TAP value kept under an assertion message: a short value names what was compared
 * even when the diff above it is long or cut; a long one repeats the diff.
 */
const MAX_TAP_VALUE = 200;
/** node:assert's messages that print both values. */
const TAP_ASSERTION = /^\s+(Expected values to be |\+ actual - expected$)/;
const AT_LINE = /^\s+at /;
const CARET_ONLY = /^\s+\^+\s*$/;
const PYTEST_HEAD = /^_{3,} (.+?) _{3,}$/;
/**
 * pytest --pdb's banner over a failure's traceback, printed as the test fails: the traceback reads
 * as a failure section's. It names no test; the progress line right before it names the test's
 * file and where in it the test failed (`tests/test_a.py .F`), and stays over it. The banners after
 * it (`entering PDB`, `PDB post_mortem`) head what pdb printed: the frame it stopped in, the line
 * and its prompt, kept as printed.
 */
const PDB_TRACEBACK = /^>{3,} traceback >{3,}$/;
/**
 * Lines of a pytest failure that stay: the statements, the `E` lines, the locations, pytest's own
 * verdicts behind `!!!` (`!!! Recursion detected (same locals & position)`), a strict xpass, and
 * the separators of a chained exception (its cause or the exception it happened
 * while handling is the block above).
 */
const PYTEST_KEEP =
  /^(>|E |\S+:\d+: |!{3,} \S|\[XPASS\(strict\)\] |The above exception was the direct cause of the following exception:$|During handling of the above exception, another exception occurred:$)/;
const PYTEST_CAPTURED = /^-{3,} Captured /;
/** The head of a module's collection error: `____ ERROR collecting tests/test_a.py ____`. */
const COLLECT_HEAD = /^_{3,} ERROR collecting \S/;
/**
 * A collection error's own message, at column 0 over its traceback: `ImportError while importing
 * test module '…'.`, `Hint: make sure …`, `import file mismatch:`. The error is the module's, not a
 * test's, and these lines say what to fix; the `Traceback:` word over the frames says nothing.
 */
const COLLECT_PROSE = /^(?!Traceback:$)[^\s>]/;
/**
 * node --test's TAP reporter prints a test's own output as `# ` comments before the test's result
 * (`# \\# attempt 3 failed: token rejected`): lines of it that read as a failure are what the test
 * saw, and a run of them (a retry loop's attempts) keeps its last few.
 */
const TAP_NOTE = /^\s{0,40}# (?!Subtest: )\S/;
const MAX_TAP_NOTES = 3;
/**
 * doctest's report of an example's result (`Expected:` and `Got:` over the values, indented;
 * `Got nothing`; `UNEXPECTED EXCEPTION: ZeroDivisionError(…)` over a traceback): what the example
 * printed is the failure's message.
 */
const DOCTEST_RESULT = /^(?:Expected:|Got:|Got nothing$|UNEXPECTED EXCEPTION: )/;
/** The head of a doctest's failure block: `____ [doctest] pkg.mod.func ____`. */
const DOCTEST_HEAD = /^_{3,} \[doctest\] /;
/** A doctest's source line as pytest numbers it (`006     >>> sorted(d.items())`). */
const DOCTEST_SOURCE = /^\d{3,7} /;
/** Indented lines kept under one `Expected:` or `Got:`; the block's own limit cuts the rest. */
const MAX_DOCTEST_VALUES = 20;
/**
 * A line of only position marks under a traceback's source line (`~~^~~`, `^^^^`), also behind an
 * exception group's `| ` gutter.
 */
const POSITION_MARKS = /^\s+(?:\|\s+)?[~^]+\s*$/;
const PYTEST_SUMMARY = /^=+ (.+?) =+$/;
/** Zero counts of node --test (`# todo 0`): nothing to report. */
const ZERO_COUNT = /^[ℹ#] (suites|cancelled|skipped|todo) 0$/;
/** A passing test in a runner's tree (mocha, jest and vitest verbose). */
const TREE_PASS = /^\s*(✓|✔|√) /;
/**
 * A suite's name in that tree: indented, no mark, no location; mocha's `#method()` and `2xx`
 * titles are names, TAP's `# Subtest:` comment, `1..3` plan and a numbered failure are not.
 */
const SUITE_HEAD = /^\s{2,40}(?!# |\d{1,5}\) |\d{1,9}\.\.\d)[^\s✓✔√✕×✗✖●❯].{0,300}$/;
/** A failing test in a runner's tree (mocha's `    1) adds`): indented, numbered. */
const TREE_FAIL = /^\s{2,40}\d{1,5}\) \S/;
/** Suite names kept per run. */
const MAX_SUITES = 20;
/** jest's and vitest's closing timing lines. */
const RUN_TIMING = /^(?:Time:|\s*Duration)\s+[\d.]+ ?m?s\b/;
/** jest's snapshot count when every snapshot matched: nothing to act on. */
const SNAPSHOTS_ALL_PASSED = /^Snapshots:\s+(\d+) passed, \1 total$/;
/**
 * pytest's own sections, whose lines the rest of the summary reads (failures, warnings, failed-test
 * lines, the coverage table) or drops (the session header, progress). Any other `=== title ===` is
 * a report an option or a plugin adds (`slowest 8 durations`, `Hypothesis Statistics`): the run
 * printed it because it was asked to, so on a passing run it stays.
 */
const PYTEST_OWN_SECTION =
  /^(?:test session starts|FAILURES|ERRORS|PASSES|warnings summary(?: \(final\))?|short test summary info|tests coverage)$/;
/** Lines of a report kept as printed; a line of ours counts the rest. */
const MAX_REPORT_LINES = 20;
/**
 * Lines of such a report kept on a failed run, whose result is its failures: the report's top
 * rows (the slowest tests of `--durations`) are still what the command asked for.
 */
const MAX_FAILED_REPORT_LINES = 5;
/**
 * A report's note, a whole line in parentheses under its rows (`--durations`' `(3 durations <
 * 0.005s hidden.  Use -vv to show these durations.)`): it says what the rows leave out, so it is
 * not one of them; it stays after the rows kept and the count of those cut.
 */
const REPORT_NOTE = /^\([^()]{1,300}\)$/;
/**
 * A coverage threshold the run missed: pytest-cov's and coverage.py's `--fail-under`, jest's
 * `coverageThreshold`, vitest's and nyc's thresholds. It is one of the run's failures, and the table
 * above it says which files to cover, so a failed run with one keeps its table.
 */
const COVERAGE_THRESHOLD = [
  /^FAIL Required test coverage of [\d.]{1,8}% not reached\. Total coverage: [\d.]{1,8}%$/,
  /^(?:ERROR: )?Coverage failure: total of [\d.]{1,8} is less than fail-under=[\d.]{1,8}$/,
  /^Jest: ".{1,1000}" coverage threshold for \w{1,20} \([\d.]{1,8}%?\) not met: [\d.]{1,8}%?$/,
  /^ERROR: Coverage for \w{1,20} \([\d.]{1,8}%\) does not meet (?:global|".{1,1000}") threshold \([\d.]{1,8}%\)$/,
  // node --test's `--test-coverage-lines=90` (and branches, functions), behind its reporter's prefix
  /^[#ℹ] Error: [\d.]{1,8}% \w{1,20} coverage does not meet threshold of [\d.]{1,8}%\.$/,
];
/**
 * A pytest failure block's `name = value` lines, at column 0: the test's arguments
 * (`cents = 1, parts = 2`: parametrize, hypothesis, fixtures) and, with `-l`, each long frame's
 * locals (`cents      = 'x'`). Source lines are indented, so an assignment in them is not one; a
 * comprehension's `.0 = <list_iterator object at 0x…>` names no variable of the code and goes.
 */
const PYTEST_VALUES = /^[A-Za-z_]\w{0,200} {0,60}= \S/;
/**
 * hypothesis' falsifying example, as it prints it under the test (`Falsifying example:
 * test_x(cents=1, parts=2)`), opened over several lines when long: kept to its closing `)`.
 */
const HYPOTHESIS_EXAMPLE = /^(?:Falsifying(?: explicit)? example|Failing test case): \S/;

/** The shapes looked for before a line is classified, in the order they are looked for. */
const BEFORE_KINDS = new StartIndex([COVERAGE_THRESHOLD, [GO_BENCH_RESULT], [GO_BENCH_HEADER]]);
/** pytest's outcome lines and xdist's workers line, looked for outside a failure block. */
const OUTCOMES = new StartIndex([[PYTEST_OUTCOME], [XDIST_WORKERS]]);

/** Test output, read as a stream: lines are classified as they arrive, the summary built at the end. */
function summarizer(
  config: TestSummaryConfig,
  failed: boolean,
): {
  push(line: string): void;
  finish(): { lines: string[]; confidence: "full" | "partial" } | null;
} {
  const out: (string | Block | Marker | Tail)[] = [];
  const markers = new Set<string>();
  // Each failure block's head, trimmed (a runner re-lists its failures at another indentation).
  const heads = new Map<string, Block>();
  let summaries = 0;
  let passing = 0;
  let failures = 0;
  let loose = 0;
  let block: Block | null = null;
  let lastMarker = "";
  // go test -v prints a test's log lines before its `--- FAIL:` line: each test's lines are held
  // under its name (the last `=== RUN/CONT` line says which test is printing) until its result.
  let sinceRun: string[] = [];
  // Without -v a go test's prints come before its `--- FAIL:` line and no `=== RUN` line says
  // whose they are: the lines printed since the last line a runner printed (the previous test's
  // result, the package's start) are held, and stand over a go failure's head.
  let goPrinted = new GoHeldLines(MAX_GO_PRINTED, omitted);
  let goPrintedAt = 0;
  // A build's or vet's diagnostics are being read (a location line at column 0, go's `# pkg`
  // header): the indented lines after them are their code frames, a compiler's trailers end them.
  let building = false;
  const goLogs = new Map<string, GoTestOutput>();
  const goRuns = new Map<string, string>();
  // Parallel tests paused (`=== PAUSE`) and not continued: not running when a run dies.
  const goPaused = new Set<string>();
  let goRunning: string | null = null;
  // Tests running at the last panic (`GO_RUN_DYING`), each with its block placed before the
  // panic and how many lines it had printed: the block is shown, over those lines, if the run ends
  // with the test unresolved, and goes if the test's result comes.
  const goDying = new Map<string, { block: Block; upTo: number }>();
  /**
   * Holds a place before a panic for each test started and neither resolved nor paused: the
   * test the run may be dying in, its `=== RUN` line over what it printed. A place held at an
   * earlier panic stays unless the test printed since (it outlived that one; a runtime can report
   * one death twice, `fatal error: concurrent map writes` from two goroutines).
   */
  const holdGoRuns = () => {
    for (const [name, line] of goRuns) {
      if (goPaused.has(name)) continue;
      const upTo = goLogs.get(name)?.printed ?? 0;
      if (goDying.get(name)?.upTo === upTo) continue;
      const block: Block = { head: line, body: [], pytest: false, passed: true };
      goDying.set(name, { block, upTo });
      out.push(block);
    }
  };
  /**
   * A go test's result came: what it held (its log lines, its `=== RUN` line) is taken, and it is
   * no longer running, paused or a test the run may be dying in.
   */
  const resolveGoRun = (
    name: string,
  ): { logs?: string[]; printed?: string[]; started?: string } => {
    const logs = goLogs.get(name)?.logLines();
    const printed = goLogs.get(name)?.allLines();
    const started = goRuns.get(name);
    goLogs.delete(name);
    goRuns.delete(name);
    goPaused.delete(name);
    goDying.delete(name);
    return { logs, printed, started };
  };
  /**
   * Ends the package's running tests where its run ends (`GO_RUN_END`, or the output's end after a
   * panic): each test started and neither resolved nor paused is shown as a failure, at its place
   * before the panic if one came, its `=== RUN` line over what it printed. A passing package's
   * result (`ok`) finds none.
   */
  const endGoRuns = () => {
    for (const [name, line] of goRuns) {
      if (goPaused.has(name)) continue;
      failures++;
      const held = goDying.get(name);
      const body = goLogs.get(name)?.allLines(held?.upTo) ?? [];
      if (held === undefined) {
        out.push({ head: line, body, pytest: false, keepLast: GO_LAST_LINES });
      } else {
        held.block.body = body;
        held.block.keepLast = GO_LAST_LINES;
        held.block.passed = false;
      }
    }
    goRuns.clear();
    goLogs.clear();
    goPaused.clear();
    goDying.clear();
    goRunning = null;
  };
  // Benchmark results of the package being run, and the header lines already shown.
  let benchmarks = false;
  const benchHeaders = new Set<string>();
  // A runtime frame was dropped: its `at file:line` continuation goes too.
  let skipAt = false;
  // Indentation of a TAP `expected:`/`actual:` field being dropped (its deeper lines go too).
  let skipField = -1;
  // Each distinct warning's place in `out` and how often it came.
  const warnings = new Map<string, { at: number; line: string; count: number }>();
  /** Per warning message: its first kept entry, how many locations were kept and how many not. */
  const warningMessages = new Map<
    string,
    { first: { at: number; line: string; count: number }; kept: number; more: number }
  >();
  // A coverage report's table, and where each run of fully covered rows folds, with its count.
  const coverage = new CoverageReader();
  const folds: { at: number; n: number; first: string }[] = [];
  let folding = false;
  // Where each coverage line went in `out`: a failed run drops them unless a threshold failed it.
  const coverageAt: number[] = [];
  let thresholdMissed = false;
  // The report section being read (a passing pytest run's `slowest 8 durations`), and where the
  // line counting its cut rows goes.
  // On a failed run its head waits for its first row: a report with none (`XPASSES` over nothing)
  // says nothing.
  let report: { kept: number; cut: number; max: number; head: string | null } | null = null;
  const reportCuts: { at: number; n: number }[] = [];
  // pytest's short summary outcome lines kept, and where the line counting the rest goes.
  const outcomes = { kept: 0, cut: 0, at: -1 };
  // Inside pytest's session header (up to its first blank line) and its warnings summary, and the
  // lines naming where the next warning was raised, with how many went before them.
  let header = false;
  let warningsSection = false;
  let warningHeads: string[] = [];
  let warningHeadsCut = 0;

  // The suite names over the passing tests now coming (mocha's `  math` over `    ✔ adds`).
  let suiteHeads: string[] = [];
  let suitesShown = 0;
  // On a failed run, the suites enclosing the tree line now read (by indent) and whether each
  // was shown: a failing test's suites stay right before it.
  let openSuites: { indent: number; line: string; shown: boolean }[] = [];

  // Indented lines still to keep under a kept line ending in a colon (0: none).
  let listing = 0;
  // A section head over such a list (cargo's closing `failures:`), kept when an item comes.
  let listHead: string | null = null;
  // The indented lines under a kept Traceback head, its last MAX_LIST_LINES (null: none open),
  // and how many went before them.
  let traceback: string[] | null = null;
  let tracebackCut = 0;
  const endTraceback = () => {
    if (traceback === null) return;
    if (tracebackCut) out.push(omitted(tracebackCut));
    appendAll(out, traceback);
    traceback = null;
    tracebackCut = 0;
  };
  // Where the last counts line went in `out`, and the lines after it: how many, and whether all
  // are plain (no test, failure or section).
  let lastSummaryAt = -1;
  let tailLines = 0;
  let tailPlain = true;

  /** An outcome's lines (a skip with its reason), or past MAX_OUTCOMES its count of tests. */
  const keepOutcome = (lines: string[], tests: number) => {
    if (outcomes.kept < MAX_OUTCOMES) {
      outcomes.kept++;
      appendAll(out, lines);
      return;
    }
    if (outcomes.cut === 0) {
      outcomes.at = out.length;
      out.push(lines[0]);
    }
    outcomes.cut += tests;
  };
  // The indentation of the last `--- SKIP:` line, and how many lines deeper under it still stay
  // (its reason, when go prints a test's log under its result).
  let skipIndent = 0;
  let skipLog = 0;

  // A run of TAP comments that read as a failure, its last MAX_TAP_NOTES, and how many went.
  let tapNotes: string[] = [];
  let tapNotesCut = 0;
  const endTapNotes = () => {
    if (tapNotesCut) out.push(omitted(tapNotesCut));
    appendAll(out, tapNotes);
    tapNotes = [];
    tapNotesCut = 0;
  };

  // The cargo test whose output is being read, its status still to come (`--nocapture`).
  let cargoPending: Block | null = null;
  // Inside a libtest run (`running 4 tests` up to its `test result:` or `failures:`): the lines
  // its tests printed that no `test a ... ` line before them names. With several test threads
  // (`--nocapture`) they interleave, so none can be told to be a passing test's: each stays as
  // printed, unless the run's result says every test passed. A `panicked at` line heads what
  // follows it (the message, the trace) as a failure's block does.
  let cargoRun = false;
  let printed = new Set<Block>();
  // Inside libtest's `successes:` section, whose blocks are passing tests' output.
  let successes = false;
  // pytest's last progress row of a file, and whether it is kept; whether the last line was a row
  // of node's dot reporter.
  let progressRow: string | null = null;
  let progressKept = false;
  let dotRow = false;

  // The column of the first count after vitest's `Snapshots` label whose counts are being read
  // (-1: none).
  let snapshotIndent = -1;
  let snapshotLines = 0;
  // npm's last script banner, until the first failure under it shows it.
  let npmBanner: string | null = null;
  let npmBanners = 0;
  const bannersAt: number[] = [];
  const showBanner = () => {
    if (npmBanner !== null) {
      bannersAt.push(out.length);
      out.push(npmBanner);
    }
    npmBanner = null;
  };
  // The last pytest id line whose status is still to come (`-s`, `--setup-show`), or null.
  let pytestPending: string | null = null;
  /** A failed-test line kept once. */
  const keepMarker = (line: string) => {
    if (markers.has(line.trim())) return;
    markers.add(line.trim());
    out.push({ line });
  };
  /**
   * Reads a pytest result split over lines: the status that comes after an id line is that test's
   * result, and a failed one keeps both lines. True when the line was such a status.
   */
  const pytestResult = (line: string, kind: LineKind): boolean => {
    const pending = pytestPending;
    const last = line.charCodeAt(line.length - 1);
    // `F`, `E`, `D` (FAILED), `R` (ERROR): the only ends of a glued failed status.
    const glued = (last === 70 || last === 69 || last === 68 || last === 82) &&
      PYTEST_SETUP_SHOW_FAILED.test(line);
    const late = !glued && pending !== null ? PYTEST_LATE_STATUS.exec(line) : null;
    if (glued || late) {
      pytestPending = null;
      if (late && late[1] !== "FAILED" && late[1] !== "ERROR") {
        passing++;
        return true;
      }
      failures++;
      tailPlain = false;
      lastMarker = line;
      // The status line alone repeats for every test: it is kept under its id line. A glued
      // status ends a line naming its test, or a fixture's under the bare id line of -v.
      if (late) {
        keepMarker(pending!);
        out.push(line);
        return true;
      }
      if (pending !== null && /^\S+\s+$/.test(pending) && !line.trim().startsWith(pending.trim())) {
        keepMarker(pending);
      }
      keepMarker(line);
      return true;
    }
    if (kind === null && PYTEST_PENDING.test(line)) pytestPending = line;
    else if (kind !== null) pytestPending = null;
    return false;
  };

  /**
   * Keeps a progress row that holds a failure mark (pytest's, node's dot reporter's), with the
   * file row a continued pytest row goes on from. True when the line was such a row.
   */
  const progress = (line: string, afterDot: boolean): boolean => {
    if (DOT_ROW.test(line)) {
      dotRow = true;
      if (!line.includes("X") || (!afterDot && !line.includes("."))) return false;
      failures++;
      out.push(line);
      return true;
    }
    const row = PYTEST_PROGRESS.test(line);
    if (!row && (progressRow === null || !CONTINUED_PROGRESS.test(line))) return false;
    if (row) {
      progressRow = line;
      progressKept = false;
    }
    if (!PROGRESS_FAILURE.test(line.slice(row ? line.indexOf(" ") : 0))) return true;
    failures++;
    if (!row && !progressKept) out.push(progressRow!);
    progressKept = true;
    out.push(line);
    return true;
  };

  const push = (line: string): void => {
    const afterDot = dotRow;
    dotRow = false;
    if (snapshotIndent >= 0) {
      if (indentOf(line) >= snapshotIndent && !isBlank(line)) {
        if (snapshotLines++ < MAX_LIST_LINES) out.push(line);
        return;
      }
      if (snapshotLines > MAX_LIST_LINES) out.push(omitted(snapshotLines - MAX_LIST_LINES));
      snapshotIndent = -1;
    }
    if (line.startsWith("> ") && NPM_SCRIPT_BANNER.test(line)) {
      block = null;
      npmBanner = line;
      npmBanners++;
      return;
    }
    if (tapNotes.length && !TAP_NOTE.test(line)) endTapNotes();
    if (skipLog > 0) {
      if (indentOf(line) > skipIndent && /\S/.test(line)) {
        skipLog--;
        if (outcomes.cut === 0) out.push(line);
        return;
      }
      skipLog = 0;
    }
    if (traceback !== null) {
      if (LIST_ITEM.test(line)) {
        traceback.push(line);
        if (traceback.length > MAX_LIST_LINES) {
          traceback.shift();
          tracebackCut++;
        }
        return;
      }
      endTraceback();
      if (PY_EXCEPTION.test(line)) {
        out.push(line);
        return;
      }
    }
    const listed = listing > 0 && LIST_ITEM.test(line);
    listing = listed ? listing - 1 : 0;
    const opened = listHead;
    listHead = null;
    if (listed && block === null) {
      if (opened !== null) out.push(opened);
      out.push(line);
      return;
    }
    if (lastSummaryAt >= 0 && !isBlank(line)) tailLines++;
    const first = firstNonSpace(line);
    const covered = coverage.read(line, first);
    if (covered !== "fold") folding = false;
    if (covered !== null) {
      block = null;
      report = null;
      // Coverage is the result of a passing run; a failed run's result is its failures, unless
      // a coverage threshold is one of them (known only once its line comes, after the table).
      // node's table is printed only when the command asks for it (`--experimental-test-coverage`,
      // no config turns it on): it is what the run was for, also when a test failed.
      const droppable = coverage.node ? [] : coverageAt;
      if (covered === "keep") {
        droppable.push(out.length);
        out.push(line);
      }
      if (covered === "fold" && folding) folds[folds.length - 1].n++;
      else if (covered === "fold") {
        folding = true;
        folds.push({ at: out.length, n: 1, first: line });
        droppable.push(out.length);
        out.push(line);
      }
      return;
    }
    const before = BEFORE_KINDS.which(line, first);
    if (before === 0) {
      block = null;
      report = null;
      thresholdMissed = true;
      failures++;
      out.push(line);
      return;
    }
    if (before === 1) {
      block = null;
      benchmarks = true;
      passing++;
      out.push(line);
      return;
    }
    if (before === 2 && block === null) {
      if (!benchHeaders.has(line)) out.push(line);
      benchHeaders.add(line);
      return;
    }
    if (line.startsWith("-test.shuffle ") && GO_SHUFFLE.test(line)) {
      out.push(line);
      return;
    }
    if (LOOSE_LOCATION.test(line)) {
      building = true;
      sinceRun = [];
    } else if (building && COMPILER_TRAILER.test(line)) {
      // In its place under the diagnostics it ends, whatever the cap on loose lines.
      out.push(line);
      return;
    }
    if (goRuns.size > 0 && GO_RUN_DYING.test(line)) holdGoRuns();
    if (goRuns.size > 0 && GO_RUN_END.test(line)) endGoRuns();
    const kind = classifyLine(line, first);
    if (kind !== null) building = false;
    let printedSince: string[] | null = null;
    if (kind !== null && !goPrinted.empty) {
      printedSince = goPrinted.lines();
      goPrinted = new GoHeldLines(MAX_GO_PRINTED, omitted);
    }
    if (block === null && pytestResult(line, kind)) return;
    if (kind === null && cargoPending !== null && CARGO_LATE_STATUS.test(line)) {
      if (line === "FAILED") failures++;
      else {
        passing++;
        cargoPending.passed = true;
      }
      cargoPending = null;
      block = null;
      return;
    }
    if (kind !== null) cargoPending = null;
    if (kind === "passing" && LIBTEST_RUNNING.test(line)) {
      cargoRun = true;
      printed = new Set();
    } else if (cargoRun && (kind === "summary" || kind === "section")) {
      cargoRun = false;
      if (LIBTEST_PASSED.test(line)) { for (const b of printed) b.passed = true; }
      printed = new Set();
    }
    if (kind === null && line.startsWith("test ") && CARGO_PENDING.test(line)) {
      block = { head: line, body: [], pytest: false };
      cargoPending = block;
      out.push(block);
      return;
    }
    if (kind !== null) report = null;
    if (kind !== null && kind !== "summary") tailPlain = false;
    const run = kind === "passing" ? GO_RUN.exec(line) : null;
    if (run) {
      goRunning = run[1] === "PAUSE" ? null : run[2];
      if (run[1] === "PAUSE") goPaused.add(run[2]);
      else goPaused.delete(run[2]);
      if (run[1] === "RUN") {
        goLogs.set(run[2], new GoTestOutput());
        if (goRuns.size < MAX_GO_RUNS) goRuns.set(run[2], line);
      }
    }
    // A passing run's tree of suites says what ran: each name over passing tests stays.
    if (kind === "passing" && TREE_PASS.test(line) && suitesShown < MAX_SUITES) {
      for (const head of suiteHeads.slice(0, MAX_SUITES - suitesShown)) out.push(head);
      suitesShown += suiteHeads.length;
    }
    // mocha's tree: a suite's name after a failing test (`    1) adds`, then `    rounding`) is
    // the tree's next node, not that test's output: it ends the test's block, and stays if it
    // heads a failing test. Before the counts only: a failure's report indents its own lines.
    if (
      block !== null && kind === null && summaries === 0 && TREE_FAIL.test(block.head) &&
      SUITE_HEAD.test(line) && indentOf(line) <= indentOf(block.head)
    ) block = null;
    if (!failed && kind === null && block === null && SUITE_HEAD.test(line)) {
      if (suiteHeads.length < MAX_SUITES) suiteHeads.push(line);
    } else suiteHeads = [];
    if (
      failed && (kind === null ? block === null && SUITE_HEAD.test(line) : TREE_FAIL.test(line))
    ) {
      const indent = indentOf(line);
      openSuites = openSuites.filter((suite) => suite.indent < indent);
      if (kind === null) openSuites.push({ indent, line, shown: false });
      else if (suitesShown < MAX_SUITES) {
        for (const suite of openSuites) {
          if (suite.shown) continue;
          suite.shown = true;
          suitesShown++;
          out.push(suite.line);
        }
      }
    }
    if (kind === "summary") {
      block = null;
      successes = false;
      warningsSection = false;
      summaries++;
      benchmarks = false;
      lastSummaryAt = out.length;
      tailLines = 0;
      tailPlain = true;
      if (LIST_HEAD.test(line)) listing = MAX_LIST_LINES;
      const snapshots = VITEST_SNAPSHOTS.exec(line);
      if (snapshots) {
        snapshotIndent = snapshots[1].length;
        snapshotLines = 0;
      }
      out.push(line);
      return;
    }
    if (kind === "block") {
      // nextest's `stderr ───` names no test: the failed-test line before it does.
      const key = NEXTEST_SECTION.test(line) ? `${line}\n${lastMarker}` : line.trim();
      // pytest names a block by the test's name only: two files' `test_b` are two failures. A
      // block whose head came before is kept until its body is read: a runner's re-listing of a
      // failure (deno's FAILURES, node's `failing tests:`, jest's summary) repeats it, vitest's
      // second `expect.soft` failure of a test does not.
      // pytest --pdb's banners name no test either.
      const repeats = PYTEST_HEAD.test(line) || line.startsWith(">>>") ? undefined : heads.get(key);
      failures++;
      skipField = -1;
      const goFail = GO_RESULT.exec(line);
      const { printed, started } = goFail ? resolveGoRun(goFail[1]) : {};
      if (started !== undefined) out.push(started);
      block = {
        head: line,
        // What the test printed: under -v, held under its name (its log lines and its prints in
        // the order printed); without, its log lines follow under the head, and the lines printed
        // since the last result stand over it.
        body: goFail ? (printed ?? (printedSince ? [] : sinceRun)) : [],
        before: goFail && printed === undefined ? printedSince ?? undefined : undefined,
        // A go test's last log lines say what failed: held before its result under -v, printed
        // under it without (`t.Errorf` after a thousand `t.Log` lines).
        keepLast: goFail ? GO_LAST_LINES : undefined,
        pytest: PYTEST_HEAD.test(line) || PDB_TRACEBACK.test(line),
        repeats,
      };
      if (successes && line.startsWith("---- ")) {
        failures--;
        passing++;
        block.succeeded = true;
      }
      if (!repeats) heads.set(key, block);
      sinceRun = [];
      showBanner();
      out.push(block);
      if (MARKER.test(line)) markers.add(line.trim());
      return;
    }
    if (kind === "marker") {
      block = null;
      lastMarker = line;
      failures++;
      showBanner();
      if (!markers.has(line.trim())) {
        markers.add(line.trim());
        out.push({ line });
      }
      return;
    }
    if (kind === "passing") {
      // A passing test's line between a panic and its trace (another thread's) leaves the
      // trace with the panic.
      if (!(cargoRun && block !== null && printed.has(block))) block = null;
      passing++;
      const printedBefore = sinceRun;
      sinceRun = [];
      const done = GO_RESULT.exec(line);
      const { logs } = done ? resolveGoRun(done[1]) : {};
      const skip = done ? GO_SKIP.exec(line) : null;
      if (skip) {
        // A benchmark has no `=== RUN` line holding its log: under -v it is the lines since its
        // name's.
        keepOutcome([...(logs ?? printedBefore).slice(-MAX_SKIP_LOG), line], 1);
        skipIndent = skip[1].length;
        skipLog = MAX_SKIP_LOG;
        return;
      }
      // The `PASS` that closes a package's benchmark results says they all ran.
      if (line === "PASS" && benchmarks) out.push(line);
      return;
    }
    if (kind === "section") {
      block = null;
      const title = PYTEST_SUMMARY.exec(line);
      header = title?.[1] === "test session starts";
      warningsSection = title !== null && title[1].startsWith("warnings summary");
      successes = line === "successes:";
      // cargo's closing `failures:` lists the failed tests' names, indented under it.
      if (line === "failures:") {
        listing = MAX_LIST_LINES;
        listHead = line;
      }
      if (title && !PYTEST_OWN_SECTION.test(title[1])) {
        report = failed
          ? { kept: 0, cut: 0, max: MAX_FAILED_REPORT_LINES, head: line }
          : { kept: 0, cut: 0, max: MAX_REPORT_LINES, head: null };
        if (!failed) out.push(line);
      }
      return;
    }
    if (block === null && kind === null) {
      if (progress(line, afterDot)) return;
      if (line === DOT_FAILED_HEAD || XDIST_CRASH.test(line)) {
        out.push(line);
        return;
      }
    }
    if (block === null && kind === null && TAP_NOTE.test(line) && FAILURE_SIGNAL.test(line)) {
      tapNotes.push(line);
      if (tapNotes.length > MAX_TAP_NOTES) {
        tapNotes.shift();
        tapNotesCut++;
      }
      return;
    }
    if (tapNotes.length) endTapNotes();
    if (kind === null && line.startsWith("test at ") && NODE_TEST_AT.test(line)) {
      block = null;
      out.push(line);
      return;
    }
    // Another test's panic ends the printed block of the one before.
    if (cargoRun && kind === null && block !== null && line.includes("panicked at")) {
      if (printed.has(block)) block = null;
    }
    if (block) {
      if (skipField >= 0) {
        if (indentOf(line) > skipField) return;
        skipField = -1;
      }
      // node --test repeats an assertion's values as YAML `expected:`/`actual:` after the
      // assertion message that already shows them (`Infinity !== 0`, or the +/- diff).
      // A short one-line value stays unless a line above quotes it (`7 !== 6`): it names the
      // value when the diff is long or cut.
      const field = TAP_VALUE.exec(line);
      if (field && block.body.some((l) => TAP_ASSERTION.test(l))) {
        const value = field[2].trim();
        if (value === "" || TAP_BLOCK_VALUE.test(value)) {
          skipField = field[1].length;
          return;
        }
        const quoted = value.endsWith(",") ? value.slice(0, -1) : value;
        if (value.length > MAX_TAP_VALUE || block.body.some((l) => l.includes(quoted))) return;
      }
      if (skipAt && AT_LINE.test(line)) {
        skipAt = false;
        return;
      }
      skipAt = false;
      // jest's assertion line (`expect(received).toBe(expected) // Object.is equality`) stays as
      // printed: it names the matcher, and the code frame that quotes the call goes.
      if (isBlank(line)) return;
      // A caret under a quoted source line: its column is in the `at file:line:col` frame.
      if (CARET_ONLY.test(line)) return;
      if (NOISE_FRAME.which(line, first) === 0) {
        skipAt = FRAME_LINE.test(line);
        return;
      }
      if (block.pytest && !block.captured) {
        const statement = block.statement;
        block.statement = false;
        const valuesUnder = block.valuesUnder;
        block.valuesUnder = false;
        if (statement && /^\s+\S/.test(line) && line.trim() !== "???") {
          if (line !== block.lastStatement) block.body.push(line);
          block.lastStatement = line;
          return;
        }
        const value = (block.doctestValues ?? 0) > 0 && /^\s+\S/.test(line);
        block.doctestValues = value ? block.doctestValues! - 1 : 0;
        if (PYTEST_CAPTURED.test(line)) block.captured = true;
        else if (value) {
          // A value under doctest's `Expected:` or `Got:`.
        } else if (TRACEBACK_HEAD.test(line) || GROUP_TRACEBACK_HEAD.test(line)) {
          block.native = true;
        } else if (block.native) {
          // Every line of a plain traceback stays but its marks: the frames, the exception and
          // its message (unittest's diff); `foldStackFrames` folds the library frames at the end.
          if (POSITION_MARKS.test(line)) return;
        } else if (DOCTEST_HEAD.test(block.head) && DOCTEST_RESULT.test(line)) {
          block.doctestValues = MAX_DOCTEST_VALUES;
          if (block.doctestExample !== undefined) block.body.push(block.doctestExample);
          block.doctestExample = undefined;
        } else if (COLLECT_HEAD.test(block.head) && COLLECT_PROSE.test(line)) {
          // A collection error's message: kept as printed, with the indented lines under a line
          // of it ending in a colon (`import file mismatch:`'s two paths).
          block.valuesUnder = LIST_HEAD.test(line);
        } else if (valuesUnder && /^\s+\S/.test(line)) {
          block.valuesUnder = true;
        } else if (block.example) block.example = line !== ")";
        else if (HYPOTHESIS_EXAMPLE.test(line)) block.example = line.endsWith("(");
        else if (!PYTEST_KEEP.test(line) && !PYTEST_VALUES.test(line)) {
          if (DOCTEST_SOURCE.test(line)) block.doctestExample = line;
          block.unread ??= [];
          if (block.unread.length < MAX_UNREAD_LINES) block.unread.push(line);
          return;
        }
        const frame = PYTEST_SHORT_FRAME.exec(line);
        block.statement = frame !== null && !INSTALLED.test(frame[1]) && !PY_STDLIB.test(frame[1]);
      }
      block.body.push(line);
      return;
    }
    if (cargoRun && kind === null) {
      if (isBlank(line)) return;
      const own: Block = { head: line, body: [], pytest: false };
      printed.add(own);
      out.push(own);
      if (line.includes("panicked at")) block = own;
      return;
    }
    if (report) {
      if (isBlank(line)) return;
      if (report.head !== null) out.push(report.head);
      report.head = null;
      if (REPORT_NOTE.test(line)) out.push(line);
      else if (report.kept < report.max) {
        report.kept++;
        out.push(line);
      } else if (report.cut++ === 0) {
        reportCuts.push({ at: out.length, n: 0 });
        out.push(line);
      }
      if (report.cut) reportCuts[reportCuts.length - 1].n = report.cut;
      return;
    }
    // A runtime's report (go's race detector, a sanitizer) heads its frames without indenting:
    // the head goes with them to the failure they are printed before.
    const head = isRuntimeReportHead(line);
    // A build's code frames are no test's output.
    if (
      !building && sinceRun.length < config.truncate_stack_trace &&
      (head || /^\s+\S/.test(line))
    ) {
      sinceRun.push(line);
    }
    // Each line a running test prints is held under it: shown if it fails or the run dies in it
    // (an `os.Exit` leaves only what the test printed), its last log lines if it is skipped.
    if (goRunning !== null && !isBlank(line)) goLogs.get(goRunning)?.push(line);
    else if (block === null && !building && !isBlank(line) && !GO_FUZZ_LINE.test(line)) {
      goPrinted.push(goPrintedAt++, line);
    }
    if (head) return;
    if (header && !isBlank(line)) {
      const field = PYTEST_HEADER_FIELD.test(line);
      if (field ? !PYTEST_SETUP_FIELD.test(line) : PYTEST_RUN_OPTION.test(line)) {
        out.push(line);
        return;
      }
    } else header = false;
    const warning = line.includes("Warning: ") ? PY_WARNING.exec(line) : null;
    if (warning) {
      // The lines over a warning say where it was raised: a test's or a file's, kept over the
      // warning's first entry.
      const heads = warningsSection && /^\s/.test(line) ? warningHeads : [];
      const headsCut = heads.length ? warningHeadsCut : 0;
      warningHeads = [];
      warningHeadsCut = 0;
      const key = line.trim();
      const seen = warnings.get(key);
      const message = warningMessages.get(warning[1]);
      if (seen) seen.count++;
      else if (
        message && message.kept >= (INSTALLED.test(line) ? 1 : MAX_WARNING_LOCATIONS)
      ) message.more++;
      else if (warnings.size < MAX_WARNINGS) {
        if (headsCut) out.push(`… ${headsCut} more tests or files above …`);
        appendAll(out, heads);
        const entry = { at: out.length, line, count: 1 };
        warnings.set(key, entry);
        if (message) message.kept++;
        else warningMessages.set(warning[1], { first: entry, kept: 1, more: 0 });
        out.push(line);
      }
      return;
    }
    if (warningsSection && WARNING_HEAD.test(line) && !looseSignal(line)) {
      warningHeads.push(line);
      if (warningHeads.length > MAX_WARNING_HEADS) {
        warningHeads.shift();
        warningHeadsCut++;
      }
      return;
    }
    warningHeads = [];
    warningHeadsCut = 0;
    if (PYTEST_COLLECTED_MORE.test(line)) {
      out.push(line);
      return;
    }
    const outcome = OUTCOMES.which(line, first);
    if (outcome === 0) {
      // `SKIPPED [3] …` stands for three tests skipped for one reason at one place.
      keepOutcome([line], Number(SKIPPED_COUNT.exec(line)?.[1] ?? 1));
      return;
    }
    if (outcome === 1) {
      out.push(line);
      return;
    }
    if ((line.startsWith("XPASS ") || line.includes(" XPASS")) && XPASS.test(line)) {
      out.push(line);
      return;
    }
    // A run that passed says what it built; one that failed says what failed. Past the first
    // twenty, a line naming its location stays too: each is a diagnostic of the build or vet.
    if (
      (loose < 20 &&
        (looseSignal(line) || (!failed && BUILT.test(line)) || NPM_ERROR.test(line))) ||
      LOOSE_LOCATION.test(line)
    ) {
      loose++;
      if (TRACEBACK_HEAD.test(line)) traceback = [];
      else if (LIST_HEAD.test(line)) listing = MAX_LIST_LINES;
      out.push(line);
    } else if (lastSummaryAt >= 0 && !isBlank(line) && !TAIL_TIMING.test(line)) {
      out.push({ tail: line });
    }
  };

  const finish = (): { lines: string[]; confidence: "full" | "partial" } | null => {
    // Output that ends after a panic with tests unresolved ended where the run died.
    if (goDying.size > 0) endGoRuns();
    endTraceback();
    endTapNotes();
    if (snapshotIndent >= 0 && snapshotLines > MAX_LIST_LINES) {
      out.push(omitted(snapshotLines - MAX_LIST_LINES));
    }
    if (summaries === 0 && passing === 0 && failures === 0) return null;
    // A failed run with nothing we recognise as a failure: the structure was unexpected.
    if (failed && failures === 0) return null;

    // A single fully covered row stays as printed: its fold line would say no less.
    for (const { at, n } of folds) if (n > 1) out[at] = coveredFold(n);
    for (const { at, n } of reportCuts) out[at] = `… ${n} more lines of this report …`;
    if (outcomes.cut) out[outcomes.at] = `… ${outcomes.cut} more skipped or xfailed tests …`;
    for (const { at, line, count } of warnings.values()) {
      if (count > 1) out[at] = `${line} (${count} times)`;
    }
    for (const { first, more } of warningMessages.values()) {
      if (more > 0) out[first.at] = `${out[first.at]} (and at ${more} more locations)`;
    }
    // Last of the edits by index, in one pass: a failed run's coverage table goes (unless a missed
    // threshold failed it), so does the npm banner of a run of one package's script, and the lines
    // held after the last counts stay when they are the run's closing.
    const dropAt = new Set(failed && !thresholdMissed ? coverageAt : []);
    if (npmBanners === 1) { for (const at of bannersAt) dropAt.add(at); }
    const closing = tailPlain && tailLines <= MAX_TAIL_LINES;
    const items: (string | Block | Marker)[] = [];
    out.forEach((item, k) => {
      if (dropAt.has(k)) return;
      if (typeof item !== "string" && "head" in item && item.passed) return;
      if (typeof item !== "string" && "tail" in item) {
        if (closing && k > lastSummaryAt) items.push(item.tail);
        else if (headsBlock(out[k + 1])) items.push(item.tail);
      } else items.push(item);
    });
    aggregateCargoResults(items);
    // nextest runs each test in its own libtest process; their `test result:` lines repeat what
    // nextest's Summary says.
    const nextest = items.some((item) => typeof item === "string" && /^\s*Summary \[/.test(item));
    // nextest prints an empty `STDOUT:` block for a test whose output went to stderr: it goes
    // when a non-empty block of the same test exists.
    const fullNextest = new Set<string>();
    for (const item of items) {
      if (typeof item === "string" || !("head" in item) || !item.body.length) continue;
      const m = NEXTEST_HEAD.exec(item.head);
      if (m) fullNextest.add(m[1]);
    }
    const emptyNextest = new Set<Block>();
    for (const item of items) {
      if (typeof item === "string" || !("head" in item) || item.body.length) continue;
      const m = NEXTEST_HEAD.exec(item.head);
      if (m && fullNextest.has(m[1])) emptyNextest.add(item);
    }
    const { renamed, dropped, headOnly } = mergeRepeatedFailures(items);
    // A failure reported again with nothing new under its head: its head stays (it names the test
    // where the re-listing names it), its body goes; an empty re-listing (deno's) goes whole.
    const folded = new Set<Block>(headOnly);
    for (const item of items) {
      if (typeof item === "string" || !("head" in item) || !item.repeats) continue;
      if (!repeatsBody(item, item.repeats)) continue;
      if (item.body.length) folded.add(item);
      else dropped.add(item);
    }
    const goFailLine = items.some((item) => typeof item === "string" && item.startsWith("FAIL\t"));
    // A failed run's passing tests' output under `successes:` goes, counted where it was.
    const succeeded = failed
      ? items.filter((item) => typeof item !== "string" && "head" in item && item.succeeded)
        .length
      : 0;
    let succeededShown = false;
    const result: string[] = [];
    let shown = 0;
    let hidden = 0;
    for (let k = 0; k < items.length; k++) {
      const item = items[k];
      if (dropped.has(item)) continue;
      if (typeof item === "string") {
        if (nextest && item.startsWith("test result: ")) continue;
        if (ZERO_COUNT.test(item) || SNAPSHOTS_ALL_PASSED.test(item)) continue;
        // The run's timing is the result of a passing run; a failed one's result is its failures.
        if (failed && RUN_TIMING.test(item)) continue;
        // go's bare `FAIL` repeats the `FAIL\tpkg` line that follows it.
        if (item === "FAIL" && goFailLine) continue;
        const padded = PYTEST_SUMMARY.exec(item);
        result.push(padded ? `= ${padded[1]} =` : item);
        continue;
      }
      if (!("head" in item)) {
        // Every failed-test line stays as printed (`test src/lib.rs - Unit::to (line 24) ...
        // FAILED`), also when a failure block names the test again: it is the line a reader
        // quotes.
        result.push(item.line);
        continue;
      }
      if (emptyNextest.has(item)) continue;
      if (item.succeeded) {
        if (!failed) appendAll(result, [item.head, ...item.body]);
        else if (!succeededShown) result.push(`… output of ${succeeded} passing tests not shown …`);
        succeededShown = true;
        continue;
      }
      if (folded.has(item)) {
        result.push(item.head);
        continue;
      }
      // A pytest block none of whose lines read as a failure's keeps what it printed.
      if (item.pytest && item.body.length === 0 && item.unread) item.body = item.unread;
      const body = cutLogRecords(item.pytest ? endStatements(item.body) : item.body);
      item.body = compactCodeFrames(compactFrames(item.native ? [...foldStackFrames(body)] : body));
      // Past `max_failures` only the failure lines of what was printed over it stay.
      if (item.before) {
        appendAll(
          result,
          shown < config.max_failures ? item.before : keepFailuresPast(item.before, 0),
        );
      }
      result.push(renamed.get(item) ?? item.head);
      while (item.body.length && item.body[item.body.length - 1].trim() === "") item.body.pop();
      // Past the trace limit, and in the traces past `max_failures`, the failure lines and
      // their locations stay (the assertion, `panicked at a.rs:3:5`).
      // A log record of a warning or an error stays past the cut, as the level cut keeps it; so
      // does our count of a go test's lines not held.
      const cut = {
        marker: (n: number) => `... (${n} more lines)`,
        keep: (line: string) => isLogFinding(line) || GO_LINES_CUT.test(line),
      };
      // Its last lines a block asks for stay after the cut of the lines before them. In a trace
      // shown whole up to its limit, so do the first `ownFrames` frames past the cut where a
      // trace through a library (a transformer, a parser, a framework) enters the user's own
      // code: the code the reader can change.
      const keepPast = (block: Block, cap: number, ownFrames = 0) => {
        const lines = [block.head, ...block.body];
        const last = lines.length - Math.min(block.keepLast ?? 0, Math.max(0, lines.length - cap));
        const entries = new Set<string>();
        for (let i = Math.max(cap, 1); i < last && entries.size < ownFrames; i++) {
          if (frameOwner(lines[i]) === "own" && frameOwner(lines[i - 1]) === "library") {
            entries.add(lines[i]);
          }
        }
        const keep = (line: string) => cut.keep(line) || entries.has(line);
        return [
          ...keepFailuresPast(lines.slice(0, last), cap, { marker: cut.marker, keep }),
          ...lines.slice(last),
        ];
      };

      // A failure whose block is its head alone (mocha's tree line) cuts nothing.
      if (item.body.length === 0) continue;
      const title = 1 + titleLines(item);
      if (shown >= config.max_failures) {
        hidden++;
        appendAll(result, keepPast(item, title), 1);
        continue;
      }
      shown++;
      const limit = config.truncate_stack_trace;
      appendAll(result, keepPast(item, Math.max(limit + 1, title), OWN_FRAMES), 1);
    }
    if (hidden) result.push(`... (${hidden} more failure traces cut to their failure lines)`);
    // A cut right after a go test's count of its lines not held (or two such counts, of its log
    // lines and its other lines) is one gap in the output as printed: one note counts it.
    return { lines: [...mergeCutNotes(result)], confidence: summaries > 0 ? "full" : "partial" };
  };
  return { push, finish };
}

/**
 * A log record as a failure's captured output prints it: pytest's `WARNING  mod:a.py:11 text`,
 * logging's default `WARNING:mod:text`, env_logger's `[2026-11-28T04:00:00Z WARN  app] text` (a
 * cargo test's stdout), a go test's `    a_test.go:8: INFO text` (`t.Log`); group 1 its level.
 */
const LOG_RECORD =
  /^(?:\s{0,8}[^\s:]{1,300}\.go:\d{1,7}: )?\[?(?:\d[\d:.,TZ+-]{7,40} ){0,2}(TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|CRITICAL|FATAL)(?=[\s:\]])/;
/** Levels that report progress: counted. The others report a finding: kept. */
const LOG_PROGRESS = new Set(["TRACE", "DEBUG", "INFO", "NOTICE"]);
/** A log record of a warning or an error: a finding, kept past a failure's trace limit. */
const isLogFinding = (line: string): boolean => {
  const record = LOG_RECORD.exec(line);
  return record !== null && !LOG_PROGRESS.has(record[1]);
};
/** Records of a failure below which its captured log stays as printed. */
const MIN_LOG_RECORDS = 10;
/** The variable parts of a record (numbers, hex ids): records differing only there are one. */
const LOG_VARIABLE = /\b0x[0-9a-f]+\b|\b[0-9a-f]*\d[0-9a-f]*\b|\d+/gi;

/**
 * A failure's captured log, cut by level rather than at the trace limit (where a warning past the
 * limit went): of its records the warnings and errors stay, one per message (numbers and ids
 * masked) with how often it came, and its last record when it came again (the record that was
 * last written before the failure, and which ids it ranged over); the debug and info records are
 * counted where the first was.
 * Lines that are no record (a print, a record's traceback) stay; a short log stays whole.
 */
function cutLogRecords(body: string[]): string[] {
  let records = 0;
  for (const line of body) if (LOG_RECORD.test(line)) records++;
  if (records < MIN_LOG_RECORDS) return body;
  const out: string[] = [];
  // Per message its first record, how many came, and where its latest shows (-1: none yet).
  const findings = new Map<string, { at: number; n: number; last: number }>();
  const progress = { at: -1, n: 0, levels: new Set<string>() };
  for (const line of body) {
    const record = LOG_RECORD.exec(line);
    if (!record) {
      out.push(line);
      continue;
    }
    if (LOG_PROGRESS.has(record[1])) {
      if (progress.at < 0) progress.at = out.push("") - 1;
      progress.n++;
      progress.levels.add(record[1]);
      continue;
    }
    const key = line.replace(LOG_VARIABLE, "#");
    const seen = findings.get(key);
    if (!seen) findings.set(key, { at: out.push(line) - 1, n: 1, last: -1 });
    else {
      seen.n++;
      if (seen.last < 0) seen.last = out.push("") - 1;
      out[seen.last] = line;
    }
  }
  for (const { at, n } of findings.values()) if (n > 1) out[at] = `${out[at]} (x${n})`;
  if (progress.at >= 0) {
    const levels = [...progress.levels].join(" and ");
    out[progress.at] = `… ${progress.n} ${levels} log records …`;
  }
  return out;
}

/** mocha's failure head: `  3) Store`, its suites and title under it down to `prices:`. */
const MOCHA_DETAIL_HEAD = /^\s{0,40}\d{1,5}\) \S/;
const TITLE_LINES = 20;

/**
 * How many of a failure's first body lines continue its head's name: mocha prints a failure's
 * suites and title one a line, each indented more, the title ending in a colon.
 */
function titleLines(block: Block): number {
  if (!MOCHA_DETAIL_HEAD.test(block.head) || block.head.endsWith(":")) return 0;
  const indent = indentOf(block.head);
  for (let i = 0; i < Math.min(block.body.length, TITLE_LINES); i++) {
    const line = block.body[i];
    if (indentOf(line) <= indent) return 0;
    if (line.endsWith(":")) return i + 1;
  }
  return 0;
}

/** A pytest traceback's line that ends a frame: `tests/test_a.py:12: ` or `a.py:3: in f`. */
const PYTEST_FRAME_END = /^\S{1,1000}:\d{1,7}: /;

/**
 * pytest marks with `>` the statement each long frame was running. Of those the test's own (the
 * first frame) and the one that raised (the last) stay: they are what pytest's default `--tb=auto`
 * prints in full; the frames between keep their locations, as `--tb=auto` shows them. A
 * statement the `E` line under it repeats word for word (`assert [1, 2] == [1, 3]`: nothing in it
 * to evaluate) goes: the `E` line says it. Lines of a `Captured` section are the program's output,
 * not the traceback's.
 */
function endStatements(body: string[]): string[] {
  const captured = body.findIndex((line) => PYTEST_CAPTURED.test(line));
  const end = captured < 0 ? body.length : captured;
  const frameOf: number[] = [];
  let frame = 0;
  for (let i = 0; i < end; i++) {
    frameOf.push(frame);
    if (PYTEST_FRAME_END.test(body[i])) frame++;
  }
  const marked = frameOf.filter((_, i) => body[i].startsWith(">"));
  const first = marked[0];
  const last = marked[marked.length - 1];
  return body.filter((line, i) => {
    if (i >= end || !line.startsWith(">")) return true;
    if (frameOf[i] !== first && frameOf[i] !== last) return false;
    const next = body.slice(i + 1, end).find((l) => !l.startsWith(">") && !PYTEST_VALUES.test(l));
    return next === undefined || !next.startsWith("E ") ||
      next.slice(1).trim() !== line.slice(1).trim();
  });
}

/** The indentation a line starts with. */
const INDENT = /^\s*/;

/**
 * Whether a block says nothing its earlier copy did not: each line of its body, taken relative to
 * its head's indentation, is a line of the earlier body taken relative to that one's head.
 */
function repeatsBody(block: Block, earlier: Block): boolean {
  const relative = (b: Block) => {
    const indent = INDENT.exec(b.head)![0];
    return b.body.map((line) => line.startsWith(indent) ? line.slice(indent.length) : `\n${line}`);
  };
  const seen = new Set(relative(earlier));
  return relative(block).every((line) => seen.has(line));
}

const VITEST_FAIL_HEAD = /^ ?FAIL\s+\S+ > (.+)$/;
const VITEST_CROSS_HEAD = /^\s*× (.+?)(?: \d+(?:\.\d+)?m?s)?$/;

/**
 * Failures a runner reports twice, merged into one. vitest: the progress tree's `× suite > test`
 * keeps its line (the file's tests in run order, under the file's line, the one place a dot
 * reporter names them) and loses its one-line message when the failure report (`FAIL file >
 * suite > test`) shows the same test. pytest's copies all stay, as they differ: the block's header (`____ test_b[1-2] ____`)
 * names the test where its trace is, -v's progress line (`t.py::test_b[1-2] FAILED  [ 50%]`) its
 * file and id in run order, the short summary's `FAILED t.py::test_b[1-2] - msg` its message.
 */
function mergeRepeatedFailures(
  out: (string | Block | Marker)[],
): { renamed: Map<Block, string>; dropped: Set<unknown>; headOnly: Set<Block> } {
  const renamed = new Map<Block, string>();
  const dropped = new Set<unknown>();
  const headOnly = new Set<Block>();
  const vitestReported = new Set<string>();
  for (const item of out) {
    if (typeof item === "string" || !("head" in item)) continue;
    const vitest = VITEST_FAIL_HEAD.exec(item.head);
    if (vitest) vitestReported.add(vitest[1]);
  }
  if (vitestReported.size) {
    for (const item of out) {
      if (typeof item === "string" || !("head" in item)) continue;
      const cross = VITEST_CROSS_HEAD.exec(item.head);
      if (cross && vitestReported.has(cross[1])) headOnly.add(item);
    }
  }
  return { renamed, dropped, headOnly };
}

const NEXTEST_HEAD = /^\s*(?:---|────) (?:STDOUT|STDERR):\s+(\S.*)$/;
const NEXTEST_SECTION = /^\s*(?:stdout|stderr) ───/;
const PANIC_AT = /panicked at (?:\.\/)?(\S+?):?$/;
const AT_LOCATION = /^\s+at (?:\.\/)?(\S+)$/;

/**
 * Rust backtrace frames come as `N: function` + `at file:line:col`. A frame whose location is
 * the panic location says nothing new and goes; the others stay as printed, their `at` line the
 * one a reader quotes to open the file.
 */
function compactFrames(body: string[]): string[] {
  let panicAt: string | undefined;
  for (const line of body) {
    const m = PANIC_AT.exec(line);
    if (m) {
      panicAt = m[1];
      break;
    }
  }
  const out: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i];
    const next = body[i + 1];
    const at = next !== undefined && FRAME_LINE.test(line) ? AT_LOCATION.exec(next) : null;
    if (!at) {
      out.push(line);
      continue;
    }
    i++;
    if (at[1] !== panicAt) out.push(line, next);
  }
  return out;
}

/** A code-frame line of jest/vitest/babel: `> 13 |   code`, `  12 |`, `5| code`, `   |   ^`. */
const CODE_FRAME = /^\s*(?:>\s*)?\d{1,7}\s?\|/;
const CODE_FRAME_MARKED = /^\s*>\s*\d{1,7}\s?\|/;
const CODE_CARET = /^\s*\|\s*\^+\s*$/;

/**
 * A code frame shows the failing line between a few lines of context and a caret under the
 * column; the location line (`file:13:33`) already gives line and column. Of each frame only
 * the failing line stays: the `>`-marked one (jest), else the one over the caret (vitest); a
 * frame with neither is kept whole.
 */
function compactCodeFrames(body: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < body.length) {
    if (!CODE_FRAME.test(body[i]) && !CODE_CARET.test(body[i])) {
      out.push(body[i++]);
      continue;
    }
    const start = i;
    while (i < body.length && (CODE_FRAME.test(body[i]) || CODE_CARET.test(body[i]))) i++;
    const frame = body.slice(start, i);
    const marked = frame.filter((line) => CODE_FRAME_MARKED.test(line));
    const overCaret = frame.filter((line, k) =>
      CODE_FRAME.test(line) && k + 1 < frame.length && CODE_CARET.test(frame[k + 1])
    );
    const failing = marked.length ? marked : overCaret;
    appendAll(out, failing.length ? failing : frame);
  }
  return out;
}

const CARGO_RESULT =
  /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out(?:; finished in ([\d.]+)s)?$/;

/** Test binaries whose `test result:` lines all stay as printed. */
const MAX_RESULT_LINES = 3;

/**
 * cargo prints one `test result:` per test binary; a workspace run has dozens. Each line stays as
 * printed (an agent quotes it whole) while there are few; past `MAX_RESULT_LINES` the failing
 * binaries' lines and the last passing one's still do, and a line of ours above that last one sums
 * every passing binary, so the counts survive and the repetition does not.
 */
function aggregateCargoResults(out: (string | Block | Marker)[]): void {
  const at: number[] = [];
  const passing: number[] = [];
  const sums = [0, 0, 0, 0, 0];
  out.forEach((item, i) => {
    const m = typeof item === "string" ? CARGO_RESULT.exec(item) : null;
    if (!m) return;
    at.push(i);
    if (m[3] !== "0") return;
    passing.push(i);
    for (let k = 0; k < 5; k++) sums[k] += Number(m[k + 2]);
  });
  if (at.length <= MAX_RESULT_LINES || passing.length < 2) return;
  const last = passing[passing.length - 1];
  // Rebuilt in one pass: a splice per line would be quadratic in the number of binaries.
  const drop = new Set(passing.slice(0, -1));
  const kept: (string | Block | Marker)[] = [];
  out.forEach((item, i) => {
    if (i === last) kept.push(cargoResultLine(sums, passing.length));
    if (!drop.has(i)) kept.push(item);
  });
  out.length = 0;
  for (const item of kept) out.push(item);
}

/** `… 12 passing test binaries, the last below: 63 passed; 0 failed; 2 filtered out …` */
function cargoResultLine(sums: number[], binaries: number): string {
  const [passed, , ignored, measured, filtered] = sums;
  const extra = [[ignored, "ignored"], [measured, "measured"], [filtered, "filtered out"]]
    .filter(([n]) => n !== 0).map(([n, what]) => `; ${n} ${what}`).join("");
  return `… ${binaries} passing test binaries, the last below: ${passed} passed; 0 failed${extra} …`;
}
