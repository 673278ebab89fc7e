// `zeph permissions check`: the decision, its rule or reason, the simple commands; nothing runs.
import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";

interface Checked {
  decision: string;
  rule: string | null;
  reason: string | null;
  commands: { command: string; effect: string; context: string[] }[] | null;
}

async function check(
  ws: string,
  home: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Checked> {
  const r = await zeph(["permissions", "check", "--json", ...args], { cwd: ws, home, env });
  expect([r.code, r.stderr]).toEqual([0, ""]);
  return JSON.parse(r.stdout);
}

Deno.test("permissions check: decision, rule and normalised simple commands (table)", async () => {
  await withWorkspace(async (ws, home) => {
    const table: [string, string, string, string[]][] = [
      // [command, decision, rule, "simple command = effect"]
      ["ls -la", "allow", "bash analysis: read-only", ["ls -la = read_only"]],
      ["git status && git clean -fdx", "ask", "bash analysis: destructive", [
        "git status = read_only",
        "git clean -fdx = destructive",
      ]],
      ["'s'udo ls", "deny", 'tools.shell blocked "sudo"', ["sudo ls = other", "ls = read_only"]],
      ["echo $(rm -fr x)", "ask", "bash analysis: destructive", [
        "rm -fr x = destructive",
        "echo $(rm -fr x) = other",
      ]],
    ];
    const got: string[] = [];
    for (const [command] of table) {
      const c = await check(ws, home, [command]);
      got.push(
        `${command} → ${c.decision} ${c.rule} ${
          c.commands?.map((x) => `${x.command} = ${x.effect}`).join(", ")
        }`,
      );
    }
    expect(got).toEqual(table.map(([c, d, r, cmds]) => `${c} → ${d} ${r} ${cmds.join(", ")}`));
    // Nothing ran: the workspace is still empty.
    expect([...Deno.readDirSync(ws)]).toEqual([]);
  });
});

Deno.test("permissions check: first match with rules, readonly by env, --yes is full", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(
      config,
      '[[tools.permissions.bash]]\npattern = "ls *"\naction = "allow"\n\n' +
        '[[tools.permissions.bash]]\npattern = "*"\naction = "deny"\n',
    );
    const ruled = await check(ws, home, ["--config", config, "ls -la"]);
    expect([ruled.decision, ruled.rule]).toEqual([
      "allow",
      'tools.permissions.bash[0] allow "ls *"',
    ]);
    const readonly = await check(ws, home, ["touch x"], {
      ZEPH_TOOLS_PERMISSIONS_AUTONOMY: "readonly",
    });
    expect([readonly.decision, readonly.rule]).toEqual([
      "deny",
      'tools.permissions.autonomy = "readonly"',
    ]);
    const yes = await check(ws, home, ["--yes", "rm -rf build"]);
    expect(yes.decision).toBe("allow");
    const write = await check(ws, home, ["--tool", "write", ".git/hooks/pre-commit"]);
    expect([write.decision, write.reason]).toEqual([
      "ask",
      '".git/hooks/pre-commit" is a protected path (".git/**"): a program may run or trust ' +
      "what is written there",
    ]);
  });
});

Deno.test("permissions check: text fits 80 columns; an unknown tool or autonomy is exit 2", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph([
      "permissions",
      "check",
      "git status && git clean -fdx; echo $(rm -fr x) > out.txt; find . -name '*.tmp' -delete",
    ], { cwd: ws, home });
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^ASK {2}bash "git status/);
    expect(r.stdout.split("\n").filter((l) => l.length > 80)).toEqual([]);
    const bad = await zeph(["permissions", "check", "--tool", "wirte", "x"], { cwd: ws, home });
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'zeph: Unknown tool "wirte". Tools: bash, read, write, edit, find_path, grep, ' +
      "list_directory, create_directory, delete_path, move_path, copy_path, web_scrape, fetch, " +
      "diagnostics, read_overflow, update_plan, switch_mode.\n",
    ]);
    const env = await zeph(["permissions", "check", "ls"], {
      cwd: ws,
      home,
      env: { ZEPH_TOOLS_PERMISSIONS_AUTONOMY: "yolo" },
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("ZEPH_TOOLS_PERMISSIONS_AUTONOMY");
  });
});
