/** Each strategy on small inputs: output lines and confidence, through a one-rule engine. */
import { expect } from "expect";
import { prng } from "../_support/random.ts";
import { threadCpuMs } from "../_support/timing.ts";
import { classifyLine } from "../../src/filter/strategies/test_summary.ts";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";
import { anyMatcher } from "../../src/filter/strategies/_shared.ts";
import { compilePattern, v8Form } from "../../src/filter/regex.ts";
import { combineNormalizers, DEFAULT_NORMALIZERS } from "../../src/filter/strategies/dedup.ts";
import { RE2JS } from "re2js";

function run(strategy: Record<string, unknown>, input: string, failed = false) {
  const rule = compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test");
  const engine = new FilterEngine([rule], { security: false, guard: false });
  const out = engine.filter("cmd", input, { failed });
  return { text: out.text, confidence: out.stats.confidence };
}

Deno.test("strip_noise drops matching lines (Full) or passes unchanged (Fallback)", () => {
  const s = { type: "strip_noise", patterns: ["^noise", "^\\s*$"] };
  expect(run(s, "noise 1\nkeep\n\nnoise 2\nkeep 2")).toEqual({
    text: "keep\nkeep 2",
    confidence: "full",
  });
  expect(run(s, "a\nb")).toEqual({ text: "a\nb", confidence: "fallback" });
});

Deno.test("strip_noise keep holds against failed_patterns and passed_patterns too", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise"],
    passed_patterns: ["^  dep "],
    failed_patterns: ["^  step "],
    keep: ["invalid"],
  };
  const input = "root\n  dep a\n  dep b invalid\n  step 1\n  step 2 invalid\nnoise";
  expect(run(s, input).text).toBe("root\n  dep b invalid\n  step 1\n  step 2 invalid");
  expect(run(s, input, true).text).toBe("root\n  dep a\n  dep b invalid\n  step 2 invalid");
});

Deno.test("strip_noise keep_before keeps the line dropped just before a matching kept line", () => {
  const s = { type: "strip_noise", patterns: ["^step .* ok$"], keep_before: ["^error: "] };
  expect(run(s, "step 1 ok\nstep 2 ok\nerror: boom\nstep 3 ok\nnote\nerror: again")).toEqual({
    // `note` was kept, so nothing dropped stands right before the second error.
    text: "step 2 ok\nerror: boom\nnote\nerror: again",
    confidence: "full",
  });
  expect(run(s, "step 1 ok\nwarning: x\nstep 2 ok").text).toBe("warning: x");
});

Deno.test("strip_noise last_steps keeps each kind's last step before a failure on a failed run", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^setup ", "^  step \\d+ ok$", "^Traceback$"],
    last_steps: { steps: ["^setup ", "^  step \\d+ ok$"], failure: "Traceback$" },
  };
  const input = "setup db\n  step 1 ok\n  step 2 ok\n  step 3...Traceback\n  frame\nboom";
  expect(run(s, input, true).text).toBe(
    "setup db\n  step 2 ok\n  step 3...Traceback\n  frame\nboom",
  );
  // A dropped failure line brings the steps back too, in their order.
  expect(run(s, "setup db\n  step 1 ok\nTraceback\nboom", true).text).toBe(
    "setup db\n  step 1 ok\nboom",
  );
  // A line kept since the steps that is no failure (a warning) leaves them the steps the failure
  // happened in: they stay before it. A kept failure of its own (a test's error) takes them
  // with it; a passing run keeps none.
  expect(run(s, "setup db\n  step 1 ok\nWARNING: slow\nTraceback\nboom", true).text).toBe(
    "WARNING: slow\nsetup db\n  step 1 ok\nboom",
  );
  expect(run(s, "setup db\n  step 1 ok\nERROR: test_a\nTraceback\nboom", true).text).toBe(
    "ERROR: test_a\nboom",
  );
  // Once shown before a failure, they are not shown again before the next.
  expect(run(s, "setup db\nTraceback\nboom\nnote\nTraceback\nagain", true).text).toBe(
    "setup db\nboom\nnote\nagain",
  );
  expect(run(s, input).text).toBe("  step 3...Traceback\n  frame\nboom");
  // A failed run that ends under its steps (killed, its crash reported by the shell) keeps the
  // last of each kind: where it stopped. A run that passed, or a line kept after them, does not.
  expect(run(s, "setup db\n  step 1 ok\n  step 2 ok", true).text).toBe("setup db\n  step 2 ok");
  expect(run(s, "note\nsetup db\n  step 1 ok\n  step 2 ok").text).toBe("note");
  expect(run(s, "setup db\n  step 1 ok\nERROR: x", true).text).toBe("ERROR: x");
});

Deno.test("truncate with record_start: a tail that would cut into a record starts at the record's first line", () => {
  const s = {
    type: "truncate",
    max_lines: 10,
    head: 3,
    tail: 3,
    keep_signals: 0,
    keep_odd: false,
    record_start: "^[0-9a-f]{7,40} ",
  };
  const records = ["aaaaaaa", "bbbbbbb", "ccccccc", "ddddddd", "eeeeeee"].flatMap((h, i) => [
    `${h} Ann Dev change ${i}`,
    ...Array.from({ length: i === 4 ? 4 : 3 }, (_, n) => `${n + 1}\t0\tsrc/f${i}${n}.ts`),
  ]);
  const out = run(s, records.join("\n")).text.split("\n");
  // The last three lines are the root commit's numstat lines: its commit line comes with them.
  expect(out.slice(-5)).toEqual([
    "eeeeeee Ann Dev change 4",
    "1\t0\tsrc/f40.ts",
    "2\t0\tsrc/f41.ts",
    "3\t0\tsrc/f42.ts",
    "4\t0\tsrc/f43.ts",
  ]);
  expect(out.slice(0, 4)).toEqual([...records.slice(0, 3), "... (13 lines omitted) ..."]);
  // A tail starting at a record's line takes nothing more.
  const even = run({ ...s, tail: 5 }, records.join("\n")).text.split("\n");
  expect(even.slice(-6)).toEqual(["... (13 lines omitted) ...", ...records.slice(-5)]);
});

Deno.test("truncate with keep_pattern_unit: the budget counts units, the lines after one stay with it", () => {
  const s = {
    type: "truncate",
    max_lines: 10,
    head: 2,
    tail: 1,
    keep_signals: 0,
    keep_odd: false,
    keep_patterns: ["^[0-9a-f]{7} ", "^    \\S"],
    keep_pattern_lines: 3,
    keep_pattern_unit: "^[0-9a-f]{7} ",
  };
  // Ten commits of three lines: a commit line, its subject and a stat line.
  const lines = Array.from({ length: 10 }, (_, i) => [
    `${String(i).repeat(7)} change ${i}`,
    `    subject ${i}`,
    ` ${i} file changed`,
  ]).flat();
  const out = run(s, lines.join("\n")).text.split("\n");
  // Three commits of the cut stay with their subjects (the budget counts commits, not lines);
  // the stat lines and the later commits go.
  expect(out).toEqual([
    "0000000 change 0",
    "    subject 0",
    "1111111 change 1",
    "    subject 1",
    "2222222 change 2",
    "    subject 2",
    "3333333 change 3",
    "    subject 3",
    "... (21 lines omitted) ...",
    " 9 file changed",
  ]);
  // Without a unit the same budget counts lines.
  const lines3 = run({ ...s, keep_pattern_unit: undefined }, lines.join("\n")).text.split("\n");
  expect(lines3.slice(2, 6)).toEqual([
    "1111111 change 1",
    "    subject 1",
    "2222222 change 2",
    "... (24 lines omitted) ...",
  ]);
});

Deno.test("truncate keeps head, tail and failure-looking lines from the cut", () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
  lines[15] = "error: boom at 15";
  const s = { type: "truncate", max_lines: 10, head: 3, tail: 2 };
  expect(run(s, lines.join("\n"))).toEqual({
    text: [
      "line 0",
      "line 1",
      "line 2",
      "... (12 lines omitted) ...",
      "error: boom at 15",
      "... (12 lines omitted) ...",
      "line 28",
      "line 29",
    ].join("\n"),
    confidence: "partial",
  });
  expect(run(s, "a\nb")).toEqual({ text: "a\nb", confidence: "fallback" });
});

Deno.test("keep_matching keeps matches, failure lines when failed, else passes unchanged", () => {
  const s = { type: "keep_matching", patterns: ["->"] };
  expect(run(s, "x\nmain -> main\ny")).toEqual({ text: "main -> main", confidence: "full" });
  expect(run(s, "x\nmain -> main\nerror: rejected", true)).toEqual({
    text: "main -> main\nerror: rejected",
    confidence: "full",
  });
  expect(run(s, "x\ny")).toEqual({ text: "x\ny", confidence: "fallback" });
});

Deno.test("keep_matching keeps a failure line's block of lines with its tag on a failing run", () => {
  const s = { type: "keep_matching", patterns: ["->", "^error"] };
  const input = [
    "Writing objects: 100% (3/3), done.",
    "remote: Resolving deltas: 100% (2/2), done.",
    "remote: ERROR: commit 1a2b names no ticket",
    "remote: Push rejected by policy: name a ticket",
    "remote:",
    "remote: Ask #release for an exemption.",
    "To ../bare.git",
    " ! [remote rejected] main -> main (pre-receive hook declined)",
    "error: failed to push some refs",
  ].join("\n");
  // The hook's free text around its ERROR line stays; progress and empty tagged lines go.
  expect(run(s, input, true).text).toBe([
    "remote: ERROR: commit 1a2b names no ticket",
    "remote: Push rejected by policy: name a ticket",
    "remote: Ask #release for an exemption.",
    " ! [remote rejected] main -> main (pre-receive hook declined)",
    "error: failed to push some refs",
  ].join("\n"));
  // Text before the failure line with the same tag stays too; another tag ends the block.
  expect(run(s, "remote: policy says\nremote: fatal: no ticket\nnote: x\nmain -> main", true).text)
    .toBe("remote: policy says\nremote: fatal: no ticket\nmain -> main");
  // A passing run, or lines without a tag (a source echo under a diagnostic), keep the allow-list.
  expect(run(s, "remote: ERROR: x\nremote: more\nmain -> main").text).toBe("main -> main");
  expect(run(s, "a.c:1:2: error: x\n  1 | int x\n    ^\nmain -> main", true).text)
    .toBe("a.c:1:2: error: x\nmain -> main");
});

