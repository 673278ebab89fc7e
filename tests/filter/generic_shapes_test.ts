/**
 * Long runs of lines of one shape (src/filter/generic_shapes.ts), by class: a table of
 * `<prefix> <size> <path>` (npm pack --dry-run), a verbose build's per-item lines with blank
 * lines between (tsc -b --verbose), a diffstat, a graph log, and blocks of lines whose shapes
 * repeat (git bisect run's steps). Each folds to its first and last lines (blocks) around a
 * count; in a failed run a run folds too but its last lines, what the tool did just before
 * failing, stay (python's compileall), unless a rule chose the lines (npm run); a warning or
 * failure line, the output's last lines, short runs and prose stay as printed. In a failed run,
 * a tool's steps announced with an ellipsis (doxygen's `Building group list...`) are one shape
 * whatever their verb, where no long run of one step folds by its own shape. A unified diff
 * printed under a log prefix (yarn's lockfile diff under `➤ YN0028: │`, `git diff` under pnpm's
 * `packages/api check:env:`) keeps its hunk headers and its changed lines.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import {
  cutReader,
  foldShapeRuns,
  MAX_SHAPED_LINES,
  MIN_SHAPE_RUN,
  oddInCut,
  shapeOf,
} from "../../src/filter/generic_shapes.ts";
import { threadCpuMs } from "../_support/timing.ts";

const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES)).split(/\r?\n/);
const FOLD = /^\s*… (\d+) lines like these folded …$/;
const engine = new FilterEngine([], { security: false });
/** The lines of `xs` neither blank nor a fold's count. */
const nonBlank = (xs: readonly string[]) =>
  xs.filter((l) => l.trim() !== "" && !FOLD.test(l)).length;

/** Folded counts in `out`, summed. */
const foldedIn = (out: readonly string[]) =>
  out.reduce((n, line) => n + Number(FOLD.exec(line)?.[1] ?? 0), 0);

const CLASSES: { name: string; lines: string[]; kept: string[] }[] = [
  {
    name: "a tarball's contents table",
    lines: read("shape_npm_pack.txt"),
    kept: ["npm notice Tarball Contents", "npm notice 17B lib/m1.js", "npm notice total files: 31"],
  },
  {
    name: "a verbose build's per-project lines with blank lines between",
    lines: read("shape_tsc_build_verbose.txt"),
    kept: ["    * p1/tsconfig.json", "    * tsconfig.json"],
  },
  {
    name: "a diffstat",
    lines: [
      ...Array.from(
        { length: 20 },
        (_, i) => ` src/mod${i}.ts | ${i + 2} ${"+".repeat(i % 5 + 1)}-`,
      ),
      " 20 files changed, 230 insertions(+), 20 deletions(-)",
    ],
    kept: [" src/mod0.ts | 2 +-", " src/mod19.ts | 21 +++++-"],
  },
  {
    name: "a graph log",
    lines: [
      ...Array.from(
        { length: 16 },
        (_, i) => `* ${(0x1a2b3c4 + i * 7919).toString(16)} change number ${i} of the parser`,
      ),
      "* 0f0f0f1 first commit",
    ],
    kept: ["* 1a2b3c4 change number 0 of the parser", "* 0f0f0f1 first commit"],
  },
];

for (const { name, lines, kept } of CLASSES) {
  Deno.test(`shape runs: ${name} folds to its first and last lines and a count`, () => {
    const out = foldShapeRuns(lines, false);
    expect(out.length).toBeLessThan(lines.length / 2);
    for (const line of kept) expect(out).toContain(line);
    // Every line is either kept as printed or counted by a fold.
    expect(nonBlank(out) + foldedIn(out)).toBe(nonBlank(lines));
    for (const line of out) if (!FOLD.test(line)) expect(lines).toContain(line);
    // A failed run folds them too, keeping the run's last lines.
    const failed = foldShapeRuns(lines, true);
    expect(failed.length).toBeLessThan(lines.length / 2);
    for (const line of kept) expect(failed).toContain(line);
    expect(nonBlank(failed) + foldedIn(failed)).toBe(nonBlank(lines));
  });
}

