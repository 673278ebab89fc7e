import { expect } from "expect";
import { fileTest, okText, snapshotTree } from "../_support/file_tools.ts";

fileTest("delete_path: file, empty dir, recursive dir", async (h) => {
  await h.put({ "f.txt": "x", "tree/a/b.txt": "y" });
  await Deno.mkdir(`${h.ws}/empty`);
  expect(okText(await h.dispatch("delete_path", { path: "f.txt" }))).toBe('Deleted file: "f.txt"');
  expect(okText(await h.dispatch("delete_path", { path: "empty" }))).toBe(
    'Deleted directory: "empty"',
  );
  const nonEmpty = await h.dispatch("delete_path", { path: "tree" });
  expect([nonEmpty.category, nonEmpty.error]).toEqual([
    "permanent_failure",
    'Cannot delete "tree": the directory is not empty',
  ]);
  expect(nonEmpty.text).toContain("suggestion: Pass recursive: true");
  expect(okText(await h.dispatch("delete_path", { path: "tree", recursive: true }))).toBe(
    'Deleted directory: "tree"',
  );
  expect(await snapshotTree(h.ws)).toEqual({});
});

fileTest("delete_path: a symlink is removed itself, never its target", async (h) => {
  await h.put({ "target.txt": "keep", "dir/x.txt": "keep" });
  await Deno.symlink(`${h.ws}/target.txt`, `${h.ws}/link`);
  await Deno.symlink(`${h.ws}/dir`, `${h.ws}/dirlink`);
  await Deno.writeTextFile(`${h.outside}/o.txt`, "outside");
  await Deno.symlink(h.outside, `${h.ws}/outlink`);
  expect(okText(await h.dispatch("delete_path", { path: "link" }))).toBe('Deleted symlink: "link"');
  expect(okText(await h.dispatch("delete_path", { path: "dirlink", recursive: true }))).toBe(
    'Deleted symlink: "dirlink"',
  );
  expect(okText(await h.dispatch("delete_path", { path: "outlink", recursive: true }))).toBe(
    'Deleted symlink: "outlink"',
  );
  expect(await snapshotTree(h.ws)).toEqual({
    "target.txt": "file:keep",
    "dir": "dir",
    "dir/x.txt": "file:keep",
  });
  expect(await snapshotTree(h.outside)).toEqual({ "o.txt": "file:outside" });
});

fileTest("delete_path: recursive delete does not follow symlinks inside the tree", async (h) => {
  await h.put({ "tree/a.txt": "x" });
  await Deno.writeTextFile(`${h.outside}/o.txt`, "outside");
  await Deno.symlink(h.outside, `${h.ws}/tree/out`);
  expect(okText(await h.dispatch("delete_path", { path: "tree", recursive: true }))).toBe(
    'Deleted directory: "tree"',
  );
  expect(await snapshotTree(h.outside)).toEqual({ "o.txt": "file:outside" });
});

fileTest("delete_path: missing path", async (h) => {
  const r = await h.dispatch("delete_path", { path: "ghost" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot delete "ghost": no such file or directory',
  ]);
});
