import { expect } from "expect";
import { fileTest, okText } from "../_support/file_tools.ts";

fileTest("create_directory: creates parents and is idempotent", async (h) => {
  expect(okText(await h.dispatch("create_directory", { path: "a/b/c" }))).toBe(
    'Created directory: "a/b/c"',
  );
  expect((await Deno.stat(`${h.ws}/a/b/c`)).isDirectory).toBe(true);
  expect(okText(await h.dispatch("create_directory", { path: "a/b/c" }))).toBe(
    'Directory already exists: "a/b/c"',
  );
});

fileTest("create_directory: a file in the way is an error", async (h) => {
  await h.put({ "f": "keep" });
  const r = await h.dispatch("create_directory", { path: "f" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot create directory "f": a file with that name exists',
  ]);
  const under = await h.dispatch("create_directory", { path: "f/sub" });
  expect(under.category).toBe("permanent_failure");
  expect(await h.readWs("f")).toBe("keep");
});
