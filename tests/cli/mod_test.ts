// The program shell: version, help, global options, and exit 2 for every usage error.
import { expect } from "expect";
import { VERSION } from "../../src/version.ts";
import * as path from "node:path";
import { DENO, MAIN, withWorkspace, zeph } from "./_run.ts";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

Deno.test("zeph --version prints the version (fast path and after global options)", async () => {
  await withWorkspace(async (ws, home) => {
    expect(await zeph(["--version"], { cwd: ws, home })).toEqual({
      code: 0,
      stdout: `zeph ${VERSION}\n`,
      stderr: "",
    });
    expect(await zeph(["-C", ws, "-V"], { cwd: ws, home })).toEqual({
      code: 0,
      stdout: `zeph ${VERSION}\n`,
      stderr: "",
    });
  });
});

Deno.test("zeph --help lists the global options and the commands, exit 0", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["--help"], { cwd: ws, home });
    expect(r.code).toBe(0);
    for (const text of ["-C, --cwd <dir>", "--config <path>", "-y, --yes", "--json"]) {
      expect(r.stdout).toContain(text);
    }
    for (const command of ["tools", "tool [options] [id] [input]", "config", "acp", "help"]) {
      expect(r.stdout).toContain(`  ${command}`);
    }
    for (const text of ["zeph --acp", "npm start -s --", "Exit codes:", "  3    a limit cut"]) {
      expect(r.stdout).toContain(text);
    }
  });
});

Deno.test("zeph help, zeph help <cmd> and zeph acp --help work; subcommand help shows the global options", async () => {
  await withWorkspace(async (ws, home) => {
    const root = await zeph(["help"], { cwd: ws, home });
    expect([root.code, root.stdout]).toEqual([
      0,
      (await zeph(["--help"], { cwd: ws, home })).stdout,
    ]);
    const acp = await zeph(["acp", "--help"], { cwd: ws, home });
    expect([acp.code, acp.stderr]).toEqual([0, ""]);
    expect(acp.stdout).toContain("Usage: zeph acp [options]");
    expect(acp.stdout).toContain("Agent Client Protocol (JSON-RPC) on stdin/stdout");
    for (const args of [["help", "sessions"], ["sessions", "--help"], ["tool", "--help"]]) {
      const r = await zeph(args, { cwd: ws, home });
      expect([args, r.code]).toEqual([args, 0]);
      expect(r.stdout).toContain("Global Options:\n");
      expect(r.stdout).toContain("-C, --cwd <dir>");
    }
  });
});

Deno.test("usage errors exit 2 with a clear message", async () => {
  await withWorkspace(async (ws, home) => {
    const cases: [string[], string][] = [
      [["bogus"], "error: unknown command 'bogus'"],
      [["bogus", "x"], "error: unknown command 'bogus'"],
      [["--bogus"], "error: unknown option '--bogus'"],
      [["tools", "--bogus"], "error: unknown option '--bogus'"],
      [["tool"], "Name the tool to run: zeph tool <id> '<json>' (zeph tools lists them"],
      [["config", "check", "extra"], "error: too many arguments for 'check'"],
      [["-C"], "error: option '-C, --cwd <dir>' argument missing"],
    ];
    for (const [args, message] of cases) {
      const r = await zeph(args, { cwd: ws, home });
      expect([args, r.code, r.stdout]).toEqual([args, 2, ""]);
      expect(r.stderr).toContain(message);
    }
  });
});

Deno.test("-C must name an existing directory", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["-C", `${ws}/missing`, "tools"], { cwd: ws, home });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `zeph: Cannot use workspace "${ws}/missing": the directory does not exist. Pass an existing directory to -C/--cwd.\n`,
    );
  });
});

Deno.test("a reader that stops early (zeph … | head) ends zeph quietly with 141, no stack trace", async () => {
  await withWorkspace(async (ws, home) => {
    // A long streamed answer: far more than a pipe buffer holds.
    const script = path.join(home, "long.jsonl");
    await Deno.writeTextFile(script, JSON.stringify({ text: "word ".repeat(100_000) }) + "\n");
    const child = new Deno.Command(DENO, {
      args: ["run", ...TASK_FLAGS, "--no-prompt", MAIN, "-p", "go", "--script", script],
      cwd: ws,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    const [status, stderr] = await Promise.all([
      child.status,
      new Response(child.stderr).text(),
    ]);
    expect({ code: status.code, stderr }).toEqual({ code: 141, stderr: "" });
  });
});
