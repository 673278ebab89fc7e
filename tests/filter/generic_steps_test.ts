/**
 * Steps a tool reports as finished (src/filter/generic_steps.ts): sphinx's `pickling
 * environment... done` and `reading sources... [ 50%] index`, apt-get's `Reading package lists...
 * Done` go; steps with another result, the last step before a failure, passing tests' lines and
 * every failure stay. In a failed run the last step of each run of steps stays, and a short
 * output keeps them all.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { dropFinishedSteps, isFinishedStep } from "../../src/filter/generic_steps.ts";

const engine = new FilterEngine([], { security: false });
/** The engine with the built-in rules (sphinx-build's among them). */
const { engine: builtin } = await loadFilterEngine(defaultConfig(), { configDir: null });
const fixture = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/generic/${name}`, import.meta.url)).trimEnd();

Deno.test("finished steps: a success word, an item and done, none found or a step's progress after an ellipsis", () => {
  for (
    const line of [
      "pickling environment... done",
      "generating indices... genindex done",
      "looking for now-outdated files... none found",
      "reading sources... [ 50%] index",
      "writing output... [100%] usage",
      "creating subdirectories ... ok",
      "  Applying orders.0001_initial... OK",
      "dumping search index in English (code: en)... done",
      "Resolving deltas… done.",
    ]
  ) expect([line, isFinishedStep(line)]).toEqual([line, true]);
  for (
    const line of [
      "selecting default time zone ... Etc/UTC",
      "checking for gcc... no",
      "running tests...",
      "  Applying orders.0002_backfill_emails...Traceback (most recent call last):",
      "copying static files... failed",
      "checking src/a.c:12... done",
      "... done",
      "Error loading plugins... done",
    ]
  ) expect([line, isFinishedStep(line)]).toEqual([line, false]);
});

Deno.test("sphinx: its finished steps go, the warnings, the failed doctest and the counts stay as printed", () => {
  // sphinx-build 5.3 on a project with a missing page, a failed autodoc import, an undefined label
  // and a failing doctest: the html build (exit 0) and the doctest build (exit 1).
  const html = fixture("steps_sphinx_html.txt").split("\n");
  const finished = [
    "making output directory... done",
    "reading sources... [ 50%] index",
    "looking for now-outdated files... none found",
    "pickling environment... done",
    "checking consistency... done",
    "preparing documents... done",
    "writing output... [ 50%] index",
    "generating indices... genindex done",
    "writing additional pages... search done",
    "copying static files... done",
    "copying extra files... done",
    "dumping search index in English (code: en)... done",
    "dumping object inventory... done",
  ];
  // `reading sources... [100%] usage` and `writing output... [100%] usage` each come right before
  // a warning: the step the tool was in when it warned stays.
  expect(engine.filter("sphinx-build -b html docs _build/html", html.join("\n")).text.split("\n"))
    .toEqual(html.filter((l) => !finished.includes(l)));
  // sphinx-build's own rule keeps the same steps and the same warnings (its other progress goes).
  const ruled = builtin.filter("sphinx-build -b html docs _build/html", html.join("\n"));
  expect(ruled.stats.rules).toEqual(["sphinx-build"]);
  for (const line of html) {
    const kept = ruled.text.split("\n").includes(line);
    if (/WARNING|\[100%\] usage$|^No module named/.test(line)) {
      expect([line, kept]).toEqual([line, true]);
    } else if (finished.includes(line)) expect([line, kept]).toEqual([line, false]);
  }
  const doctest = fixture("steps_sphinx_doctest.txt").split("\n");
  // A failed run that shows its failure loses its finished steps as a run that passed does.
  const gone = (line: string) => /\.\.\. (?:done|none found|\[ 50%\] index)$/.test(line);
  const out = engine.filter("sphinx-build -b doctest docs _build", doctest.join("\n"), {
    failed: true,
  }).text.split("\n");
  for (const line of doctest) {
    const kept = out.includes(line);
    if (gone(line)) {
      expect([line, kept]).toEqual([line, false]);
    } else if (!/^[*=-]+$/.test(line) && line.trim() !== "") {
      expect([line, kept]).toEqual([line, true]);
    }
  }
});

Deno.test("a failed run keeps the step it stopped in: the last of each run, a short output's all", () => {
  // Killed after its steps (`Killed` names no failure carriesFailure knows), and a script that
  // fails with no message after its steps: no line shows the failure, and in a short output
  // every step stays.
  for (
    const [name, command] of [
      ["steps_failed_killed.txt", "./build.sh"],
      ["steps_failed_no_message.txt", "./scripts/bootstrap.sh"],
    ]
  ) {
    const input = fixture(name);
    expect(builtin.filter(command, input, { failed: true }).text).toBe(input);
  }
  // In a longer one, each run's last step stays: before `Killed` and before the end.
  const long = [
    ...fixture("steps_failed_no_message.txt").split("\n"),
    ...fixture("steps_failed_killed.txt").split("\n"),
  ];
  expect(dropFinishedSteps(long, { failed: true })).toEqual([
    "Using config /srv/app/config.toml",
    "Rolling back transaction... done",
    "Using node v20.11.1",
    "Optimizing images... done",
    "Killed",
  ]);
  // The same output from a run that passed keeps none of them, nor does a failed run that
  // shows its failure (the step right before it aside).
  expect(dropFinishedSteps(long)).toEqual([
    "Using config /srv/app/config.toml",
    "Using node v20.11.1",
    "Killed",
  ]);
  const shown = [...long.slice(0, -1), "error: out of memory"];
  expect(dropFinishedSteps(shown, { failed: true })).toEqual([
    "Using config /srv/app/config.toml",
    "Using node v20.11.1",
    "Optimizing images... done",
    "error: out of memory",
  ]);
});

Deno.test("apt-get on a terminal: its finished steps go, its warnings and errors stay (a short failed run keeps its steps)", () => {
  // apt-get install of two unknown packages under `script` (a terminal), with no sources listed:
  // each step redraws its percentage with a carriage return, then ends in `Done`.
  const raw = fixture("steps_apt_get_tty.txt");
  expect(raw).toContain("\rReading package lists... Done");
  const messages = [
    "W: Unable to read /nonexistent/ - DirectoryExists (2: No such file or directory)",
    "W: Unable to read /etc/apt/sources.list - RealFileExists (2: No such file or directory)",
    "E: Unable to locate package nosuchpkg-r18b",
    "E: Unable to locate package libfoo-r18b-dev",
  ];
  expect(engine.filter("some-tool install", raw).text.split("\n")).toEqual(messages);
  // Failed (exit 100), its `E:` lines are no failure carriesFailure knows: a failed run's short
  // output that shows none keeps its steps, each as its last redraw shows it.
  const failed = engine.filter("some-tool install", raw, { failed: true }).text.split("\n");
  expect(failed.filter((line) => !line.endsWith("... Done"))).toEqual(messages);
  expect(failed.filter((line) => line.endsWith("... Done")).length).toBe(3);
});

Deno.test("a step in the shape of a passing test is left to the fold that counts passing tests", () => {
  // initdb 15 failing at its post-bootstrap step (a sandbox without /dev/null): its `… ... ok`
  // steps read as passing tests do (`test_add (t.CalcTests.test_add) ... ok`).
  const input = fixture("steps_initdb_failed.txt").split("\n");
  expect(input).toContain("creating subdirectories ... ok");
  expect(dropFinishedSteps(input)).toBe(input);
  const unittest = fixture("unittest_v.txt").split("\n");
  expect(dropFinishedSteps(unittest)).toBe(unittest);
  // There they fold with a count, as a test runner's passing lines do.
  const out = engine.filter("initdb -D /tmp/r18b-pg/data", input.join("\n"), { failed: true }).text;
  expect(out).toContain(
    "… 2 passing test lines folded …\nperforming post-bootstrap initialization",
  );
  expect(out).toContain("selecting default time zone ... Etc/UTC");
  expect(out).toContain('initdb: removing data directory "/tmp/r18b-pg/data"');
});

Deno.test("an output of nothing but finished steps stays whole", () => {
  const steps = ["pickling environment... done", "", "checking consistency... done"];
  expect(dropFinishedSteps(steps)).toBe(steps);
});

Deno.test("the step a failure happened in stays whatever lines were kept between them", () => {
  // sphinx-build 5.3, an extension that fails on a page after printing: a warning (the failure an
  // `Extension error` its handler threw, or an `Exception occurred:` in its directive), or a line
  // to stdout. Through sphinx-build's rule and through the generic pass alone.
  const cases = [
    { name: "warning_then_extension_error", step: "writing output... [100%] usage" },
    { name: "warning_then_exception", step: "reading sources... [100%] usage" },
    { name: "print_then_exception", step: "reading sources... [100%] usage" },
  ];
  const failure = /^(?:Extension error|Exception occurred:)/;
  for (const { name, step } of cases) {
    const input = Deno.readTextFileSync(
      new URL(`../fixtures/filters/sphinx-build/${name}.in.txt`, import.meta.url),
    );
    for (
      const [by, command] of [[builtin, "sphinx-build -b html docs _build/html"], [
        engine,
        "./build-docs.sh",
      ]] as const
    ) {
      const out = by.filter(command, input, { failed: true }).text.split("\n");
      // The step is shown once, before the failure line; the steps before it go.
      const at = out.indexOf(step);
      expect([name, command, at >= 0 && at < out.findIndex((l) => failure.test(l))])
        .toEqual([name, command, true]);
      expect(out.filter((line) => /^(reading sources|writing output)\.\.\./.test(line)))
        .toEqual([step]);
    }
  }
});
