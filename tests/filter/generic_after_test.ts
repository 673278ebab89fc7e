/**
 * The generic folds after a rule (src/filter/engine.ts, genericStage's `after`), on real outputs:
 * `make test` running a Go test that logs the same retry six times, one very long line and then
 * panics (the make rules pass it on; the folds collapse the retries, cut the long line, fold the
 * testing/runtime frames); `go test` through the go-test rule; a rule that opts out with
 * `generic = false`; `git diff`, whose built-in rule opts out so a patch stays as it is.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { explainFilter, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { compileRule, RuleError } from "../../src/filter/rule.ts";
import { FAILURE_SIGNAL } from "../../src/filter/strategies/mod.ts";

const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));
const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const RETRY = /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d\.\d{6} db: dial tcp .* retrying$/;

Deno.test("after the make rules: retries collapse, the long line is cut, library frames fold", () => {
  const input = read("make_go_test_retry_panic.txt");
  const outcome = engine.filter("make test", input, { failed: true });
  expect(outcome.rules).toContain("make");
  const out = outcome.text.split("\n");
  expect(input.split("\n").filter((l) => RETRY.test(l))).toHaveLength(6);
  expect(out.filter((l) => l.includes("connection refused"))).toEqual([
    expect.stringMatching(/retrying \(x6, at different times\)$/),
  ]);
  const payload = out.find((l) => l.includes("last payload:"))!;
  expect(payload).toMatch(/…\[\d+ chars cut\]…/);
  expect(payload.length).toBeLessThan(1000);
  expect(out).toContain("… 2 frames in testing, runtime folded …");
  expect(out).toContain("\t/tmp/post/gor/retry_test.go:24 +0x145");
  // Every failure-looking line but the repeats and the cut one stays as it was.
  for (const line of input.split("\n")) {
    if (!FAILURE_SIGNAL.test(line) || RETRY.test(line) || line.length > 1000) continue;
    if (/^\t\/usr\/lib\/go|^panic\(/.test(line)) continue; // runtime frames, folded
    expect(out).toContain(line);
  }
  // The rules passed the output on; the folds after them changed it.
  expect(outcome.stats.confidence).toBe("partial");
});

Deno.test("after the go-test rule: the goroutine trace's library frames fold, the test's stays", () => {
  const input = read("go_test_panic.txt");
  const before = new FilterEngine([...engine.rules], { security: false, generic: false })
    .filter("go test ./...", input, { failed: true }).text.split("\n");
  const out = engine.filter("go test ./...", input, { failed: true }).text.split("\n");
  expect(before.filter((l) => l.startsWith("\t/usr/lib/go-1.19/src/"))).toHaveLength(5);
  // The innermost frame stays; the rest of the library frames fold.
  expect(out.filter((l) => l.startsWith("\t/usr/lib/go-1.19/src/"))).toHaveLength(1);
  for (const line of ["--- FAIL: TestMap (0.00s)", "\t/tmp/post/gop/gopanic_test.go:3 +0x2e"]) {
    expect(out).toContain(line);
  }
  expect(out.filter((l) => /^… \d frames in testing/.test(l))).toHaveLength(2);
});

Deno.test("a rule with generic = false keeps the folds off; by default they run", () => {
  const input = read("make_go_test_retry_panic.txt");
  const rule = (generic?: boolean) =>
    compileRule({
      name: "my-make",
      match: { prefix: "make" },
      strategy: { type: "strip_noise", patterns: ["^make: Entering directory"] },
      ...(generic === undefined ? {} : { generic }),
    }, "test");
  const run = (generic?: boolean) =>
    new FilterEngine([rule(generic)], { security: false })
      .filter("make test", input, { failed: true }).text;
  expect(run(false)).toBe(input.trimEnd());
  expect(run()).toContain("(x6, at different times)");
  expect(run(true)).toBe(run());
  // Off for the whole engine, off after rules too.
  expect(
    new FilterEngine([rule()], { security: false, generic: false })
      .filter("make test", input, { failed: true }).text,
  ).toBe(input.trimEnd());
});

Deno.test("generic must be a boolean: the error names the rule and the key", () => {
  const bad = () =>
    compileRule({
      name: "bad",
      match: { prefix: "x" },
      strategy: { type: "strip_noise", patterns: ["^a"] },
      generic: "no",
    }, "test");
  expect(bad).toThrow(RuleError);
  expect(bad).toThrow(/Rule "bad": generic: .*boolean/);
});

Deno.test("git diff opts out: repeated added lines of a patch stay as they are", () => {
  const input = read("git_diff_repeats.txt");
  const outcome = engine.filter("git diff", input);
  expect(outcome.rules).toEqual(["git-diff"]);
  expect(outcome.text.split("\n").filter((l) => l === "+return 0;")).toHaveLength(4);
  expect(outcome.text).not.toContain("(x");
});

Deno.test("--explain's trace shows the folds after the rules as their own stage", () => {
  const input = read("make_go_test_retry_panic.txt");
  const trace = engine.trace("make test", input, { failed: true });
  const last = trace.at(-1)!;
  expect(last.name).toBe("generic (after rules)");
  expect(last.output.join("\n")).toBe(engine.filter("make test", input, { failed: true }).text);
  expect(engine.trace("git diff", read("git_diff_repeats.txt")).map((t) => t.name))
    .toEqual(["sanitize", "git-diff"]);
  const explained = explainFilter(engine, "make test", input, { failed: true });
  expect(explained.filter((l) => !l.startsWith("  "))).toContain(
    "generic (after rules): 28 lines in, 17 out, 15 removed, 4 added (confidence partial)",
  );
});

Deno.test("rules whose output is content opt out: patches, query rows, bodies, matches stay", () => {
  const off = new FilterEngine([...engine.rules], { security: false, generic: false });
  const body = `{"items":[${
    Array.from({ length: 80 }, (_, i) => `{"id":${i},"name":"item${i}"}`).join(",")
  }]}`;
  const patch = [
    "diff --git a/x.py b/x.py",
    "--- a/x.py",
    "+++ b/x.py",
    "@@ -1,2 +1,6 @@",
    " a = 1",
    "+x = 0",
    "+x = 0",
    "+x = 0",
    "+x = 0",
    " b = 2",
  ].join("\n");
  const frames = [
    "    at Layer.handle (/app/node_modules/express/lib/router/layer.js:95:5)",
    "    at next (/app/node_modules/express/lib/router/route.js:149:13)",
    "    at Route.dispatch (/app/node_modules/express/lib/router/route.js:119:3)",
    "    at Function.handle (/app/node_modules/express/lib/router/index.js:175:3)",
  ].join("\n");
  const cases: [string, string, string][] = [
    ["jj diff --git", patch, "jj-yadm-hints"],
    ["yadm diff", patch, "jj-yadm-hints"],
    ["sqlite3 app.db 'select * from t'", `1|a\n1|a\n1|a\n2|${body}`, "sqlite3"],
    ["psql -c 'select doc from t'", ` doc\n-----\n ${body}\n(1 row)`, "psql"],
    ["curl -v https://api.example.com/items", `< HTTP/1.1 200 OK\n<\n${body}`, "curl-verbose"],
    ["rg --no-filename 'at ' logs/", frames, "grep-rg"],
    ["grep -h 'x = 0' x.py", "x = 0\nx = 0\nx = 0", "grep-rg"],
  ];
  for (const [command, input, rule] of cases) {
    const outcome = engine.filter(command, input);
    expect(outcome.rules).toContain(rule);
    expect({ command, text: outcome.text }).toEqual({
      command,
      text: off.filter(command, input).text,
    });
  }
});
