/**
 * Notes about lines left out, as a later stage reads them (src/filter/notes.ts): how many lines a
 * note or a repeated line stands for, cut notes one after another made one, and, on real outputs
 * through the built-in rules, counts a reader can check — a later stage's drops beside a cut
 * note are in its count, a fold or cut over an earlier stage's notes counts what they stood for,
 * and a go test's long log cut is one note per gap.
 */
import { expect } from "expect";
import { cutNote, linesStoodFor, mergeCutNotes } from "../../src/filter/notes.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
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
    // The cut notes (the generic pass's `… the 3 lines from "…" again …` says the block as shown).
    const gaps = gapCounts(first, out).filter(({ note }) => cutNote(note) !== null);
    expect(gaps.length).toBeGreaterThan(0);
    expect(gaps.map(({ note }) => countOf(note))).toEqual(gaps.map(({ stood }) => stood));
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
    { name: "long_log_cut", counted: /^\s+\w+_test\.go:\d+: / },
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
