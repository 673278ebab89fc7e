// [tools.file.sandbox] from the command line: `zeph config check` says whether the file tools
// run Landlock-confined here; without FFI (so without Landlock) "auto" falls back and the tools
// work, "landlock" refuses them with the reason and a warning.
import * as path from "node:path";
import { expect } from "expect";
import { probeLandlock } from "../../src/sandbox/mod.ts";
import { withWorkspace, zeph } from "./_run.ts";

const TASK = JSON.parse(
  await Deno.readTextFile(path.join(import.meta.dirname!, "..", "..", "deno.json")),
).tasks.zeph as string;
/** The zeph task's permission flags, without --allow-ffi. */
const NO_FFI = TASK.split(/\s+/).filter((w) => w.startsWith("--allow-") && w !== "--allow-ffi");

Deno.test("the zeph task grants FFI (the worker's Landlock setup needs it)", () => {
  expect(TASK.split(/\s+/)).toContain("--allow-ffi");
});

Deno.test("config check prints the file tools' Landlock state on its second line", async () => {
  const probe = probeLandlock();
  await withWorkspace(async (ws, home) => {
    const on = await zeph(["config", "check"], { cwd: ws, home });
    expect([on.code, on.stderr, on.stdout.split("\n")[1]]).toEqual([
      0,
      "",
      "abi" in probe
        ? `# File tools: Landlock on (ABI ${probe.abi})`
        : `# File tools: Landlock unavailable (${probe.reason}); path checks and Deno permissions only`,
    ]);
    const off = await zeph(["config", "check"], {
      cwd: ws,
      home,
      env: { ZEPH_CONFIG: await config(home, "off") },
    });
    expect(off.stdout.split("\n")[1]).toBe(
      '# File tools: Landlock off ([tools.file.sandbox] mode = "off")',
    );
    const noFfi = await zeph(["config", "check"], { cwd: ws, home, denoFlags: NO_FFI });
    expect(noFfi.stdout.split("\n")[1]).toBe(
      "# File tools: Landlock unavailable (zeph runs without --allow-ffi, which the Landlock " +
        "setup needs); path checks and Deno permissions only",
    );
  });
});

async function config(home: string, mode: string): Promise<string> {
  const file = path.join(home, `${mode}.toml`);
  await Deno.writeTextFile(file, `[tools.file.sandbox]\nmode = "${mode}"\n`);
  return file;
}

Deno.test("without FFI: mode auto falls back and writes; mode landlock refuses with the reason", async () => {
  await withWorkspace(async (ws, home) => {
    const write = ["--yes", "tool", "write", '{"path": "a.txt", "content": "hi\\n"}', "--json"];
    const auto = await zeph(write, { cwd: ws, home, denoFlags: NO_FFI });
    expect([auto.code, JSON.parse(auto.stdout).ok, auto.stderr]).toEqual([0, true, ""]);
    expect(await Deno.readTextFile(path.join(ws, "a.txt"))).toBe("hi\n");

    const strict = await zeph(write, {
      cwd: ws,
      home,
      denoFlags: NO_FFI,
      env: { ZEPH_CONFIG: await config(home, "landlock") },
    });
    const reason = "zeph runs without --allow-ffi, which the Landlock setup needs";
    expect([strict.code, JSON.parse(strict.stdout).error]).toEqual([
      1,
      `Cannot run write: [tools.file.sandbox] mode = "landlock" but ${reason}`,
    ]);
    expect(strict.stderr).toContain(
      `zeph: warning: [tools.file.sandbox] mode = "landlock" but ${reason}: file tools will be refused`,
    );
  });
});
