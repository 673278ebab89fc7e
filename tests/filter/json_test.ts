/** The json strategy: JSON lines grouped by item, whole documents, and text that is not JSON. */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";

function run(strategy: Record<string, unknown>, input: string, failed = false) {
  const rule = compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test");
  const out = new FilterEngine([rule], { security: false }).filter("cmd", input, { failed });
  return { text: out.text, confidence: out.stats.confidence };
}

const goRecord = (action: string, test?: string, output?: string) =>
  JSON.stringify({
    Time: "2026-11-26T09:01:58Z",
    Action: action,
    Package: "example.com/shop/calc",
    ...(test ? { Test: test } : {}),
    ...(output !== undefined ? { Output: output } : {}),
    ...(action === "pass" || action === "fail" ? { Elapsed: 0.01 } : {}),
  });

Deno.test("json lines: a passing item goes whole, a failing one is shown as its text", () => {
  const input = [
    "# example.com/shop/vet",
    "vet/vet.go:5:34: fmt.Sprintf format %s has arg n of wrong type int",
    goRecord("run", "TestAdd"),
    goRecord("output", "TestAdd", "=== RUN   TestAdd\n"),
    goRecord("output", "TestAdd", "--- PASS: TestAdd (0.00s)\n"),
    goRecord("pass", "TestAdd"),
    goRecord("run", "TestTotal"),
    goRecord("output", "TestTotal", "    calc_test.go:12: Total() = 90, want 81\n"),
    goRecord("output", "TestTotal", "--- FAIL: TestTotal (0.00s)\n"),
    goRecord("fail", "TestTotal"),
    goRecord("output", undefined, "FAIL\texample.com/shop/calc\t0.004s\n"),
    goRecord("fail"),
  ].join("\n");
  expect(run({ type: "json", item_fields: ["Package", "Test"] }, input, true)).toEqual({
    text: [
      "# example.com/shop/vet",
      "vet/vet.go:5:34: fmt.Sprintf format %s has arg n of wrong type int",
      "    calc_test.go:12: Total() = 90, want 81",
      "--- FAIL: TestTotal (0.00s)",
      "FAIL\texample.com/shop/calc\t0.004s",
      "[json] 1 passed, 1 failed: TestTotal",
    ].join("\n"),
    confidence: "full",
  });
});

Deno.test("a JSON document: items that passed go, bookkeeping fields go, locations stay", () => {
  const file = (path: string, messages: unknown[]) => ({
    filePath: path,
    messages,
    suppressedMessages: [],
    errorCount: messages.length,
    fatalErrorCount: 0,
    warningCount: 0,
    fixableErrorCount: 0,
    fixableWarningCount: 0,
    usedDeprecatedRules: [],
    ...(messages.length ? { source: "let x = 1;\n".repeat(20) } : {}),
  });
  const message = {
    ruleId: "no-undef",
    severity: 2,
    message: "'missing' is not defined.",
    line: 6,
    column: 39,
    nodeType: "Identifier",
    messageId: "undef",
    endLine: 6,
    endColumn: 46,
  };
  const input = JSON.stringify([
    file("/p/src/a.js", []),
    file("/p/src/bad.js", [message]),
    file("/p/src/b.js", []),
  ]);
  expect(run({ type: "json" }, input, true)).toEqual({
    text: [
      '{"filePath":"/p/src/bad.js","messages":[{"ruleId":"no-undef","severity":2,"message":"\'missing\' is not defined.","line":6,"column":39}],"errorCount":1}',
      "(2 passing items not shown)",
    ].join("\n"),
    confidence: "full",
  });
  // A listing with nothing nested (gh --json): every element stays.
  const listing = JSON.stringify([{ number: 1, title: "Fix" }, { number: 2, title: "Add" }]);
  expect(run({ type: "json" }, listing).text).toBe(
    '{"number":1,"title":"Fix"}\n{"number":2,"title":"Add"}',
  );
});

