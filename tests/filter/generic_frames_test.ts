/**
 * Code frames of a flood of one message (src/filter/generic_frames.ts): at four places or more,
 * the first place keeps its frame and notes, the later ones keep their message, location and
 * labels. The outputs are esbuild 0.24's (`--bundle --log-limit=0`, twelve pages importing two
 * missing modules; the bundler rules leave its diagnostics to the pass after them) and rustc
 * 1.x's on five mismatched types (no rule reads rustc run directly).
 */
import { expect } from "expect";
import { FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { foldRepeatedFrames } from "../../src/filter/generic_frames.ts";

const ESBUILD = (await Deno.readTextFile(
  new URL("../fixtures/generic/esbuild_unresolved.txt", import.meta.url),
)).split("\n");

const RUSTC = [
  "error[E0308]: mismatched types",
  " --> main.rs:3:18",
  "  |",
  '3 |     let a: i32 = "one";',
  "  |            ---   ^^^^^ expected `i32`, found `&str`",
  "  |            |",
  "  |            expected due to this",
  "",
  "error[E0308]: mismatched types",
  " --> main.rs:4:18",
  "  |",
  '4 |     let b: i32 = "two";',
  "  |            ---   ^^^^^ expected `i32`, found `&str`",
  "  |            |",
  "  |            expected due to this",
  "",
  "error[E0308]: mismatched types",
  " --> main.rs:5:18",
  "  |",
  '5 |     let c = take("three");',
  "  |             ---- ^^^^^^^ expected `i32`, found `&str`",
  "  |             |",
  "  |             arguments to this function are incorrect",
  "  |",
  "note: function defined here",
  " --> main.rs:1:4",
  "  |",
  "1 | fn take(n: i32) -> i32 { n }",
  "  |    ^^^^ ------",
  "",
  "error[E0308]: mismatched types",
  " --> main.rs:6:17",
  "  |",
  "6 |     let d: u8 = 300u16;",
  "  |            --   ^^^^^^ expected `u8`, found `u16`",
  "  |            |",
  "  |            expected due to this",
  "  |",
  "help: change the type of the numeric literal from `u16` to `u8`",
  "  |",
  "6 -     let d: u8 = 300u16;",
  "6 +     let d: u8 = 300u8;",
  "  |",
  "",
  "error[E0308]: mismatched types",
  " --> main.rs:7:18",
  "  |",
  "7 |     let e: i32 = 4.5;",
  "  |            ---   ^^^ expected `i32`, found floating-point number",
  "  |            |",
  "  |            expected due to this",
  "",
  "error: aborting due to 5 previous errors",
  "",
  "For more information about this error, try `rustc --explain E0308`.",
];

const { engine: builtin } = await loadFilterEngine(defaultConfig(), { configDir: "/nonexistent" });

Deno.test("esbuild: the first place of each unresolved import keeps its frame and hint, the others their message and location", () => {
  const out = builtin.filter(
    "esbuild src/index.ts --bundle --log-limit=0 --outfile=dist/app.js",
    ESBUILD.join("\n"),
    { failed: true },
  ).text.split("\n");
  // Every message and location line stays, with the count.
  for (const line of ESBUILD) {
    if (/^✘ |^ {4}src\/\S+:\d+:\d+:$|^\d+ errors$/.test(line)) expect(out).toContain(line);
  }
  expect(out.slice(0, 15)).toEqual([
    '✘ [ERROR] Could not resolve "./theme.css"',
    "    src/index.ts:1:7:",
    '      1 │ import "./theme.css";',
    "        ╵        ~~~~~~~~~~~~~",
    '✘ [ERROR] Could not resolve "../widgets/Card"',
    "    src/pages/p12.ts:1:21:",
    '      1 │ import { Card } from "../widgets/Card";',
    "        ╵                      ~~~~~~~~~~~~~~~~~",
    "  … 11 more places saying this are shown without the quoted source",
    '✘ [ERROR] Could not resolve "@lib/format"',
    "    src/pages/p12.ts:2:20:",
    '      2 │ import { fmt } from "@lib/format";',
    "        ╵                     ~~~~~~~~~~~~~",
    '  You can mark the path "@lib/format" as external to exclude it from the bundle, which will remove this error and leave the unresolved path in the bundle.',
    "  … 11 more places saying this are shown without the quoted source",
  ]);
  // The later places: no quote, no copy of the hint.
  expect(out.filter((line) => line.includes(" │ import { Card }"))).toHaveLength(1);
  expect(out.filter((line) => line.startsWith("  You can mark the path"))).toHaveLength(1);
});

Deno.test("rustc: a later mismatched type keeps its labels (what differs there), its quoted line goes", () => {
  const engine = new FilterEngine([], { security: false });
  const out = engine.filter("rustc --edition 2021 main.rs -o /dev/null", RUSTC.join("\n"), {
    failed: true,
  }).text.split("\n");
  expect(out.slice(0, 12)).toEqual([
    "error[E0308]: mismatched types",
    " --> main.rs:3:18",
    '3 |     let a: i32 = "one";',
    "  |            ---   ^^^^^ expected `i32`, found `&str`",
    "  |            expected due to this",
    "  … 4 more places saying this are shown without the quoted source",
    "",
    "error[E0308]: mismatched types",
    " --> main.rs:4:18",
    "  |            ---   ^^^^^ expected `i32`, found `&str`",
    "  |            expected due to this",
    "",
  ]);
  // The note's frame is another message's: it stays; so does the help's suggested edit.
  expect(out).toContain("1 | fn take(n: i32) -> i32 { n }");
  expect(out).toContain("6 +     let d: u8 = 300u8;");
  expect(out).toContain("  |            --   ^^^^^^ expected `u8`, found `u16`");
});

Deno.test("three places saying one message keep every frame; a fourth folds the later ones", () => {
  // The first three mismatched types, each whole, and the abort line.
  const three = RUSTC.slice(0, RUSTC.indexOf(" --> main.rs:6:17") - 1).concat(
    "error: aborting due to 3 previous errors",
  );
  expect(foldRepeatedFrames(three)).toBe(three);
  // The fourth (`let d`, with its help's suggested edit) makes a flood: from the second place on
  // the quoted lines go.
  const four = RUSTC.slice(0, RUSTC.indexOf(" --> main.rs:7:18") - 1).concat(
    "error: aborting due to 4 previous errors",
  );
  // The second, third and fourth places lose their quoted line and their frame's bare rows;
  // their labels stay.
  const gone = new Set([10, 11, 13, 18, 19, 21, 23, 32, 33, 35, 37]);
  expect(foldRepeatedFrames(four)).toEqual([
    ...four.slice(0, 7),
    "  … 3 more places saying this are shown without the quoted source",
    ...four.slice(7).filter((_, i) => !gone.has(i + 7)),
  ]);
});

Deno.test("phpcs's `4 | WARNING | [ ] …` rows are a table, no frame: five files saying one warning keep every row", async () => {
  // phpcs 3.7 --standard=PSR12 on five alike classes: each file's table has the same rows.
  const phpcs = (await Deno.readTextFile(
    new URL("../fixtures/generic/phpcs_psr12_table.txt", import.meta.url),
  )).split("\n");
  const rows = phpcs.filter((line) => /^ {0,4}\d{1,7} \| (ERROR|WARNING) /.test(line));
  expect(rows.filter((line) => line.includes("| WARNING |"))).toHaveLength(5);
  // Through the phpcs rule (its dash rulers gone, each file's count line right over its table)
  // and the pass after it, every finding row stays.
  const out = builtin.filter("phpcs --standard=PSR12 src", phpcs.join("\n"), { failed: true })
    .text.split("\n");
  expect(rows.filter((row) => !out.includes(row))).toEqual([]);
  expect(out.filter((line) => line.includes("without the quoted source"))).toEqual([]);
});
