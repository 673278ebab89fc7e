import { expect } from "expect";
import { fileTest, okText } from "../_support/file_tools.ts";

fileTest("list_directory: lstat groups dirs, files, symlinks, each sorted", async (h) => {
  await h.put({ "b.txt": "", "a.txt": "", ".env": "", "zdir/x": "", "adir/y": "" });
  await Deno.symlink(`${h.ws}/adir`, `${h.ws}/link_dir`);
  await Deno.symlink(`${h.outside}`, `${h.ws}/escape`);
  await Deno.symlink(`${h.ws}/missing`, `${h.ws}/dangling`);
  expect(okText(await h.dispatch("list_directory", { path: "." }))).toBe(
    [
      "[dir]  adir",
      "[dir]  zdir",
      "[file] .env",
      "[file] a.txt",
      "[file] b.txt",
      "[symlink] dangling",
      "[symlink] escape",
      "[symlink] link_dir",
    ].join("\n"),
  );
});

fileTest("list_directory: empty, missing, not a directory", async (h) => {
  await h.put({ "f.txt": "x", "empty/.keep": "" });
  await Deno.remove(`${h.ws}/empty/.keep`);
  expect(okText(await h.dispatch("list_directory", { path: "empty" }))).toBe(
    'Empty directory: "empty"',
  );
  const missing = await h.dispatch("list_directory", { path: "nope" });
  expect([missing.category, missing.error]).toEqual([
    "permanent_failure",
    'Cannot list "nope": no such file or directory',
  ]);
  const file = await h.dispatch("list_directory", { path: "f.txt" });
  expect([file.category, file.error]).toEqual([
    "permanent_failure",
    'Cannot list "f.txt": not a directory',
  ]);
});
