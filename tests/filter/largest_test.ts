/** The largest strategy: sized rows read by size, roots and non-row lines kept, one count line. */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";
import { parseSize } from "../../src/filter/strategies/largest.ts";

const ROW = "^(?P<size>\\S+)\\t(?P<path>.+)$";

function run(
  input: string,
  options: { keep?: number; min_lines?: number; entries?: string } = {},
) {
  const strategy = { type: "largest", row_pattern: ROW, keep: 2, min_lines: 0, ...options };
  const rule = compileRule({ name: "t", match: { prefix: "du" }, strategy }, "test");
  const out = new FilterEngine([rule], { security: false }).filter("du", input);
  return { text: out.text, confidence: out.stats.confidence };
}

Deno.test("parseSize reads du's units, plain counts and decimal commas; other text is null", () => {
  const table: [string, number | null][] = [
    ["512", 512],
    ["8.0K", 8 * 1024],
    ["2.8M", 2.8 * 1024 ** 2],
    ["1,5G", 1.5 * 1024 ** 3],
    ["4.0KiB", 4 * 1024],
    ["12kB", 12 * 1024],
    ["total", null],
    ["1.2.3", null],
  ];
  expect(table.map(([text]) => [text, parseSize(text)])).toEqual(table);
});

Deno.test("largest keeps the largest rows and every root in order, errors in place, and counts the rest", () => {
  const input = [
    "4.0K\tsite/a/x",
    "2.0M\tsite/a",
    "du: cannot read directory 'site/locked': Permission denied",
    "300K\tsite/b",
    "1.0M\tsite/c",
    "3.0M\tsite",
    "8.0K\tother",
  ];
  expect(run(input.join("\n"))).toEqual({
    text: [
      "2.0M\tsite/a",
      "du: cannot read directory 'site/locked': Permission denied",
      "3.0M\tsite",
      "8.0K\tother",
      "… (3 more entries, each at most 1.0M)",
    ].join("\n"),
    confidence: "full",
  });
});

Deno.test("largest passes short listings and listings of at most `keep` rows unchanged", () => {
  expect(run("1K\ta\n2K\tb\n3K\tc", { min_lines: 5 })).toEqual({
    text: "1K\ta\n2K\tb\n3K\tc",
    confidence: "fallback",
  });
  // Blank lines go even then.
  expect(run("1K\ta\n\n2K\tb", { min_lines: 5 })).toEqual({
    text: "1K\ta\n2K\tb",
    confidence: "full",
  });
  expect(run("1K\ta\nnot a row\n2K\tb")).toEqual({
    text: "1K\ta\nnot a row\n2K\tb",
    confidence: "fallback",
  });
});

Deno.test("largest keeps the first `keep` rows `entries` names whatever their size", () => {
  const input = [
    "1K\tdist/index.html",
    "9K\tdist/a.js",
    "1K\tdist/admin.html",
    "8K\tdist/b.js",
    "2K\tdist/c.js",
    "1K\tdist/help.html",
    "2K\tdist/d.js",
    "2K\tdist/e.js",
    "2K\tdist/f.js",
  ].join("\n");
  expect(run(input, { entries: "\\.html$" }).text).toBe([
    "1K\tdist/index.html",
    "9K\tdist/a.js",
    "1K\tdist/admin.html",
    "8K\tdist/b.js",
    "… (5 more entries, each at most 2K)",
  ].join("\n"));
});

Deno.test("largest refuses a row pattern without the size or path group, naming the fix", () => {
  expect(() =>
    compileRule({
      name: "t",
      match: { prefix: "du" },
      strategy: { type: "largest", row_pattern: "^(?P<size>\\S+)\\t(.+)$" },
    }, "test")
  ).toThrow(
    'strategy.row_pattern: has no named group "path"; add (?P<path>…) around the row\'s path',
  );
});

Deno.test("largest reads the groups in either spelling RE2 takes, (?P<size>…) or (?<size>…)", () => {
  const input = Array.from({ length: 5 }, (_, i) => `${i + 1}K\tsite/assets/dir${i}`).join("\n");
  const strategy = { type: "largest", row_pattern: "^(?<size>\\S+)\\t(?<path>.+)$", keep: 2 };
  const rule = compileRule({
    name: "t",
    match: { prefix: "du" },
    strategy: { ...strategy, min_lines: 0 },
  }, "test");
  expect(new FilterEngine([rule], { security: false }).filter("du", input).text).toBe(
    "4K\tsite/assets/dir3\n5K\tsite/assets/dir4\n… (3 more entries, each at most 3K)",
  );
});