Deno.test("keep_matching's tagged block leaves out Gerrit's progress closing without a period", () => {
  const s = { type: "keep_matching", patterns: ["->", "^error"] };
  // Gerrit closes its progress with `, done` and padding, no period.
  const input = [
    "remote: Processing changes: refs: 1, done    ",
    "remote: ERROR: commit 1a2b3c4: missing Change-Id in message footer",
    "remote: Hint: install the commit-msg hook, then amend the commit.",
    "To ssh://gerrit:29418/shop",
    " ! [remote rejected] HEAD -> refs/for/main (commit 1a2b3c4: missing Change-Id in message footer)",
    "error: failed to push some refs to 'ssh://gerrit:29418/shop'",
  ].join("\n");
  expect(run(s, input, true).text.split("\n")).toEqual([
    "remote: ERROR: commit 1a2b3c4: missing Change-Id in message footer",
    "remote: Hint: install the commit-msg hook, then amend the commit.",
    " ! [remote rejected] HEAD -> refs/for/main (commit 1a2b3c4: missing Change-Id in message footer)",
    "error: failed to push some refs to 'ssh://gerrit:29418/shop'",
  ]);
});

Deno.test("strip_annotated reports removed noise and keeps the summary", () => {
  const s = {
    type: "strip_annotated",
    patterns: ["^\\s*Compiling "],
    summary_pattern: "^\\s*Finished ",
  };
  expect(run(s, "   Compiling a\n   Compiling b\nwarning: x\n    Finished dev in 1s")).toEqual({
    text: "Finished dev in 1s\n(3 noise lines removed)\nwarning: x",
    confidence: "full",
  });
  const long = Array.from({ length: 40 }, (_, i) => `l${i}`).join("\n");
  expect(run({ ...s, long_output_threshold: 30, keep_head: 2, keep_tail: 1 }, long).confidence)
    .toBe("partial");
  expect(run({ ...s, long_output_threshold: 30 }, long, true)).toEqual({
    text: long,
    confidence: "fallback",
  });
});

Deno.test("test_summary keeps failures and counts for each runner", () => {
  const s = { type: "test_summary", max_failures: 10, truncate_stack_trace: 5 };
  const cases: [string, string, string][] = [
    [
      "cargo",
      "running 2 tests\ntest a ... ok\ntest b ... FAILED\n\nfailures:\n\n---- b stdout ----\nthread 'b' panicked at src/lib.rs:1:1:\nboom\n\nfailures:\n    b\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
      "test b ... FAILED\n---- b stdout ----\nthread 'b' panicked at src/lib.rs:1:1:\nboom\nfailures:\n    b\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    ],
    [
      "go -v",
      "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n    b_test.go:3: want 2\n--- FAIL: TestB (0.00s)\nFAIL\nFAIL\tex/m\t0.01s",
      "=== RUN   TestB\n--- FAIL: TestB (0.00s)\n    b_test.go:3: want 2\nFAIL\tex/m\t0.01s",
    ],
    [
      "pytest",
      "collected 2 items\n\nt.py .F  [100%]\n\n=== FAILURES ===\n___ test_b ___\n\n    def test_b():\n>       assert 1 == 2\nE       assert 1 == 2\n\nt.py:5: AssertionError\n=== short test summary info ===\nFAILED t.py::test_b - assert 1 == 2\n=== 1 failed, 1 passed in 0.01s ===",
      "t.py .F  [100%]\n___ test_b ___\nE       assert 1 == 2\nt.py:5: AssertionError\nFAILED t.py::test_b - assert 1 == 2\n= 1 failed, 1 passed in 0.01s =",
    ],
    [
      "jest",
      "PASS a.test.js\nFAIL b.test.js\n  ● sum › adds\n\n    Expected: 4\n    Received: 3\n\nTests:       1 failed, 1 passed, 2 total",
      "FAIL b.test.js\n  ● sum › adds\n    Expected: 4\n    Received: 3\nTests:       1 failed, 1 passed, 2 total",
    ],
    [
      "deno",
      "running 2 tests from ./a_test.ts\nok1 ... ok (1ms)\nbad ... FAILED (1ms)\n\n ERRORS \n\nbad => ./a_test.ts:3:6\nerror: Error: nope\n\n FAILURES \n\nbad => ./a_test.ts:3:6\n\nFAILED | 1 passed | 1 failed (5ms)\n\nerror: Test failed",
      "bad ... FAILED (1ms)\nbad => ./a_test.ts:3:6\nerror: Error: nope\nFAILED | 1 passed | 1 failed (5ms)\nerror: Test failed",
    ],
    [
      "node --test",
      "✔ a (1ms)\n✖ b (2ms)\n  AssertionError: 1 !== 2\nℹ tests 2\nℹ pass 1\nℹ fail 1",
      "✖ b (2ms)\n  AssertionError: 1 !== 2\nℹ tests 2\nℹ pass 1\nℹ fail 1",
    ],
    [
      "cargo passing, two binaries",
      "running 1 test\ntest a ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.50s\nrunning 2 tests\ntest b ... ok\ntest c ... ok\n\ntest result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 3 filtered out; finished in 0.25s",
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.50s\ntest result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 3 filtered out; finished in 0.25s",
    ],
    [
      "cargo failing, three binaries around a failure",
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.50s\ntest x ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s\nerror: test failed, to rerun pass `--lib`\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s\nFAIL",
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.50s\ntest x ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s\nerror: test failed, to rerun pass `--lib`\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s\nFAIL",
    ],
    [
      "cargo failing, five binaries: the failing one as printed, the passing ones summed",
      "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.50s\ntest result: ok. 3 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.50s\ntest x ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s\nerror: test failed, to rerun pass `--lib`\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\nFAIL",
      "test x ... FAILED\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.25s\nerror: test failed, to rerun pass `--lib`\n… 4 passing test binaries, the last below: 6 passed; 0 failed; 2 ignored …\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\nFAIL",
    ],
  ];
  expect(cases.map(([name, input]) => [name, run(s, input, /FAIL|✖/.test(input)).text])).toEqual(
    cases.map(([name, , out]) => [name, out]),
  );
});

Deno.test("test_summary compacts traces: rust frames, nextest, pytest source, TAP fields", () => {
  const s = { type: "test_summary", max_failures: 10, truncate_stack_trace: 20 };
  const cases: [string, string, string][] = [
    [
      "rust backtrace: frame at the panic location goes, closures go, others join one line",
      [
        "---- t stdout ----",
        "thread 't' panicked at src/lib.rs:17:35:",
        "attempt to add with overflow",
        "stack backtrace:",
        "   3: calc::sum_all",
        "             at ./src/lib.rs:17:35",
        "   4: calc::tests::t",
        "             at ./src/lib.rs:33:82",
        "   5: calc::tests::t::{{closure}}",
        "             at ./src/lib.rs:33:31",
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
        "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
      ].join("\n"),
      "---- t stdout ----\nthread 't' panicked at src/lib.rs:17:35:\nattempt to add with overflow\n   4: calc::tests::t\n             at ./src/lib.rs:33:82\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    ],
    [
      "nextest: empty STDOUT block goes; the FAIL line and libtest's FAILED line stay as printed",
      [
        "        FAIL [   0.004s] calc tests::a",
        "──── STDOUT:             calc tests::a",
        "",
        "running 1 test",
        "test tests::a ... FAILED",
        "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 18 filtered out; finished in 0.00s",
        "──── STDERR:             calc tests::a",
        "thread 'tests::a' panicked at src/lib.rs:21:32:",
        "boom",
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        "     Summary [   0.212s] 2 tests run: 1 passed, 1 failed, 0 skipped",
      ].join("\n"),
      "        FAIL [   0.004s] calc tests::a\ntest tests::a ... FAILED\n──── STDERR:             calc tests::a\nthread 'tests::a' panicked at src/lib.rs:21:32:\nboom\n     Summary [   0.212s] 2 tests run: 1 passed, 1 failed, 0 skipped",
    ],
    [
      "nextest: a failure with only a STDOUT block keeps it",
      "        FAIL [   0.004s] calc tests::b\n──── STDOUT:             calc tests::b\n     Summary [   0.2s] 1 tests run: 0 passed, 1 failed, 0 skipped",
      "        FAIL [   0.004s] calc tests::b\n──── STDOUT:             calc tests::b\n     Summary [   0.2s] 1 tests run: 0 passed, 1 failed, 0 skipped",
    ],
    [
      "pytest -v: the progress line and the short summary's line of a test both stay; captured output stays",
      [
        "t.py::test_b FAILED    [ 50%]",
        "___ test_b ___",
        "    def test_b():",
        "        x = 1",
        ">       assert x == 2",
        "E       assert 1 == 2",
        "t.py:5: AssertionError",
        "----- Captured stdout call -----",
        "    indented print",
        "FAILED t.py::test_b - assert 1 == 2",
        "===== 1 failed, 1 passed in 0.01s =====",
      ].join("\n"),
      "t.py::test_b FAILED    [ 50%]\n___ test_b ___\n>       assert x == 2\nE       assert 1 == 2\nt.py:5: AssertionError\n----- Captured stdout call -----\n    indented print\nFAILED t.py::test_b - assert 1 == 2\n= 1 failed, 1 passed in 0.01s =",
    ],
    [
      "pytest: a test name failing in two files keeps both blocks and both short-summary lines",
      [
        "___ test_b ___",
        ">       assert 1 == 2",
        "E       assert 1 == 2",
        "a.py:5: AssertionError",
        "___ test_b ___",
        ">       assert 3 == 4",
        "E       assert 3 == 4",
        "b.py:7: AssertionError",
        "FAILED a.py::test_b - assert 1 == 2",
        "FAILED b.py::test_b - assert 3 == 4",
        "===== 2 failed in 0.01s =====",
      ].join("\n"),
      "___ test_b ___\nE       assert 1 == 2\na.py:5: AssertionError\n___ test_b ___\nE       assert 3 == 4\nb.py:7: AssertionError\nFAILED a.py::test_b - assert 1 == 2\nFAILED b.py::test_b - assert 3 == 4\n= 2 failed in 0.01s =",
    ],
    [
      "vitest: the progress tree's `×` line loses its message when the failure report shows the same test",
      [
        " ❯ a.test.ts (2 tests | 1 failed) 3ms",
        "   × s > t 2ms",
        "     → expected 1 to be 2",
        " FAIL  a.test.ts > s > t",
        "AssertionError: expected 1 to be 2",
        " ❯ a.test.ts:3:9",
        "      Tests  1 failed | 1 passed (2)",
      ].join("\n"),
      " ❯ a.test.ts (2 tests | 1 failed) 3ms\n   × s > t 2ms\n FAIL  a.test.ts > s > t\nAssertionError: expected 1 to be 2\n ❯ a.test.ts:3:9\n      Tests  1 failed | 1 passed (2)",
    ],
    [
      "node --test TAP: YAML bookkeeping and zero counts go",
      [
        "not ok 1 - b",
        "  ---",
        "  duration_ms: 1.2",
        "  location: '/p/t.mjs:4:1'",
        "  error: 'boom'",
        "  code: 'ERR_ASSERTION'",
        "  name: 'AssertionError'",
        "  operator: 'strictEqual'",
        "  stack: |-",
        "    TestContext.<anonymous> (file:///p/t.mjs:4:38)",
        "  ...",
        "# tests 1",
        "# suites 0",
        "# pass 0",
        "# fail 1",
        "# todo 0",
      ].join("\n"),
      "not ok 1 - b\n  location: '/p/t.mjs:4:1'\n  error: 'boom'\n    TestContext.<anonymous> (file:///p/t.mjs:4:38)\n# tests 1\n# pass 0\n# fail 1",
    ],
    [
      "node --test TAP: expected/actual go when the assertion message shows both values",
      [
        "not ok 1 - parses",
        "  ---",
        "  error: |-",
        "    Expected values to be strictly deep-equal:",
        "    + actual - expected",
        "    +   a: 1",
        "    -   a: 2",
        "  expected:",
        "    a: 2",
        "  actual:",
        "    a: 1",
        "  operator: 'deepStrictEqual'",
        "  stack: |-",
        "    TestContext.<anonymous> (file:///p/t.mjs:5:34)",
        "  ...",
        "not ok 2 - custom",
        "  ---",
        "  error: 'totals differ'",
        "  expected: 3",
        "  actual: 4",
        "  ...",
        "# fail 2",
      ].join("\n"),
      [
        "not ok 1 - parses",
        "    Expected values to be strictly deep-equal:",
        "    + actual - expected",
        "    +   a: 1",
        "    -   a: 2",
        "    TestContext.<anonymous> (file:///p/t.mjs:5:34)",
        // A custom message does not show the values: they stay.
        "not ok 2 - custom",
        "  error: 'totals differ'",
        "  expected: 3",
        "  actual: 4",
        "# fail 2",
      ].join("\n"),
    ],
  ];
  expect(cases.map(([name, input]) => [name, run(s, input, true).text])).toEqual(
    cases.map(([name, , out]) => [name, out]),
  );
});

Deno.test("test_summary: a code frame keeps its failing line; a frame with no mark stays whole", () => {
  const s = { type: "test_summary", max_failures: 10, truncate_stack_trace: 20 };
  const head = "FAIL a.test.ts\n  ● t › fails\n    Expected: 1\n";
  const tail = "\n      at Object.toBe (a.test.ts:2:9)\nTests:       1 failed, 1 total";
  // jest: the `>` line stays, context and caret go.
  expect(
    run(
      s,
      `${head}      1 | it("x", () => {\n    > 2 |   expect(f()).toBe(1);\n        |       ^\n      3 | });${tail}`,
      true,
    )
      .text,
  ).toBe(
    "FAIL a.test.ts\n  ● t › fails\n    Expected: 1\n    > 2 |   expect(f()).toBe(1);\n      at Object.toBe (a.test.ts:2:9)\nTests:       1 failed, 1 total",
  );
  // vitest: no `>`; the line over the caret stays.
  expect(
    run(
      s,
      ` FAIL  a.test.ts > t > fails\n      1| a\n      2| b\n       |  ^\n      3| c\n Tests  1 failed (1)`,
      true,
    )
      .text,
  ).toBe(" FAIL  a.test.ts > t > fails\n      2| b\n Tests  1 failed (1)");
  // Neither a mark nor a caret: which line failed is unknown, so the frame stays whole.
  expect(
    run(s, ` FAIL  a.test.ts > t > fails\n      1| a\n      2| b\n Tests  1 failed (1)`, true).text,
  ).toBe(" FAIL  a.test.ts > t > fails\n      1| a\n      2| b\n Tests  1 failed (1)");
  // A caret alone under a quoted source line (deno) goes: the frame below gives the column.
  expect(
    run(
      s,
      "t => ./a_test.ts:1:6\nerror: Error: boom\n  throw new Error(m);\n        ^\n    at f (file:///a_test.ts:2:9)\nFAILED | 0 passed | 1 failed (1ms)",
      true,
    )
      .text,
  ).toBe(
    "t => ./a_test.ts:1:6\nerror: Error: boom\n  throw new Error(m);\n    at f (file:///a_test.ts:2:9)\nFAILED | 0 passed | 1 failed (1ms)",
  );
});

Deno.test("test_summary keeps each distinct Python warning once per location, with its count", () => {
  const s = { type: "test_summary", max_failures: 10, truncate_stack_trace: 20 };
  const entry = (test: string, where: string, text: string) =>
    `${test}\n  ${where}: ${text}\n    do_it()\n`;
  const summary = [
    "....                                                   [100%]",
    "============ warnings summary ============",
    entry(
      "t/test_io.py::test_read",
      "/p/io.py:8",
      "ResourceWarning: unclosed file <_io.TextIOWrapper>",
    ),
    entry(
      "t/test_io.py::test_write",
      "/p/io.py:8",
      "ResourceWarning: unclosed file <_io.TextIOWrapper>",
    ),
    entry(
      "t/test_api.py::test_get",
      "/p/api.py:31",
      "UserWarning: retries is ignored without a timeout",
    ),
    entry(
      "t/test_io.py::test_seek",
      "/p/io.py:8",
      "ResourceWarning: unclosed file <_io.TextIOWrapper>",
    ),
    "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
  ].join("\n");
  // A passing run: the warnings stay, each once, and the counts.
  expect(run(s, `${summary}\n4 passed, 4 warnings in 0.31s`).text).toBe(
    [
      // As printed, indented as in pytest's warnings summary, under the test that raised it first.
      "t/test_io.py::test_read",
      "  /p/io.py:8: ResourceWarning: unclosed file <_io.TextIOWrapper> (3 times)",
      "t/test_api.py::test_get",
      "  /p/api.py:31: UserWarning: retries is ignored without a timeout",
      "4 passed, 4 warnings in 0.31s",
    ].join("\n"),
  );
  // A failing run keeps its failure block as before, and the warning.
  const failing = [
    "____________ test_get ____________",
    "E   AssertionError: assert 500 == 200",
    "t/test_api.py:12: AssertionError",
    "============ warnings summary ============",
    entry(
      "t/test_api.py::test_get",
      "/p/api.py:31",
      "UserWarning: retries is ignored without a timeout",
    ),
    "FAILED t/test_api.py::test_get - AssertionError: assert 500 == 200",
    "1 failed, 1 warning in 0.2s",
  ].join("\n");
  const out = run(s, failing, true).text;
  expect(out).toContain("E   AssertionError: assert 500 == 200");
  expect(out).toContain("/p/api.py:31: UserWarning: retries is ignored without a timeout");
  expect(out).not.toContain("(1 times)");
  // The source line under a warning still goes.
  expect(out).not.toContain("do_it()");
});

Deno.test("strip_noise: min_lines leaves short outputs alone; summary counts what went", () => {
  const s = { type: "strip_noise", patterns: ["^ok "], min_lines: 3, summary: "({n} ok lines)" };
  expect(run(s, "ok a\nok b\nbad c")).toEqual({
    text: "ok a\nok b\nbad c",
    confidence: "fallback",
  });
  expect(run(s, "ok a\nok b\nbad c\nok d")).toEqual({
    text: "bad c\n(3 ok lines)",
    confidence: "full",
  });
  expect(run({ type: "strip_noise", patterns: ["^ok "] }, "ok a\nbad")).toEqual({
    text: "bad",
    confidence: "full",
  });
});

Deno.test("strip_noise: rewrite reshapes kept lines by the first matching entry", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^total "],
    rewrite: [
      { pattern: "^d\\S+ (\\S+)$", to: "{1}/" },
      { pattern: "^-\\S+ (?P<size>\\d+) (\\S+)$", to: "{2} {size}" },
    ],
  };
  expect(run(s, "total 3\nd--- src\n-rw- 12 a.txt\nplain")).toEqual({
    text: "src/\na.txt 12\nplain",
    confidence: "full",
  });
  // Reshaping alone counts as a change.
  expect(run(s, "d--- docs")).toEqual({ text: "docs/", confidence: "full" });
  expect(() =>
    compileRule({
      name: "t",
      match: { prefix: "cmd" },
      strategy: { type: "strip_noise", patterns: ["x"], rewrite: [{ pattern: "(", to: "" }] },
    }, "test")
  ).toThrow(/strategy\.rewrite\.0\.pattern/);
});

