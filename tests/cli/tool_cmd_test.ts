// `zeph tool <id> '<json>'`: one call through the real dispatch boundary, in a real workspace.
import { expect } from "expect";
import * as path from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { probeBwrap } from "../../src/exec/mod.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { builtinTools } from "../../src/tools/catalog.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { withWorkspace, zeph } from "./_run.ts";

/**
 * The same call dispatched in-process (local executor: same tool code, no worker start-up):
 * what the CLI must print.
 */
async function dispatchInProcess(ws: string, name: string, input: unknown): Promise<string> {
  const config = defaultConfig();
  const registry = new ToolRegistry({
    tools: builtinTools(),
    executor: new LocalExecutor(),
    policy: PermissionPolicy.fromConfig(config),
    config,
  });
  const sandbox = await Sandbox.create(ws);
  const result = await registry.dispatch({ id: "t", name, input }, {
    cwd: sandbox.workspace,
    sandbox,
  });
  return result.text;
}

Deno.test("zeph tool read prints the result, exit 0", async () => {
  await withWorkspace(async (ws, home) => {
    await Deno.writeTextFile(path.join(ws, "a.txt"), "alpha\nbeta\n");
    const r = await zeph(["tool", "read", '{"path": "a.txt"}'], { cwd: ws, home });
    const expected = await dispatchInProcess(ws, "read", { path: "a.txt" });
    expect(expected).toContain("alpha");
    expect(r).toEqual({ code: 0, stdout: `${expected}\n`, stderr: "" });
  });
});

Deno.test("--json prints {tool, ok, output, category, error, exit_code}", async () => {
  await withWorkspace(async (ws, home) => {
    await Deno.writeTextFile(path.join(ws, "a.txt"), "alpha\n");
    const ok = await zeph(["--json", "tool", "read", '{"path": "a.txt"}'], { cwd: ws, home });
    expect([ok.code, JSON.parse(ok.stdout)]).toEqual([0, {
      tool: "read",
      ok: true,
      output: await dispatchInProcess(ws, "read", { path: "a.txt" }),
      category: null,
      error: null,
      exit_code: null,
    }]);
    const bad = await zeph(["tool", "read", '{"path": 1}', "--json"], { cwd: ws, home });
    const parsed = JSON.parse(bad.stdout);
    expect([bad.code, parsed.tool, parsed.ok, parsed.category]).toEqual([
      1,
      "read",
      false,
      "type_mismatch",
    ]);
    expect(parsed.output).toMatch(/^\[tool_error\]\ncategory: type_mismatch\n/);
    expect(parsed.error).toBe(
      'Invalid parameters for tool "read":\n- path: Invalid input: expected string, received number',
    );
  });
});

Deno.test("--yes does not approve a write to a protected path; the file stays as it was", async () => {
  await withWorkspace(async (ws, home) => {
    const input = JSON.stringify({ path: ".envrc", content: "export EVIL=1\n" });
    const r = await zeph(["--yes", "tool", "write", input], { cwd: ws, home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("only a person can approve it");
    expect(r.stderr).toContain("protected path");
    expect(() => Deno.statSync(path.join(ws, ".envrc"))).toThrow(Deno.errors.NotFound);
    // Without --yes the hint does not suggest --yes.
    const plain = await zeph(["tool", "write", input], { cwd: ws, home });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("run zeph interactively");
    expect(plain.stderr).not.toContain("Run with --yes");
    const ok = await zeph([
      "--yes",
      "tool",
      "write",
      JSON.stringify({ path: "a.txt", content: "x" }),
    ], {
      cwd: ws,
      home,
    });
    expect(ok.code).toBe(0);
  });
});

Deno.test("an unknown tool is a tool error (exit 1) listing the available tools", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["tool", "raed", "{}"], { cwd: ws, home });
    expect([r.code, r.stdout]).toEqual([1, ""]);
    expect(r.stderr).toMatch(
      /^\[tool_error\]\ncategory: tool_not_found\nerror: Unknown tool "raed"\. Available tools: bash, read, write, /,
    );
  });
});

