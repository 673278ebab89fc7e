import { expect } from "expect";
import {
  EXECUTORS,
  fileTest,
  type Harness,
  makeHarness,
  okText,
  snapshotTree,
} from "../_support/file_tools.ts";
import type { ToolResult } from "../../src/tools/registry.ts";
import type { WorkerFileExecutor } from "../../src/tools/executors/mod.ts";

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

fileTest(
  "write: a hard link to a file outside is broken, not written through, and the result says so",
  async (h) => {
    await Deno.writeTextFile(`${h.outside}/secret.txt`, "outside secret\n");
    await Deno.link(`${h.outside}/secret.txt`, `${h.ws}/hard.txt`);
    const r = await h.dispatch("write", { path: "hard.txt", content: "new\n" });
    expect(okText(r)).toContain(
      "The file had 1 other hard link: only this name now has the new content; the other keeps the old content.",
    );
    expect(await Deno.readTextFile(`${h.outside}/secret.txt`)).toBe("outside secret\n");
    expect(await h.readWs("hard.txt")).toBe("new\n");
    expect((await Deno.lstat(`${h.ws}/hard.txt`)).nlink).toBe(1);
  },
);

fileTest(
  "write: replaces atomically, keeps the mode bits and leaves no temporary file",
  async (h) => {
    const cases: [string, number][] = [["script.sh", 0o751], ["private.txt", 0o600], [
      "odd.txt",
      0o4755,
    ]];
    for (const [name, mode] of cases) {
      await h.put({ [name]: "old\n" });
      await Deno.chmod(`${h.ws}/${name}`, mode);
      const before = (await Deno.lstat(`${h.ws}/${name}`)).ino;
      okText(await h.dispatch("write", { path: name, content: "new\n" }));
      const after = await Deno.lstat(`${h.ws}/${name}`);
      expect([name, after.mode! & 0o7777, after.ino !== before]).toEqual([name, mode, true]);
    }
    expect((await Array.fromAsync(Deno.readDir(h.ws))).map((e) => e.name).sort()).toEqual(
      cases.map(([name]) => name).sort(),
    );
  },
);

/**
 * A separate process swaps `ws/d` with a symlink to the outside directory, at least `SWAPS` times
 * and until told to stop (after `WRITES` calls), while calls writing `d/f.txt` run: none may ever
 * land outside. A call that finds `d` missing mid-swap creates it; the swapper removes that copy
 * (never following the symlink) before putting the real directory back.
 */
const SWAPS = 1000;
const WRITES = 150;
const SWAPPER = `
const [outside, stop, target] = Deno.args;
Deno.symlinkSync(outside, "d.link");
let swaps = 0;
const tryIt = (f) => { try { f(); return true; } catch { return false; } };
// Puts the real directory back, removing a copy a write made meanwhile (rename cannot replace a
// non-empty directory).
const restore = () => {
  while (!tryIt(() => Deno.renameSync("d.real", "d"))) {
    tryIt(() => Deno.removeSync("d", { recursive: true }));
  }
};
while (swaps < Number(target) || !tryIt(() => Deno.lstatSync(stop))) {
  Deno.renameSync("d", "d.real");
  if (tryIt(() => Deno.renameSync("d.link", "d"))) {
    swaps++;
    Deno.renameSync("d", "d.link");
  }
  restore();
}
console.log(swaps);
`;

/** The calls raced against the swap: each writes `d/f.txt` with content of its own. */
const RACED: [string, (i: number) => Record<string, unknown>][] = [
  ["write", (i) => ({ path: "d/f.txt", content: `inside ${i}\n` })],
  ["copy_path", () => ({ source: "src.txt", destination: "d/f.txt" })],
];

/**
 * Runs `call(i)` over and over while the swapper swaps `ws/d` with a symlink to the outside
 * `SWAPS` times; returns every call's result. `ws/d` is a fresh empty directory at the start.
 */
