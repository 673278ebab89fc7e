/**
 * Outputs the generic pass read alone until rules were written for them from real captures
 * (bench/corpus, `capture.sh buildtools`): a TeX engine's log, cppcheck's findings, meson's
 * configure and compile steps, and a sqlite3 script run with `.echo on`. Each keeps what an
 * engineer fixing the run reads and drops what the tool printed about itself.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const corpus = async (path: string) => {
  const base = new URL(`../../bench/corpus/${path}`, import.meta.url);
  const meta = JSON.parse(await Deno.readTextFile(new URL(`${base}.json`)));
  const text = await Deno.readTextFile(new URL(`${base}.txt`));
  const signals = (await Deno.readTextFile(new URL(`${base}.signals`))).split("\n")
    .filter((line) => line !== "");
  const outcome = engine.filter(meta.command, text, { failed: meta.exit_code !== 0 });
  return { text, signals, outcome, lines: outcome.text.split("\n") };
};

Deno.test("strip_noise's failure_context.after_max keeps that many lines under a failing one", () => {
  const rule = compileRule({
    name: "t",
    match: { prefix: "cmd" },
    strategy: {
      type: "strip_noise",
      patterns: ["^\\s*$"],
      results: ["^do "],
      max_results: 1,
      results_fold: "… {n} folded …",
      failure_context: { failure: "^failed:", after: "^do ", after_max: 1 },
    },
  }, "test");
  const run = new FilterEngine([rule], { security: false, guard: false });
  const step = (name: string) => `do the step called ${name}`;
  const input = [step("a"), step("b"), "failed: b", step("b"), step("c"), step("d"), "done"];
  expect(run.filter("cmd", input.join("\n"), { failed: true }).text.split("\n")).toEqual([
    "… 2 folded …",
    "failed: b",
    step("b"),
    "… 2 folded …",
    "done",
  ]);
});

Deno.test("pdflatex keeps errors with their l.N lines, warnings and the output line; loading folds", async () => {
  for (const path of ["misc/pdflatex_warnings", "misc/pdflatex_missing_input"]) {
    const { text, signals, outcome, lines } = await corpus(path);
    expect(outcome.rules).toEqual(["latex"]);
    for (const signal of signals) expect(outcome.text).toContain(signal);
    // Every error, its context line and every warning stays; no package or font file does.
    for (const line of text.split("\n")) {
      if (/^(! |l\.\d+ |LaTeX Warning: |Overfull )/.test(line)) expect(lines).toContain(line);
    }
    expect(lines.filter((line) => line.includes("/usr/share/texlive/"))).toEqual([]);
    expect(lines.length).toBeLessThan(text.split("\n").length / 2);
  }
});

Deno.test("a TeX engine's fonts generated on first use (mktexpk, METAFONT) fold", () => {
  const run = [
    "[2] (./report2.aux)",
    "kpathsea: Running mktexpk --mfmode / --bdpi 600 --mag 1+0/600 --dpi 600 ecbx1200",
    "mktexpk: Running mf-nowin -progname=mf \\mode:=ljfour; mag:=1+0/600; nonstopmode; input ecbx1200",
    "This is METAFONT, Version 2.71828182 (TeX Live 2022/Debian) (preloaded base=mf)",
    "",
    "(/usr/share/texlive/texmf-dist/fonts/source/jknappen/ec/ecbx1200.mf",
    " Ok (/usr/share/texlive/texmf-dist/fonts/source/jknappen/ec/exaccess.mf",
    " Ok [192] [193] [194] [195] [196] [197] [198] [199] [200] [201] [202] [203]",
    "[204] [205] [206] [207] [208] [209] [210] [211] [212] [213] [214] [215]",
    "[121] [122])",
    " Ok) ) ) )",
    "(some charht values had to be adjusted by as much as 0.07599pt)",
    "Font metrics written on ecbx1200.tfm.",
    "Output written on ecbx1200.600gf (256 characters, 59220 bytes).",
    "mktexpk: /root/.texlive2022/texmf-var/fonts/pk/ljfour/jknappen/ec/ecbx1200.600pk: successfully generated.",
    " </root/.texlive2022/texmf-var/fonts/pk/ljfour/",
    "jknappen/ec/ecrm1728.600pk></usr/share/texlive/texmf-dist/fonts/type1/public/amsfont",
    "s/cm/cmex10.pfb></usr/share/texlive/texmf-dist/fonts/type1/public/amsfonts/cm/c",
    "Output written on report2.pdf (2 pages, 82410 bytes).",
    "Transcript written on report2.log.",
  ].join("\n");
  expect(engine.filter("pdflatex report2.tex", run, { failed: false }).text.split("\n")).toEqual([
    "[2] (./report2.aux)",
    "Output written on report2.pdf (2 pages, 82410 bytes).",
    "Transcript written on report2.log.",
    "(17 lines of TeX's banner, package and font loading not shown)",
  ]);
});

Deno.test("a TeX run's page numbers before a file it opens keep that line: an error names no file", () => {
  // pdflatex on a 21-page main.tex inputting ch2.tex, where l.3 is an undefined macro.
  const run = [
    "(./main.aux) [1{/var/lib/texmf/fonts/map/pdftex/updmap/pdftex.map}] [2]",
    "[3] [4] [5] [6] [7] [8] [9] [10] [11] [12] [13] [14] [15] [16] [17] [18]",
    "[19] [20] [21] (./ch2.tex",
    "! Undefined control sequence.",
    "l.3 \\undefinedmacro",
    "                   ",
    ") [22] (./main.aux) )",
    "(see the transcript file for additional information)",
    "Output written on main.pdf (22 pages, 31462 bytes).",
    "Transcript written on main.log.",
  ].join("\n");
  const lines = engine.filter("pdflatex -interaction=nonstopmode main.tex", run, { failed: true })
    .text.split("\n");
  expect(lines).toContain("[19] [20] [21] (./ch2.tex");
  expect(lines).not.toContain(
    "[3] [4] [5] [6] [7] [8] [9] [10] [11] [12] [13] [14] [15] [16] [17] [18]",
  );
});

Deno.test("a TeX run given an absolute path keeps the project's files it opens: TeX's own go", () => {
  // `pdflatex /tmp/r11/tex/main.tex` (editors pass the absolute path), main.tex inputting ch2.tex.
  const run = [
    "(/tmp/r11/tex/main.tex",
    "LaTeX2e <2022-11-01> patch level 1",
    "(/usr/share/texlive/texmf-dist/tex/latex/base/article.cls",
    "Document Class: article 2022/07/02 v1.4n Standard LaTeX document class",
    "(/usr/share/texlive/texmf-dist/tex/latex/base/size10.clo))",
    "(/usr/share/texlive/texmf-dist/tex/latex/l3backend/l3backend-pdftex.def)",
    "No file main.aux.",
    "(/tmp/r11/tex/ch2.tex",
    "! Undefined control sequence.",
    "l.3 \\undefinedmacro",
    ") [1{/var/lib/texmf/fonts/map/pdftex/updmap/pdftex.map}] (./main.aux) )",
    "Output written on main.pdf (1 page, 21587 bytes).",
  ].join("\n");
  const lines = engine.filter("pdflatex -interaction=nonstopmode /tmp/r11/tex/main.tex", run, {
    failed: true,
  }).text.split("\n");
  expect(lines).toContain("(/tmp/r11/tex/ch2.tex");
  expect(lines).toContain("(/tmp/r11/tex/main.tex");
  expect(lines.filter((line) => line.includes("/usr/share/texlive/"))).toEqual([]);
});

Deno.test("cppcheck keeps each finding and its notes in order; code, carets and progress go", async () => {
  const { text, signals, outcome, lines } = await corpus("native/cppcheck_enable_all");
  expect(outcome.rules).toEqual(["cppcheck"]);
  for (const signal of signals) expect(outcome.text).toContain(signal);
  // Every finding and note stays, but a note at its finding's location saying the finding's
  // message again (the generic compiler pass drops such restatements).
  let last = "";
  const findings = text.split("\n").filter((line) => {
    const m = /^(\S+:\d+:\d+): (\w+): (.*?)(?: \[\w+\])?$/.exec(line);
    if (!m) return false;
    if (m[2] !== "note") last = `${m[1]} ${m[3]}`;
    return m[2] !== "note" || `${m[1]} ${m[3]}` !== last;
  });
  expect(lines).toEqual(findings);
});

Deno.test("meson setup keeps the failed check, the error and the log's path; passed checks go", async () => {
  const { signals, outcome, lines } = await corpus("native/meson_setup_missing_dep");
  expect(outcome.rules).toEqual(["meson"]);
  for (const signal of signals) expect(outcome.text).toContain(signal);
  expect(lines.filter((line) => line.includes(": YES"))).toEqual([]);
});

Deno.test("meson setup keeps a tool it did not find: only the ones found go", () => {
  // meson 1.0.1 setup with neither pkg-config nor cmake on PATH.
  const run = [
    "Host machine cpu: x86_64",
    "Found pkg-config: /usr/bin/pkg-config (1.8.1)",
    "Found CMake: /usr/bin/cmake (3.25.1)",
    "Found ninja-1.11.1 at /usr/bin/ninja",
    "Did not find pkg-config by name 'pkg-config'",
    "Found Pkg-config: NO",
    "Did not find CMake 'cmake'",
    "Found CMake: NO",
    "Run-time dependency zlib-nothere found: NO ",
  ].join("\n");
  const { text, rules } = engine.filter("meson setup build", run, { failed: true });
  expect(rules).toEqual(["meson"]);
  expect(text.split("\n")).toEqual([
    "Did not find pkg-config by name 'pkg-config'",
    "Found Pkg-config: NO",
    "Did not find CMake 'cmake'",
    "Found CMake: NO",
    "Run-time dependency zlib-nothere found: NO ",
  ]);
});

Deno.test("meson compile is read by the make/ninja rules: the failed step and its diagnostics stay", async () => {
  const { signals, outcome, lines } = await corpus("native/meson_compile_error");
  expect(outcome.rules).toEqual(["make", "meson"]);
  for (const signal of signals) expect(outcome.text).toContain(signal);
  expect(lines.filter((line) => line.startsWith("INFO: "))).toEqual([]);
});

Deno.test("sqlite3 with .echo on folds the echoed statements and keeps the one that failed", async () => {
  for (const path of ["db/sqlite_echo_fk_error", "db/sqlite_echo_seed_errors"]) {
    const { text, signals, outcome, lines } = await corpus(path);
    expect(outcome.rules).toEqual(["sqlite3", "sqlite3-script"]);
    for (const signal of signals) expect(lines).toContain(signal.trimEnd());
    expect(lines.length).toBeLessThan(text.split("\n").length / 5);
  }
  const { lines } = await corpus("db/sqlite_echo_seed_errors");
  // The statement after the failed one is no context: it folds with the rest.
  expect(lines).not.toContain("INSERT INTO t VALUES (51, 'v51');");
});

Deno.test("sqlite3 without .echo keeps a query's rows whatever they start with", () => {
  const rows = ["insert|12", "update|3", "delete|0", "create|1", "pragma|2", "select|40"].join(
    "\n",
  );
  expect(engine.filter("sqlite3 app.db 'SELECT kind, n FROM ops'", rows, { failed: false }).text)
    .toBe(rows);
});

Deno.test("sqlite3 reading a query from input keeps rows that start with a dot: no dot-command", () => {
  // `sqlite3 files.db < small.sql`, small.sql a SELECT of file names: rows, not echoed commands.
  const rows = [".editorconfig", ".env", ".gitignore", ".profile", "main.ts"].join("\n");
  for (
    const command of [
      "sqlite3 files.db < small.sql",
      'sqlite3 files.db "SELECT name FROM files WHERE size < 1024 ORDER BY name"',
    ]
  ) {
    expect(engine.filter(command, rows, { failed: false }).text).toBe(rows);
  }
  // Echoed dot-commands still fold with the statements.
  const echoed = [".bail on", ".mode csv", ".headers on", "INSERT INTO t VALUES (1);", "done"];
  expect(engine.filter("sqlite3 t.db < seed.sql", echoed.join("\n"), { failed: false }).text)
    .toBe(["… 4 echoed statements …", "done"].join("\n"));
});

Deno.test("sqlite3 with a '<' inside its quoted query reads no script: the query's rows stay", () => {
  const command =
    "sqlite3 app.db \"SELECT printf('INSERT INTO t2 VALUES (%d)', id) FROM t WHERE id < 9\"";
  expect(engine.match(command).map((rule) => rule.name)).toEqual(["sqlite3"]);
  expect(engine.match("sqlite3 t.db < seed.sql").map((rule) => rule.name))
    .toEqual(["sqlite3", "sqlite3-script"]);
  // Echo turned on on the command line: `sqlite3-echo` folds without waiting for an echoed line.
  for (
    const script of [
      "sqlite3 -cmd '.echo on' t.db < seed.sql",
      "sqlite3 -echo t.db <seed.sql",
      "sqlite3 --echo t.db < seed.sql",
    ]
  ) {
    expect(engine.match(script).map((rule) => rule.name))
      .toEqual(["sqlite3", "sqlite3-script", "sqlite3-echo"]);
  }
  expect(engine.match("sqlite3 -echoes t.db < seed.sql").map((rule) => rule.name))
    .toEqual(["sqlite3", "sqlite3-script"]);
});

Deno.test("sqlite3's .schema and .dump print statements as content: none folds", () => {
  const ddl = Array.from(
    { length: 6 },
    (_, i) => `CREATE TABLE t${i} (id INTEGER PRIMARY KEY, name TEXT NOT NULL);`,
  ).join("\n");
  for (const command of ["sqlite3 app.db .schema", "sqlite3 app.db .dump"]) {
    expect(engine.filter(command, ddl, { failed: false }).text).toBe(ddl);
  }
});

Deno.test("sqlite3 script without echo keeps `.mode insert` rows: they are the answer", () => {
  // sqlite3 3.40.1, `sqlite3 t.db < dump.sql`, dump.sql creating t, inserting five rows, then
  // `.mode insert t` and `select * from t;` — no `.echo on`: every line printed is a row.
  const rows = [1, 2, 3, 4, 5].map((n) => `INSERT INTO t VALUES(${n},'r${n}');`);
  for (const command of ["sqlite3 t.db < dump.sql", "sqlite3 t.db < export.sql > /dev/tty"]) {
    expect(engine.filter(command, rows.join("\n"), { failed: false }).text).toBe(rows.join("\n"));
  }
});

Deno.test("sqlite3 script folds statements only on evidence of echo", () => {
  const inserts = [1, 2, 3, 4, 5].map((n) => `INSERT INTO t VALUES (${n}, 'r${n}');`);
  const cases: [string, string[], string[]][] = [
    // `.dump` in a script without echo prints statements as content: they stay.
    ["sqlite3 t.db < dump.sql", [
      "PRAGMA foreign_keys=OFF;",
      "BEGIN TRANSACTION;",
      ...inserts,
      "COMMIT;",
    ], [
      "PRAGMA foreign_keys=OFF;",
      "BEGIN TRANSACTION;",
      ...inserts,
      "COMMIT;",
    ]],
    // An echoed query above its rows: echo is on, the statements before it fold.
    ["sqlite3 t.db < seed.sql", [...inserts, "SELECT count(*) FROM t;", "5"], [
      "… 5 echoed statements …",
      "SELECT count(*) FROM t;",
      "5",
    ]],
    // Statements as typed (sqlite3 prints its own in upper case): echo.
    ["sqlite3 t.db < seed.sql", ["create table t(a, b);", ...inserts], ["… 6 echoed statements …"]],
    // An error: a script without echo prints it alone, so statements around it were echoed (the
    // one right above it, which may be the one that failed, stays).
    ["sqlite3 t.db < seed.sql", [
      ...inserts,
      "Runtime error near line 7: FOREIGN KEY constraint failed (19)",
    ], [
      "… 4 echoed statements …",
      inserts[4],
      "Runtime error near line 7: FOREIGN KEY constraint failed (19)",
    ]],
    // `-echo` on the command line says so itself.
    ["sqlite3 -echo t.db < seed.sql", inserts, ["… 5 echoed statements …"]],
    ["sqlite3 -cmd '.echo on' t.db < seed.sql", inserts, ["… 5 echoed statements …"]],
  ];
  for (const [command, input, expected] of cases) {
    expect([command, engine.filter(command, input.join("\n"), { failed: false }).text.split("\n")])
      .toEqual([command, expected]);
  }
});
