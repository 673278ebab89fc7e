/**
 * Notes about lines left out, as a later stage reads them (src/filter/notes.ts): how many lines a
 * note or a repeated line stands for, cut notes one after another made one, and, on real outputs
 * through the built-in rules, counts a reader can check — a later stage's drops beside a cut
 * note are in its count, and so are an earlier stage's (a cut note counts at least its gap in the
 * output as printed, on every saved output), a fold or cut over an earlier stage's notes counts
 * what they stood for, and a go test's long log cut is one note per gap.
 */
import { expect } from "expect";
import { cutNote, linesStoodFor, mergeCutNotes, recountCutNotes } from "../../src/filter/notes.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine, sanitize } from "../../src/filter/mod.ts";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });

Deno.test("linesStoodFor: a note's count of lines left out, a repeat's count, else 1", () => {
  const cases: [string, number][] = [
    ["... (12 lines omitted) ...", 12],
    ["... (1 line omitted) ...", 1],
    ["... (7 more lines)", 7],
    ["... (3 more lines printed by the test)", 3],
    ["… 4 lines of a passing test's output folded …", 4],
    ["    … 6 `can inline` lines folded …", 6],
    ["(3953 lines of go's -x command echo not shown)", 3953],
    ['  … the 7 lines from "7:3 error" again, as shown above …', 7],
    ["… 3 repeats of the 2 lines above folded …", 6],
    ["2025-06-24 14:36:25 startup archives unpack (x22)", 22],
    ["polling: empty (x6, numbered 1 to 6)", 6],
    // Counts of lines shown, and a tool's own lines, stand for themselves.
    ["(4044 unique lines of 4945)", 1],
    ["… 35 frames in @babel/parser folded …", 1],
    ["wrote 12 lines to out.txt", 1],
    ["(12 lines)", 1],
  ];
  expect(cases.map(([line]) => [line, linesStoodFor(line)])).toEqual(cases);
});

Deno.test("mergeCutNotes: cut notes one after another are one, in their shared form or as more lines", () => {
  expect(mergeCutNotes([
    "a",
    "... (2 more lines)",
    "... (38 more lines)",
    "b",
    "... (3 more lines printed by the test)",
    "... (5 more lines printed by the test)",
    "c",
    "... (960 more lines)",
    "... (501 more lines printed by the test)",
    "... (995 more lines)",
    "... (4 lines omitted) ...",
    "d",
    "... (1 line omitted) ...",
  ])).toEqual([
    "a",
    "... (40 more lines)",
    "b",
    "... (8 more lines printed by the test)",
    "c",
    "... (2460 more lines)",
    "d",
    "... (1 line omitted) ...",
  ]);
  const alone = ["a", "... (2 more lines)", "b"];
  expect(mergeCutNotes(alone)).toBe(alone);
  expect(cutNote("… 4 lines of a passing test's output folded …")).toBe(null);
});

/**
 * For each gap of `after` that holds one note counting lines and nothing else that is not a line
 * of `before`: the note, what the lines of `before` in that gap stand for (its non-blank lines,
 * each by `linesStoodFor`) and how many they are. The lines around a gap are found in `before`
 * in order.
 */
function gapCounts(
  before: string[],
  after: string[],
): { note: string; stood: number; lines: number }[] {
  const found: { note: string; stood: number; lines: number }[] = [];
  let at = -1;
  let notes: string[] = [];
  let other = false;
  for (const line of after) {
    if (line.trim() === "") continue;
    const next = before.indexOf(line, at + 1);
    if (next < 0 || cutNote(line) !== null) {
      if (linesStoodFor(line) > 1 || cutNote(line) !== null) notes.push(line);
      else other = true;
      continue;
    }
    if (notes.length === 1 && !other && at >= 0) {
      const between = before.slice(at + 1, next).filter((l) => l.trim() !== "");
      const stood = between.reduce((n, l) => n + linesStoodFor(l), 0);
      found.push({ note: notes[0], stood, lines: between.length });
    }
    at = next;
    notes = [];
    other = false;
  }
  return found;
}