Deno.test("strip_noise: cells keeps an aligned row's cells without their padding; a `||` inside a cell and other lines stay as printed", () => {
  const s = { type: "strip_noise", patterns: ["^-[-+]{1,1000}$"], cells: [" \\| "] };
  const input = [
    " Column |     Type      | Nullable |                 Default                 ",
    "--------+---------------+----------+-----------------------------------------",
    " id     | bigint        | not null | nextval('t_id_seq'::regclass)           ",
    " label  | text          |          | (COALESCE(a, ''::text) || 'x'::text)    ",
    " notes  | text          |          | ",
    "Indexes:",
    '    "t_pkey" PRIMARY KEY, btree (id)',
  ].join("\n");
  expect(run(s, input).text.split("\n")).toEqual([
    "Column | Type | Nullable | Default",
    "id | bigint | not null | nextval('t_id_seq'::regclass)",
    "label | text |  | (COALESCE(a, ''::text) || 'x'::text)",
    "notes | text |  |",
    "Indexes:",
    '    "t_pkey" PRIMARY KEY, btree (id)',
  ]);
  // Linear: a row of a million spaces between two cells is read once.
  const wide = [
    `a${" ".repeat(1_000_000)} | b`,
    `${"-".repeat(1_000_002)}+--`,
    `c${" ".repeat(1_000_000)} | d`,
  ].join("\n");
  const started = threadCpuMs();
  // (The rule line is longer than the pattern dropping it: it stays, between the rows.)
  const rows = run(s, wide).text.split("\n");
  expect([rows.length, rows[0], rows[2]]).toEqual([3, "a | b", "c | d"]);
  // A bound on this thread's CPU, not the wall clock: a quadratic read of the rows would take
  // hours, a linear one milliseconds, whatever else the machine runs.
  expect(threadCpuMs() - started).toBeLessThan(10_000);
});

Deno.test("strip_noise: cells parts a row only at its table's columns; a ` | ` in a value, and a line under no rule line, stay as printed", () => {
  const s = { type: "strip_noise", patterns: ["^-[-+]{1,1000}$"], cells: [" \\| "] };
  // PostgreSQL 15 `\d labels` and `\d+ label_pipes`: defaults and a view holding ` | `, a check
  // constraint with `|`.
  const table = [
    " Column |  Type   | Nullable |                           Default                           ",
    "--------+---------+----------+-------------------------------------------------------------",
    " sep    | text    | not null | 'a  |  b'::text",
    " note   | text    |          | ' | '::text",
    " path   | text    |          | generated always as ((sep || ' |   '::text) || note) stored",
    "Check constraints:",
    '    "labels_flags_check" CHECK ((flags | 4) < 64)',
    "View definition:",
    " SELECT labels.id,",
    "    labels.sep || '  |  '::text AS piped,",
    "    labels.flags | 1 AS f",
  ];
  expect(run(s, table.join("\n")).text.split("\n")).toEqual([
    "Column | Type | Nullable | Default",
    "sep | text | not null | 'a  |  b'::text",
    "note | text |  | ' | '::text",
    "path | text |  | generated always as ((sep || ' |   '::text) || note) stored",
    ...table.slice(5),
  ]);
  // A row with no rule line over it is no table's: as printed.
  expect(run(s, table.slice(2, 4).join("\n")).text).toBe(table.slice(2, 4).join("\n"));
});