async function raceSwap(h: Harness, call: (i: number) => Promise<ToolResult>) {
  await Deno.remove(`${h.ws}/d.link`).catch(() => {});
  const stop = `${h.base}/stop`;
  await Deno.remove(stop).catch(() => {});
  const swapper = new Deno.Command(Deno.execPath(), {
    args: ["eval", SWAPPER, h.outside, stop, String(SWAPS)],
    cwd: h.ws,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let exited = false;
  const output = swapper.output().finally(() => exited = true);
  while (!(await Deno.lstat(`${h.ws}/d.link`).then(() => true, () => false))) {
    await new Promise((r) => setTimeout(r, 5));
  }
  // Each call succeeds, or fails when it sees the swap; which one does not matter here. The
  // calls go on until the swapper has swapped SWAPS times and been told to stop.
  const results: ToolResult[] = [];
  for (let i = 0; !exited; i++) {
    results.push(await call(i));
    if (i === WRITES) await Deno.writeTextFile(stop, "");
  }
  const out = await output;
  const swaps = Number(new TextDecoder().decode(out.stdout).trim());
  expect([out.code, new TextDecoder().decode(out.stderr), swaps >= SWAPS]).toEqual([0, "", true]);
  return results;
}

async function resetDirs(h: Harness, outside: Record<string, string>): Promise<void> {
  await Deno.remove(h.outside, { recursive: true });
  await Deno.mkdir(h.outside);
  for (const [name, content] of Object.entries(outside)) {
    await Deno.writeTextFile(`${h.outside}/${name}`, content);
  }
  await Deno.remove(`${h.ws}/d`, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${h.ws}/d`);
}

fileTest(
  "write, copy_path: racing a directory swapped for a symlink thousands of times never touches the outside",
  async (h) => {
    await h.put({ "src.txt": "copied\n" });
    for (const [tool, input] of RACED) {
      await resetDirs(h, { "f.txt": "outside\n" });
      // The first call starts the worker (slow); the race begins once calls are quick.
      okText(await h.dispatch(tool, input(-1)));
      await raceSwap(h, (i) => h.dispatch(tool, input(i)));
      // No file outside ever gets content from a call. Deno has no openat: a swap landing between
      // the last check and the creation of the temporary file leaves that file, empty, outside
      // when the swap ends before it can be removed (see src/tools/_atomic_write.ts). The
      // Landlock-confined worker cannot create it (next test).
      const outside = await snapshotTree(h.outside);
      expect([tool, outside["f.txt"]]).toEqual([tool, "file:outside\n"]);
      for (const [name, content] of Object.entries(outside)) {
        if (name === "f.txt") continue;
        expect([tool, name, content]).toEqual([
          tool,
          expect.stringMatching(/^\.f\.txt\.[0-9a-f]{16}\.zeph-tmp$/),
          "file:",
        ]);
      }
    }
  },
);

/**
 * The six changing tools, each call's tool and input. Each would change the outside if it ran
 * through the symlink: `f.txt` and `m.txt` exist there, and the edit's old text is in `f.txt`.
 */
const CONFINED_RACED: [string, (i: number) => [string, Record<string, unknown>]][] = [
  ["write", (i) => ["write", { path: "d/f.txt", content: `inside ${i}\n` }]],
  ["edit", (i) => ["edit", { path: "d/f.txt", ...(i % 2 ? SWAP_BACK : SWAP_FORTH) }]],
  ["copy_path", () => ["copy_path", { source: "src.txt", destination: "d/f.txt" }]],
  ["move_path", (i) => [
    "move_path",
    i % 2
      ? { source: "d/m.txt", destination: "m.txt" }
      : { source: "m.txt", destination: "d/m.txt" },
  ]],
  ["create_directory", (i) => ["create_directory", { path: `d/new${i}` }]],
  [
    "delete_path",
    (i) =>
      i % 2 ? ["delete_path", { path: "d/f.txt" }] : ["write", { path: "d/f.txt", content: "a\n" }],
  ],
];
const SWAP_FORTH = { old_string: "a", new_string: "b" };
const SWAP_BACK = { old_string: "b", new_string: "a" };
const OUTSIDE = { "f.txt": "a\n", "m.txt": "outside m\n" };

Deno.test(
  "write, edit, copy_path, move_path, create_directory, delete_path: in the Landlock-confined worker a swap race leaves the outside exactly as it was",
  async (t) => {
    const ex = EXECUTORS.find((e) => e.name === "worker")!;
    const h = await makeHarness(ex);
    okText(await h.dispatch("create_directory", { path: "warm" }));
    const state = await (h.executor as WorkerFileExecutor).workerFor([h.ws]).confinement;
    if (!state.active) {
      console.log(`Landlock is unavailable here (${state.reason}): skipped`);
      return;
    }
    for (const [name, call] of CONFINED_RACED) {
      await t.step(name, async () => {
        await resetDirs(h, OUTSIDE);
        await h.put({ "src.txt": "copied\n", "m.txt": "inside m\n", "d/f.txt": "a\n" });
        const results = await raceSwap(h, (i) => h.dispatch(...call(i)));
        expect([name, await snapshotTree(h.outside)]).toEqual([
          name,
          Object.fromEntries(Object.entries(OUTSIDE).map(([k, v]) => [k, `file:${v}`])),
        ]);
        // A refusal says why, whichever check caught the swap.
        for (const r of results.filter((r) => !r.ok && r.category === "policy_blocked")) {
          expect(r.error).toMatch(
            /outside the allowed paths|outside the file permissions|changed during|escaped the workspace|kernel sandbox/,
          );
        }
      });
    }
  },
);
