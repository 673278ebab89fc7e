/**
 * Code frames, runtime stack frames and timings that the build/test rules drop (issue 22): the
 * strip_noise `frame_marks` mechanism, then each rule on the class of output it reads — what goes
 * and, above all, the failure lines that must stay.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";

function run(strategy: Record<string, unknown>, input: string) {
  const rule = compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test");
  const engine = new FilterEngine([rule], { security: false });
  return engine.filter("cmd", input, { failed: true }).text;
}

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, input: string, failed = true) =>
  engine.filter(command, input, { failed }).text;

Deno.test("frame_marks: a mark line goes with the source line above it", () => {
  const s = { type: "strip_noise", patterns: ["^noise$"], frame_marks: ["^\\s*\\^+$"] };
  expect(run(s, "error: boom\n  let x = y;\n          ^\n  at a.ts:1:11")).toBe(
    "error: boom\n  at a.ts:1:11",
  );
  // Only the line right above: a line dropped as noise in between ends the frame.
  expect(run(s, "  let x = y;\nnoise\n   ^\nend")).toBe("  let x = y;\nend");
  // A line naming a location is the diagnostic, not a copy of the source: it stays.
  expect(run(s, "a.ts:3:5: unexpected token\n    ^\nend")).toBe(
    "a.ts:3:5: unexpected token\nend",
  );
  // A mark on the first line, and a source line that ends the output.
  expect(run(s, "  ^\nlast line")).toBe("last line");
  expect(run(s, "first\nlast")).toBe("first\nlast");
  expect(() =>
    compileRule(
      { name: "t", match: { prefix: "cmd" }, strategy: { ...s, frame_marks: ["("] } },
      "test",
    )
  )
    .toThrow(/strategy\.frame_marks/);
});

Deno.test("frame_marks_kept: the first frames stay whole, marks included; later ones go", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    frame_marks: ["^\\s*\\^+$"],
    frame_marks_kept: 2,
  };
  const input = [1, 2, 3].map((n) => `a.c:${n}: error: e${n}\n  call(${n});\n       ^`)
    .join("\nnoise\n");
  expect(run(s, input)).toBe(
    "a.c:1: error: e1\n  call(1);\n       ^\na.c:2: error: e2\n  call(2);\n       ^\na.c:3: error: e3",
  );
  // A mark under the diagnostic itself (no source line above it) is a frame kept as well.
  expect(run({ ...s, frame_marks_kept: 1 }, "a.ts:3:5: bad\n    ^\nb.ts:1:1: bad\n^")).toBe(
    "a.ts:3:5: bad\n    ^\nb.ts:1:1: bad",
  );
  // Without frame_marks it would do nothing: the rule is refused.
  expect(() =>
    compileRule(
      {
        name: "t",
        match: { prefix: "cmd" },
        strategy: { type: "strip_noise", patterns: ["^x$"], frame_marks_kept: 3 },
      },
      "test",
    )
  ).toThrow(/frame_marks_kept/);
});

Deno.test("javac and gradle: the first three errors keep the source line and caret, every error its location and details", async () => {
  // Real captures (javac 17 over two files; Debian's gradle 4.4 building two classes).
  const dir = new URL("../fixtures/filters/", import.meta.url);
  const cases = [
    ["javac -d out src/shop/*.java", "javac/shop_five_errors.in.txt"],
    ["gradle --offline --no-daemon build", "gradle/compile_four_errors.in.txt"],
  ];
  for (const [command, file] of cases) {
    const input = (await Deno.readTextFile(new URL(file, dir))).trimEnd().split("\n");
    const out = filter(command, input.join("\n")).split("\n");
    const errors = input.flatMap((l, i) => / error: /.test(l) ? [i] : []);
    expect(errors.length).toBeGreaterThan(3);
    for (const [n, at] of errors.entries()) {
      // The error line stays (gradle's task prefix on the first, too), with what follows it.
      expect(out).toContain(input[at]);
      const frame = input.slice(at + 1, at + 3);
      expect(frame[1].trim()).toBe("^");
      const kept = out.indexOf(input[at]);
      if (n < 3) expect(out.slice(kept + 1, kept + 3)).toEqual(frame);
      else expect(out).not.toContain(frame[0]);
    }
    for (const detail of input.filter((l) => /^ {2}(symbol|location|required|found):/.test(l))) {
      expect(out).toContain(detail);
    }
  }
});

Deno.test("once: a line matching once shows the first time only; other lines and new texts stay", () => {
  const s = { type: "strip_noise", patterns: ["^noise$"], once: ["^\\s+at \\S"] };
  const input = [
    "first => a_test.ts:5:6",
    "error: boom",
    "    at check (file:///p/helpers.ts:3:11)",
    "    at file:///p/a_test.ts:5:35",
    "noise",
    "second => a_test.ts:9:6",
    "error: boom",
    "    at check (file:///p/helpers.ts:3:11)",
    "    at file:///p/a_test.ts:9:35",
  ].join("\n");
  expect(run(s, input)).toBe([
    "first => a_test.ts:5:6",
    "error: boom",
    "    at check (file:///p/helpers.ts:3:11)",
    "    at file:///p/a_test.ts:5:35",
    "second => a_test.ts:9:6",
    // A repeated line that `once` does not name stays.
    "error: boom",
    "    at file:///p/a_test.ts:9:35",
  ].join("\n"));
  // Nothing repeats: nothing goes, the strategy falls back.
  expect(run(s, "a\n  at x.ts:1:1\n  at y.ts:2:2")).toBe("a\n  at x.ts:1:1\n  at y.ts:2:2");
  expect(() =>
    compileRule(
      { name: "t", match: { prefix: "cmd" }, strategy: { ...s, once: ["("] } },
      "test",
    )
  ).toThrow(/strategy\.once/);
});

Deno.test("once: a later line of the same text goes however it is indented", () => {
  // rustc indents its `= help:` lines by the width of the line number above them.
  const s = { type: "strip_noise", patterns: ["^noise$"], once: ["^\\s*= help: see "] };
  const input = [
    "error: a",
    " --> a.rs:6:5",
    "  = help: see https://x/#lint",
    "error: b",
    "  --> a.rs:14:5",
    "   = help: see https://x/#lint",
    "   = help: see https://x/#other",
  ].join("\n");
  expect(run(s, input)).toBe([
    "error: a",
    " --> a.rs:6:5",
    "  = help: see https://x/#lint",
    "error: b",
    "  --> a.rs:14:5",
    "   = help: see https://x/#other",
  ].join("\n"));
});

Deno.test("once_in: a line goes once per scope, a scope named again keeping its texts", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    once_in: [{ line: "^\\d+ \\| ", scope: "^ --> (?P<name>\\S+):\\d+$|^Running " }],
  };
  const input = [
    "9 | }",
    "9 | }",
    " --> a.rs:9",
    "9 | }",
    " --> b.rs:9",
    "9 | }",
    " --> a.rs:9",
    "9 | }",
    "Running app",
    "9 | }",
    "9 | }",
  ].join("\n");
  // Before any scope and after one with no name every line stays; a.rs's line is shown once
  // though b.rs came between, and b.rs's own copy stays.
  expect(run(s, input)).toBe([
    "9 | }",
    "9 | }",
    " --> a.rs:9",
    "9 | }",
    " --> b.rs:9",
    "9 | }",
    " --> a.rs:9",
    "Running app",
    "9 | }",
    "9 | }",
  ].join("\n"));
});

Deno.test("said_by_next: a line goes when the next one names the same thing, else it stays", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    said_by_next: [{
      line: "^Auto-merging (?P<name>.+)$",
      next: "^CONFLICT \\([\\w/-]+\\): Merge conflict in (?P<name>.+)$",
    }],
  };
  const input = [
    "Auto-merging a.py",
    "CONFLICT (content): Merge conflict in a.py",
    // Merged cleanly: nothing after it names it.
    "Auto-merging b.py",
    "Auto-merging c.py",
    // Another file's conflict does not say this one.
    "CONFLICT (content): Merge conflict in d.py",
    "noise",
    // The last line, with nothing after it.
    "Auto-merging e.py",
  ].join("\n");
  expect(run(s, input)).toBe([
    "CONFLICT (content): Merge conflict in a.py",
    "Auto-merging b.py",
    "Auto-merging c.py",
    "CONFLICT (content): Merge conflict in d.py",
    "Auto-merging e.py",
  ].join("\n"));
  expect(() =>
    compileRule(
      {
        name: "t",
        match: { prefix: "cmd" },
        strategy: { ...s, said_by_next: [{ line: "(", next: "x" }] },
      },
      "test",
    )
  ).toThrow(/strategy\.said_by_next\.0\.line/);
});

Deno.test("said_by_next with headline and under: the line goes only under a headline under names, up to the next headline", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    said_by_next: [{
      line: "^quote (?P<name>\\w+)$",
      next: "^mark (?P<name>\\w+)$",
      headline: "^(warning|error): ",
      under: "^warning: link ",
    }],
  };
  const input = [
    // Before any headline: no diagnostic the line goes under.
    "quote a",
    "mark a",
    "warning: link broken",
    "quote b",
    "mark b",
    "error: cannot parse",
    "quote c",
    "mark c",
    "warning: link missing",
    "quote d",
    "mark d",
  ].join("\n");
  expect(run(s, input)).toBe([
    "quote a",
    "mark a",
    "warning: link broken",
    "mark b",
    "error: cannot parse",
    "quote c",
    "mark c",
    "warning: link missing",
    "mark d",
  ].join("\n"));
  // One without the other is refused: `under` needs the headlines it is one of.
  expect(() =>
    compileRule(
      {
        name: "t",
        match: { prefix: "cmd" },
        strategy: { ...s, said_by_next: [{ line: "x", next: "y", under: "^warning: " }] },
      },
      "test",
    )
  ).toThrow(/strategy\.said_by_next\.0\.headline/);
});

Deno.test("said_before: a line goes when an earlier line of its block gave the same name", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    said_before: [{
      line: "^\\s*\\d+ - (?P<name>.+)$",
      before: "^\\s*\\d+ \\| (?P<name>.+)$",
    }],
  };
  const input = [
    "error: unneeded `return` statement",
    "6 |     return n;",
    "help: remove `return`",
    "6 -     return n;",
    "6 +     n",
    "",
    // A new block: what the last one said does not count.
    "error: unneeded `return` statement",
    "9 |     return m;",
    "help: remove `return`",
    "9 -     return n;",
    "9 -     return m;",
    "9 +     m",
  ].join("\n");
  expect(run(s, input)).toBe([
    "error: unneeded `return` statement",
    "6 |     return n;",
    "help: remove `return`",
    "6 +     n",
    "",
    "error: unneeded `return` statement",
    "9 |     return m;",
    "help: remove `return`",
    "9 -     return n;",
    "9 +     m",
  ].join("\n"));
});

Deno.test("said_before with keep_said: only the line an earlier line of its block named stays", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^$"],
    said_before: [{
      line: "^(?P<name>\\d+)\\t",
      before: "^\\s*Location: \\S+:(?P<name>\\d+)$",
      keep_said: true,
    }],
  };
  const input = [
    ">> Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call with shell=True",
    "   Location: app/db.py:12",
    "11\tdef backup(path):",
    "12\t    subprocess.call(cmd, shell=True)",
    "13\t",
    "",
    // A new block: line 12 of the last one is not named in this one.
    ">> Issue: [B307:blacklist] Use of possibly insecure function",
    "   Location: app/web.py:17",
    "12\t    x = 1",
    "17\t    return eval(code)",
  ].join("\n");
  expect(run(s, input)).toBe([
    ">> Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call with shell=True",
    "   Location: app/db.py:12",
    "12\t    subprocess.call(cmd, shell=True)",
    ">> Issue: [B307:blacklist] Use of possibly insecure function",
    "   Location: app/web.py:17",
    "17\t    return eval(code)",
  ].join("\n"));
});

Deno.test("code_frames: each label stays, quoting the code its mark spans; the copied source goes", () => {
  const s = { type: "code_frames" };
  const input = [
    "error[E0308]: mismatched types",
    "  --> tests/broken.rs:12:18",
    "   |",
    '12 |     let n: i32 = "four";',
    "   |            ---   ^^^^^^ expected `i32`, found `&str`",
    "   |            |",
    "   |            expected due to this",
    "",
    "error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable",
    "3 |     let first = &v[0];",
    "  |                  - immutable borrow occurs here",
    "4 |     v.push(4);",
    "  |     ^^^^^^^^^ mutable borrow occurs here",
  ].join("\n");
  expect(run(s, input)).toBe([
    "error[E0308]: mismatched types",
    "  --> tests/broken.rs:12:18",
    "   |",
    // The type information is only in the labels: both stay.
    "   | `i32`: expected due to this",
    '   | `"four"`: expected `i32`, found `&str`',
    "",
    "error[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable",
    "  | `v`: immutable borrow occurs here",
    "  | `v.push(4)`: mutable borrow occurs here",
  ].join("\n"));
});

Deno.test("code_frames: marks without a label go with their line; frames it cannot read stay", () => {
  const s = { type: "code_frames", max_span: 10 };
  // No label: the location names line and column, the source line and the marks go.
  expect(run(s, "note: defined here\n20 | fn takes_str(s: &str) {\n   |    ^^^^^^^^^ ----\nend"))
    .toBe("note: defined here\nend");
  // A long span is cut in the middle.
  expect(
    run(
      s,
      "1 | let s: u8 = v.iter().sum::<i64>();\n  |             ^^^^^^^^^^^^^^^^^^^^^ found `i64`",
    ),
  )
    .toBe("  | `v.it…64>()`: found `i64`");
  const unreadable = [
    // A multi-line span.
    "29 |   fn f() -> u32 {\n   |             --- this return type\n30 | /     if flag {\n31 | |         1\n32 | |     }\n   | |_____^ expected `u32`, found `()`",
    // A suggestion.
    "help: consider borrowing here\n16 |         &s,\n   |         +",
    // A suggestion that replaces text (older rustc marks it with `~`).
    "help: consider borrowing here\n16 |         &s,\n   |         ~~",
    // A label under no mark.
    "5 | let x = 1;\n  |     ^ here\n  |           stray",
  ];
  for (const input of unreadable.slice(1)) expect(run(s, input)).toBe(input);
  // Of the multi-line one, the frame before the drawing is read, the drawing passes as it is.
  expect(run(s, unreadable[0])).toBe(
    "   | `u32`: this return type\n" + unreadable[0].split("\n").slice(2).join("\n"),
  );
});

Deno.test("deno test: the code frame and Deno's runtime frames go, the message and user frames stay", () => {
  const input = [
    "running 1 test from ./parse_test.ts",
    "nested ... FAILED (9ms)",
    "",
    " ERRORS ",
    "",
    "nested ... inner fails => ./parse_test.ts:18:11",
    "error: RangeError: step went wrong",
    '  await t.step("inner fails", () => { throw new RangeError("step went wrong"); });',
    "                                            ^",
    "    at file:///tmp/p/parse_test.ts:18:45",
    "    at innerWrapped (ext:cli/40_test.js:300:11)",
    "    at Object.outerWrapped [as fn] (ext:cli/40_test.js:239:28)",
    "    at file:///tmp/p/parse_test.ts:18:11",
    "",
    "FAILED | 0 passed | 1 failed (19ms)",
  ].join("\n");
  const out = filter("deno test parse_test.ts", input);
  for (
    const kept of [
      "nested ... inner fails => ./parse_test.ts:18:11",
      "error: RangeError: step went wrong",
      "    at file:///tmp/p/parse_test.ts:18:45",
      "    at file:///tmp/p/parse_test.ts:18:11",
      "FAILED | 0 passed | 1 failed",
    ]
  ) expect(out).toContain(kept);
  // The counts stay as printed, their run time with them.
  expect(out).toContain("FAILED | 0 passed | 1 failed (19ms)");
  // The quoted source line throws: it says what failed and stays; the caret under it goes.
  expect(out).toContain(
    '  await t.step("inner fails", () => { throw new RangeError("step went wrong"); });',
  );
  expect(out).not.toContain("                                            ^");
  expect(out).not.toContain("ext:cli");
});

Deno.test("jest/vitest: the code frame goes but jest's marked line; the assertion, expected/received and counts stay as printed", () => {
  const input = [
    "FAIL src/a.test.ts",
    "  ● total › adds tax",
    "",
    "    expect(received).toBe(expected) // Object.is equality",
    "",
    '    Expected: "10.35"',
    '    Received: "10.34"',
    "",
    "      12 |   it('adds tax', () => {",
    "    > 13 |     expect(total(10.345)).toBe('10.35');",
    "         |                           ^",
    "",
    "      at Object.toBe (src/a.test.ts:13:27)",
    "",
    "Tests:       1 failed, 3 passed, 4 total",
  ].join("\n");
  const out = filter("npx jest", input);
  for (
    const kept of [
      "total › adds tax",
      'Expected: "10.35"',
      'Received: "10.34"',
      "src/a.test.ts:13:27",
      "Tests:       1 failed, 3 passed, 4 total",
    ]
  ) expect(out).toContain(kept);
  // The line jest marks stays as pytest's `>` statement does; the context and the caret go.
  expect(out).toContain("    > 13 |     expect(total(10.345)).toBe('10.35');");
  expect(out).not.toContain("12 |");
  expect(out).not.toMatch(/^\s+\|\s+\^$/m);
  const vitest = filter(
    "npx vitest run",
    [
      " FAIL  src/sum.test.ts > sum > adds",
      "AssertionError: expected -2 to be 2 // Object.is equality",
      " ❯ src/sum.test.ts:5:56",
      '      5|   it("adds", () => expect(sum(-1, -1)).toBe(2));',
      "       |                                        ^",
      "      Tests  1 failed | 27 passed (28)",
    ].join("\n"),
  );
  expect(vitest).toBe(
    [
      " FAIL  src/sum.test.ts > sum > adds",
      "AssertionError: expected -2 to be 2 // Object.is equality",
      " ❯ src/sum.test.ts:5:56",
      "      Tests  1 failed | 27 passed (28)",
    ].join("\n"),
  );
});

Deno.test("go test: package result lines stay as printed, durations and coverage with them", () => {
  const input = [
    "--- FAIL: TestClampHigh (0.00s)",
    "    a_test.go:14: Clamp(50, 0, 10) = 0, want 10",
    "FAIL\texample.com/tidy/a\t0.003s",
    "ok  \texample.com/tidy/b\t0.002s\tcoverage: 100.0% of statements",
    "ok  \texample.com/tidy/c\t(cached)",
  ].join("\n");
  expect(filter("go test ./...", input)).toBe([
    "--- FAIL: TestClampHigh (0.00s)",
    "    a_test.go:14: Clamp(50, 0, 10) = 0, want 10",
    "FAIL\texample.com/tidy/a\t0.003s",
    "ok  \texample.com/tidy/b\t0.002s\tcoverage: 100.0% of statements",
    "ok  \texample.com/tidy/c\t(cached)",
  ].join("\n"));
});

Deno.test("cargo: a type error's source line and labels survive the whole chain as printed; the cargo fix pointer goes", () => {
  const input = [
    "   Compiling calc v0.1.0 (/tmp/calc)",
    "error[E0308]: mismatched types",
    " --> src/lib.rs:9:22",
    "  |",
    "9 |     let total: u64 = n;",
    "  |                ---   ^ expected `u64`, found `u32`",
    "  |                |",
    "  |                expected due to this",
    "",
    "warning: `calc` (lib) generated 1 warning (run `cargo fix --lib -p calc` to apply 1 suggestion)",
    "error: could not compile `calc` (lib) due to 1 previous error; 1 warning emitted",
  ].join("\n");
  for (const command of ["cargo build", "cargo test"]) {
    expect(filter(command, input)).toBe([
      "error[E0308]: mismatched types",
      " --> src/lib.rs:9:22",
      "9 |     let total: u64 = n;",
      "  |                ---   ^ expected `u64`, found `u32`",
      "  |                expected due to this",
      "",
      "warning: `calc` (lib) generated 1 warning (run `cargo fix --lib -p calc` to apply 1 suggestion)",
      // The crate that could not compile: its Compiling line comes back right before that line.
      "   Compiling calc v0.1.0 (/tmp/calc)",
      "error: could not compile `calc` (lib) due to 1 previous error; 1 warning emitted",
    ].join("\n"));
  }
});

Deno.test("turbo: npm's echo of the failed script goes, its verdict stays", () => {
  const input = [
    "web:build: src/index.ts(3,7): error TS2322: Type string is not assignable to type number.",
    "web:build: npm error Lifecycle script `build` failed with error:",
    "web:build: npm error code 2",
    "web:build: npm error command failed",
    "web:build: npm error command sh -c tsc -p .",
    "web#build:  ERROR  command (/w/packages/web) /usr/bin/npm run build exited (2)",
  ].join("\n");
  expect(filter("turbo run build", input)).toBe([
    "web:build: src/index.ts(3,7): error TS2322: Type string is not assignable to type number.",
    "web:build: npm error Lifecycle script `build` failed with error:",
    "web#build:  ERROR  command (/w/packages/web) /usr/bin/npm run build exited (2)",
  ].join("\n"));
});

Deno.test("pytest: the traceback's source context goes; its statement, E lines and counts stay as printed", () => {
  const input = [
    "=================================== FAILURES ===================================",
    "_______________________________ test_coupon _______________________________",
    "",
    "    def test_coupon():",
    '        got = checkout([{"price": 10, "qty": 1}], {"off": 3})',
    '>       assert got == 6, f"coupon applied wrong: {got}"',
    "E       AssertionError: coupon applied wrong: 7",
    "E       assert 7 == 6",
    "E         ",
    "E         At index 2 diff: 3 != 4",
    "",
    "tests/test_shop.py:17: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_shop.py::test_coupon - AssertionError: coupon applied wrong: 7",
    "========================= 1 failed, 1 passed in 2.12s ==========================",
  ].join("\n");
  const out = filter("python3 -m pytest tests", input);
  for (
    const kept of [
      "test_coupon",
      "\nE       AssertionError: coupon applied wrong: 7\n",
      "\nE       assert 7 == 6\n",
      "\nE         At index 2 diff: 3 != 4\n",
      "tests/test_shop.py:17: AssertionError",
      "\n========================= 1 failed, 1 passed in 2.12s ==========================",
    ]
  ) expect(out).toContain(kept);
  // The statement that raised stays: the E lines show only what it evaluated to.
  expect(out.split("\n")).toContain('>       assert got == 6, f"coupon applied wrong: {got}"');
  expect(out).not.toContain("def test_coupon():");
  expect(out).not.toContain("got = checkout(");
  expect(out.split("\n")).not.toContain("E         ");
  expect(filter("pytest -q", "43 passed, 1 deselected in 3.39s", false)).toBe(
    "43 passed, 1 deselected in 3.39s",
  );
  expect(filter("pytest", "==== 2 failed, 9 passed in 83.21s (0:01:23) ====", true)).toBe(
    "==== 2 failed, 9 passed in 83.21s (0:01:23) ====",
  );
});

Deno.test("once and once_in together: once holds everywhere, once_in per scope, one line never both", () => {
  const s = {
    type: "strip_noise",
    patterns: ["^noise$"],
    once: ["^  = help: "],
    once_in: [{ line: "^\\d+ \\| |^  = help: ", scope: "^ --> (?P<name>\\S+):\\d+$|^Running " }],
  };
  const input = [
    "  = help: a",
    "9 | }",
    " --> a.rs:9",
    "9 | }",
    "  = help: a",
    "  = help: b",
    "9 | }",
    " --> b.rs:9",
    "9 | }",
    "  = help: b",
    "  = help: c",
    "Running app",
    "9 | }",
    "  = help: c",
    "  = help: d",
    "  = help: d",
  ].join("\n");
  // `once` drops a help said before wherever (before any scope, across files, after Running);
  // `once_in` drops a source line said before in its file only; a help first shown in b.rs is
  // noted there as well as everywhere.
  expect(run(s, input)).toBe([
    "  = help: a",
    "9 | }",
    " --> a.rs:9",
    "9 | }",
    "  = help: b",
    " --> b.rs:9",
    "9 | }",
    "  = help: c",
    "Running app",
    "9 | }",
    "  = help: d",
  ].join("\n"));
});