Deno.test("strip_noise: common_directory says the directory most paths share once", () => {
  const s = { type: "strip_noise", patterns: ["^Run options"], common_directory: true };
  const input = [
    "Run options: --seed 1",
    "T#test_a [/home/me/app/test/a_test.rb:3]:",
    "    /usr/lib/ruby/3.1.0/json/common.rb:216:in `parse'",
    "    /home/me/app/lib/a.rb:9:in `load'",
    "    /home/me/app/test/a_test.rb:4:in `test_a'",
    "cd /home/me/app/ && rake",
  ].join("\n");
  // The frame in the Ruby install stays whole; the bare directory (no file after it) too.
  expect(run(s, input)).toEqual({
    text: [
      "files under /home/me/app/:",
      "T#test_a [test/a_test.rb:3]:",
      "    /usr/lib/ruby/3.1.0/json/common.rb:216:in `parse'",
      "    lib/a.rb:9:in `load'",
      "    test/a_test.rb:4:in `test_a'",
      "cd /home/me/app/ && rake",
    ].join("\n"),
    confidence: "full",
  });
  // Fewer than three paths under one directory, or only one level shared (`/usr/`): unchanged.
  const few = "a /home/me/app/x.rb:1\nb /home/me/app/y.rb:2\nc /usr/a/z.rb:3\nd /usr/b/w.rb:4";
  expect(run(s, few)).toEqual({ text: few, confidence: "fallback" });
});

Deno.test("strip_noise: on_empty stands for a successful output whose every line went", () => {
  const s = { type: "strip_noise", patterns: ["^progress "], on_empty: "tool: ok ({n} lines)" };
  expect(run(s, "progress 1\nprogress 2")).toEqual({
    text: "tool: ok (2 lines)",
    confidence: "full",
  });
  expect(run(s, "progress 1\ndone")).toEqual({ text: "done", confidence: "full" });
  // A failed command is never "ok": the engine shows the input's last lines instead.
  expect(run(s, "progress 1\nprogress 2", true).text).toBe("progress 1\nprogress 2");
});

Deno.test("strip_noise: a header stays only above a kept line of its section, or at the end", () => {
  const s = { type: "strip_noise", patterns: ["^ok: "], headers: ["^TASK "] };
  const input = ["TASK a", "ok: x", "TASK b", "changed: x", "TASK c", "ok: y", "TASK d"];
  // `TASK d` ends the output: the run stopped there (a hang, a timeout), so it stays.
  expect(run(s, input.join("\n"))).toEqual({
    text: "TASK b\nchanged: x\nTASK d",
    confidence: "full",
  });
  // A header that is also noise goes like any noise line.
  expect(run({ ...s, patterns: ["^ok: ", "^TASK skip"] }, "TASK skip\nchanged: z").text)
    .toBe("changed: z");
});

Deno.test("strip_noise: frames go with the more indented source line under them", () => {
  const s = { type: "strip_noise", patterns: ["^noise"], frames: ['^\\s*File "/usr/lib/'] };
  const input = [
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in <module>',
    "    main()",
    '  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode',
    "    obj, end = self.raw_decode(s)",
    '  File "/usr/lib/python3.11/json/decoder.py", line 355, in raw_decode',
    "ValueError: bad",
    "done",
  ];
  // The second library frame has no code line under it: the exception line stays.
  expect(run(s, input.join("\n"))).toEqual({
    text: [input[0], input[1], input[2], "ValueError: bad", "done"].join("\n"),
    confidence: "full",
  });
});

Deno.test("strip_noise: json_drop removes fields from the JSON object ending a kept line", () => {
  const s = { type: "strip_noise", patterns: ["^ok: "], json_drop: ["stdout_lines", "delta"] };
  const fatal = 'fatal: [h]: FAILED! => {"rc": 2, "delta": "0:00:01", "stdout": "a\\nb", ' +
    '"stdout_lines": ["a", "b"], "results": [{"delta": "0:00:02", "item": "x"}]}';
  expect(run(s, `ok: [h]\n${fatal}`)).toEqual({
    text: 'fatal: [h]: FAILED! => {"rc": 2, "stdout": "a\\nb", "results": [{"item": "x"}]}',
    confidence: "full",
  });
  // Not a JSON tail, broken JSON, or none of the fields: the line stays as printed.
  for (const line of ["done => {not json}", 'x => {"rc": 1}', "plain {line}"]) {
    expect(run(s, `ok: [h]\n${line}`).text).toBe(line);
  }
});

Deno.test("strip_noise: a JSON tail nested deeper than the stack passes as printed; the other lines are still filtered", () => {
  const s = { type: "strip_noise", patterns: ["^ok: "], json_drop: ["delta"] };
  const deep = `fatal: [h]: FAILED! => {"delta": 1, "x": ${"[".repeat(60_000)}${
    "]".repeat(60_000)
  }}`;
  const fatal = 'fatal: [g]: FAILED! => {"rc": 2, "delta": "0:00:01"}';
  expect(run(s, `ok: [h]\n${deep}\n${fatal}`, true)).toEqual({
    text: `${deep}\nfatal: [g]: FAILED! => {"rc": 2}`,
    confidence: "full",
  });
});

Deno.test("join_runs: consecutive lines differing only in their item become one line", () => {
  const s = {
    type: "join_runs",
    pattern: "^(?P<state>changed|ok): \\[(?P<host>\\w+)\\] => \\(item=(?P<item>[^()]+)\\)$",
    to: "{state}: [{host}] => (items: {items})",
    max_items: 3,
  };
  const input = [
    "changed: [a] => (item=x)",
    "changed: [a] => (item=y)",
    "changed: [b] => (item=x)",
    "TASK next",
    "ok: [a] => (item=1)",
    "ok: [a] => (item=2)",
    "ok: [a] => (item=3)",
    "ok: [a] => (item=4)",
  ];
  expect(run(s, input.join("\n"))).toEqual({
    text: [
      "changed: [a] => (items: x, y)",
      // A run of one stays as printed.
      "changed: [b] => (item=x)",
      "TASK next",
      // max_items cuts a run; the next one starts.
      "ok: [a] => (items: 1, 2, 3)",
      "ok: [a] => (item=4)",
    ].join("\n"),
    confidence: "full",
  });
  expect(run(s, "changed: [a] => (item=x)\nTASK")).toEqual({
    text: "changed: [a] => (item=x)\nTASK",
    confidence: "fallback",
  });
  for (
    const [bad, field] of [
      [{ ...s, pattern: "^changed: (.+)$" }, "strategy.pattern"],
      [{ ...s, to: "{state}" }, "strategy.to"],
    ] as const
  ) {
    expect(() => compileRule({ name: "j", match: { prefix: "x" }, strategy: bad }, "test"))
      .toThrow(field);
  }
});

Deno.test("group_paths groups by directory, keeps the first path whole and non-paths in order", () => {
  const s = { type: "group_paths", min_lines: 3, max_groups: 2, max_items: 2 };
  const dir = "src/components/widgets/";
  const input = [
    `${dir}a.tsx`,
    `${dir}b.tsx`,
    "find: ‘src/private’: Permission denied",
    "lib/x/y.ts",
    ...["c", "d", "e", "f", "g", "h", "i", "j"].map((n) => `${dir}${n}.tsx`),
    "top.txt",
    "other/z.ts",
  ].join("\n");
  expect(run(s, input, true)).toEqual({
    text: [
      "(14 paths grouped by directory: names after the first path are in its directory)",
      "src/components/widgets/a.tsx, b.tsx, c.tsx, … (+7 more)",
      "find: ‘src/private’: Permission denied",
      "lib/x/y.ts",
      // top.txt is of a kind no shown entry has; other/z.ts is counted.
      "top.txt",
      "… (+1 more paths in further directories)",
    ].join("\n"),
    confidence: "full",
  });
  expect(run(s, "a/b\na/c\nd")).toEqual({ text: "a/b\na/c\nd", confidence: "fallback" });
});

Deno.test("group_paths reads prefixed paths, and folds a path's quiet details with it", () => {
  // tsc --listEmittedFiles: `TSFILE: ` before each path, read by `entry`.
  const emitted = { type: "group_paths", min_lines: 3, entry: "^(TSFILE: )?(?P<path>\\S+)$" };
  const files = Array.from({ length: 12 }, (_, i) => `TSFILE: /p/dist/m${i}.js`);
  expect(run(emitted, ["a.ts(1,2): error TS2322: x", ...files].join("\n"), true).text.split("\n"))
    .toEqual([
      "(12 paths grouped by directory: names after the first path are in its directory)",
      "a.ts(1,2): error TS2322: x",
      "TSFILE: /p/dist/m0.js, m1.js, m2.js, m3.js, m4.js, m5.js, m6.js, m7.js, m8.js, … (+3 more)",
    ]);
  // tsc --explainFiles: a path whose reasons all name node_modules files is grouped, its reasons
  // counted; a path with another reason stays whole in its place with that reason under it.
  const explain = {
    type: "group_paths",
    min_lines: 3,
    max_items: 1,
    details: "^  \\S",
    quiet_details: "^  Library referenced via \\S+ from file 'node_modules/",
  };
  const input = [
    ...["es5", "es2015", "es2016"].flatMap((lib, i) => [
      `node_modules/typescript/lib/lib.${lib}.d.ts`,
      `  Library referenced via '${lib}' from file 'node_modules/typescript/lib/lib.es${i}.d.ts'`,
    ]),
    "node_modules/typescript/lib/lib.es2022.full.d.ts",
    "  Default library for target 'es2022'",
    "src/a.ts",
    "  Matched by include pattern 'src' in 'tsconfig.json'",
    "src/b.ts",
    "  Library referenced via 'x' from file 'node_modules/y.d.ts'",
    "  Imported via './b' from file 'src/a.ts'",
  ];
  expect(run(explain, input.join("\n"), true).text.split("\n")).toEqual([
    "(6 paths grouped by directory: names after the first path are in its directory)",
    "node_modules/typescript/lib/lib.es5.d.ts, lib.es2015.d.ts, … (+1 more)",
    "node_modules/typescript/lib/lib.es2022.full.d.ts",
    "  Default library for target 'es2022'",
    "src/a.ts",
    "  Matched by include pattern 'src' in 'tsconfig.json'",
    "src/b.ts",
    "  Imported via './b' from file 'src/a.ts'",
    "… (+4 lines about grouped paths not shown)",
  ]);
});

