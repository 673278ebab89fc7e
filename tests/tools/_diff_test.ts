import { expect } from "expect";
import { unifiedDiff } from "../../src/tools/_diff.ts";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`).join("\n") + "\n";

Deno.test("unifiedDiff: identical texts give an empty diff", () => {
  expect(unifiedDiff("a\n", "a\n", { path: "f" })).toBe("");
});

Deno.test("unifiedDiff: two distant changes make two hunks with 3 lines of context", () => {
  const old = lines(20);
  const next = old.replace("l2\n", "L2\n").replace("l18\n", "L18\n");
  expect(unifiedDiff(old, next, { path: "f" })).toBe(
    [
      "--- a/f",
      "+++ b/f",
      "@@ -1,5 +1,5 @@",
      " l1",
      "-l2",
      "+L2",
      " l3",
      " l4",
      " l5",
      "@@ -15,6 +15,6 @@",
      " l15",
      " l16",
      " l17",
      "-l18",
      "+L18",
      " l19",
      " l20",
    ].join("\n"),
  );
});

Deno.test("unifiedDiff: close changes merge into one hunk", () => {
  const old = lines(10);
  const next = old.replace("l3\n", "").replace("l7\n", "l7\nnew\n");
  expect(unifiedDiff(old, next, { path: "f" })).toBe(
    [
      "--- a/f",
      "+++ b/f",
      "@@ -1,10 +1,10 @@",
      " l1",
      " l2",
      "-l3",
      " l4",
      " l5",
      " l6",
      " l7",
      "+new",
      " l8",
      " l9",
      " l10",
    ].join("\n"),
  );
});

Deno.test("unifiedDiff: creation, deletion and missing final newline", () => {
  expect(unifiedDiff("", "a\nb\n", { path: "f" })).toBe(
    "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+a\n+b",
  );
  expect(unifiedDiff("a\n", "", { path: "f" })).toBe("--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-a");
  expect(unifiedDiff("a\nb\n", "a\nb", { path: "f" })).toBe(
    "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file",
  );
});

Deno.test("unifiedDiff: a huge rewrite falls back to one replaced block", () => {
  const a = Array.from({ length: 3000 }, (_, i) => `a${i}`).join("\n") + "\n";
  const b = Array.from({ length: 3000 }, (_, i) => `b${i}`).join("\n") + "\n";
  const d = unifiedDiff(a, b, { path: "f" }).split("\n");
  expect(d[2]).toBe("@@ -1,3000 +1,3000 @@");
  expect(d.length).toBe(3 + 6000);
  expect(d.filter((l) => l.startsWith("-")).length).toBe(3001); // 3000 + the "---" header
});