Deno.test("shape runs: a run grouped by a leading name folds group by group, the first line after each change kept", () => {
  for (
    const [name, firsts] of [
      // A blame's commits (and authors), a listing's owners, a log's loggers.
      ["shape_groups_blame.txt", [
        "7bb71d77 (Cy  2026-11-24 09:00:00 +0000  2) LIMIT_1 = 10",
        "89d69d72 (Dee 2026-11-26 15:30:00 +0000 47) TIMEOUT_1 = 3",
      ]],
      ["shape_groups_ls.txt", [
        "-rw-r--r-- 1 root   root    7 2026-11-28 07:42 app_01.conf",
        "-rw-r--r-- 1 nobody nogroup 4 2026-11-28 07:42 cache_01.db",
      ]],
      ["shape_groups_log.txt", [
        "2026-11-28 07:42:21,694 sync.fetch INFO fetched page 1 of 18 (50 records)",
        "2026-11-28 07:42:21,860 sync.store INFO stored batch 1 of 14",
      ]],
    ] as const
  ) {
    const lines = read(name);
    const out = foldShapeRuns(lines, false);
    for (const line of firsts) expect(out).toContain(line);
    // Each group still folds.
    expect(out.filter((line) => FOLD.test(line))).toHaveLength(2);
    expect(nonBlank(out) + foldedIn(out)).toBe(nonBlank(lines));
  }
});

Deno.test("shape runs: groups too short to be runs of their own fold their middles, each first line kept", () => {
  const commits = ["1f3a9c2e (Ann", "7bb71d77 (Cy ", "89d69d72 (Dee", "a04c5e11 (Bo "];
  const lines = commits.flatMap((who, c) =>
    Array.from(
      { length: 8 },
      (_, k) => `${who} 2026-11-2${c} 09:00:00 +0000 ${c * 8 + k + 1}) LIMIT_${c}_${k} = ${k}`,
    )
  );
  const out = foldShapeRuns([...lines, "", "three lines", "after the", "listing"], false);
  for (let c = 0; c < commits.length; c++) expect(out).toContain(lines[c * 8]);
  expect(out.filter((line) => FOLD.test(line))).toHaveLength(4);
});

Deno.test("shape runs: a leading name that changes line after line (a diffstat's paths) is no group", () => {
  const lines = Array.from(
    { length: 20 },
    (_, i) => ` src/mod_${"abcdefghijklmnopqrst"[i]}.ts | ${i + 2} ++-`,
  );
  const out = foldShapeRuns([...lines, " 20 files changed"], false);
  expect(out.filter((line) => FOLD.test(line))).toHaveLength(1);
});

Deno.test("shape runs: blocks whose lines' shapes repeat fold to the first and last blocks", () => {
  const lines = read("shape_git_bisect_run.txt");
  const out = foldShapeRuns(lines, false);
  // Five steps of three lines: the first and last steps stay, the three between are counted.
  expect(out.slice(0, 7)).toEqual([
    ...lines.slice(0, 3),
    "… 9 lines like these folded …",
    ...lines.slice(12, 15),
  ]);
  expect(out.slice(7)).toEqual(lines.slice(15));
  // A block's lines all of one shape are a run of lines, not of blocks; too few blocks stay.
  expect(foldShapeRuns(lines.slice(0, 9).concat(lines.slice(15)), false)).toEqual(
    lines.slice(0, 9).concat(lines.slice(15)),
  );
});

Deno.test("shape runs: the engine's generic pass folds them; a failed run keeps its last lines", () => {
  const lines = read("shape_npm_pack.txt");
  const text = lines.join("\n");
  const passed = engine.filter("npm pack --dry-run", text, { failed: false }).text;
  expect(passed).toMatch(/… 29 lines like these folded …/);
  const failed = engine.filter("npm pack --dry-run", text, { failed: true }).text.split("\n");
  expect(failed).toContain("… 27 lines like these folded …");
  const last = lines.indexOf("npm notice 241B package.json");
  expect(failed.slice(failed.indexOf(lines[last - 2]), failed.indexOf(lines[last]) + 1)).toEqual(
    lines.slice(last - 2, last + 1),
  );
});

Deno.test("shape runs: a failed run's progress folds, the lines before the failure stay", async () => {
  // python3 -m compileall over 28 modules, the 25th with a syntax error (no rule matches).
  const lines = read("shape_compileall_failed.txt");
  const out = engine.filter("python3 -m compileall -f pkg", lines.join("\n"), { failed: true })
    .text.split("\n");
  const before = lines.indexOf("Compiling 'pkg/mod_23.py'...");
  expect(out.slice(0, 3)).toEqual([
    "Listing 'pkg'...",
    "Compiling 'pkg/mod_01.py'...",
    "… 21 lines like these folded …",
  ]);
  // The run's last three lines, before the error, and everything after them stay as printed.
  expect(out.slice(3)).toEqual(lines.slice(before).filter((l, k, a) => k < a.length - 1 || l));
  // After a rule that chose what to keep (npm run's), its lines stay: they are not progress.
  const { engine: builtin } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const corpus = new URL("../../bench/corpus/node/npm_run_failing.txt", import.meta.url);
  const run = builtin.filter("npm run build", Deno.readTextFileSync(corpus), { failed: true }).text;
  expect(run).toContain("rendering src/blog.md -> dist/blog.html");
  expect(run).not.toMatch(/lines like these folded/);
});