Deno.test("bad JSON input is a usage error, exit 2, nothing runs", async () => {
  await withWorkspace(async (ws, home) => {
    const cases: [string, string][] = [
      ["{path: a}", "zeph: Cannot parse the tool input as JSON: "],
      ["[1]", "zeph: The tool input must be a JSON object, not an array. "],
      ['"x"', "zeph: The tool input must be a JSON object, not string. "],
      ["null", "zeph: The tool input must be a JSON object, not null. "],
    ];
    for (const [input, message] of cases) {
      const r = await zeph(["tool", "write", input], { cwd: ws, home });
      expect([input, r.code, r.stdout]).toEqual([input, 2, ""]);
      expect(r.stderr.startsWith(message)).toBe(true);
    }
    expect([...Deno.readDirSync(ws)]).toEqual([]);
  });
});

Deno.test("mutating calls ask: refused without --yes (exit 1), run with --yes", async () => {
  await withWorkspace(async (ws, home) => {
    const input = '{"path": "new.txt", "content": "hi\\n"}';
    const refused = await zeph(["tool", "write", input], { cwd: ws, home });
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        "[tool_error]",
        "category: confirmation_required",
        'error: Cannot run write "new.txt" without confirmation',
        "suggestion: Run with --yes to allow, or add an allow rule to [tools.permissions].",
        "retryable: false",
        "",
      ].join("\n"),
    });
    expect([...Deno.readDirSync(ws)]).toEqual([]);
    const allowed = await zeph(["--yes", "tool", "write", input], { cwd: ws, home });
    expect(allowed.code).toBe(0);
    expect(await Deno.readTextFile(path.join(ws, "new.txt"))).toBe("hi\n");
  });
});

Deno.test("-C sets the workspace: relative paths resolve there, outside paths are refused", async () => {
  await withWorkspace(async (ws, home) => {
    await Deno.mkdir(path.join(ws, "proj"));
    await Deno.writeTextFile(path.join(ws, "proj", "in.txt"), "inside\n");
    await Deno.writeTextFile(path.join(ws, "out.txt"), "outside\n");
    const inside = await zeph(["-C", "proj", "tool", "read", '{"path": "in.txt"}'], {
      cwd: ws,
      home,
    });
    const expected = await dispatchInProcess(path.join(ws, "proj"), "read", { path: "in.txt" });
    expect(expected).toContain("inside");
    expect([inside.code, inside.stdout]).toEqual([0, `${expected}\n`]);
    const outside = await zeph(["-C", "proj", "--json", "tool", "read", '{"path": "../out.txt"}'], {
      cwd: ws,
      home,
    });
    expect([outside.code, JSON.parse(outside.stdout).category]).toEqual([1, "policy_blocked"]);
  });
});

Deno.test("permission rules from the config file apply to zeph tool", async () => {
  await withWorkspace(async (ws, home) => {
    await Deno.writeTextFile(path.join(ws, "secret.env"), "KEY=1\n");
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(
      config,
      '[[tools.permissions.read]]\npattern = "*.env"\naction = "deny"\n' +
        '[[tools.permissions.read]]\npattern = "*"\naction = "allow"\n',
    );
    const r = await zeph(["--config", config, "--json", "tool", "read", '{"path": "secret.env"}'], {
      cwd: ws,
      home,
    });
    expect([r.code, JSON.parse(r.stdout)]).toEqual([1, {
      tool: "read",
      ok: false,
      output: [
        "[tool_error]",
        "category: policy_blocked",
        'error: Cannot run read "secret.env": denied by policy',
        "suggestion: Blocked by security policy. Try an alternative that stays within the policy.",
        "retryable: false",
      ].join("\n"),
      category: "policy_blocked",
      error: 'Cannot run read "secret.env": denied by policy',
      exit_code: null,
    }]);
  });
});

Deno.test("a broken config stops zeph tool with exit 2 before anything runs", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "c.toml");
    await Deno.writeTextFile(config, '[tools.shell]\ntimeout = "soon"\n');
    const r = await zeph(["--config", config, "tool", "list_directory", "{}"], { cwd: ws, home });
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `zeph: Invalid configuration: ${config}: tools.shell.timeout: expected a number, found a string "soon"\n`,
    });
  });
});