Deno.test("group_paths names a directory's entry of a kind none of those shown has", () => {
  const s = { type: "group_paths", min_lines: 10, max_items: 3 };
  const input = [
    ...Array.from({ length: 200 }, (_, i) => `./build/obj/file_${i}.o`),
    "./build/obj/core.dump",
    ...Array.from({ length: 200 }, (_, i) => `./build/obj/file_${200 + i}.o`),
    "./build/obj/README",
    "./build/obj/core.old.dump",
  ].join("\n");
  expect(run(s, input, true).text.split("\n")).toEqual([
    "(403 paths grouped by directory: names after the first path are in its directory)",
    // core.old.dump is a second entry of core.dump's kind: counted, not named.
    "./build/obj/file_0.o, file_1.o, file_2.o, file_3.o, core.dump, README, … (+397 more)",
  ]);
});

Deno.test("group_paths names a further directory's entry of a kind no shown entry has", () => {
  const s = { type: "group_paths", min_lines: 10, max_groups: 2, max_items: 2 };
  const input = [
    ...Array.from({ length: 6 }, (_, d) => ["a", "b", "c"].map((f) => `tree/pkg${d}/mod_${f}.py`))
      .flat(),
    "tree/pkg4/core",
    "tree/pkg5/notes.txt",
    "tree/pkg5/todo.txt",
    "tree/pkg5/vmcore",
  ].join("\n");
  expect(run(s, input, true).text.split("\n")).toEqual([
    "(22 paths grouped by directory: names after the first path are in its directory)",
    "tree/pkg0/mod_a.py, mod_b.py, mod_c.py",
    "tree/pkg1/mod_a.py, mod_b.py, mod_c.py",
    // The first entry of each kind the shown names lack, as printed; the others counted.
    "tree/pkg4/core",
    "tree/pkg5/notes.txt",
    "… (+14 more paths in further directories)",
  ]);
});

Deno.test("test_summary: line kinds, with leading whitespace of any kind and indentation", () => {
  const lines: [string, string | null][] = [
    [" ERRORS ", "section"],
    ["  ● a › b", "block"],
    ["×  x", "block"],
    ["1..4", "section"],
    ["# Subtest: a", "section"],
    ["? pkg [no test files]", "summary"],
    ["", null],
    [" ", null],
    ["\t", null],
    ["  \t  ", null],
    ["\u00A0✕ renders", "marker"],
    ["\u3000✓ renders", "passing"],
    ["test result: ok. 1 passed", "summary"],
    [" test result: ok. 1 passed", null],
    [" ● a › b", "block"],
    ["● a › b", "block"],
    ["name ... FAILED (2ms)", "marker"],
    ["name ... ok (2ms)", "passing"],
    [" name ... ok (2ms)", null],
    ["name => ./a_test.ts:3:6", "block"],
  ];
  expect(lines.map(([line]) => [line, classifyLine(line)])).toEqual(lines);
});

Deno.test("git_log: with --oneline or --format and -p, a commit's line ends the patch above and gets a budget of its own", () => {
  const s = { type: "git_log", max_patch_lines: 2, max_patches: 10 };
  const patch = (file: string, n: number) => [
    `diff --git a/${file} b/${file}`,
    `index 1111111..2222222 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -1,${n} +1,${n} @@`,
    ...Array.from({ length: n }, (_, i) => `+line ${i}`),
  ];
  const input = [
    "be963b1 change 2: update parser",
    "",
    ...patch("parser.ts", 4),
    "33d1edc change 1: add parser",
    "",
    ...patch("lexer.ts", 3),
  ].join("\n");
  expect(run(s, input).text.split("\n")).toEqual([
    "be963b1 change 2: update parser",
    "diff --git a/parser.ts b/parser.ts",
    "@@ -1,4 +1,4 @@",
    "+line 0",
    "... (3 more diff lines: +3 -0) ...",
    "33d1edc change 1: add parser",
    "diff --git a/lexer.ts b/lexer.ts",
    "@@ -1,3 +1,3 @@",
    "+line 0",
    "... (2 more diff lines: +2 -0) ...",
  ]);
});

Deno.test("git_log: commit and subject lines as printed, body and stat bounded, other formats unchanged", () => {
  const s = { type: "git_log", max_body_lines: 1, max_stat_files: 2 };
  const input = [
    "commit 0123456789abcdef0123456789abcdef01234567 (HEAD -> main, origin/main)",
    "Merge: aaaaaaa bbbbbbb",
    "Author: Ada Lovelace <ada@example.com>",
    "Date:   Sat Nov 21 22:35:12 2026 +0000",
    "",
    "    Parser: accept hex literals",
    "    ",
    "    First body line.",
    "    Second body line.",
    "",
    " src/a.ts | 11 ++++++++++-",
    " src/b.ts |  4 ++--",
    " img.png  | Bin 0 -> 12 bytes",
    " 3 files changed, 13 insertions(+), 2 deletions(-)",
    "",
    "commit 89abcdef0123456789abcdef0123456789abcdef",
    "Author: Bob <bob@example.com>",
    "Date:   2026-11-20T10:00:00+01:00",
    "",
    "    Initial commit",
    "",
    "commit 1111111111111111111111111111111111111111",
    "Author: Bob <bob@example.com>",
    "Date:   2026-11-20T09:00:00+01:00",
    "",
    "    Before the beginning",
  ].join("\n");
  expect(run(s, input)).toEqual({
    text: [
      "commit 0123456789abcdef0123456789abcdef01234567 (HEAD -> main, origin/main)",
      "Merge: aaaaaaa bbbbbbb",
      "Author: Ada Lovelace <ada@example.com>",
      "Date:   Sat Nov 21 22:35:12 2026 +0000",
      "    Parser: accept hex literals",
      "    First body line.",
      "    … (1 more message lines)",
      // Stat lines and totals as printed, past max_stat_files a count.
      " src/a.ts | 11 ++++++++++-",
      " src/b.ts |  4 ++--",
      " … (1 more files)",
      " 3 files changed, 13 insertions(+), 2 deletions(-)",
      "commit 89abcdef0123456789abcdef0123456789abcdef",
      "Author: Bob <bob@example.com>",
      "Date:   2026-11-20T10:00:00+01:00",
      "    Initial commit",
      // The same author and day as the commit above: their lines are not repeated.
      "commit 1111111111111111111111111111111111111111",
      "    Before the beginning",
    ].join("\n"),
    confidence: "full",
  });
  const oneline = "0123456 Parser: accept hex literals\n89abcde Initial commit";
  expect(run(s, oneline)).toEqual({ text: oneline, confidence: "fallback" });
});

Deno.test("test_summary passes a compile error through unchanged (Fallback)", () => {
  const s = { type: "test_summary" };
  const input = "error[E0308]: mismatched types\n --> src/lib.rs:1:1\nerror: could not compile";
  expect(run(s, input, true)).toEqual({ text: input, confidence: "fallback" });
});

Deno.test("group_by_rule groups warnings by lint and keeps errors verbatim", () => {
  const s = { type: "group_by_rule" };
  const input = [
    "    Checking x v0.1.0",
    "warning: unused variable: `a`",
    " --> src/lib.rs:1:5",
    "  = note: `#[warn(unused_variables)]` on by default",
    "",
    "warning: unused variable: `b`",
    " --> src/lib.rs:2:5",
    "",
    "error[E0308]: mismatched types",
    " --> src/lib.rs:3:1",
    "  |     expected `i64`",
    "",
    "warning: `x` (lib) generated 2 warnings",
    "warning: `x` (lib test) generated 2 warnings (2 duplicates)",
    'warning: `x` (bin "x") generated 3 warnings (2 duplicates)',
    "error: could not compile `x`",
  ].join("\n");
  expect(run(s, input, true)).toEqual({
    text: [
      "error[E0308]: mismatched types",
      " --> src/lib.rs:3:1",
      "  |     expected `i64`",
      "",
      "unused_variables (2):",
      "  warning: unused variable: `a`",
      "   --> src/lib.rs:1:5",
      // Its message but for the name, in the same file: one of the few shown whole.
      "  warning: unused variable: `b`",
      "   --> src/lib.rs:2:5",
      // cargo's own total equals ours: no "2 diagnostics in 1 groups" line.
      "warning: `x` (lib) generated 2 warnings",
      'warning: `x` (bin "x") generated 3 warnings (2 duplicates)',
      "error: could not compile `x`",
    ].join("\n"),
    confidence: "full",
  });
});

Deno.test("git_status keeps the long format's and porcelain lines as printed, without hints, capped", () => {
  const long =
    'On branch dev\nChanges to be committed:\n  (use "git restore --staged <file>..." to unstage)\n\tnew file:   a.ts\n\nChanges not staged for commit:\n\tmodified:   b.ts\n\nUntracked files:\n\tc.ts\n';
  expect(run({ type: "git_status" }, long)).toEqual({
    text:
      "On branch dev\nChanges to be committed:\n\tnew file:   a.ts\nChanges not staged for commit:\n\tmodified:   b.ts\nUntracked files:\n\tc.ts",
    confidence: "full",
  });
  const files = Array.from({ length: 5 }, (_, i) => `?? src/generated/file${i}.ts`).join("\n");
  expect(run({ type: "git_status", max_files: 2 }, files).text).toBe(
    "?? src/generated/file0.ts\n?? src/generated/file1.ts\n… and 3 more untracked",
  );
  expect(run({ type: "git_status" }, "?? a\n?? b").text).toBe("?? a\n?? b");
  // Long sections past max_files say how many more entries they had.
  const paths = Array.from({ length: 6 }, (_, i) => `src/module_${i}.ts`);
  const modified = paths.map((p) => `\tmodified:   ${p}`);
  const unstaged = ["On branch dev", "Changes not staged for commit:", ...modified];
  expect(
    run({ type: "git_status", max_files: 4 }, [...unstaged, "Untracked files:", "\tx"].join("\n"))
      .text,
  )
    .toBe([...unstaged.slice(0, 6), "… and 2 more unstaged", "Untracked files:", "\tx"].join("\n"));
  // Porcelain lines are as short as the summary: they pass unchanged.
  const porcelain = ["## dev", ...paths.map((p) => `M  ${p}`)].join("\n");
  expect(run({ type: "git_status" }, porcelain).text).toBe(porcelain);
});