Deno.test("output that is not JSON passes unchanged (Fallback)", () => {
  for (const input of ["plain text\nmore", "[INFO] building\n[INFO] done", "{ not json"]) {
    expect(run({ type: "json" }, input)).toEqual({ text: input, confidence: "fallback" });
  }
});

Deno.test("json findings: one line per finding through nested lists, passing ones counted", () => {
  const findings = {
    at: "files.offenses",
    format: "{path}:{location.start_line}:{location.trace.0} {cop} {message}",
    summary: "lint: {#} findings in {summary.files} files",
    keep: ["messages"],
  };
  const doc = {
    messages: ["config warning: old key"],
    files: [
      {
        path: "a.rb",
        offenses: [{
          cop: "X/Y",
          message: "bad\nthing",
          location: { start_line: 3, trace: ["t1", "t2"] },
        }],
      },
      { path: "b.rb", offenses: [] },
      {
        path: "c.rb",
        offenses: [{ cop: "Z", status: "passed", message: "fine" }, { cop: "Q", message: "q" }],
      },
    ],
    summary: { files: 3 },
  };
  expect(run({ type: "json", findings }, JSON.stringify(doc))).toEqual({
    text:
      "config warning: old key\na.rb:3:t1 X/Y bad\n  thing\nc.rb:: Q q\nlint: 2 findings in 3 files",
    confidence: "full",
  });
  // Beyond max_items the findings are counted; without a summary the passing ones are.
  const many = {
    files: [{
      path: "a",
      offenses: [1, 2, 3].map((n) => ({ m: `m${n}` })).concat([
        { m: "ok", status: "passed" } as never,
      ]),
    }],
  };
  expect(
    run(
      { type: "json", max_items: 2, findings: { at: "files.offenses", format: "{path} {m}" } },
      JSON.stringify(many),
    ).text,
  )
    .toBe("a m1\na m2\n(1 more findings not shown)\n(1 passing items not shown)");
  // A document without the list is shown as the strategy shows any document.
  expect(
    run(
      { type: "json", findings: { at: "Issues", format: "{Text}" } },
      '{"Report": {"Linters": 3}}',
    ).text,
  )
    .toBe('"Report": {"Linters":3}');
});

Deno.test("json findings: two or more findings of one group key are shown under it", () => {
  const doc = {
    Issues: [
      { Pos: { Filename: "a.go", Line: 3 }, Text: "one" },
      { Pos: { Filename: "b.go", Line: 7 }, Text: "alone" },
      { Pos: { Filename: "a.go", Line: 9 }, Text: "two" },
    ],
  };
  const findings = {
    at: "Issues",
    group: "{Pos.Filename}",
    format: "{Pos.Filename}:{Pos.Line} {Text}",
    summary: "{#} issues",
  };
  expect(run({ type: "json", findings }, JSON.stringify(doc)).text)
    .toBe("a.go\n  :3 one\n  :9 two\nb.go:7 alone\n3 issues");
  // A key the line does not start with, or an empty one, leaves the lines whole.
  const other = { ...findings, format: "{Text} at {Pos.Filename}" };
  expect(run({ type: "json", findings: other }, JSON.stringify(doc)).text)
    .toBe("one at a.go\nalone at b.go\ntwo at a.go\n3 issues");
});

Deno.test("json findings: {a.b+1} shows a 0-based number as editors count, zero included", () => {
  const doc = {
    generalDiagnostics: [
      { file: "a.py", range: { start: { line: 0, character: 4 } }, message: "first line" },
      { file: "a.py", range: { start: { line: 12, character: 0 } }, message: "col zero" },
      { file: "b.py", message: "no range" },
    ],
  };
  const findings = {
    at: "generalDiagnostics",
    format: "{file}:{range.start.line+1}:{range.start.character+1} {message}",
  };
  expect(run({ type: "json", findings }, JSON.stringify(doc)).text)
    .toBe("a.py:1:5 first line\na.py:13:1 col zero\nb.py:: no range");
});
