/**
 * The empty gutter rows of compiler code frames (src/filter/generic_gutters.ts): they go inside a
 * frame that quotes source, every row with text stays. The output is rustc 1.9x's on a file with
 * a moved value and two borrows (no rule reads rustc run directly).
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { dropEmptyGutters } from "../../src/filter/generic_gutters.ts";

const engine = new FilterEngine([], { security: false });

const RUSTC = [
  "error[E0382]: borrow of moved value: `v`",
  " --> m.rs:6:26",
  "  |",
  "4 |     let v = vec![1, 2, 3];",
  "  |         - move occurs because `v` has type `Vec<i32>`, which does not implement the `Copy` trait",
  "5 |     let moved = v;",
  "  |                 - value moved here",
  '6 |     println!("{}", total(&v));',
  "  |                          ^^ value borrowed here after move",
  "  |",
  "help: consider cloning the value if the performance cost is acceptable",
  "  |",
  "5 |     let moved = v.clone();",
  "  |                  ++++++++",
  "",
  "error[E0502]: cannot borrow `m` as immutable because it is also borrowed as mutable",
  "  --> m.rs:13:14",
  "   |",
  "12 |     let r = &mut m;",
  "   |             ------ mutable borrow occurs here",
  "13 |     let r2 = &m;",
  "   |              ^^ immutable borrow occurs here",
  '14 |     r.insert("b", 2);',
  "   |     - mutable borrow later used here",
];

Deno.test("a code frame's empty gutter rows go; its source, labels and notes stay as printed", () => {
  const out = engine.filter("rustc m.rs", RUSTC.join("\n"), { failed: true }).text.split("\n");
  expect(out).toEqual(RUSTC.filter((l) => !/^\s*\|\s*$/.test(l)));
  expect(out.length).toBe(RUSTC.length - 4);
});

Deno.test("gutter rows stay outside a frame that quotes source", () => {
  // A table's or a drawing's lone bars are no compiler frame.
  const table = ["| a | b |", "|", "| 1 | 2 |"];
  expect(dropEmptyGutters(table)).toBe(table);
  const tree = ["root", "│", "├── src", "│", "└── README.md"];
  expect(dropEmptyGutters(tree)).toBe(tree);
  // A frame with no numbered source row (a label drawing alone) stays whole.
  const labels = [" --> m.rs:1:1", "  |", "  = note: x"];
  expect(dropEmptyGutters(labels)).toBe(labels);
  // Connector rows (`  |   |`) between a span and its label go with the empty ones.
  const connector = [
    "4 |  let s: String = 5;",
    "  |         ------   ^ expected",
    "  |         |",
    "  |         expected due to this",
  ];
  expect(dropEmptyGutters(connector)).toEqual([connector[0], connector[1], connector[3]]);
});