Deno.test("git_status keeps the branch state lines as git printed them", () => {
  const dirty = "\nChanges not staged for commit:\n\tmodified:   a.ts\n\tmodified:   b.ts";
  const ahead = "On branch dev\nYour branch is ahead of 'origin/dev' by 2 commits.";
  expect(
    run(
      { type: "git_status" },
      `${ahead}\n  (use "git push" to publish your local commits)\n${dirty}`,
    )
      .text,
  ).toBe(`${ahead}\nChanges not staged for commit:\n\tmodified:   a.ts\n\tmodified:   b.ts`);
  const diverged = [
    "On branch dev",
    "Your branch and 'origin/dev' have diverged,",
    "and have 1 and 2 different commits each, respectively.",
    '  (use "git pull" if you want to integrate the remote branch with yours)',
  ].join("\n");
  expect(run({ type: "git_status" }, diverged + dirty).text).toBe([
    "On branch dev",
    "Your branch and 'origin/dev' have diverged,",
    "and have 1 and 2 different commits each, respectively.",
    "Changes not staged for commit:",
    "\tmodified:   a.ts",
    "\tmodified:   b.ts",
  ].join("\n"));
});

Deno.test("git_diff shows hunks up to the budget, then a per-file summary", () => {
  const diff = [
    "diff --git a/a.ts b/a.ts",
    "index 1..2 100644",
    "--- a/a.ts",
    "+++ b/a.ts",
    "@@ -1,2 +1,2 @@",
    "-old",
    "+new",
    "diff --git a/b.ts b/b.ts",
    "--- a/b.ts",
    "+++ b/b.ts",
    "@@ -1 +1,2 @@",
    ...Array.from({ length: 20 }, (_, i) => `+export const generatedValue${i} = ${i};`),
  ].join("\n");
  expect(run({ type: "git_diff", max_diff_lines: 3 }, diff)).toEqual({
    text: [
      "diff --git a/a.ts b/a.ts",
      "@@ -1,2 +1,2 @@",
      "-old",
      "+new",
      "",
      "Not shown (over max_diff_lines = 3):",
      "b.ts | +20 -0",
      "2 files changed, 21 insertions(+), 1 deletions(-) (showed 3 of 24 diff lines)",
    ].join("\n"),
    confidence: "full",
  });
  expect(run({ type: "git_diff" }, "no diff here")).toEqual({
    text: "no diff here",
    confidence: "fallback",
  });
  // A long hunk shows its first lines, a count and its last line (the tail is at most half the
  // limit); the next hunk and file still show.
  const hunks = diff + "\n@@ -30 +31 @@\n-x\n+y\ndiff --git a/c.ts b/c.ts\n@@ -1 +1 @@\n-p\n+q";
  expect(run({ type: "git_diff", max_hunk_lines: 2 }, hunks)).toEqual({
    text: [
      "diff --git a/a.ts b/a.ts",
      "@@ -1,2 +1,2 @@",
      "-old",
      "+new",
      "diff --git a/b.ts b/b.ts",
      "@@ -1 +1,2 @@",
      "+export const generatedValue0 = 0;",
      "... (18 more lines in this hunk: +18 -0) ...",
      "+export const generatedValue19 = 19;",
      "@@ -30 +31 @@",
      "-x",
      "+y",
      "diff --git a/c.ts b/c.ts",
      "@@ -1 +1 @@",
      "-p",
      "+q",
      "3 files changed, 23 insertions(+), 3 deletions(-)",
    ].join("\n"),
    confidence: "full",
  });
});

Deno.test("git_diff reads a combined diff (a merge's conflicts) as it reads a normal one", () => {
  // `git diff` during a merge: `diff --cc`, `@@@` hunks, one mark column per parent.
  const diff = [
    "diff --cc app.py",
    "index 84cc76e,2d1a45f..0000000",
    "--- a/app.py",
    "+++ b/app.py",
    "@@@ -7,3 -7,3 +7,9 @@@ def main():",
    "  setup()",
    "++<<<<<<< HEAD",
    " +    run(fast=True)",
    "++=======",
    "+     run(safe=True)",
    "++>>>>>>> other",
    "- removed_by_ours()",
    "  teardown()",
    ...Array.from({ length: 30 }, (_, i) => `++generated_${i} = ${i}`),
    "  done()",
  ].join("\n");
  expect(run({ type: "git_diff", max_new_file_lines: 4 }, diff)).toEqual({
    text: [
      "diff --cc app.py",
      "@@@ -7,3 -7,3 +7,9 @@@ def main():",
      "  setup()",
      "++<<<<<<< HEAD",
      " +    run(fast=True)",
      "++=======",
      "+     run(safe=True)",
      "++>>>>>>> other",
      "- removed_by_ours()",
      "  teardown()",
      "++generated_0 = 0",
      "++generated_1 = 1",
      "... (26 more added lines) ...",
      "++generated_28 = 28",
      "++generated_29 = 29",
      "  done()",
      "1 file changed, 35 insertions(+), 1 deletions(-)",
    ].join("\n"),
    confidence: "full",
  });
});

Deno.test("git_diff keeps the end of a cut hunk and cuts a new file's content sooner", () => {
  const body = (n: number, sign: string) => Array.from({ length: n }, (_, i) => `${sign}line ${i}`);
  const diff = [
    "diff --git a/old.ts b/old.ts",
    "@@ -1,30 +1,30 @@",
    ...body(30, "-"),
    "diff --git a/new.ts b/new.ts",
    "new file mode 100644",
    "index 0000000..1111111",
    "--- /dev/null",
    "+++ b/new.ts",
    "@@ -0,0 +1,30 @@",
    ...body(30, "+"),
  ].join("\n");
  const s = { type: "git_diff", max_hunk_lines: 20, max_new_file_lines: 8, hunk_tail_lines: 3 };
  expect(run(s, diff).text).toBe([
    "diff --git a/old.ts b/old.ts",
    "@@ -1,30 +1,30 @@",
    ...body(17, "-"),
    "... (10 more lines in this hunk: +0 -10) ...",
    "-line 27",
    "-line 28",
    "-line 29",
    "diff --git a/new.ts b/new.ts",
    "new file mode 100644",
    "@@ -0,0 +1,30 @@",
    ...body(5, "+"),
    "... (22 more lines in this hunk: +22 -0) ...",
    "+line 27",
    "+line 28",
    "+line 29",
    "2 files changed, 30 insertions(+), 30 deletions(-)",
  ].join("\n"));
  // A hunk within its limit shows whole and in order, its last lines before the next file.
  const whole = ["@@ -1,19 +1,19 @@", ...body(19, "-"), "diff --git a/z.ts b/z.ts", "@@ -1 +1 @@"];
  const withIndex = [
    "diff --git a/mid.ts b/mid.ts",
    "index 1111111..2222222 100644",
    "--- a/mid.ts",
    "+++ b/mid.ts",
    ...whole,
  ];
  expect(run(s, [...withIndex, "-p", "+q"].join("\n")).text).toBe(
    [withIndex[0], ...whole, "-p", "+q", "2 files changed, 1 insertions(+), 20 deletions(-)"]
      .join("\n"),
  );
});

Deno.test("group_by_file keeps each file's first lines as printed and counts the rest with their line numbers; failure lines and other lines stay", () => {
  const s = {
    type: "group_by_file",
    line_pattern: "^(?P<file>[^:]+):(?P<rest>\\d+:.*)$",
    max_per_file: 2,
  };
  const input = [
    "src/a.ts:3:import { x } from './x.ts';",
    "src/a.ts:9:export const y = x;",
    "src/a.ts:10:const zebra = makeAnimal('zebra', { stripes: true, legs: 4 });",
    "src/a.ts:11:throw new Error('boom');",
    "src/a.ts:12:const walrus = makeAnimal('walrus', { tusks: true, legs: 0 });",
    "src/b.ts:1:import 'b';",
    "src/a.ts-10-context line",
    "--",
    "my docs/a b.md:4:one",
    "my docs/a b.md:5:two",
    "my docs/a b.md:6:three lines of one file past the cap are counted, not shown",
    "grep: gone: No such file or directory",
  ];
  expect(run(s, input.join("\n"))).toEqual({
    text: [
      "src/a.ts:3:import { x } from './x.ts';",
      "src/a.ts:9:export const y = x;",
      "src/a.ts:11:throw new Error('boom');",
      "… 2 more matches in src/a.ts (lines 10, 12)",
      "src/b.ts:1:import 'b';",
      "src/a.ts-10-context line",
      "--",
      "my docs/a b.md:4:one",
      "my docs/a b.md:5:two",
      "… 1 more matches in my docs/a b.md (line 6)",
      "grep: gone: No such file or directory",
    ].join("\n"),
    confidence: "full",
  });
  // Nothing past the cap: unchanged, Fallback.
  expect(run(s, "src/a.ts:1:x\nsrc/a.ts:2:y\nsrc/b.ts:2:y")).toEqual({
    text: "src/a.ts:1:x\nsrc/a.ts:2:y\nsrc/b.ts:2:y",
    confidence: "fallback",
  });
  // A pattern without the named groups is refused at compile time, naming the fix.
  expect(() => run({ type: "group_by_file", line_pattern: "^([^:]+):(.*)$" }, "")).toThrow(
    'strategy.line_pattern: has no named group "file"; add (?P<file>…) around the line\'s file part',
  );
});

Deno.test("strategies that read named groups take either RE2 spelling and refuse a missing group naming the field", () => {
  // [strategy, input, its pattern field, that pattern without one group, the message]
  const cases: [Record<string, unknown>, string, string, string, string][] = [
    [
      { type: "group_by_file", line_pattern: "^(?<file>[^:]+):(?<rest>.*)$" },
      "src/a.ts:1:x\nsrc/a.ts:2:y",
      "line_pattern",
      "^(?<file>[^:]+):(.*)$",
      'strategy.line_pattern: has no named group "rest"; add (?P<rest>…) around the line\'s rest part',
    ],
    [
      { type: "largest", row_pattern: "^(?<size>\\S+)\\t(?P<path>.+)$" },
      "4.0K\ta",
      "row_pattern",
      "^(?<size>\\S+)\\t(.+)$",
      'strategy.row_pattern: has no named group "path"; add (?P<path>…) around the row\'s path',
    ],
    [
      { type: "join_runs", pattern: "^ok: (?<item>\\w+)$", to: "ok: {items}" },
      "ok: a\nok: b",
      "pattern",
      "^ok: (\\w+)$",
      'strategy.pattern: has no named group "item"; add (?P<item>…) around the line\'s item',
    ],
  ];
  for (const [strategy, input, field, without, message] of cases) {
    expect(() => run(strategy, input)).not.toThrow();
    expect(() => run({ ...strategy, [field]: without }, input)).toThrow(message);
  }
});