// yarn 4 `install --immutable` after a dependency change (no rule matches yarn run by node), and
// `pnpm -r run check:env` whose `git diff --exit-code` fails (after pnpm's rule): the changed
// lines are what failed, whether the mark stands alone or is glued to the line's first word.
const PREFIXED_DIFFS = [
  {
    file: "shape_yarn_lockfile_diff.txt",
    command: "node .yarn/releases/yarn.js install --immutable",
    prefix: /^➤ YN\d{4}: │ /,
  },
  {
    file: "shape_pnpm_recursive_diff.txt",
    command: "pnpm -r run check:env",
    prefix: /^packages\/api check:env: /,
  },
];
for (const { file, command, prefix } of PREFIXED_DIFFS) {
  Deno.test(`shape runs: a diff under a log prefix keeps its hunk headers and changed lines (${file})`, async () => {
    const { engine: builtin } = await loadFilterEngine(defaultConfig(), { configDir: null });
    const lines = read(file);
    const out = builtin.filter(command, lines.join("\n"), { failed: true }).text.split("\n");
    const changed = lines.filter((l) =>
      prefix.test(l) && /^(@@ |[+-])/.test(l.replace(prefix, ""))
    );
    expect(changed.length).toBeGreaterThan(4);
    for (const line of changed) expect(out).toContain(line);
  });
}

Deno.test("shape runs: only the lines a prefixed hunk counts are its changes; a list after it folds", () => {
  const item = (i: number) => `➤ YN0000: │ - cached package-${i}@npm:1.0.${i}`;
  const lines = [
    "➤ YN0000: │ @@ -3,2 +3,2 @@",
    "➤ YN0028: │ -  version: 1.0.0",
    "➤ YN0028: │ +  version: 1.0.1",
    ...Array.from({ length: 30 }, (_, i) => item(i)),
    "➤ YN0000: └ Completed",
    "➤ YN0000: · Done in 0s 312ms",
    "",
  ];
  const out = foldShapeRuns(lines, true);
  // The hunk counts four lines: its two changes and the list's first two, which start with `-`.
  expect(out.slice(0, 5)).toEqual(lines.slice(0, 5));
  expect(out).toContain("… 23 lines like these folded …");
  expect(out).not.toContain(item(10));
});

Deno.test("shape runs: a warning or failure line stays and splits the run", () => {
  const rows = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `Skipping package-${from + i} (already installed)`);
  const lines = [
    ...rows(0, 14),
    "Skipping package-x (warning: checksum mismatch ignored)",
    ...rows(14, 14),
    "Done: 29 packages.",
    "Took 3 seconds.",
    "Cache size 12 MB.",
    "",
  ];
  const out = foldShapeRuns(lines, false);
  expect(out).toContain("Skipping package-x (warning: checksum mismatch ignored)");
  expect(out.filter((l) => FOLD.test(l))).toEqual([
    "… 12 lines like these folded …",
    "… 12 lines like these folded …",
  ]);
  expect(out.slice(-4)).toEqual(lines.slice(-4));
});

Deno.test("shape runs: the last lines, short runs and prose stay as printed", () => {
  const row = (i: number) => `Downloading artifact-${i}.tar.gz`;
  // A run reaching the end of the output leaves its last three lines alone.
  const toEnd = Array.from({ length: MIN_SHAPE_RUN + 3 }, (_, i) => row(i));
  const out = foldShapeRuns(toEnd, false);
  expect(out.slice(-3)).toEqual(toEnd.slice(-3));
  expect(out[0]).toBe(row(0));
  // One line short of a run: nothing folds.
  const short = [...Array.from({ length: MIN_SHAPE_RUN - 1 }, (_, i) => row(i)), "a", "b", "c"];
  expect(foldShapeRuns(short, false)).toEqual(short);
  // Prose: lines that start with different words have different shapes.
  const starts = "The A Each Then When Some Most It Our This Every No Its Their Such".split(" ");
  const prose = [...starts, ...starts].map((w, i) => `${w} sentence number ${i} of a paragraph.`);
  expect(foldShapeRuns(prose, false)).toEqual(prose);
});

