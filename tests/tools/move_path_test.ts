import { expect } from "expect";
import { fileTest, okText, snapshotTree } from "../_support/file_tools.ts";

fileTest("move_path: renames files and directories, creating parents", async (h) => {
  await h.put({ "a.txt": "A", "d/x.txt": "X" });
  expect(okText(await h.dispatch("move_path", { source: "a.txt", destination: "n/b.txt" }))).toBe(
    'Moved: "a.txt" -> "n/b.txt"',
  );
  expect(okText(await h.dispatch("move_path", { source: "d", destination: "e" }))).toBe(
    'Moved: "d" -> "e"',
  );
  expect(await snapshotTree(h.ws)).toEqual({
    "n": "dir",
    "n/b.txt": "file:A",
    "e": "dir",
    "e/x.txt": "file:X",
  });
});

fileTest(
  "move_path: existing destination, destination inside source, missing source",
  async (h) => {
    await h.put({ "a.txt": "A", "b.txt": "B", "d/x": "" });
    const exists = await h.dispatch("move_path", { source: "a.txt", destination: "b.txt" });
    expect([exists.category, exists.error]).toEqual([
      "permanent_failure",
      'Cannot move "a.txt" to "b.txt": the destination already exists',
    ]);
    const inside = await h.dispatch("move_path", { source: "d", destination: "d/sub/d" });
    expect([inside.category, inside.error]).toEqual([
      "permanent_failure",
      'Cannot move "d" to "d/sub/d": the destination is inside the source',
    ]);
    const missing = await h.dispatch("move_path", { source: "ghost", destination: "g2" });
    expect([missing.category, missing.error]).toEqual([
      "permanent_failure",
      'Cannot move "ghost": no such file or directory',
    ]);
    expect(await snapshotTree(h.ws)).toEqual({
      "a.txt": "file:A",
      "b.txt": "file:B",
      "d": "dir",
      "d/x": "file:",
    });
  },
);

fileTest("move_path: a symlink is moved as a link", async (h) => {
  await h.put({ "t.txt": "T" });
  await Deno.symlink("t.txt", `${h.ws}/l`);
  expect(okText(await h.dispatch("move_path", { source: "l", destination: "l2" }))).toBe(
    'Moved: "l" -> "l2"',
  );
  expect(await snapshotTree(h.ws)).toEqual({ "t.txt": "file:T", "l2": "link:t.txt" });
});
