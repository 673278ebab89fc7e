/**
 * Front-end bundler builds (filters/bundler.toml) on real runs of vite 5, webpack 5, esbuild and
 * rollup 4 over one small app (tests/fixtures/filters/bundler-*): the per-asset size table keeps
 * its five largest rows with one line counting the rest, every warning and error stays, and so
 * does the verdict. The entry documents (`index.html`) stay whatever their size. A table of a few
 * assets is left whole.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { parseSize } from "../../src/filter/strategies/largest.ts";

const FIXTURES = new URL("../fixtures/filters/", import.meta.url);
const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const read = (path: string) => Deno.readTextFileSync(new URL(path, FIXTURES));
const MORE = /^… \((\d+) more entries, each at most (\S+(?: \S+)?)\)$/;

const CASES: { file: string; command: string; failed?: boolean; row: RegExp; kept: string[] }[] = [
  {
    file: "bundler-vite-assets/chunk_size_warning.in.txt",
    command: "npx vite build",
    row: /^(\S+) +([\d.]+ kB) │ gzip/,
    kept: [
      "dist/assets/index-Q7XMkmiB.js      919.66 kB │ gzip: 348.02 kB",
      "(!) Some chunks are larger than 500 kB after minification. Consider:",
      "- Adjust chunk size limit for this warning via build.chunkSizeWarningLimit.",
      "✓ built in 4.51s",
    ],
  },
  {
    file: "bundler-webpack-assets/size_limit_warnings.in.txt",
    command: "npm run build",
    row: /^ +asset (\S+\.[a-z]+) ([\d.]+ (?:bytes|KiB|MiB))/,
    kept: [
      "  asset main.45e4a4cd.js 898 KiB [emitted] [immutable] [minimized] [big] (name: main)",
      "WARNING in asset size limit: The following asset(s) exceed the recommended size limit (244 KiB).",
      "  main.45e4a4cd.js (898 KiB)",
      "webpack 5.113.0 compiled with 3 warnings in 12211 ms",
    ],
  },
  {
    file: "bundler-esbuild-assets/splitting.in.txt",
    command: "esbuild src/main.js --bundle --splitting --outdir=es-dist",
    row: /^ +(\S+) +([\d.]+(?:b|kb|mb)) /,
    kept: [
      "  es-dist/chunk-DI2IEB2U.js   1.0mb ⚠️",
      "  ...and 8 more output files...",
      "⚡ Done in 135ms",
    ],
  },
];

for (const { file, command, row, kept } of CASES) {
  Deno.test(`bundler: ${file} keeps the five largest assets, the warnings and the verdict`, () => {
    const input = read(file);
    const { text } = engine.filter(command, input, { failed: false });
    const out = text.split("\n");
    for (const line of kept) expect(out).toContain(line);
    // The entry documents stay besides the five largest.
    const isEntry = (line: string) => /\.html$/.test(row.exec(line)![1]);
    const rows = input.split("\n").filter((line) => row.test(line) && !isEntry(line));
    const keptRows = out.filter((line) => row.test(line) && !isEntry(line));
    expect(keptRows.length).toBe(5);
    const more = out.map((line) => MORE.exec(line)).find((m) => m !== null)!;
    expect(Number(more[1])).toBe(rows.length - 5);
    // No row that went is larger than the smallest kept row.
    const size = (line: string) => parseSize(row.exec(line)![2])!;
    const smallestKept = Math.min(...keptRows.map(size));
    for (const line of rows.filter((line) => !out.includes(line))) {
      expect(size(line)).toBeLessThanOrEqual(smallestKept);
    }
    expect(parseSize(more[2])).toBeLessThanOrEqual(smallestKept);
  });
}

// A build's entry documents are the pages the app is loaded from: a vite build of two pages over
// 24 route chunks each larger than either page, and webpack's html-webpack-plugin page under ten
// lazy chunks.
Deno.test("bundler: a build's entry documents stay whatever their size", () => {
  const vite = engine.filter(
    "npx vite build",
    read("bundler-vite-assets/multi_page_entries.in.txt"),
  )
    .text.split("\n");
  expect(vite.filter((line) => / │ gzip: /.test(line))).toEqual([
    "dist/admin/index.html                           0.34 kB │ gzip: 0.21 kB",
    "dist/index.html                                 0.41 kB │ gzip: 0.24 kB",
    "dist/assets/category10-D9Aap-Yo.js              0.71 kB │ gzip: 0.49 kB",
    "dist/assets/category11-CUafqucV.js              0.71 kB │ gzip: 0.49 kB",
    "dist/assets/category12-Dl4PFZQg.js              0.71 kB │ gzip: 0.49 kB",
    "dist/assets/category13-CQaHi0oa.js              0.71 kB │ gzip: 0.49 kB",
    "dist/assets/main-DKPs2kjM.js                    2.98 kB │ gzip: 1.14 kB",
  ]);
  expect(vite).toContain("… (24 more entries, each at most 0.71 kB)");
  const webpack = engine.filter("npx webpack", read("bundler-webpack-assets/html_entry.in.txt"))
    .text.split("\n");
  expect(webpack.filter((line) => line.startsWith("asset "))).toEqual([
    "asset app.f6eea3f2.js 3.22 KiB [emitted] [immutable] [minimized] (name: app)",
    "asset 841.73b6a598.js 591 bytes [emitted] [immutable] [minimized]",
    "asset 250.ecbf35dc.js 587 bytes [emitted] [immutable] [minimized]",
    "asset 305.232bcead.js 587 bytes [emitted] [immutable] [minimized]",
    "asset 806.fe675ad4.js 587 bytes [emitted] [immutable] [minimized]",
    "asset index.html 198 bytes [emitted] [minimized]",
  ]);
  expect(webpack).toContain("… (6 more entries, each at most 587 bytes)");
});

// webpack-cli's `--progress` without a terminal prints one `<s> [webpack.Progress] NN% …` line per
// step; a production build's concatenated modules (`./src/index.js + 5 modules`) are what it
// built: a passing run over two entries and a failing one with a missing import.
Deno.test("bundler: webpack --progress loses its progress lines and keeps its concatenated modules", () => {
  const progress = /\[webpack\.Progress\]/;
  const passed = engine.filter(
    "npx webpack --mode production --progress",
    read("bundler-progress/webpack_progress_concatenated.in.txt"),
  ).text.split("\n");
  expect(passed).toEqual([
    "asset main.js 741 bytes [emitted] [minimized] (name: main)",
    "  ./src/index.js + 5 modules 1.09 KiB [built] [code generated]",
    "webpack 5.113.0 compiled successfully in 1074 ms",
  ]);
  const failed = engine.filter(
    "npx webpack --mode production --progress",
    read("bundler-progress/webpack_progress_missing_module.in.txt"),
    { failed: true },
  ).text.split("\n");
  expect(failed.filter((line) => progress.test(line))).toEqual([]);
  expect(failed.slice(0, 5)).toEqual([
    "assets by status 482 bytes [cached] 1 asset",
    "  ./src2/index.js + 2 modules 447 bytes [built] [code generated]",
    "  ./src2/report.js + 3 modules 630 bytes [built] [code generated]",
    "ERROR in ./src2/index.js 3:0-46",
    "Module not found: Error: Can't resolve './lib/coupon.js' in '/tmp/fix23-wpprog/src2'",
  ]);
  expect(failed.at(-1)).toBe("webpack 5.113.0 compiled with 1 error in 522 ms");
});

Deno.test("bundler: failed builds keep their errors and the paths the resolver tried", () => {
  const webpack = engine.filter(
    "npx webpack",
    read("bundler-webpack-assets/module_not_found.in.txt"),
    { failed: true },
  ).text;
  expect(webpack).toContain("ERROR in ./src/wp_main.js 2:0-45");
  expect(webpack).toContain(
    "Module not found: Error: Can't resolve './missing-helper.js' in '/tmp/gen3/npm/app/src'",
  );
  expect(webpack).toContain("/tmp/gen3/npm/app/src/missing-helper.ts doesn't exist");
  expect(webpack).not.toContain("using description file");
  const vite = engine.filter("vite build", read("bundler-vite-assets/unresolved_import.in.txt"), {
    failed: true,
  }).text;
  expect(vite).toContain('Could not resolve "./lib/money.js" from "src/main.js"');
  expect(vite).toContain("x Build failed in 455ms");
  const rollup =
    engine.filter("npx rollup -c", read("bundler-progress/rollup_circular.in.txt")).text;
  expect(rollup).toContain("(!) Circular dependency");
  expect(rollup).toContain("src/circ/a.js -> src/circ/b.js -> src/circ/a.js");
  expect(rollup).toContain('dayjs (imported by "src/circ/b.js")');
});

Deno.test("bundler: a table of five assets or fewer stays whole", () => {
  const input = [
    "vite v5.4.21 building for production...",
    "✓ 3 modules transformed.",
    "dist/index.html                  0.24 kB │ gzip:  0.19 kB",
    "dist/assets/index-0N8X_cIM.css   0.04 kB │ gzip:  0.06 kB",
    "dist/assets/index-Q7XMkmiB.js   14.66 kB │ gzip:  5.02 kB",
    "✓ built in 451ms",
  ].join("\n");
  expect(engine.filter("vite build", input).text).toBe(input);
});

Deno.test("bundler: sizes read in every bundler's units", () => {
  expect([parseSize("919.66 kB"), parseSize("898 KiB"), parseSize("477 bytes"), parseSize("1.0mb")])
    .toEqual([919.66 * 1024, 898 * 1024, 477, 1024 * 1024]);
  expect(parseSize("340b")).toBe(340);
});
