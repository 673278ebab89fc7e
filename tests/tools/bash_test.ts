import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import {
  LocalProcessRunner,
  planSandbox,
  probeBwrap,
  processGroupMembers,
  type ProcessRunner,
  type RunOptions,
  type RunResult,
  SandboxedRunner,
  ShellSandbox,
} from "../../src/exec/mod.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import type { ShellAnalysis, SimpleCommand } from "../../src/permission/shell.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import {
  bashTool,
  checkShellPaths,
  pathCandidate,
  sandboxFailureNote,
  shellOutput,
  type ShellOutputEnvelope,
} from "../../src/tools/bash.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { type CallScope, ToolRegistry } from "../../src/tools/registry.ts";
import type { ToolDeps, ToolEvent } from "../../src/tools/tool.ts";

/** Path checks are covered below with explicit analyses; these tests exercise running. */
const noPaths = (): Promise<ShellAnalysis> => Promise.resolve({ commands: [], dynamic: [] });

/** Without `deps`, the real parser of src/permission/shell.ts checks the paths. */
async function setup(
  edit: (c: ReturnType<typeof defaultConfig>) => void = () => {},
  deps: Partial<ToolDeps> = {},
) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_bash_" }));
  const config = defaultConfig();
  edit(config);
  const registry = new ToolRegistry({
    tools: [bashTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({ bash: [{ pattern: "*", action: "allow" }] }),
    config,
    deps,
  });
  const events: ToolEvent[] = [];
  const scope: CallScope = {
    cwd: dir,
    sandbox: await Sandbox.create(dir),
    emit: (e) => events.push(e),
  };
  const run = (command: string, extra: Partial<CallScope> = {}) =>
    registry.dispatch({ id: "c1", name: "bash", input: { command } }, { ...scope, ...extra });
  return { dir, run, events, cleanup: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("bash: stdout and stderr interleaved for the model, separate in the envelope", async () => {
  const t = await setup();
  const result = await t.run("echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2");
  expect(result.ok).toBe(true);
  expect(result.outcome).toBe("success");
  expect(result.text).toBe("out1\n[stderr] err1\nout2");
  expect(result.output?.raw).toEqual(
    {
      stdout: "out1\nout2\n",
      stderr: "err1\n",
      exit_code: 0,
      truncated: false,
      sandboxed: false,
    } satisfies ShellOutputEnvelope,
  );
  expect(result.output?.exitCode).toBe(0);
  expect(result.output?.failed).toBe(false);
  expect(result.output?.filterCommand).toBe(
    "echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2",
  );
  await t.cleanup();
});

Deno.test("bash: a non-zero exit is shown and is not a tool error", async () => {
  const t = await setup();
  const result = await t.run("echo 'No such file or directory'; exit 3");
  expect([result.ok, result.outcome]).toEqual([true, "success"]);
  expect(result.text).toBe("No such file or directory\n[exit code 3]");
  expect(result.output?.failed).toBe(true);
  expect((result.output?.raw as ShellOutputEnvelope).exit_code).toBe(3);
  // Exit 0 with scary words stays a plain success (unlike the reference's classify_shell_exit).
  const ok = await t.run("echo 'permission denied'");
  expect([ok.ok, ok.text, ok.output?.failed]).toEqual([true, "permission denied", false]);
  await t.cleanup();
});

Deno.test("bash: no output gives (no output); the command runs in the workspace", async () => {
  const t = await setup();
  expect((await t.run("true")).text).toBe("(no output)");
  expect((await t.run("false")).text).toBe("(no output)\n[exit code 1]");
  expect((await t.run("pwd")).text).toBe(t.dir);
  await t.cleanup();
});

Deno.test("bash: a signal death has a null exit code", async () => {
  const t = await setup();
  const result = await t.run("kill -KILL $$");
  expect(result.text).toBe("(no output)\n[killed by SIGKILL]");
  expect(result.output?.raw).toEqual({
    stdout: "",
    stderr: "",
    exit_code: null,
    truncated: false,
    sandboxed: false,
  });
  expect(result.output?.failed).toBe(true);
  await t.cleanup();
});

Deno.test("bash: timeout kills the whole group, keeps partial output, outcome timeout", async () => {
  const t = await setup((c) => c.tools.shell.timeout = 1);
  const result = await t.run(`echo $$ > ${t.dir}/pid; echo started; sleep 100 & sleep 100`);
  expect(result.ok).toBe(false);
  expect([result.outcome, result.category]).toEqual(["timeout", "timeout"]);
  expect(result.text.startsWith(
    "started\n[timeout] command timed out after 1s; partial output above\n\n[tool_error]\n" +
      "category: timeout\n",
  )).toBe(true);
  expect((result.output?.raw as ShellOutputEnvelope).exit_code).toBe(null);
  const pid = Number((await Deno.readTextFile(`${t.dir}/pid`)).trim());
  expect(processGroupMembers(pid)).toEqual([]);
  await t.cleanup();
});

Deno.test("bash: cancel kills the whole group and reports cancelled", async () => {
  const t = await setup();
  const controller = new AbortController();
  const running = t.run(
    `echo $$ > ${t.dir}/pid; sleep 100 & sleep 100`,
    { signal: controller.signal },
  );
  while (true) {
    try {
      if ((await Deno.readTextFile(`${t.dir}/pid`)).endsWith("\n")) break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 20));
  }
  controller.abort();
  const result = await running;
  expect([result.ok, result.outcome, result.category]).toEqual([false, "cancelled", "cancelled"]);
  expect(result.text).toContain("[cancelled] command stopped by the user; partial output above");
  const pid = Number((await Deno.readTextFile(`${t.dir}/pid`)).trim());
  expect(processGroupMembers(pid)).toEqual([]);
  await t.cleanup();
});

Deno.test("bash: blocklisted environment variables are not inherited", async () => {
  const t = await setup();
  Deno.env.set("ZEPH_SECRET", "zs");
  Deno.env.set("AWS_X", "ax");
  Deno.env.set("ZEPH_TEST_VISIBLE_NOT", "1");
  Deno.env.set("MY_PLAIN_VAR", "kept");
  try {
    const result = await t.run("env");
    const names = new Set(result.text.split("\n").map((l) => l.split("=")[0]));
    expect(
      ["ZEPH_SECRET", "AWS_X", "ZEPH_TEST_VISIBLE_NOT", "MY_PLAIN_VAR"].map((n) => names.has(n)),
    ).toEqual([false, false, false, true]);
  } finally {
    for (const n of ["ZEPH_SECRET", "AWS_X", "ZEPH_TEST_VISIBLE_NOT", "MY_PLAIN_VAR"]) {
      Deno.env.delete(n);
    }
  }
  await t.cleanup();
});

Deno.test("bash: a configured env_blocklist replaces the default", async () => {
  const t = await setup((c) => c.tools.shell.env_blocklist = ["MY_"]);
  Deno.env.set("MY_PLAIN_VAR", "hidden");
  Deno.env.set("ZEPH_SHOWN", "shown");
  try {
    const result = await t.run('echo "[$MY_PLAIN_VAR] [$ZEPH_SHOWN]"');
    expect(result.text).toBe("[] [shown]");
  } finally {
    Deno.env.delete("MY_PLAIN_VAR");
    Deno.env.delete("ZEPH_SHOWN");
  }
  await t.cleanup();
});

Deno.test("bash: output chunks stream to the event sink before the command exits", async () => {
  const t = await setup();
  const go = `${t.dir}/go`;
  const events: ToolEvent[] = [];
  const result = await t.run(
    `echo ready; while [ ! -f ${go} ]; do sleep 0.02; done; echo done`,
    {
      emit: (e) => {
        events.push(e);
        if (e.type === "output" && e.chunk.includes("ready")) Deno.writeTextFileSync(go, "");
      },
    },
  );
  expect(result.text).toBe("ready\ndone");
  expect(events.map((e) => e.type === "output" ? [e.callId, e.tool, e.stream] : e.type))
    .toContainEqual(["c1", "bash", "stdout"]);
  expect(events.map((e) => e.type === "output" ? e.chunk : "").join("")).toBe("ready\ndone\n");
  await t.cleanup();
});

Deno.test("bash: 50 MB of output stays bounded with a dropped-bytes note", async () => {
  const t = await setup((c) => c.tools.shell.max_output_bytes = 64 * 1024);
  let streamed = 0;
  const result = await t.run(
    "head -c 50000000 /dev/zero | tr '\\0' 'a'; echo; echo END",
    { emit: (e) => e.type === "output" && (streamed += e.chunk.length) },
  );
  const total = 50_000_000 + "\nEND\n".length;
  expect(streamed).toBe(total);
  const dropped = total - 2 * 64 * 1024;
  expect(result.text).toBe(
    "a".repeat(65536) +
      `\n[... ${dropped} bytes of output dropped (kept the first and last 64 KiB) ...]\n` +
      "a".repeat(65536 - 5) + "\nEND",
  );
  const raw = result.output?.raw as ShellOutputEnvelope;
  expect([raw.truncated, raw.exit_code, raw.stdout.length]).toEqual([
    true,
    0,
    result.text.length + 1,
  ]);
  expect(result.output?.truncated).toBe(true);
  await t.cleanup();
});

Deno.test("bash: an empty command is invalid", async () => {
  const t = await setup();
  const result = await t.run("   ");
  expect([result.ok, result.category]).toEqual([false, "invalid_parameters"]);
  expect(result.text).toContain("command: must not be empty");
  await t.cleanup();
});

Deno.test("bash: the process runner is the one the registry's caller passes", async () => {
  const calls: [string, string[], RunOptions][] = [];
  const real = new LocalProcessRunner();
  const recording: ProcessRunner = {
    run(program, args, options = {}) {
      calls.push([program, args, options]);
      return real.run(program, args, options);
    },
  };
  const t = await setup(undefined, { analyzeShell: noPaths, runner: recording });
  Deno.env.set("ZEPH_SECRET", "zs");
  try {
    const result = await t.run("echo via-injected");
    expect(result.text).toBe("via-injected");
  } finally {
    Deno.env.delete("ZEPH_SECRET");
  }
  expect(calls.map(([p, a, o]) => [p, a, o.cwd, o.timeoutMs, "ZEPH_SECRET" in (o.env ?? {})]))
    .toEqual([["bash", ["-c", "echo via-injected"], t.dir, 30_000, false]]);
  await t.cleanup();
});

// ---------------------------------------------------------------------------------------------
// allowed_paths, on explicit analyses (the parser itself is tested in tests/permission/)

const cmd = (
  program: string,
  args: string[] = [],
  redirects: { op: string; target: string }[] = [],
): SimpleCommand => ({
  program,
  args,
  redirects,
  raw: [program, ...args].join(" "),
  effect: "other",
  effectReason: "",
  programIsLiteral: true,
  context: [],
});

Deno.test("bash paths: pathCandidate picks tokens that look like paths", () => {
  const table: [string, string | null][] = [
    ["file.txt", null],
    ["-la", null],
    ["/etc/passwd", "/etc/passwd"],
    ["./x", "./x"],
    ["..", ".."],
    ["../x", "../x"],
    ["~", "~"],
    ["~/x", "~/x"],
    ["src/main.ts", "src/main.ts"],
    ["--output=/etc/x", "/etc/x"],
    ["PREFIX=/usr", "/usr"],
    ["https://example.com/a", null],
    ["core.pager=less", null],
  ];
  expect(table.map(([t]) => [t, pathCandidate(t)])).toEqual(table);
});

Deno.test("bash paths: arguments and redirects outside the workspace are refused", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_bash_paths_" }));
  await Deno.mkdir(`${dir}/sub`);
  await Deno.symlink("/etc", `${dir}/link`);
  type Found = Pick<ShellAnalysis, "commands" | "parseError">;
  const check = async (analysis: Found, allowedPaths: string[] = []) => {
    try {
      await checkShellPaths("(analysed)", {
        analyze: () => Promise.resolve({ ...analysis, dynamic: [] }),
        cwd: dir,
        allowedPaths,
      });
      return "ok";
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  };
  const table: [Found, string][] = [
    [{ commands: [cmd("ls", ["-la", "src/x", "./y", "sub/.."])] }, "ok"],
    [{ commands: [cmd("cat", ["/etc/passwd"])] }, "/etc/passwd"],
    [{ commands: [cmd("cat", ["../outside"])] }, "../outside"],
    [{ commands: [cmd("cd", [".."])] }, ".."],
    [{ commands: [cmd("cd", [])] }, "cd without a directory"],
    [{ commands: [cmd("cat", ["link/passwd"])] }, "link/passwd"],
    [{ commands: [cmd("cat", ["sub/../../x"])] }, "sub/../../x"],
    [{ commands: [cmd("cp", ["--target-directory=/tmp", "a"])] }, "/tmp"],
    [{ commands: [cmd("cat", ["$HOME/.ssh/id_rsa"])] }, "variable"],
    [{ commands: [cmd("ls", ["~root/x"])] }, "another user's home"],
    [{ commands: [cmd("echo", ["x"], [{ op: ">", target: "/tmp/out" }])] }, "/tmp/out"],
    [{ commands: [cmd("echo", ["x"], [{ op: ">", target: "out.txt" }])] }, "ok"],
    [{ commands: [cmd("echo", ["x"], [{ op: ">", target: "/dev/null" }])] }, "ok"],
    [{ commands: [cmd("echo", ["x"], [{ op: ">&", target: "2" }])] }, "ok"],
    [{ commands: [cmd("cat", [], [{ op: "<", target: "/dev/fd/3" }])] }, "ok"],
    [{ commands: [cmd("cat", [], [{ op: "<<", target: "EOF" }])] }, "ok"],
    [{ commands: [cmd("cat", [], [{ op: "<<<", target: "/etc/passwd" }])] }, "ok"],
    [{ commands: [cmd("echo", ["x"], [{ op: ">", target: "/dev/tcp/1.2.3.4/80" }])] }, "network"],
    [{ commands: [cmd("head", ["-c", "10", "/dev/zero"])] }, "ok"],
    [{ commands: [cmd("awk", ["/foo/ {print}", "data.txt"])] }, "ok"],
    [{ commands: [cmd("awk", ["/foo/ {print}", "/etc/passwd"])] }, "/etc/passwd"],
    [{ commands: [cmd("sed", ["-e", "s/a/b/", "-e", "s/c/d/", "f.txt"])] }, "ok"],
    [{ commands: [cmd("echo", ["ok"]), cmd("cat", ["/etc/hosts"])] }, "/etc/hosts"],
    [{ commands: [], parseError: "unexpected EOF" }, "does not parse (unexpected EOF)"],
  ];
  const results = [];
  for (const [analysis, expected] of table) {
    const got = await check(analysis);
    const pass = expected === "ok" ? got === "ok" : got !== "ok" && got.includes(expected);
    results.push([analysis.commands.map((c) => c.program).join("|"), pass]);
  }
  expect(results).toEqual(table.map(([a]) => [a.commands.map((c) => c.program).join("|"), true]));
  // A configured allowed_paths entry opens exactly that root.
  expect(await check({ commands: [cmd("cat", ["/etc/hosts"])] }, ["/etc"])).toBe("ok");
  expect(await check({ commands: [cmd("cat", [`${dir}/a`])] }, ["/etc"])).toContain(
    "SandboxViolation",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("bash paths: a refused path stops the command before it runs", async () => {
  let marker = "";
  const t = await setup(undefined, {
    analyzeShell: () =>
      Promise.resolve({
        commands: [cmd("touch", [marker]), cmd("cat", ["/etc/passwd"])],
        dynamic: [],
      }),
  });
  marker = `${t.dir}/ran`;
  const result = await t.run(`touch ${marker}; cat /etc/passwd`);
  expect([result.ok, result.outcome, result.category]).toEqual([
    false,
    "blocked",
    "policy_blocked",
  ]);
  expect(result.error).toBe('Cannot access "/etc/passwd": is outside the allowed paths');
  await expect(Deno.stat(marker)).rejects.toBeInstanceOf(Deno.errors.NotFound);
  await t.cleanup();
});

Deno.test("bash paths: the real analyser refuses outside paths before anything runs", async () => {
  const t = await setup();
  const marker = `${t.dir}/ran`;
  const refused = [
    "cat /etc/passwd",
    "echo x > /tmp/zeph_bash_escape",
    "bash -c 'cat /etc/hosts'",
    "ls; cat ../x",
    "echo $(cat /etc/hostname)",
    "cd .. && ls",
    "cd && ls",
    'cd "$HOME" && ls',
    "exec 3<>/dev/tcp/127.0.0.1/9",
    'cat "$HOME"/.bashrc',
    "f() { cat /etc/passwd; }; f",
    "cat <(cat /etc/passwd)",
    'echo x >"/tmp/a b"',
    "cp x ~/x",
    "if true; then cat /etc/passwd; fi",
    "echo hi | tee /tmp/zeph_tee",
  ];
  const allowed = [
    "ls -la",
    "echo hi > out.txt && cat out.txt",
    "mkdir -p a/b && cd a/b && pwd",
    "echo x 2>/dev/null",
    "grep -r foo . || true",
    "awk '/x/ {print}' /dev/null",
    "sed -e 's/a/b/' out.txt",
    "cat <<EOF\n/etc/passwd\nEOF",
  ];
  const outcomes: [string, string][] = [];
  for (const command of refused) {
    const result = await t.run(`touch ${marker}; ${command}`);
    const ran = await Deno.stat(marker).then(() => true, () => false);
    outcomes.push([command, `${result.outcome}/${result.category}/ran=${ran}`]);
  }
  expect(outcomes).toEqual(refused.map((c) => [c, "blocked/policy_blocked/ran=false"]));
  const allowedOutcomes: [string, string][] = [];
  for (const command of allowed) {
    const result = await t.run(command);
    allowedOutcomes.push([command, `${result.outcome}/${result.output?.exitCode}`]);
  }
  expect(allowedOutcomes).toEqual(allowed.map((c) => [c, "success/0"]));
  await t.cleanup();
});

Deno.test("bash: a missing working directory is a clear error, not 'bash is not installed'", async () => {
  const t = await setup(undefined, { analyzeShell: noPaths });
  const gone = `${t.dir}/gone`;
  const result = await t.run("true", { cwd: gone });
  expect([result.ok, result.category]).toEqual([false, "permanent_failure"]);
  expect(result.error).toBe(
    `Cannot run the command: the working directory ${JSON.stringify(gone)} does not exist`,
  );
  await t.cleanup();
});

Deno.test("bash: the envelope says whether the command ran in the OS sandbox", async () => {
  const sandboxed = (mode: "bwrap" | "off", bwrapPath = "bwrap") =>
    new SandboxedRunner(
      new LocalProcessRunner(),
      new ShellSandbox(mode, {
        writable: [],
        readOnly: [],
        hidden: [],
        allowNetwork: false,
      }, { bwrapPath }),
    );
  const off = await setup(() => {}, { runner: sandboxed("off"), analyzeShell: noPaths });
  const plain = await off.run("echo hi");
  expect((plain.output?.raw as ShellOutputEnvelope).sandboxed).toBe(false);
  await off.cleanup();

  const missing = await setup(() => {}, {
    runner: sandboxed("bwrap", "/nonexistent/bwrap"),
    analyzeShell: noPaths,
  });
  const refused = await missing.run("echo hi");
  expect([refused.ok, refused.category]).toEqual([false, "permanent_failure"]);
  expect(refused.text).toContain("requires bubblewrap");
  expect(refused.text).toContain('Install the "bubblewrap" package');
  await missing.cleanup();

  if (!probeBwrap().available) return; // the rest needs a working bubblewrap
  let workspace = "";
  const runner = new SandboxedRunner(
    new LocalProcessRunner(),
    new ShellSandbox("bwrap", () =>
      planSandbox(workspace, {
        allowedPaths: [],
        readOnlyPaths: [],
        hiddenPaths: [],
        zephPaths: [],
        allowNetwork: false,
      })),
  );
  const t = await setup(() => {}, { runner, analyzeShell: noPaths });
  workspace = t.dir;
  const inside = await t.run("echo hi");
  expect([inside.text, (inside.output?.raw as ShellOutputEnvelope).sandboxed]).toEqual([
    "hi",
    true,
  ]);
  await t.cleanup();
});

Deno.test("bash: a sandboxed command that hits a wall of the sandbox says so, once per wall", () => {
  const result = (text: string, sandbox: "bwrap" | null, exitCode = 1): RunResult => ({
    stdout: { text: "", totalBytes: 0, droppedBytes: 0 },
    stderr: { text, totalBytes: text.length, droppedBytes: 0 },
    combined: { text, totalBytes: text.length, droppedBytes: 0 },
    exitCode,
    signal: null,
    timedOut: false,
    aborted: false,
    backgroundKilled: false,
    durationMs: 1,
    pid: 1,
    sandbox,
  });
  const cases: [string, "bwrap" | null, number, RegExp | null][] = [
    [
      "touch: cannot touch '/etc/x': Read-only file system",
      "bwrap",
      1,
      /allowed_paths are writable/,
    ],
    [
      "Error: EROFS: read-only file system, open '/usr/x'",
      "bwrap",
      1,
      /allowed_paths are writable/,
    ],
    ["curl: (6) Could not resolve host: example.com", "bwrap", 6, /allow_network = true/],
    ["connect: Network is unreachable", "bwrap", 1, /allow_network = true/],
    ["npm ERR! getaddrinfo EAI_AGAIN registry.npmjs.org", "bwrap", 1, /allow_network = true/],
    ["Read-only file system\nCould not resolve host", "bwrap", 1, /writable; it has no network/],
    // Not sandboxed, succeeded, or another failure: no note.
    ["touch: cannot touch '/etc/x': Read-only file system", null, 1, null],
    ["Read-only file system (mentioned in passing)", "bwrap", 0, null],
    ["cat: x: No such file or directory", "bwrap", 1, null],
  ];
  for (const [text, sandbox, code, expected] of cases) {
    const note = sandboxFailureNote(result(text, sandbox, code));
    if (expected === null) expect({ text, note }).toEqual({ text, note: null });
    else expect(note).toMatch(expected);
    const output = shellOutput("cmd", result(text, sandbox, code)).text;
    expect(output.includes("[sandbox]")).toBe(expected !== null);
  }
});
