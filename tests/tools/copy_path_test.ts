import { expect } from "expect";
import { fileTest, okText, snapshotTree } from "../_support/file_tools.ts";

fileTest("copy_path: a file, overwriting an existing one", async (h) => {
  await h.put({ "a.txt": "A", "b.txt": "B" });
  expect(okText(await h.dispatch("copy_path", { source: "a.txt", destination: "n/c.txt" }))).toBe(
    'Copied file: "a.txt" -> "n/c.txt"',
  );
  expect(okText(await h.dispatch("copy_path", { source: "a.txt", destination: "b.txt" }))).toBe(
    'Copied file: "a.txt" -> "b.txt" (replaced the existing file)',
  );
  expect(await snapshotTree(h.ws)).toEqual({
    "a.txt": "file:A",
    "b.txt": "file:A",
    "n": "dir",
    "n/c.txt": "file:A",
  });
});

fileTest("copy_path: a tree, skipping symlinks and deny_read files", async (h) => {
  await h.put({ "t/a.txt": "A", "t/sub/b.txt": "B", "t/.env": "SECRET" });
  await Deno.symlink(`${h.ws}/t/a.txt`, `${h.ws}/t/inlink`);
  await Deno.writeTextFile(`${h.outside}/o.txt`, "outside");
  await Deno.symlink(h.outside, `${h.ws}/t/outlink`);
  const r = await h.dispatch("copy_path", { source: "t", destination: "copy" });
  expect(okText(r)).toBe(
    'Copied directory: "t" -> "copy" (2 files, 2 directories)\n' +
      "Skipped 2 symlink(s): t/inlink, t/outlink\n" +
      "Skipped 1 file(s) denied by deny_read: t/.env",
  );
  const tree = await snapshotTree(h.ws);
  expect(Object.fromEntries(Object.entries(tree).filter(([k]) => k.startsWith("copy")))).toEqual({
    "copy": "dir",
    "copy/a.txt": "file:A",
    "copy/sub": "dir",
    "copy/sub/b.txt": "file:B",
  });
}, { denyRead: ["**/.env"] });

fileTest("copy_path: directory destination rules", async (h) => {
  await h.put({ "t/a.txt": "A", "exists/x": "", "f.txt": "F" });
  const exists = await h.dispatch("copy_path", { source: "t", destination: "exists" });
  expect([exists.category, exists.error]).toEqual([
    "permanent_failure",
    'Cannot copy "t" to "exists": the destination already exists',
  ]);
  const inside = await h.dispatch("copy_path", { source: "t", destination: "t/inner" });
  expect([inside.category, inside.error]).toEqual([
    "permanent_failure",
    'Cannot copy "t" to "t/inner": the destination is inside the source',
  ]);
  const fileOnDir = await h.dispatch("copy_path", { source: "f.txt", destination: "exists" });
  expect([fileOnDir.category, fileOnDir.error]).toEqual([
    "permanent_failure",
    'Cannot copy "f.txt" to "exists": the destination is a directory',
  ]);
  const missing = await h.dispatch("copy_path", { source: "ghost", destination: "g" });
  expect([missing.category, missing.error]).toEqual([
    "permanent_failure",
    'Cannot copy "ghost": no such file or directory',
  ]);
});

fileTest("copy_path: a symlink source inside the sandbox is copied by content", async (h) => {
  await h.put({ "t.txt": "T" });
  await Deno.symlink(`${h.ws}/t.txt`, `${h.ws}/l`);
  expect(okText(await h.dispatch("copy_path", { source: "l", destination: "c.txt" }))).toBe(
    'Copied file: "l" -> "c.txt"',
  );
  expect(await h.readWs("c.txt")).toBe("T");
});

fileTest(
  "copy_path: a destination hard-linked to a file outside is replaced, the outside file kept; the source's mode is copied",
  async (h) => {
    await Deno.writeTextFile(`${h.outside}/secret.txt`, "outside secret\n");
    await Deno.link(`${h.outside}/secret.txt`, `${h.ws}/hard.txt`);
    await h.put({ "run.sh": "#!/bin/sh\n" });
    await Deno.chmod(`${h.ws}/run.sh`, 0o751);
    okText(await h.dispatch("copy_path", { source: "run.sh", destination: "hard.txt" }));
    expect(await Deno.readTextFile(`${h.outside}/secret.txt`)).toBe("outside secret\n");
    expect(await h.readWs("hard.txt")).toBe("#!/bin/sh\n");
    expect((await Deno.lstat(`${h.ws}/hard.txt`)).mode! & 0o7777).toBe(0o751);
    expect((await Array.fromAsync(Deno.readDir(h.ws))).map((e) => e.name).sort()).toEqual([
      "hard.txt",
      "run.sh",
    ]);
  },
);
