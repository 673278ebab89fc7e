/**
 * A failure keeps the line that names what failed, and a word only a name carries is no failure:
 * every cut keeps the subject line above a failure (promtool's `Checking rules/a.yml` over its
 * indented `  FAILED:`, yamllint's file line over its indented errors), a failure word inside a
 * path (`rules/api-errors.yml`) keeps nothing, and diagnostics whose word says their severity
 * (`… is a CNAME (illegal)`) never fold as status chatter. Real captures of small projects.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { FAILURE_SIGNAL } from "../../src/filter/signals.ts";
import { CutGap } from "../../src/filter/strategies/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));

Deno.test("a cut keeps the subject line above a failure, under a rule's cut and the generic pass's", () => {
  const cases: { command: string; file: string; subject: string; failure: string }[] = [
    {
      // make-truncate: a step line over an indented `FAILED:`.
      command: "make check",
      file: "cut_subject_make_promtool.txt",
      subject: "Checking rules/ledger-latency.yml",
      failure: "  FAILED:",
    },
    {
      // make-truncate: a file line over its indented findings, a warning between them.
      command: "make lint",
      file: "cut_subject_make_yamllint.txt",
      subject: "deploy/web.yaml",
      failure: "  4:12      error    trailing spaces  (trailing-spaces)",
    },
    {
      // The generic pass's cut of a long output no rule matches.
      command: "promtool check rules big/svc001-up.yml big/svc002-up.yml",
      file: "cut_subject_promtool.txt",
      subject: "Checking big/svc077-latency.yml",
      failure: "  FAILED:",
    },
  ];
  for (const { command, file, subject, failure } of cases) {
    const input = read(file);
    const out = engine.filter(command, input, { failed: true }).text.split("\n");
    expect({ file, cut: out.length < input.split("\n").length }).toEqual({ file, cut: true });
    const at = out.indexOf(failure);
    expect({ file, above: out.slice(at - 2, at).filter((l) => !l.startsWith("..."))[0] })
      .toEqual({ file, above: subject });
  }
});

Deno.test("the subject of a failure is kept once, and a step line that fails brings no other", () => {
  const out = engine.filter("make check", read("cut_subject_make_promtool.txt"), { failed: true })
    .text.split("\n");
  expect(out.filter((l) => l === "Checking rules/ledger-latency.yml")).toHaveLength(1);
  // The steps around the failing one stay in the cut: none of them names a failure.
  expect(out).not.toContain("Checking rules/ledger-disk.yml");
  expect(out).not.toContain("Checking rules/ledger-up.yml");
});

Deno.test("a failure word inside a path is no failure; beside one it still is", () => {
  const cases: [string, boolean][] = [
    ["Checking rules/api-errors.yml", false],
    ["Checking api-errors.yml", false],
    ["ok  \texample.com/shop/errors\t0.012s", false],
    ["PASS src/failures.test.ts", false],
    ["rules/api-errors.yml: 6:15: could not parse expression", true],
    ["FAIL src/errors.test.ts", true],
    ["java.lang.AssertionError: expected 3", true],
    ["    assert.equal(total, 7)", true],
    ["Segmentation fault.", true],
    ["  at Object.<anonymous> (src/errors.js:3:9)", false],
  ];
  for (const [line, failure] of cases) {
    expect({ line, failure: FAILURE_SIGNAL.test(line) }).toEqual({ line, failure });
  }
});

Deno.test("diagnostics whose word says their severity stay whole on a run that passed", () => {
  const input = read("severity_words_named_checkconf.txt");
  const out = engine.filter("named-checkconf -z named.conf", input, { failed: false }).text;
  expect(out).toBe(input.trimEnd());
});

Deno.test("CutGap: a failure's subject comes back only from the lines dropped since the last kept line, each counted as the lines it stands for", () => {
  const out: string[] = [];
  const gap = new CutGap((n) => `(${n} cut)`);
  // One dropped line, an earlier fold's note standing for 30: a subject two lines up is above the
  // last kept line, already shown, so it does not come back, and the marker counts 30.
  gap.add("    … 30 lines like these folded …");
  gap.flush(out, { line: "  error: bad expression", back: 2 });
  expect(out).toEqual(["(30 cut)"]);
  // A subject among the dropped lines comes back between the markers of what is above and under it.
  out.length = 0;
  gap.add("rules loaded");
  gap.add("Checking rules/b.yml");
  gap.add("    … 12 lines like these folded …");
  gap.flush(out, { line: "Checking rules/b.yml", back: 2 });
  expect(out).toEqual(["(1 cut)", "Checking rules/b.yml", "(12 cut)"]);
  // Flushed, the gap is empty.
  out.length = 0;
  gap.flush(out);
  expect(out).toEqual([]);
});

Deno.test("truncate brings a failure's subject back as CutGap does: each note counts the lines above or under it", () => {
  const rule = (keep_patterns: string[] = []) =>
    new FilterEngine([
      compileRule({
        name: "cut",
        match: { prefix: "check" },
        strategy: { type: "truncate", max_lines: 6, head: 2, tail: 2, keep_patterns },
      }, "test"),
    ], { generic: false, guard: false, security: false });
  const input = [
    "start 1",
    "start 2",
    "step a: loading the rule files from the rules directory",
    "step b: loading the recording rules from the same directory",
    "Checking rules/c.yml",
    "    … 12 lines like these folded …",
    "  FAILED: bad expression",
    "filler 1: the checker goes on with the next rule file in order",
    "filler 2: the checker goes on with the next rule file in order",
    "end 1",
    "end 2",
  ];
  // The subject between the notes of the lines above it and under it, the fold counted as its 12.
  expect(rule().filter("check", input.join("\n"), { failed: true }).text.split("\n")).toEqual([
    "start 1",
    "start 2",
    "... (2 lines omitted) ...",
    "Checking rules/c.yml",
    "... (12 lines omitted) ...",
    "  FAILED: bad expression",
    "... (2 lines omitted) ...",
    "end 1",
    "end 2",
  ]);
  // A row kept by keep_patterns between them: the subject above it stays cut, and the lines
  // dropped around the row are told once, before the failure.
  const listed = [...input.slice(0, 5), "commit 1a2b3c", ...input.slice(5)];
  expect(rule(["^commit "]).filter("check", listed.join("\n"), { failed: true }).text.split("\n"))
    .toEqual([
      "start 1",
      "start 2",
      "commit 1a2b3c",
      "... (15 lines omitted) ...",
      "  FAILED: bad expression",
      "... (2 lines omitted) ...",
      "end 1",
      "end 2",
    ]);
});
