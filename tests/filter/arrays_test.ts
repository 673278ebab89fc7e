/**
 * src/filter/arrays.ts and the generic folds that put their lines out through it: a fold that
 * changes nothing returns its input (no second array of a huge output), one that changes returns
 * exactly the lines it put out.
 */
import { expect } from "expect";
import { appendAll, FoldedLines, HeldLines } from "../../src/filter/arrays.ts";
import { foldAdvice } from "../../src/filter/generic_advice.ts";
import { foldRepeatedBlocks } from "../../src/filter/generic_blocks.ts";
import { foldCompilerNotes } from "../../src/filter/generic_compiler.ts";
import {
  dropRuntimeEcho,
  foldDataRuns,
  foldPathListing,
  foldStackFrames,
  foldTreeListing,
} from "../../src/filter/generic_folds.ts";
import { foldRoutineLogs } from "../../src/filter/generic_logs.ts";
import { foldRepeatedText } from "../../src/filter/generic_repeats.ts";
import { foldSanitizerMaps } from "../../src/filter/generic_sanitizer.ts";
import { foldShapeRuns } from "../../src/filter/generic_shapes.ts";
import { foldPassingTests } from "../../src/filter/generic_tests.ts";
import { foldUsage } from "../../src/filter/generic_usage.ts";

Deno.test("FoldedLines: the input itself while nothing differs, else exactly the lines put out", () => {
  const input = ["a", "b", "c"];
  const cases: { put: string[]; same: boolean }[] = [
    { put: ["a", "b", "c"], same: true },
    { put: ["a", "b"], same: false },
    { put: ["a", "c"], same: false },
    { put: ["a", "b", "c", "d"], same: false },
    { put: ["x", "y", "z", "w", "v"], same: false },
    { put: [], same: false },
  ];
  for (const { put, same } of cases) {
    const out = new FoldedLines(input);
    for (const line of put) out.push(line);
    const lines = out.lines();
    expect(lines).toEqual(put);
    expect(lines === input).toBe(same);
  }
  expect(input).toEqual(["a", "b", "c"]);
});

Deno.test("appendAll: a range of items, one by one, past what a spread takes", () => {
  const items = Array.from({ length: 300_000 }, (_, i) => i);
  expect(appendAll([-1], items, 2, 5)).toEqual([-1, 2, 3, 4]);
  expect(appendAll([], items).length).toBe(300_000);
});

Deno.test("a generic fold that folds nothing returns its input, not a copy", () => {
  // Lines no fold reads as its shape: prose, numbers, one-character lines, a failure.
  const lines: string[] = [];
  for (let i = 0; i < 500; i++) {
    lines.push(`the parser read record ${i} of the batch`, "a", `${i * 7}`, "error: it broke");
  }
  const folds: [string, (l: readonly string[]) => readonly string[]][] = [
    ["foldUsage", (l) => foldUsage(l, { failed: true, command: "tool" })],
    ["foldAdvice", (l) => foldAdvice(l)],
    ["foldSanitizerMaps", foldSanitizerMaps],
    ["dropRuntimeEcho", dropRuntimeEcho],
    ["foldStackFrames", foldStackFrames],
    ["foldCompilerNotes", foldCompilerNotes],
    ["foldRepeatedBlocks", foldRepeatedBlocks],
    ["foldRoutineLogs", (l) => foldRoutineLogs(l, true)],
    ["foldRepeatedText", foldRepeatedText],
    ["foldPathListing", (l) => foldPathListing(l)],
    ["foldTreeListing", (l) => foldTreeListing(l)],
    ["foldDataRuns", foldDataRuns],
    ["foldPassingTests", (l) => foldPassingTests(l, true)],
    ["foldShapeRuns", (l) => foldShapeRuns(l, false)],
  ];
  const copied = folds.filter(([, fold]) => fold(lines) !== lines).map(([name]) => name);
  expect(copied).toEqual([]);
});

Deno.test("HeldLines gives its lines back in order, across chunks, once", () => {
  const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i}`);
  const held = new HeldLines();
  for (const line of lines) held.push(line);
  expect(held.length).toBe(lines.length);
  expect(held.take()).toEqual(lines);
  // Taken: nothing is held any more.
  expect(held.length).toBe(0);
  expect(held.take()).toEqual([]);
  for (const line of lines.slice(0, 16_385)) held.push(line);
  const drained: string[] = [];
  held.drain((line) => drained.push(line));
  expect(drained).toEqual(lines.slice(0, 16_385));
  held.push("again");
  expect(held.take()).toEqual(["again"]);
});