Deno.test("dedup normalises varying parts and counts repeats", () => {
  const input = [
    "2026-01-01T10:00:00Z GET /a 200 ip=10.0.0.1 pid=12 id=3f2a1b4c-1111-2222-3333-444455556666 3ms",
    "2026-01-01T10:00:01Z GET /a 200 ip=10.0.0.2 pid=13 id=9f2a1b4c-1111-2222-3333-444455556666 5ms",
    "2026-01-01T10:00:02Z GET /a 200 ip=10.0.0.3 pid=14 id=af2a1b4c-1111-2222-3333-444455556666 7ms",
    "2026-01-01T10:00:03Z ERROR db down",
  ].join("\n");
  expect(run({ type: "dedup" }, input)).toEqual({
    text: [
      "2026-01-01T10:00:00Z GET /a 200 ip=10.0.0.1 pid=12 id=3f2a1b4c-1111-2222-3333-444455556666 3ms (x3)",
      "2026-01-01T10:00:03Z ERROR db down",
      "(2 unique lines of 4)",
    ].join("\n"),
    confidence: "full",
  });
  expect(run({ type: "dedup" }, "a\nb\nc")).toEqual({ text: "a\nb\nc", confidence: "fallback" });
  // Too few lines to collapse: Fallback is the input as it was, repeats included.
  expect(run({ type: "dedup" }, "same line\nsame line")).toEqual({
    text: "same line\nsame line",
    confidence: "fallback",
  });
  const line = (c: string) =>
    `${c} ${"this line is long enough to be worth collapsing ".repeat(2)}`;
  expect(
    run({ type: "dedup", max_unique_patterns: 1 }, [1, 1, 1, 2, 3].map(String).map(line).join("\n"))
      .text,
  )
    .toBe(`${line("1")} (x3)\n(1 unique lines of 5; capped at 1, 2 later lines not shown)`);
});

Deno.test("group_by_rule: past a few messages of one shape shown whole, a finding of one lint saying another's message but for its names is its location and names; another message stays as printed", () => {
  const s = { type: "group_by_rule" };
  const warning = (from: string, to: string, at: string) => [
    `warning: writing \`${from}\` instead of \`${to}\` involves a new object`,
    ` --> src/a.rs:${at}`,
    "",
  ];
  const input = [
    ...warning("&Vec", "&[_]", "1:5"),
    "  = note: `#[warn(ptr_arg)]` on by default",
    ...warning("&mut Vec", "&mut [_]", "2:5"),
    "warning: writing `&String` instead of `&str`, a new object",
    " --> src/a.rs:3:5",
    "  = note: `#[warn(ptr_arg)]` on by default",
    "",
    ...warning("&Vec", "&[_]", "4:5"),
    ...warning("&Vec<u8>", "&[u8]", "5:5"),
    ...warning("&mut Vec<u8>", "&mut [u8]", "6:5"),
  ].join("\n");
  expect(run(s, input).text).toBe([
    "ptr_arg (6):",
    "  warning: writing `&Vec` instead of `&[_]` involves a new object",
    "   --> src/a.rs:1:5",
    // The same message at another place: its location line as printed.
    "   --> src/a.rs:4:5",
    "  warning: writing `&mut Vec` instead of `&mut [_]` involves a new object",
    "   --> src/a.rs:2:5",
    "  warning: writing `&Vec<u8>` instead of `&[u8]` involves a new object",
    "   --> src/a.rs:5:5",
    // The fourth message of the shape: its location and names.
    "  … 1 more like this at src/a.rs:6:5 `&mut Vec<u8>` … `&mut [u8]`",
    "  warning: writing `&String` instead of `&str`, a new object",
    "   --> src/a.rs:3:5",
    "(6 diagnostics in 1 groups)",
  ].join("\n"));
});

Deno.test("group_by_rule: grouped_noise_patterns go only when something was grouped", () => {
  const s = { type: "group_by_rule", grouped_noise_patterns: ["^\\s*Finished `"] };
  const input = [
    "    Checking x v0.1.0",
    "warning: unused variable: `a`",
    " --> src/lib.rs:1:5",
    "  = note: `#[warn(unused_variables)]` on by default",
    "",
    "warning: `x` (lib) generated 1 warning",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.20s",
  ].join("\n");
  expect(run(s, input).text).toBe([
    "warning: unused variable: `a`  [unused_variables]",
    " --> src/lib.rs:1:5",
    "warning: `x` (lib) generated 1 warning",
  ].join("\n"));
  const clean =
    "    Checking x v0.1.0\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.20s";
  // A clean run: cargo's noise goes, `Finished` stays.
  expect(run(s, clean)).toEqual({
    text: "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.20s",
    confidence: "partial",
  });
});

Deno.test("anyMatcher: anchored lists are tried at column 0 only, mixed lists everywhere", () => {
  const matcher = (sources: string[]) => anyMatcher(sources.map((s) => compilePattern(s, "v8")));
  const anchored = matcher(["^ab", "^c\\d{1,3}", "^(x|y)z"]);
  const mixed = matcher(["^ab", "c\\d{1,3}"]);
  const top = matcher(["^ab|cd", "^ef"]);
  const lines = ["ab", "xab", "c12", "xc12", "yz", "-yz", "cd", "xcd", "ef", "xef"];
  expect(lines.filter(anchored)).toEqual(["ab", "c12", "yz"]);
  expect(lines.filter(mixed)).toEqual(["ab", "c12", "xc12"]);
  // `^ab|cd` is anchored in its first alternative only.
  expect(lines.filter(top)).toEqual(["ab", "cd", "xcd", "ef"]);
});

/** Patterns and texts where V8 without `u` and RE2 read otherwise (astral, ſ, K, empty). */
function exoticCases(seed: number) {
  const random = prng(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const atoms = [".", "[^a]", "\\S", "a", "k", "s", "x", "(a|.)", "\\b"];
  const quantifiers = ["", "", "?", "*", "+", "{2}"];
  /** One pattern; a list shares `(?i)` or not (one V8 alternation needs one set of flags). */
  const pattern = (caseless: boolean) => {
    let s = caseless ? "(?i)" : "";
    for (let n = 1 + Math.floor(random() * 2); n > 0; n--) s += pick(atoms) + pick(quantifiers);
    return s;
  };
  const pieces = ["😀", "\ud800", "ſ", "K", "k", "s", "a", "x", " "];
  const lines = Array.from(
    { length: 80 },
    () => Array.from({ length: Math.floor(random() * 6) }, () => pick(pieces)).join(""),
  );
  return { random, pattern, lines };
}

Deno.test("dedup normalisers: one V8 alternation gives what each pattern's next match gives; user patterns answer as RE2", () => {
  const { random, pattern, lines } = exoticCases(6);
  const plainLines = ["", "a", "xax", "kiss", "ask sax", "a a", "xx kk ss", "aaaa", "x a k s x"];
  let alternations = 0;
  for (let round = 0; round < 300; round++) {
    const caseless = random() < 0.3;
    const sources = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pattern(caseless));
    const user = combineNormalizers(sources.map((source, i) => ({
      pattern: compilePattern(source),
      replacement: `<${i}>`,
    })));
    // Built-in (V8) patterns must be provably linear: the rounds where all are.
    if (sources.every((source) => v8Form(source))) {
      alternations++;
      const v8 = combineNormalizers(sources.map((source, i) => ({
        pattern: compilePattern(source, "v8"),
        replacement: `<${i}>`,
      })));
      for (const line of plainLines) {
        expect({ sources, line, got: v8(line) }).toEqual({ sources, line, got: user(line) });
      }
    }
    // User patterns give RE2's answer everywhere: the alternation from re2js's own matches.
    const re2 = sources.map((source) => RE2JS.compile(source));
    const oracle = (line: string) => {
      let out = "";
      let last = 0;
      let pos = 0;
      while (pos <= line.length) {
        let best = -1;
        let start = Infinity;
        let end = 0;
        re2.forEach((r, k) => {
          const m = r.matcher(line);
          if (m.find(pos) && m.start() < start) [best, start, end] = [k, m.start(), m.end()];
        });
        if (best < 0) break;
        out += line.slice(last, start) + `<${best}>`;
        last = end;
        const pair = /^[\ud800-\udbff][\udc00-\udfff]/.test(line.slice(end));
        pos = end > start ? end : end + (pair ? 2 : 1);
      }
      return out + line.slice(last);
    };
    for (const line of [...plainLines, ...lines]) {
      expect({ sources, line, got: user(line) }).toEqual({ sources, line, got: oracle(line) });
    }
  }
  expect(alternations).toBeGreaterThan(30);
});

Deno.test("dedup's default normalisers: the V8 alternation answers as re2js on generated lines", () => {
  const random = prng(22);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const run = (chars: string, min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick([...chars]))
      .join("");
  // Near misses of every shape: pieces of the patterns, their separators, runs around their limits.
  const pieces: (() => string)[] = [
    () => pick([..."0123456789abcdefABCDEFgxzT Z_-:.,+[]=é\t"]),
    () => pick(["ms", "\u00b5s", "us", "ns", "s", "m", "port", "pid", "PID", "tid", "0x", "😀"]),
    () => pick(["Jan", "Feb", "Nov", "Dec", "Dez", " ", "  "]),
    () => run("0123456789", 1, 12),
    () => run("0123456789abcdef", 8, 70),
    () => run("0123456789abcdefABCDEF", 3, 18),
    () => run("=: ", 1, 5),
    () => `2026-11-2${run("0123456789", 1, 1)}${pick(["T", " ", "t"])}10:0${run("0123", 1, 1)}:00`,
    () => `${run("0123456789", 1, 2)}:${run("0123456789", 2, 2)}:${run("0123456789", 1, 3)}`,
    () => [8, 4, 4, 4, 12].map((n) => run("0123456789abcdefABCDEF", n - 1, n + 1)).join("-"),
    () => Array.from({ length: 4 }, () => run("0123456789", 1, 4)).join("."),
    // Well-formed ones, with what may follow them.
    () => `${pick(["Nov", "Jan"])} ${pick([" ", "1", "2"])}${run("0123456789", 1, 1)} 10:00:00`,
    () => `10:00:00${pick([".", ",", ""])}${run("0123456789", 0, 10)}`,
    () => [8, 4, 4, 4, 12].map((n) => run("0123456789abcdefABCDEF", n, n)).join("-"),
    () => `10.0.0.${run("0123456789", 1, 3)}${pick(["", ":", ":8080", ":123456"])}`,
    () => `${pick(["port", "pid", "PID", "tid"])}${run("=: ", 1, 4)}${run("0123456789", 0, 11)}`,
    () => `[${run("0123456789", 0, 11)}]`,
    () => `0x${run("0123456789abcdefABCDEF", 3, 17)}`,
    () => `${run("0123456789", 1, 10)}${pick(["", ".1", ".5"])}${pick(["ms", "s", "us", "ns"])}`,
  ];
  const lines = Array.from({ length: 3_000 }, () => {
    let line = "";
    for (let n = 1 + Math.floor(random() * 10); n > 0; n--) {
      line += pick(pieces)() + pick(["", "", " ", " ", "=", ":", "-", ".", "x", "_"]);
    }
    return line;
  });
  // Each normaliser's own replacement, to see that the lines exercise every one.
  const [v8, re2] = (["v8", "re2"] as const).map((engine) =>
    combineNormalizers(DEFAULT_NORMALIZERS.map((n, k) => ({
      pattern: compilePattern(n.pattern, engine),
      replacement: `<${k}>`,
    })))
  );
  const differ = lines.filter((line) => v8(line) !== re2(line))
    .slice(0, 5).map((line) => ({ line, v8: v8(line), re2: re2(line) }));
  expect(differ).toEqual([]);
  const outputs = lines.map(v8);
  const fired = DEFAULT_NORMALIZERS.map((_, k) =>
    outputs.filter((o) => o.includes(`<${k}>`)).length
  );
  expect({ fired, enough: fired.every((n) => n >= 20) }).toEqual({ fired, enough: true });
});