Deno.test("shape runs: a line's shape reads the first word as printed and the next by kind", () => {
  expect(shapeOf("npm notice 1.2kB lib/index.js")).toBe("npm W N");
  expect(shapeOf("npm notice 15kB package.json")).toBe("npm W N");
  expect(shapeOf(" src/a.ts | 12 ++--")).toBe(" P | N");
  expect(shapeOf("* 1a2b3c4 fix the parser")).toBe("* H W");
  expect(shapeOf("Skipping 'a b' here")).toBe("Skipping Q W");
  // Lines that never fold: one word, blank, a failure, a location, a warning, too long.
  for (
    const line of ["ok", "", "error: x failed", "at src/a.ts:12:5 here", "npm warn deprecated x"]
  ) expect(shapeOf(line)).toBeNull();
  expect(shapeOf("a ".repeat(5000))).toBeNull();
});

Deno.test("shape runs: long and pathological lines stay linear", () => {
  const lines = [":".repeat(100_000), " ".repeat(100_000), "a ".repeat(50_000), "9".repeat(1999)];
  const started = threadCpuMs();
  foldShapeRuns(Array.from({ length: 200 }, (_, i) => lines[i % lines.length]), false);
  expect(threadCpuMs() - started).toBeLessThan(500);
});

Deno.test("shape runs: a passing output longer than MAX_SHAPED_LINES is left to the cut", () => {
  const rows = Array.from({ length: MAX_SHAPED_LINES + 1 }, (_, i) => `Copied asset-${i}.png`);
  expect(foldShapeRuns(rows, false)).toEqual(rows);
  expect(foldShapeRuns(rows.slice(0, 100), false)).toHaveLength(3 + 3);
});

Deno.test("shape runs: a fold no shorter than the lines it replaces leaves them as printed", () => {
  // Blocks of four tiny lines: the fold line is longer than the one block it would hide.
  const blocks = Array.from({ length: 3 }, () => ["a 1", "b 1", "c 1", "d 1"]).flat();
  const lines = [...blocks, "done: a", "done: b", "done: c"];
  expect(foldShapeRuns(lines, false)).toEqual(lines);
  // Runs of one shape as well: a twelve-line run of one-character words.
  const run = [...Array.from({ length: 12 }, (_, i) => `x ${i % 10}`), "e 1", "f 2", "g 3"];
  const out = foldShapeRuns(run, false);
  expect(out.join("\n").length).toBeLessThanOrEqual(run.join("\n").length);
});

Deno.test("shape runs: rows of data whose first words differ only in digits never fold", () => {
  const tail = ["(14 rows)", "Time: 3.1 ms", "done"];
  const tables: string[][] = [
    // A table's rows keyed by a numbered name, numbered results, ids, a size column.
    Array.from({ length: 14 }, (_, i) => `row${i + 1} | alice${i} | ${100 + i * 7} | paid`),
    Array.from({ length: 14 }, (_, i) => `${i + 1}. result title number ${i} matched`),
    Array.from({ length: 14 }, (_, i) => `#${i * 13 + 4} open fix the parser ${i}`),
    Array.from({ length: 14 }, (_, i) => `${i + 4}.0K ./pkg${i} directory`),
  ];
  for (const rows of tables) {
    const lines = [...rows, ...tail];
    expect(foldShapeRuns(lines, false)).toEqual(lines);
    // Through the engine's generic pass as well (a command with no rule).
    const out = engine.filter("mytool report", lines.join("\n"), { failed: false }).text;
    expect(out).not.toMatch(/lines like these folded/);
    for (const row of rows) expect(out).toContain(row);
  }
  // Rows as blocks (a record of two lines) stay too.
  const records = Array.from({ length: 8 }, (_, i) => [`item${i} name widget`, `  price 1${i} EUR`])
    .flat();
  expect(foldShapeRuns([...records, ...tail], false)).toEqual([...records, ...tail]);
});

Deno.test("shape runs: status chatter whose first words move on as a clock or a counter folds", () => {
  const tail = ["Build finished.", "Artifacts: 3", "done"];
  const chatter: string[][] = [
    Array.from({ length: 14 }, (_, i) => `12:00:${String(i).padStart(2, "0")} fetched chunk ${i}`),
    Array.from({ length: 14 }, (_, i) => `2026-11-${10 + i} nightly build cached`),
    Array.from({ length: 14 }, (_, i) => `${i + 1}/14 compiling module${i}.c`),
    // The same first word on every line, whatever digits follow it.
    Array.from({ length: 14 }, (_, i) => `Compiling crate${i} v0.${i}.0`),
  ];
  for (const run of chatter) {
    const out = foldShapeRuns([...run, ...tail], false);
    expect(out).toEqual([run[0], "… 12 lines like these folded …", run[13], ...tail]);
  }
});

