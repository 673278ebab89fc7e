// bin/zeph.mjs, the `zeph` of `npm link` / `npx zeph`: runs main.ts with the zeph task's flags
// from any directory, keeps stdout clean for --json and passes the exit code through.
import { expect } from "expect";
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..");
const LAUNCHER = path.join(ROOT, "bin", "zeph.mjs");

async function launch(args: string[], cwd: string) {
  const home = await Deno.makeTempDir({ prefix: "zeph_home_" });
  try {
    const out = await new Deno.Command("node", {
      args: [LAUNCHER, ...args],
      cwd,
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH")!, HOME: home, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("the package's bin is the launcher, and it is executable", () => {
  const pkg = JSON.parse(Deno.readTextFileSync(path.join(ROOT, "package.json")));
  expect(pkg.bin).toEqual({ zeph: "bin/zeph.mjs" });
  expect(pkg.engines.node).toMatch(/^>=\d+\.\d+\.\d+$/);
  expect(Deno.readTextFileSync(LAUNCHER).startsWith("#!/usr/bin/env node\n")).toBe(true);
  expect(Deno.statSync(LAUNCHER).mode! & 0o111).toBe(0o111);
});

Deno.test("the launcher runs zeph in another directory, whatever deno.json is there", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_ws_" }));
  try {
    // A project of the user's own whose deno.json would break zeph if Deno picked it up.
    await Deno.writeTextFile(
      path.join(ws, "deno.json"),
      '{"imports": {"zod": "./missing.js"}, "unstable": []}',
    );
    await Deno.writeTextFile(path.join(ws, "a.txt"), "one\ntwo\n");
    const version = await launch(["--version"], ws);
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^zeph \d/) });

    const read = await launch(["tool", "read", '{"path": "a.txt"}', "--json"], ws);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ tool: "read", ok: true });
    expect(JSON.parse(read.stdout).output).toContain("two");

    const failed = await launch(["tool", "read", '{"path": "missing.txt"}'], ws);
    expect(failed.code).toBe(1);
    const usage = await launch(["tool", "read", "not json"], ws);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Cannot parse the tool input as JSON");
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