Deno.test("dedup's default normalisers on a line of 8 MiB: answered, not a regex stack overflow", () => {
  const normalize = combineNormalizers(DEFAULT_NORMALIZERS.map((n) => ({
    pattern: compilePattern(n.pattern, "v8"),
    replacement: n.replacement,
  })));
  const line = "x".repeat(8 << 20) + " 10:00:00 12ms";
  expect(normalize(line).slice(-12)).toBe("<TIME> <DUR>");
});

Deno.test("dedup's default normalisers at each one's limits, on V8 and on re2js alike", () => {
  const cases: [string, string][] = [
    ["2026-11-20T10:00:00.030Z INFO x", "<TS> INFO x"],
    ["12026-11-20 10:00:00,5+01:00.", "1<TS>."],
    [
      "2026-11-20T10:00:00+0100 2026-11-20T10:00:00+01:0 2026-11-20T10:00:00-01",
      "<TS> <TS>+01:0 <TS>-01",
    ],
    ["2026-11-20T10:00:00.1234567891 z", "<TS>1 z"],
    ["Nov 20 10:00:00 host", "<TS> host"],
    ["Nov  2 10:00:00 xNov 20 10:00:00", "<TS> xNov 20 <TIME>"],
    [
      "10:00:00 10:00:00.5 10:00:00.1234567890 10:00:00x 10:00:00.5x",
      "<TIME> <TIME> <TIME>.1234567890 10:00:00x <TIME>.5x",
    ],
    [
      "id=145fda99-88c7-9fc3-5526-f7eaed46725a 145FDA99-88C7-9FC3-5526-F7EAED46725Ab",
      "id=<UUID> 145FDA99-88C7-9FC3-5526-F7EAED46725Ab",
    ],
    [
      "10.0.4.125 10.0.4.125:8080 10.0.4.125:123456 1.2.3.4567 1.2.3.4x 1234.1.1.1",
      "<IP> <IP> <IP>:123456 1.2.3.4567 1.2.3.4x 1234.1.1.1",
    ],
    [
      "port=80 port:  8 port    9 xport=1 port=12345678901",
      "port=<N> port=<N> port    9 xport=1 port=<N>1",
    ],
    ["pid=1 PID 2 tid:3 spid=4 pid=", "pid=<N> pid=<N> pid=<N> spid=4 pid="],
    ["[1] [12345678901] [] [x] a[22]b", "[<N>] [12345678901] [] [x] a[<N>]b"],
    [
      "0xdeadbeef 0xABC 0x0123456789abcdef0 0x1234g x0x1234",
      "<HEX> 0xABC 0x0123456789abcdef0 0x1234g x0x1234",
    ],
    [
      "c6626fb655a8d231 zc6626fb655a8d231 c6626fb655a8d23g abcdef012345",
      "<ID> zc6626fb655a8d231 c6626fb655a8d23g <ID>",
    ],
    ["x" + "a".repeat(70) + " " + "b".repeat(11), "x" + "a".repeat(70) + " " + "b".repeat(11)],
    // An id starts at a word boundary or after "_" (cus_…), so a long run of hex letters costs one try, not 64 per position.
    ["cus_328263dfe574de a_" + "f".repeat(12), "cus<ID> a<ID>"],
    [
      "12ms 1.5s 3µs 4us 5ns 6s 7sx 1234567890ms 1.1234567890s 8m",
      "<DUR> <DUR> <DUR> <DUR> <DUR> <DUR> 7sx 1234567890ms 1.1234567890s 8m",
    ],
    ["", ""],
    ["no digits here", "no digits here"],
    ["é10:00:00 →12ms _12ms", "é<TIME> →<DUR> _12ms"],
  ];
  for (const engine of ["v8", "re2"] as const) {
    const normalize = combineNormalizers(DEFAULT_NORMALIZERS.map((n) => ({
      pattern: compilePattern(n.pattern, engine),
      replacement: n.replacement,
    })));
    expect(cases.map(([input]) => [engine, normalize(input)]))
      .toEqual(cases.map(([, out]) => [engine, out]));
  }
});

Deno.test("git_diff cuts a long run of added lines inside a hunk; a hunk cut counts what the run's marker stands for", () => {
  const added = (n: number) => Array.from({ length: n }, (_, i) => `+added ${i}`);
  const diff = [
    "diff --git a/doc.md b/doc.md",
    "@@ -1,3 +1,23 @@",
    " context",
    "-old",
    ...added(20),
    " after",
  ].join("\n");
  const s = { type: "git_diff", max_new_file_lines: 8, hunk_tail_lines: 3 };
  expect(run(s, diff).text).toBe([
    "diff --git a/doc.md b/doc.md",
    "@@ -1,3 +1,23 @@",
    " context",
    "-old",
    ...added(5),
    "... (12 more added lines) ...",
    "+added 17",
    "+added 18",
    "+added 19",
    " after",
    "1 file changed, 20 insertions(+), 1 deletions(-)",
  ].join("\n"));
  // The hunk's own limit cuts the marker too: its count takes in the 12 lines it stood for.
  expect(run({ ...s, max_hunk_lines: 6 }, diff).text).toBe([
    "diff --git a/doc.md b/doc.md",
    "@@ -1,3 +1,23 @@",
    " context",
    "-old",
    "+added 0",
    "... (17 more lines in this hunk: +17 -0) ...",
    "+added 18",
    "+added 19",
    " after",
    "1 file changed, 20 insertions(+), 1 deletions(-)",
  ].join("\n"));
});

Deno.test("test_summary: a failure trace of more failure lines than a call takes arguments is summarised, not given up on", () => {
  const panics: string[] = [];
  for (let i = 0; i < 200_000; i++) panics.push(`thread 'b' panicked at src/lib.rs:${i + 1}:5:`);
  const input = [
    "running 2 tests",
    "test a ... ok",
    "test b ... FAILED",
    "",
    "failures:",
    "",
    "---- b stdout ----",
    ...panics,
    "",
    "failures:",
    "    b",
    "",
    "test result: FAILED. 1 passed; 1 failed; 0 ignored",
  ].join("\n");
  // The trace's kept lines were spread into one call: 200,000 arguments threw a RangeError and
  // the engine showed the input as it came.
  const out = run({ type: "test_summary", truncate_stack_trace: 50 }, input, true);
  expect(out.confidence).toBe("full");
  const lines = out.text.split("\n");
  expect(lines).not.toContain("test a ... ok");
  expect(lines.filter((line) => line.startsWith("thread 'b' panicked at ")).length).toBe(200_000);
});

Deno.test("strip_noise: results_head keeps a long run's first results above its fold line", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^\\s*$"],
    results: ["^row \\d+$"],
    max_results: 4,
    results_head: 2,
    results_fold: "… {n} more rows",
  };
  const rows = (n: number) => Array.from({ length: n }, (_, i) => `row ${i}`);
  expect(run(s, ["head", ...rows(30), "end"].join("\n")).text.split("\n")).toEqual([
    "head",
    "row 0",
    "row 1",
    "… 28 more rows",
    "end",
  ]);
  // A run no longer than max_results stays whole.
  expect(run(s, ["head", ...rows(4), "end"].join("\n")).text.split("\n")).toEqual([
    "head",
    ...rows(4),
    "end",
  ]);
});

Deno.test("strip_noise: results_apart starts a run where a result matches another entry", () => {
  // A unified diff's change: its removed lines, then its added ones (gofmt, black, rustfmt).
  const s = {
    type: "strip_noise",
    patterns: ["^\\x00$"],
    results: ["^-", "^\\+"],
    results_apart: true,
    max_results: 3,
    results_head: 1,
    results_fold: "… {n} more changed lines",
  };
  const input = [
    "@@ -1,4 +1,9 @@",
    "-old one",
    "-old two",
    "-old three",
    "-old four",
    "+new one",
    "+new two",
    "+new three",
    "+new four",
    "+new five",
    " context",
    "-short a",
    "-short b",
    "+short c",
  ].join("\n");
  expect(run(s, input).text.split("\n")).toEqual([
    "@@ -1,4 +1,9 @@",
    "-old one",
    "… 3 more changed lines",
    "+new one",
    "… 4 more changed lines",
    " context",
    "-short a",
    "-short b",
    "+short c",
  ]);
  // Without it the removed and added lines are one run: the first added line goes.
  const together = run({ ...s, results_apart: false }, input).text.split("\n");
  expect(together.slice(0, 3)).toEqual(["@@ -1,4 +1,9 @@", "-old one", "… 8 more changed lines"]);
});

Deno.test("truncate: a bad record_start or keep_pattern_unit is named as the one pattern it is", () => {
  for (const field of ["record_start", "keep_pattern_unit"]) {
    const strategy = { type: "truncate", [field]: "(" };
    expect(() => compileRule({ name: "t", match: { prefix: "x" }, strategy }, "test"))
      .toThrow(new RegExp(`: strategy\\.${field}: `));
  }
});

Deno.test("keep_matching folds a long tagged block's runs of one shape, its failure and closing lines as printed", async () => {
  // A real push whose pre-receive hook reports every file it checked, then refuses it.
  const input = await Deno.readTextFile(
    new URL("../fixtures/filters/git-push/hook_report_long.in.txt", import.meta.url),
  );
  const s = {
    type: "keep_matching",
    patterns: ["->", "^To ", "^(error|fatal|hint|remote: error)"],
  };
  const out = run(s, input, true).text.split("\n");
  expect(out.length).toBeLessThan(input.split("\n").length / 3);
  for (
    const line of [
      "remote: [lint] checking src/pkg/report.py ... FAILED        ",
      "remote: ERROR: src/pkg/report.py:14: line too long (131 > 100 characters)        ",
      "remote: [lint] 49 files checked, 1 failed        ",
      "remote: [tests] 20 passed        ",
      "remote: Push rejected: fix the lint errors above and push again.        ",
      " ! [remote rejected] main -> main (pre-receive hook declined)",
    ]
  ) expect(out).toContain(line);
  expect(out.filter((line) => /^… \d+ lines like these folded …$/.test(line))).toHaveLength(2);
});
