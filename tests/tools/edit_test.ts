import { expect } from "expect";
import { fileTest, okText } from "../_support/file_tools.ts";

const SRC = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";

fileTest("edit: replaces the one occurrence and returns a unified diff", async (h) => {
  await h.put({ "s.txt": SRC });
  const r = await h.dispatch("edit", { path: "s.txt", old_string: "e\n", new_string: "E\nE2\n" });
  expect(okText(r)).toBe(
    'Edited "s.txt": replaced 1 occurrence.\n\n' +
      "--- a/s.txt\n+++ b/s.txt\n@@ -2,7 +2,8 @@\n b\n c\n d\n-e\n+E\n+E2\n f\n g\n h",
  );
  const expected = SRC.replace("e\n", "E\nE2\n");
  expect(await h.readWs("s.txt")).toBe(expected);
  expect(r.output?.diff).toEqual({ path: `${h.ws}/s.txt`, oldText: SRC, newText: expected });
  expect(r.output?.locations).toEqual([{ path: `${h.ws}/s.txt`, line: 5 }]);
});

fileTest("edit: several occurrences are refused with the count", async (h) => {
  await h.put({ "s.txt": "x = 1\nx = 1\nx = 1\n" });
  const r = await h.dispatch("edit", { path: "s.txt", old_string: "x = 1", new_string: "x = 2" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot edit "s.txt": old_string occurs 3 times, it must occur exactly once',
  ]);
  expect(r.text).toContain("suggestion: Include more surrounding lines to make it unique");
  expect(await h.readWs("s.txt")).toBe("x = 1\nx = 1\nx = 1\n");
});

fileTest("edit: replace_all replaces every occurrence literally ($& is not special)", async (h) => {
  await h.put({ "s.txt": "x = 1\ny\nx = 1\n" });
  const r = await h.dispatch("edit", {
    path: "s.txt",
    old_string: "x = 1",
    new_string: "x = $&",
    replace_all: true,
  });
  expect(okText(r).split("\n")[0]).toBe('Edited "s.txt": replaced 2 occurrences.');
  expect(await h.readWs("s.txt")).toBe("x = $&\ny\nx = $&\n");
});

fileTest("edit: not found, empty old_string, identical strings", async (h) => {
  await h.put({ "s.txt": "hello\n" });
  const missing = await h.dispatch("edit", { path: "s.txt", old_string: "bye", new_string: "x" });
  expect([missing.category, missing.error]).toEqual([
    "permanent_failure",
    'Cannot edit "s.txt": old_string was not found in the file',
  ]);
  const empty = await h.dispatch("edit", { path: "s.txt", old_string: "", new_string: "x" });
  expect([empty.category, empty.error]).toEqual([
    "invalid_parameters",
    'Cannot edit "s.txt": old_string is empty',
  ]);
  const same = await h.dispatch("edit", {
    path: "s.txt",
    old_string: "hello",
    new_string: "hello",
  });
  expect([same.category, same.error]).toEqual([
    "invalid_parameters",
    'Cannot edit "s.txt": old_string and new_string are identical',
  ]);
  expect(await h.readWs("s.txt")).toBe("hello\n");
});

fileTest("edit: a CRLF file accepts an LF old_string and keeps CRLF", async (h) => {
  await h.put({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
  const r = await h.dispatch("edit", { path: "w.txt", old_string: "one\ntwo", new_string: "1\n2" });
  expect(r.ok).toBe(true);
  expect(await h.readWs("w.txt")).toBe("1\r\n2\r\nthree\r\n");
});

fileTest("edit: missing and binary files", async (h) => {
  await h.put({ "b.bin": new Uint8Array([0, 1, 2]) });
  const missing = await h.dispatch("edit", { path: "no.txt", old_string: "a", new_string: "b" });
  expect([missing.category, missing.error]).toEqual([
    "permanent_failure",
    'Cannot edit "no.txt": no such file or directory',
  ]);
  const bin = await h.dispatch("edit", { path: "b.bin", old_string: "a", new_string: "b" });
  expect([bin.category, bin.error]).toEqual([
    "permanent_failure",
    'Cannot edit "b.bin": it is a binary file (it contains NUL bytes)',
  ]);
});

fileTest("edit: a directory is refused", async (h) => {
  await h.put({ "d/x": "" });
  const r = await h.dispatch("edit", { path: "d", old_string: "a", new_string: "b" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot edit "d": it is a directory',
  ]);
});

fileTest(
  "edit: a hard link to a file outside is broken, not written through, and the result says so",
  async (h) => {
    await Deno.writeTextFile(`${h.outside}/secret.txt`, "token = 1\n");
    await Deno.link(`${h.outside}/secret.txt`, `${h.ws}/hard.txt`);
    const r = await h.dispatch("edit", { path: "hard.txt", old_string: "1", new_string: "2" });
    expect(okText(r)).toContain(
      "The file had 1 other hard link: only this name now has the new content; the other keeps the old content.",
    );
    expect(await Deno.readTextFile(`${h.outside}/secret.txt`)).toBe("token = 1\n");
    expect(await h.readWs("hard.txt")).toBe("token = 2\n");
  },
);