/** A note's count as `linesStoodFor` reads it. */
const countOf = (note: string) => cutNote(note)?.n ?? linesStoodFor(note);

Deno.test("a cut note counts the lines a later stage drops beside it (jest's console noise, mocha's frames)", async () => {
  // Real captures: jest 29 over a file whose passing tests log through console.* (the failure's
  // `● Console` block cut), mocha's nested failures (their internal frames dropped later).
  for (const name of ["console_noise_cut", "mocha_nested_failures"]) {
    const input = await fixture(`jest-vitest/${name}.in.txt`);
    const command = (await fixture(`jest-vitest/${name}.cmd`)).split("\n")[0];
    const trace = engine.trace(command, input, { failed: true });
    const first = trace[1].output;
    const out = lines(filter(command, input, true));
    // The cut notes (the generic pass's `… the 3 lines from "…" again …` says the block as shown),
    // each counting at least its gap in what the first stage passed on.
    const gaps = gapCounts(first, out).filter(({ note }) => cutNote(note) !== null);
    expect(gaps.length).toBeGreaterThan(0);
    for (const { note, stood } of gaps) expect(countOf(note)).toBeGreaterThanOrEqual(stood);
    // A later stage dropped lines beside a cut note of the first: without them it says less.
    const cuts = (text: string[]) => text.filter((l) => cutNote(l) !== null).map(countOf);
    expect(cuts(out).reduce((a, b) => a + b, 0)).toBeGreaterThan(
      cuts(first).reduce((a, b) => a + b, 0),
    );
  }
});

Deno.test("a fold or cut over an earlier stage's notes and repeats counts the lines they stood for (meson's folded test output, a deduplicated log)", async () => {
  const cases = [
    {
      input: await fixture("meson-test-output/verbose.in.txt"),
      command: "meson test --verbose",
      failed: true,
      note: /^… (\d+) lines of passing tests and their folded output …$/,
    },
    {
      input: await corpus("logs/dpkg_log.txt"),
      command: "cat /var/log/dpkg.log",
      failed: false,
      note: /^\.\.\. \((\d+) lines? omitted\) \.\.\.$/,
    },
  ];
  for (const { input, command, failed, note } of cases) {
    const trace = engine.trace(command, input, { failed }).filter((t) => t.type !== "guard");
    const last = trace.at(-1)!;
    const gaps = gapCounts(last.input, last.output).filter((gap) => note.test(gap.note));
    expect(gaps.length).toBeGreaterThan(0);
    expect(gaps.map(({ note }) => countOf(note))).toEqual(gaps.map(({ stood }) => stood));
    // Some gap holds notes or repeated lines: counted one a line, its count would differ.
    expect(gaps.some(({ stood, lines }) => stood !== lines)).toBe(true);
  }
});

Deno.test("a go test's long log cut is one note per gap, counting the lines it hides", async () => {
  // Real captures (go 1.19): `-v` runs whose test logs thousands of lines (the first and last
  // ones held, its log lines and its printed ones apart), one that ends in `t.Errorf`, one whose
  // run dies in `os.Exit`; and the plain run whose last log line is the failure.
  const cases = [
    // Its log lines and its prints, in the order printed.
    { name: "long_log_cut", counted: /./ },
    { name: "log_before_assertion", counted: /^\s+\w+_test\.go:\d+: / },
    { name: "run_dies_long_log", counted: /./ },
    { name: "run_dies_exit_long", counted: /./ },
  ];
  for (const { name, counted } of cases) {
    const input = lines(await fixture(`go-test/${name}.in.txt`));
    const command = (await fixture(`go-test/${name}.cmd`)).split("\n")[0];
    const out = lines(filter(command, input.join("\n"), true));
    const at = out.findIndex((line) => cutNote(line) !== null);
    expect(at).toBeGreaterThan(0);
    // One note, and the lines on either side of it are the input's, the gap between them of as
    // many lines of the kind shown as it says.
    expect(cutNote(out[at + 1])).toBe(null);
    const from = input.indexOf(out[at - 1]);
    const to = input.indexOf(out[at + 1], from + 1);
    const hidden = input.slice(from + 1, to).filter((line) => counted.test(line)).length;
    expect([name, countOf(out[at])]).toEqual([name, hidden]);
  }
  // Without -v the log follows the result line: its last line, the failure, stays.
  const plain = filter("go test ./...", await fixture("go-test/plain_long_log_error.in.txt"), true);
  expect(lines(plain).slice(-2)).toEqual([
    "    sync_test.go:19: copied 1600 mirrors, want 1601",
    "FAIL\texample.com/mend4go/sync\t0.017s",
  ]);
});

