/** The join_leaves strategy: a directory's files on one line, directories on their own. */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";

function run(input: string[], perLine = 20) {
  const strategy = { type: "join_leaves", per_line: perLine };
  const rule = compileRule({ name: "t", match: { prefix: "tree" }, strategy }, "test");
  const out = new FilterEngine([rule], { security: false }).filter("tree", input.join("\n"));
  return { text: out.text.split("\n"), confidence: out.stats.confidence };
}

Deno.test("join_leaves joins consecutive files of a directory, in order, per_line names a line", () => {
  expect(run([
    "app",
    "├── a.ts",
    "├── b.ts",
    "├── lib",
    "│   ├── -rf",
    "│   ├── x.ts",
    "│   └── y.ts",
    "└── z.ts",
    "",
    "2 directories, 6 files",
  ], 2)).toEqual({
    text: [
      "app",
      "├── a.ts, b.ts",
      "├── lib",
      // A name starting with `-` keeps it (the connector is read a unit at a time).
      "│   ├── -rf, x.ts",
      "│   └── y.ts",
      "└── z.ts",
      "",
      "2 directories, 6 files",
    ],
    confidence: "full",
  });
});

Deno.test("join_leaves reads indentation by spaces and ASCII connectors; nothing to join is a Fallback", () => {
  expect(run(["src", "|-- a", "|   `-- b", "`-- c"]).text).toEqual([
    "src",
    "|-- a",
    "|   `-- b",
    "`-- c",
  ]);
  expect(run(["src", "  a", "  b", "  d", "    e"]).text).toEqual([
    "src",
    "  a, b",
    "  d",
    "    e",
  ]);
  expect(run(["one", "  two"])).toEqual({ text: ["one", "  two"], confidence: "fallback" });
});
