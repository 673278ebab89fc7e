import { expect } from "expect";
import { fileTest, okText } from "../_support/file_tools.ts";

fileTest("write: creates a file and its parents, reporting bytes", async (h) => {
  const r = await h.dispatch("write", { path: "new/dir/a.txt", content: "héllo\n" });
  expect(okText(r)).toBe('Created "new/dir/a.txt" (7 bytes).');
  expect(await h.readWs("new/dir/a.txt")).toBe("héllo\n");
  expect(r.output?.diff).toEqual({
    path: `${h.ws}/new/dir/a.txt`,
    oldText: null,
    newText: "héllo\n",
  });
});

fileTest("write: replaces an existing file with a diff", async (h) => {
  await h.put({ "a.txt": "one\ntwo\nthree\n" });
  const r = await h.dispatch("write", { path: "a.txt", content: "one\n2\nthree\n" });
  expect(okText(r)).toBe(
    'Replaced "a.txt" (12 bytes, was 14 bytes).\n\n' +
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three",
  );
  expect(r.output?.diff).toEqual({
    path: `${h.ws}/a.txt`,
    oldText: "one\ntwo\nthree\n",
    newText: "one\n2\nthree\n",
  });
  expect(await h.readWs("a.txt")).toBe("one\n2\nthree\n");
});

fileTest("write: identical content and empty content", async (h) => {
  await h.put({ "a.txt": "same" });
  expect(okText(await h.dispatch("write", { path: "a.txt", content: "same" }))).toBe(
    'Replaced "a.txt" (4 bytes): the content was already identical.',
  );
  expect(okText(await h.dispatch("write", { path: "e.txt", content: "" }))).toBe(
    'Created "e.txt" (0 bytes).',
  );
  expect(await h.readWs("e.txt")).toBe("");
});

fileTest("write: a directory in the way is a clear error", async (h) => {
  await h.put({ "d/x": "" });
  const r = await h.dispatch("write", { path: "d", content: "x" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot write "d": it is a directory',
  ]);
});

fileTest("write: a file as a parent directory fails without damage", async (h) => {
  await h.put({ "f": "keep" });
  const r = await h.dispatch("write", { path: "f/child.txt", content: "x" });
  expect(r.category).toBe("permanent_failure");
  expect(r.error).toMatch(/^Cannot write "f\/child.txt": /);
  expect(await h.readWs("f")).toBe("keep");
});

fileTest("write: missing content is invalid", async (h) => {
  const r = await h.dispatch("write", { path: "a.txt" });
  expect(r.category).toBe("invalid_parameters");
  expect(r.error).toContain("- content:");
});