Deno.test("a cut note counts the lines of its gap as printed that an earlier stage dropped without a note", async () => {
  // Real captures: make -k over C files built with -Werror (gcc's code frames: make-gcc drops
  // their `|` connector lines, then make-truncate cuts around the errors), and mocha's nested
  // failures (the summary drops a node:internal frame beside its cut).
  const cases = [
    { dir: "make-truncate", name: "werror_several_files" },
    { dir: "jest-vitest", name: "mocha_nested_failures" },
  ];
  for (const { dir, name } of cases) {
    const input = await fixture(`${dir}/${name}.in.txt`);
    const [command, exit] = (await fixture(`${dir}/${name}.cmd`)).split("\n");
    const trace = engine.trace(command, input, { failed: exit !== undefined });
    const out = lines(filter(command, input, exit !== undefined));
    const gaps = uniqueGaps(trace[0].output, out);
    expect({ name, gaps: gaps.length > 0 }).toEqual({ name, gaps: true });
    expect({ name, said: gaps.map((g) => g.said) }).toEqual({ name, said: gaps.map((g) => g.gap) });
    // Some cut of a stage's own said less: the drops beside it are counted now.
    const stages = trace.filter((t) => t.type !== "notes" && t.type !== "guard");
    const before = stages.at(-1)!.output.filter((l) => cutNote(l) !== null).map(countOf);
    const after = out.filter((l) => cutNote(l) !== null).map(countOf);
    expect(after.reduce((a, b) => a + b, 0)).toBeGreaterThan(before.reduce((a, b) => a + b, 0));
  }
});

Deno.test("the cut notes of every saved output count at least the lines of their gap as printed", async () => {
  // bench/corpus and tests/fixtures/filters: where a run of notes holding a cut note stands between two
  // lines printed once each, in order, its counts add up to at least the non-blank lines between.
  const root = new URL("../../bench/corpus/", import.meta.url);
  const cases: { command: string; text: string; failed: boolean }[] = [];
  for (const family of Deno.readDirSync(root)) {
    if (!family.isDirectory) continue;
    for (const file of Deno.readDirSync(new URL(`${family.name}/`, root))) {
      if (!file.name.endsWith(".json")) continue;
      const meta = JSON.parse(Deno.readTextFileSync(new URL(`${family.name}/${file.name}`, root)));
      const text = Deno.readTextFileSync(
        new URL(`${family.name}/${file.name.replace(/\.json$/, ".txt")}`, root),
      );
      cases.push({ command: meta.command, text, failed: meta.exit_code !== 0 });
    }
  }
  const fixtures = new URL("../fixtures/filters/", import.meta.url);
  for (const rule of Deno.readDirSync(fixtures)) {
    if (!rule.isDirectory) continue;
    for (const file of Deno.readDirSync(new URL(`${rule.name}/`, fixtures))) {
      if (!file.name.endsWith(".in.txt")) continue;
      const base = `${rule.name}/${file.name.slice(0, -".in.txt".length)}`;
      const [command, exit] = (await fixture(`${base}.cmd`)).split("\n");
      cases.push({ command, text: await fixture(`${base}.in.txt`), failed: /^exit/.test(exit) });
    }
  }
  let checked = 0;
  for (const { command, text, failed } of cases) {
    const out = lines(filter(command, text, failed));
    for (const { said, gap } of uniqueGaps(lines(sanitize(text)), out)) {
      checked++;
      expect({ command, said: said >= gap }).toEqual({ command, said: true });
    }
  }
  expect(checked).toBeGreaterThan(10);
});

