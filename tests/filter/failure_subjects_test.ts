/**
 * A failure keeps the line that names what failed, and a word only a name carries is no failure:
 * every cut keeps the subject line above a failure (promtool's `Checking rules/a.yml` over its
 * indented `  FAILED:`, yamllint's file line over its indented errors), a failure word inside a
 * path (`rules/api-errors.yml`) or an option (`-Werror`, `ON_ERROR_STOP=1`) keeps nothing, a shell
 * trace's failure keeps the command echoed above it, and diagnostics whose word says their severity
 * (`… is a CNAME (illegal)`) never fold as status chatter. Real captures of small projects.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { FAILURE_SIGNAL } from "../../src/filter/signals.ts";
import { CutGap, FailureKeeper } from "../../src/filter/strategies/mod.ts";
import { fastestMs } from "../_support/timing.ts";

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
    // An option's or an upper-case setting's name names a behaviour; a value, a diff's removed
    // line and a message beside one still say a failure.
    ["+ psql -X -q -v ON_ERROR_STOP=1 -d library -c 'SELECT 1'", false],
    ["+ cc -std=c11 -Wall -Werror -O2 -c src/m001.c -o build/m001.o", false],
    ["cargo test --workspace --no-fail-fast", false],
    ["docker compose up --abort-on-container-exit", false],
    ["src/m064.c:1:29: error: unused variable 'unused' [-Werror=unused-variable]", true],
    ["cc1: all warnings being treated as errors", true],
    ["-error: expected 3", true],
    ['time=12:00:01 level=error msg="disk full"', true],
    ["psql: --on_error_stop: unrecognized option, command failed", true],
  ];
  for (const [line, failure] of cases) {
    expect({ line, failure: FAILURE_SIGNAL.test(line) }).toEqual({ line, failure });
  }
});

Deno.test("a word of many failure words inside a path, an option or a setting is read once", () => {
  // Each failure word of the word was read with the whole word around it: quadratic in its length.
  const words = [
    "/" + "error".repeat(20_000),
    " -" + "fail".repeat(25_000),
    " ON" + "_ERROR".repeat(16_000) + "=1",
  ];
  for (const word of words) {
    let failure: boolean | undefined;
    const ms = fastestMs(() => failure = FAILURE_SIGNAL.test(word), 400);
    expect({ word: word.slice(0, 12), failure, fast: ms < 400 })
      .toEqual({ word: word.slice(0, 12), failure: false, fast: true });
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

Deno.test("a shell trace's cut drops the commands whose options hold a failure word, and keeps the one that failed", () => {
  // Real bash -x traces: a loop creating monthly partitions through `psql -v ON_ERROR_STOP=1`
  // until one overlaps, and a loop compiling 130 files with `-Werror`, one failing in the middle.
  const cases = [
    {
      file: "trace_bash_x_partitions.txt",
      command: "bash -x scripts/partitions.sh library",
      option: "ON_ERROR_STOP=1",
      failure: [
        'ERROR:  partition "readings_2025_11" would overlap partition "readings_legacy"',
      ],
      ran: "+ psql -X -q -t -A -v ON_ERROR_STOP=1 -d library -c 'CREATE TABLE readings_2025_11",
    },
    {
      file: "trace_bash_x_cbuild.txt",
      command: "bash -x build.sh",
      option: "-Werror",
      failure: [
        "src/m064.c:1:29: error: unused variable \u2018unused\u2019 [-Werror=unused-variable]",
        "cc1: all warnings being treated as errors",
      ],
      ran: "+ cc -std=c11 -Wall -Wextra -Werror -O2 -c src/m064.c -o build/m064.o",
    },
  ];
  for (const { file, command, option, failure, ran } of cases) {
    const input = read(file).split("\n");
    const out = engine.filter(command, input.join("\n"), { failed: true }).text.split("\n");
    const withOption = (lines: string[]) => lines.filter((l) => l.includes(option)).length;
    // The cut takes the echoed commands of its middle, options and all (the head and the tail
    // hold the others).
    expect({ file, cut: withOption(out) < withOption(input) * 0.7 }).toEqual({ file, cut: true });
    expect(out.length).toBeLessThan(input.length * 0.65);
    for (const line of failure) expect(out).toContain(line);
    // The command that failed stays, right above its error or one line up.
    const at = out.indexOf(failure[0]);
    expect({ file, ran: out.slice(at - 3, at).some((l) => l.startsWith(ran)) })
      .toEqual({ file, ran: true });
  }
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

Deno.test("a compile command that takes the failing file as an argument is its failure's subject", () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `step ${i}: linking objects`);
  // make's echo (no failure word in it: `-Werror` is an option) and a javac-like command; another
  // file's command (`src/net.cc`, `src/app/Main.java.bak`) names a different file and is none.
  const cases = [
    {
      command: "cc -Wall -Werror -O2 -c src/net.c -o src/net.o",
      other: "cc -Wall -Werror -O2 -c src/net.cc -o src/net.o",
      failure: "src/net.c:5:23: error: comparison of integer expressions of different signedness",
    },
    {
      command: "javac -d build -Xlint:all src/app/Main.java",
      other: "cp src/app/Main.java.bak src/app/Main.java.orig",
      failure: "src/app/Main.java:12: error: cannot find symbol",
    },
  ];
  for (const { command, other, failure } of cases) {
    const keeper = new FailureKeeper();
    const subjects: string[] = [];
    for (const line of [...filler(3), other, ...filler(1), command, "In function 'f':", failure]) {
      if (keeper.keep(line) && keeper.subject) subjects.push(keeper.subject.line);
    }
    expect(subjects).toEqual([command]);
    const alone = new FailureKeeper();
    for (const line of [...filler(3), other, "In function 'f':", failure]) alone.keep(line);
    expect(alone.subject).toBeUndefined();
  }
});
