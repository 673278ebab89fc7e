/**
 * Steps a tool reports as finished (src/filter/generic_steps.ts): sphinx's `pickling
 * environment... done` and `reading sources... [ 50%] index`, apt-get's `Reading package lists...
 * Done` go; steps with another result, the last step before a failure, passing tests' lines and
 * every failure stay.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { dropFinishedSteps, isFinishedStep } from "../../src/filter/generic_steps.ts";

const engine = new FilterEngine([], { security: false });
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
  const doctest = fixture("steps_sphinx_doctest.txt").split("\n");
  const out = engine.filter("sphinx-build -b doctest docs _build", doctest.join("\n"), {
    failed: true,
  }).text.split("\n");
  for (const line of doctest) {
    const kept = out.includes(line);
    if (/\.\.\. (?:done|none found|\[ 50%\] index)$/.test(line)) {
      expect([line, kept]).toEqual([line, false]);
    } else if (!/^[*=-]+$/.test(line) && line.trim() !== "") {
      expect([line, kept]).toEqual([line, true]);
    }
  }
});

Deno.test("apt-get on a terminal: its finished steps go, its warnings and errors stay", () => {
  // apt-get install of two unknown packages under `script` (a terminal), with no sources listed:
  // each step redraws its percentage with a carriage return, then ends in `Done`.
  const raw = fixture("steps_apt_get_tty.txt");
  expect(raw).toContain("\rReading package lists... Done");
  expect(engine.filter("some-tool install", raw, { failed: true }).text.split("\n")).toEqual([
    "W: Unable to read /nonexistent/ - DirectoryExists (2: No such file or directory)",
    "W: Unable to read /etc/apt/sources.list - RealFileExists (2: No such file or directory)",
    "E: Unable to locate package nosuchpkg-r18b",
    "E: Unable to locate package libfoo-r18b-dev",
  ]);
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