/** `script` (util-linux) gives the child a pseudo-terminal, so the CLI sees a real TTY. */
const hasScript = (() => {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "on a terminal, an ask is a question: y runs the call, n refuses it",
  ignore: !hasScript || Deno.build.os !== "linux",
  async fn() {
    await withWorkspace(async (ws, home) => {
      const { DENO, MAIN } = await import("./_run.ts");
      const run = async (answer: string, file: string) => {
        const input = JSON.stringify({ path: file, content: "hi\n" });
        const inner = `'${DENO}' run -A --no-prompt '${MAIN}' tool write '${input}'; echo "rc=$?"`;
        const child = new Deno.Command("script", {
          args: ["-qec", inner, "/dev/null"],
          cwd: ws,
          env: { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, NO_COLOR: "1" },
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(`${answer}\n`));
        await writer.close();
        const out = await child.output();
        return new TextDecoder().decode(out.stdout).replaceAll("\r", "");
      };
      const yes = await run("y", "yes.txt");
      expect(yes).toContain("Allow write: yes.txt?\n  [y]es once / [n]o / [a]lways");
      expect(yes).toContain("rc=0");
      expect(await Deno.readTextFile(path.join(ws, "yes.txt"))).toBe("hi\n");
      const no = await run("n\n", "no.txt"); // n, then Enter at "Why not?": no reason
      expect(no).toContain('error: Cannot run write "no.txt": the user rejected it');
      expect(no).toContain("rc=1");
      expect([...Deno.readDirSync(ws)].map((e) => e.name)).toEqual(["yes.txt"]);
    });
  },
});

const bwrapProbe = probeBwrap();
if (!bwrapProbe.available) {
  console.error(`tool_cmd_test: the OS sandbox test is skipped: ${bwrapProbe.reason}`);
}

Deno.test({
  name: "zeph tool bash runs in the OS sandbox: a path the parser cannot see stays unwritten",
  ignore: !bwrapProbe.available,
  async fn() {
    await withWorkspace(async (ws, home) => {
      // awk's program is not a path argument, so only the OS sandbox keeps this write in.
      const input = JSON.stringify({ command: `awk 'BEGIN { print "x" > "../escaped.txt" }'` });
      const escaped = path.join(ws, "..", "escaped.txt");
      const confined = await zeph(["--yes", "tool", "bash", input], { cwd: ws, home });
      expect(confined.code).toBe(0);
      expect(() => Deno.statSync(escaped)).toThrow(Deno.errors.NotFound);

      await Deno.mkdir(path.join(home, ".config", "zeph"), { recursive: true });
      await Deno.writeTextFile(
        path.join(home, ".config", "zeph", "config.toml"),
        '[tools.shell.sandbox]\nmode = "off"\n',
      );
      const unconfined = await zeph(["--yes", "tool", "bash", input], { cwd: ws, home });
      expect(unconfined.code).toBe(0);
      expect(await Deno.readTextFile(escaped)).toBe("x\n");
    });
  },
});

Deno.test('mode = "bwrap" without bubblewrap on PATH: a warning at start, the command refused', async () => {
  await withWorkspace(async (ws, home) => {
    // A PATH with bash but without bwrap.
    const bin = path.join(home, "bin");
    await Deno.mkdir(bin);
    const bash = ["/usr/bin/bash", "/bin/bash"].find((p) => {
      try {
        return Deno.statSync(p).isFile;
      } catch {
        return false;
      }
    })!;
    await Deno.symlink(bash, path.join(bin, "bash"));
    await Deno.mkdir(path.join(home, ".config", "zeph"), { recursive: true });
    await Deno.writeTextFile(
      path.join(home, ".config", "zeph", "config.toml"),
      '[tools.shell.sandbox]\nmode = "bwrap"\n',
    );
    const input = JSON.stringify({ command: "echo ran > ran.txt" });
    const r = await zeph(["--yes", "tool", "bash", input], { cwd: ws, home, env: { PATH: bin } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mode = "bwrap" but');
    expect(r.stderr).toContain("category: permanent_failure");
    expect(r.stderr).toContain("requires bubblewrap");
    expect(r.stderr).toContain('"bubblewrap" package');
    expect(() => Deno.statSync(path.join(ws, "ran.txt"))).toThrow(Deno.errors.NotFound);
  });
});

Deno.test('mode = "auto" with a bubblewrap that fails: one warning, the command runs unconfined', async () => {
  await withWorkspace(async (ws, home) => {
    const bin = path.join(home, "bin");
    await Deno.mkdir(bin);
    // A bwrap that cannot set up its namespaces, as in a container without user namespaces.
    await Deno.writeTextFile(
      path.join(bin, "bwrap"),
      "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n",
    );
    await Deno.chmod(path.join(bin, "bwrap"), 0o755);
    const input = JSON.stringify({ command: "echo ran > ran.txt" });
    const env = { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` };
    // A call that runs no command does not probe the sandbox.
    await Deno.writeTextFile(path.join(ws, "a.txt"), "a\n");
    const read = await zeph(["--yes", "tool", "read", '{"path": "a.txt"}'], { cwd: ws, home, env });
    expect([read.code, read.stderr]).toEqual([0, ""]);
    const r = await zeph(["--yes", "tool", "bash", input], { cwd: ws, home, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("the OS sandbox is off:");
    expect(r.stderr).toContain("No permissions to create new namespace");
    expect(await Deno.readTextFile(path.join(ws, "ran.txt"))).toBe("ran\n");
    // Without bubblewrap at all, auto stays quiet: a PATH with bash only.
    const bashOnly = path.join(home, "bash-only");
    await Deno.mkdir(bashOnly);
    await Deno.symlink(
      ["/usr/bin/bash", "/bin/bash"].find((p) => {
        try {
          return Deno.statSync(p).isFile;
        } catch {
          return false;
        }
      })!,
      path.join(bashOnly, "bash"),
    );
    const quiet = await zeph(["--yes", "tool", "bash", input], {
      cwd: ws,
      home,
      env: { PATH: bashOnly },
    });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain("the OS sandbox is off");
  });
});

Deno.test("default autonomy: destructive commands are refused without a terminal; the files stay", async () => {
  await withWorkspace(async (ws, home) => {
    await Deno.writeTextFile(path.join(ws, "important.txt"), "keep\n");
    await Deno.writeTextFile(path.join(ws, "scratch.tmp"), "x\n");
    const table: [string, number][] = [
      ["echo x > important.txt", 1],
      ["rm -fr important.txt", 1],
      ["rm -r -f scratch.tmp", 1],
      ["find . -name '*.tmp' -delete", 1],
      ["truncate -s 0 important.txt", 1],
      ["cat important.txt", 0],
      ["echo made > new.txt", 0],
    ];
    const got: string[] = [];
    for (const [command] of table) {
      const r = await zeph(["tool", "bash", JSON.stringify({ command }), "--json"], {
        cwd: ws,
        home,
      });
      const category = r.code === 1 ? JSON.parse(r.stdout).category : null;
      got.push(`${command} → ${r.code} ${category}`);
    }
    expect(got).toEqual(
      table.map(([c, code]) => `${c} → ${code} ${code === 1 ? "confirmation_required" : null}`),
    );
    expect(await Deno.readTextFile(path.join(ws, "important.txt"))).toBe("keep\n");
    expect(await Deno.readTextFile(path.join(ws, "scratch.tmp"))).toBe("x\n");
    expect(await Deno.readTextFile(path.join(ws, "new.txt"))).toBe("made\n");
  });
});

Deno.test("zeph tool <id> with the input left out is {}: stdin is read only for -", async () => {
  await withWorkspace(async (ws, home) => {
    await Deno.writeTextFile(path.join(ws, "a.txt"), "alpha\nbeta\n");
    // A script's loop (`… | while read f; do zeph tool …; done`) keeps its own input: a left-out
    // input never reads (or waits on) stdin, so read names its missing path.
    const left = await zeph(["tool", "read"], { cwd: ws, home, stdin: '{"path": "a.txt"}' });
    expect(left.code).toBe(1);
    expect(left.stdout + left.stderr).toContain("path");
    // `-` reads it, with the zeph task's own permission flags (the default here), not -A.
    const dash = await zeph(["tool", "read", "-"], { cwd: ws, home, stdin: '{"path": "a.txt"}' });
    expect([dash.code, dash.stdout]).toEqual([
      0,
      `${await dispatchInProcess(ws, "read", { path: "a.txt" })}\n`,
    ]);
  });
});