Deno.test("shape runs: apt's labelled request counter (Get:1, Get:2 …) is chatter and folds", () => {
  // apt-get run where no apt rule matches (sh -c, a build script): its downloads, numbered.
  const run = Array.from(
    { length: 30 },
    (_, i) =>
      `Get:${i + 1} http://deb.debian.org/debian bookworm/main amd64 lib${i}foo amd64 1.${i}-1 [${
        100 + i
      } kB]`,
  );
  const tail = [
    "Fetched 3,000 kB in 1s (3,000 kB/s)",
    "Selecting previously unselected package x.",
    "Done",
  ];
  expect(foldShapeRuns([...run, ...tail], false)).toEqual([
    run[0],
    "… 28 lines like these folded …",
    run[29],
    ...tail,
  ]);
});

/** An access log's requests, all `200` but the ones at `odd` (`500`). */
const requests = (n: number, odd: number[]) =>
  Array.from(
    { length: n },
    (_, i) => `10.0.0.${i % 250} - - "GET /item/${i} HTTP/1.1" ${odd.includes(i) ? 500 : 200} ${i}`,
  );

Deno.test("cut reader: a cut is handed on whole at its end, each line with whether it is odd", () => {
  const cut = requests(300, [40, 200]);
  const seen: [string, boolean][] = [];
  const reader = cutReader((line, odd) => seen.push([line, odd]));
  for (const line of cut) reader.push(line);
  // Held to be read: nothing is decided before the cut ends.
  expect(seen).toEqual([]);
  reader.finish();
  expect(seen.map(([line]) => line)).toEqual(cut);
  expect(seen.flatMap(([, odd], i) => odd ? [i] : [])).toEqual([40, 200]);
  expect([...oddInCut(cut)].sort((a, b) => a - b)).toEqual([40, 200]);
});

Deno.test("cut reader: a long cut is read at every line: the only setuid row of a 3,000-row listing is odd wherever it sits", () => {
  // `ls -la /usr/bin`'s rows: the one setuid row is the only line of its shape, at a line a read
  // over blocks of the cut (16 blocks of 64 lines spread over it) would not reach.
  const rows = Array.from(
    { length: 3_000 },
    (_, i) =>
      `-rwxr-xr-x 1 root root ${String(10_000 + i * 37).padStart(8)} Mar  3 12:${
        String(i % 60).padStart(2, "0")
      } tool${String(i).padStart(4, "0")}`,
  );
  rows[1_700] = "-rwsr-xr-x 1 root root   232416 Mar  3 12:20 sudo";
  expect([...oddInCut(rows)]).toEqual([1_700]);
  const kept = engine.filter("ls -la /usr/bin", ["total 123456", ...rows].join("\n")).text;
  expect(kept).toContain(rows[1_700]);
});

Deno.test("cut reader: past MAX_SHAPED_LINES, or without odd lines asked, the cut streams", () => {
  const cut = requests(MAX_SHAPED_LINES + 5, [40]);
  const seen: boolean[] = [];
  const reader = cutReader((_, odd) => seen.push(odd));
  cut.forEach((line) => reader.push(line));
  // Each line is handed on as it comes once the cut outgrew what is read: none is odd.
  expect(seen.length).toBe(cut.length);
  reader.finish();
  expect(seen.length).toBe(cut.length);
  expect(seen.includes(true)).toBe(false);

  const streamed: boolean[] = [];
  const plain = cutReader((_, odd) => streamed.push(odd), { odd: false });
  requests(300, [40]).forEach((line, i) => {
    plain.push(line);
    expect(streamed.length).toBe(i + 1);
  });
  plain.finish();
  expect(streamed.includes(true)).toBe(false);
});

Deno.test("a tool's steps announced with an ellipsis fold as one shape; its errors stay", () => {
  // doxygen 1.9.4 with WARN_AS_ERROR on a small C project: its errors first, then ~120 steps
  // (`Preprocessing a.h...`, `Building group list...`, `Generating file index...`).
  const input = read("doxygen_steps_errors.txt");
  const out = engine.filter("doxygen Doxyfile", input.join("\n"), { failed: true }).text.split(
    "\n",
  );
  for (const line of input.filter((l) => / error: |^ {2}parameter |^Exiting/.test(l))) {
    expect(out).toContain(line);
  }
  expect(out).not.toContain("Building group list...");
  expect(out).not.toContain("Computing class usage relations...");
  expect(out.length).toBeLessThan(input.length * 0.75);
  // A run that passed keeps its own shapes (apt's log: its long runs of one step fold as before).
  const passed = engine.filter("doxygen Doxyfile", input.join("\n"), { failed: false }).text;
  expect(passed).toContain("Building group list...");
});
