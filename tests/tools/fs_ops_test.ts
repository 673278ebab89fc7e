// The file tools' changing calls: async (and errors untouched) outside a confined thread; a
// kernel refusal on a confined one becomes a tool error that says whether the path escaped.
import { expect } from "expect";
import { ConfinedDenialError, fsOpsConfined, mkdir, rename } from "../../src/tools/fs_ops.ts";
import { fileError } from "../../src/tools/_file.ts";

Deno.test("fs_ops: unconfined here, so OS errors pass through as they are", async () => {
  expect(fsOpsConfined()).toBe(false);
  const dir = await Deno.makeTempDir({ prefix: "zeph_fs_ops_" });
  try {
    await mkdir(`${dir}/a/b`, { recursive: true });
    const again = await mkdir(`${dir}/a`).catch((e) => e);
    expect(again).toBeInstanceOf(Deno.errors.AlreadyExists);
    await Deno.writeTextFile(`${dir}/f`, "x");
    await rename(`${dir}/f`, `${dir}/a/b/g`);
    expect(await Deno.readTextFile(`${dir}/a/b/g`)).toBe("x");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileError: a Landlock refusal says the path escaped, or that it may have", () => {
  const denied = new Deno.errors.PermissionDenied("Permission denied (os error 13)");
  const table: [boolean, string][] = [
    [
      true,
      'Cannot write "d/f.txt": it escaped the workspace during the call (a directory was replaced ' +
      "by a symbolic link); the kernel sandbox (Landlock) refused it and nothing was written outside",
    ],
    [
      false,
      'Cannot write "d/f.txt": permission denied by the operating system, or by the kernel ' +
      "sandbox (Landlock) because a directory on the path led outside the workspace during the call",
    ],
  ];
  for (const [escaped, message] of table) {
    const e = fileError(new ConfinedDenialError(denied, escaped), "write", "d/f.txt");
    expect([e.category, e.message]).toEqual(["policy_blocked", message]);
  }
});