Deno.test("recountCutNotes: a cut note's gap told by lines printed once, repeats taken where they came", () => {
  const recount = (input: string[], output: string[]) =>
    recountCutNotes(output, (fn) => input.forEach(fn));
  const input = ["start", "a", "noise", "b", "c", "y", "x", "x", "end"];
  // `noise` dropped without a note beside a cut of `b` and `c`: the cut says the three.
  expect(recount(input, ["start", "a", "... (2 more lines)", "y", "x (x2)", "end"]))
    .toEqual(["start", "a", "... (3 more lines)", "y", "x (x2)", "end"]);
  // A repeat stands at its first place and for the next ones of its text: the `r` in the gap
  // after `a` is said by it.
  expect(
    recount(["start", "r", "a", "b", "r", "c", "y", "end"], [
      "start",
      "r (x2)",
      "a",
      "... (1 more lines)",
      "y",
      "end",
    ]),
  ).toEqual(["start", "r (x2)", "a", "... (2 more lines)", "y", "end"]);
  // Beside a line printed more than once the gap cannot be told; a note saying more stays.
  const unsure = ["start", "... (1 line omitted) ...", "x", "end"];
  expect(recount(input, unsure)).toBe(unsure);
  const more = ["start", "... (9 lines omitted) ...", "y", "end"];
  expect(recount(input, more)).toBe(more);
  // Out of the input's order (a grouping) the output is left as it is.
  const grouped = ["start", "b", "a", "... (2 more lines)", "y", "end"];
  expect(recount(input, grouped)).toBe(grouped);
  // A note of another kind in the run keeps its count; the cut says the rest.
  expect(
    recount(["a", "n", "n", "m", "m", "m", "y"], [
      "a",
      "… 2 lines of noise folded …",
      "... (1 more lines)",
      "y",
    ]),
  ).toEqual(["a", "… 2 lines of noise folded …", "... (3 more lines)", "y"]);
});

/**
 * Each run of notes in `out` holding a cut note between two lines that `input` holds once each
 * (or its start or end), in the input's order, when `out` holds no repeat count: what its notes
 * say and the non-blank input lines between.
 */
function uniqueGaps(input: string[], out: string[]): { said: number; gap: number }[] {
  if (out.some((line) => /\(x\d+/.test(line))) return [];
  const trimmed = input.map((line) => line.trim());
  const once = (line: string) => {
    const at = trimmed.indexOf(line.trim());
    return at >= 0 && trimmed.indexOf(line.trim(), at + 1) < 0 ? at : -1;
  };
  const found: { said: number; gap: number }[] = [];
  const isNote = (line: string) => cutNote(line) !== null || linesStoodFor(line) !== 1;
  for (let i = 0; i < out.length; i++) {
    if (cutNote(out[i]) === null || (i > 0 && isNote(out[i - 1]))) continue;
    let j = i;
    while (j < out.length && isNote(out[j])) j++;
    const from = i === 0 ? -1 : once(out[i - 1]);
    const to = j === out.length ? input.length : once(out[j]);
    if ((i > 0 && from < 0) || to < 0 || to <= from) continue;
    const gap = trimmed.slice(from + 1, to).filter((line) => line !== "").length;
    const said = out.slice(i, j).reduce((n, line) => n + countOf(line), 0);
    found.push({ said, gap });
  }
  return found;
}
