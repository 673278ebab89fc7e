import { expect } from "expect";
import { join } from "node:path";
import { ToolError } from "../../src/errors/mod.ts";
import {
  bwrapArgs,
  HIDDEN_SYSTEM_PATHS,
  LocalProcessRunner,
  planSandbox,
  probeBwrap,
  type ProcessRunner,
  type RunOptions,
  type RunResult,
  SandboxedRunner,
  type SandboxSettings,
  sandboxSettingsOf,
  ShellSandbox,
  withSandboxOf,
} from "../../src/exec/mod.ts";
import { Config } from "../../src/config/mod.ts";

const probe = probeBwrap();
/** Tests that run real commands in bubblewrap; skipped (with the reason) where it does not work. */
const ignore = !probe.available;
if (ignore) console.error(`_sandbox_test: bubblewrap tests skipped: ${probe.reason}`);

const SETTINGS: SandboxSettings = {
  allowedPaths: [],
  readOnlyPaths: [],
  hiddenPaths: [],
  zephPaths: [],
  allowNetwork: false,
};

/** A workspace and a fake home outside /tmp (so /tmp being private does not hide them). */
async function fixture(): Promise<{ ws: string; home: string; outside: string; root: string }> {
  const base = Deno.build.os === "linux" ? "/var/tmp" : undefined;
  const root = await Deno.realPath(await Deno.makeTempDir({ dir: base, prefix: "zeph_sbx_" }));
  const ws = join(root, "ws");
  const home = join(root, "home");
  const outside = join(root, "outside");
  for (const d of [ws, home, outside]) await Deno.mkdir(d);
  return { ws, home, outside, root };
}

function sandboxedRunner(
  ws: string,
  home: string,
  settings: Partial<SandboxSettings> = {},
  mode: "auto" | "bwrap" | "off" = "bwrap",
): ProcessRunner {
  const sandbox = new ShellSandbox(
    mode,
    () => planSandbox(ws, { ...SETTINGS, ...settings }, { env: { HOME: home } }),
  );
  return new SandboxedRunner(new LocalProcessRunner(), sandbox);
}

function bash(runner: ProcessRunner, ws: string, command: string, options: RunOptions = {}) {
  return runner.run("bash", ["-c", command], { cwd: ws, ...options });
}

// ---------------------------------------------------------------------------------------------
// The plan (no bubblewrap needed)

Deno.test("the plan: protected names that exist are read-only in every writable root", async () => {
  const { ws, home, outside, root } = await fixture();
  try {
    await Deno.mkdir(join(ws, ".git/hooks"), { recursive: true });
    await Deno.writeTextFile(join(ws, ".git/config"), "");
    await Deno.writeTextFile(join(ws, ".envrc"), "");
    await Deno.writeTextFile(join(outside, ".mcp.json"), "{}");
    const plan = planSandbox(ws, { ...SETTINGS, allowedPaths: [outside] }, {
      env: { HOME: home },
    });
    expect(plan.writable).toEqual([ws, outside]);
    expect(plan.readOnly.sort()).toEqual(
      [
        join(ws, ".git/hooks"),
        join(ws, ".git/config"),
        join(ws, ".envrc"),
        join(
          outside,
          ".mcp.json",
        ),
      ].sort(),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the plan: a git directory among the allowed paths keeps its hooks and config read-only", async () => {
  const { ws, home, outside, root } = await fixture();
  try {
    const gitDir = join(outside, "repo.git");
    await Deno.mkdir(join(gitDir, "objects"), { recursive: true });
    await Deno.mkdir(join(gitDir, "hooks"));
    await Deno.writeTextFile(join(gitDir, "HEAD"), "ref: refs/heads/main\n");
    await Deno.writeTextFile(join(gitDir, "config"), "");
    const plan = planSandbox(ws, { ...SETTINGS, allowedPaths: [gitDir, outside] }, {
      env: { HOME: home },
    });
    expect(plan.writable).toEqual([ws, gitDir, outside]);
    expect(plan.readOnly.sort()).toEqual([join(gitDir, "config"), join(gitDir, "hooks")]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the plan: a submodule's git directory (.git/modules/…) keeps its hooks and config read-only", async () => {
  // `git submodule` keeps each submodule's repository under .git/modules/<name> (nested ones
  // under …/modules/<name> again); a hook written there runs at the next git command in it.
  const { ws, home, root } = await fixture();
  try {
    const lib = join(ws, ".git/modules/lib");
    const deep = join(lib, "modules/vendor/x");
    for (const g of [lib, deep]) {
      await Deno.mkdir(join(g, "objects"), { recursive: true });
      await Deno.mkdir(join(g, "hooks"));
      await Deno.writeTextFile(join(g, "HEAD"), "ref: refs/heads/main\n");
      await Deno.writeTextFile(join(g, "config"), "");
    }
    await Deno.mkdir(join(ws, ".git/modules/not-a-repo"), { recursive: true });
    const plan = planSandbox(ws, SETTINGS, { env: { HOME: home } });
    expect(plan.readOnly.sort()).toEqual(
      [join(lib, "config"), join(lib, "hooks"), join(deep, "config"), join(deep, "hooks")].sort(),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the plan hides $HOME secrets, zeph's own directories and literal deny_read paths", async () => {
  const { ws, home, root } = await fixture();
  try {
    const present = [
      ".ssh",
      ".aws",
      ".gnupg",
      ".config/gcloud",
      ".config/zeph",
      ".local/share/zeph",
      "custom-data/zeph",
    ];
    for (const d of present) await Deno.mkdir(join(home, d), { recursive: true });
    await Deno.writeTextFile(join(home, ".netrc"), "machine x password y");
    await Deno.writeTextFile(join(ws, "secret.key"), "k");
    const config = Config.parse({
      tools: {
        file: { deny_read: ["secret.key", "**/.env", "missing.txt"] },
        shell: { sandbox: { hidden_paths: ["~/.netrc"] } },
      },
    });
    const settings = sandboxSettingsOf(config, { zephPaths: [join(root, "nothing.db")] });
    expect(settings.hiddenPaths).toEqual(["~/.netrc", "secret.key", "missing.txt"]);
    const plan = planSandbox(ws, settings, {
      env: { HOME: home, XDG_DATA_HOME: join(home, "custom-data") },
    });
    const ours = (hidden: string[]) => hidden.filter((p) => p.startsWith(root)).sort();
    expect(ours(plan.hidden)).toEqual(
      [
        ...[".ssh", ".aws", ".gnupg", ".config/gcloud", ".netrc", ".config/zeph"].map((p) =>
          join(home, p)
        ),
        join(home, "custom-data/zeph"),
        join(ws, "secret.key"),
      ].sort(),
    );
    // Without a home directory only the explicit paths are hidden.
    expect(ours(planSandbox(ws, settings, { env: {} }).hidden)).toEqual([join(ws, "secret.key")]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("bwrap arguments: hidden over writable, writable roots inside hidden dirs bound again", () => {
  const plan = {
    writable: ["/h/.config/zeph/ws", "/h"],
    readOnly: ["/h/.git/config"],
    hidden: ["/h/.ssh", "/h/.netrc", "/h/.config/zeph"],
    allowNetwork: false,
  };
  const kinds: Record<string, "file" | "directory"> = {
    "/h/.ssh": "directory",
    "/h/.netrc": "file",
    "/h/.config/zeph": "directory",
  };
  const args = bwrapArgs(plan, { cwd: "/h", kindOf: (p) => kinds[p] ?? null });
  const text = args.join(" ");
  expect(text).toContain("--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp");
  for (
    const flag of [
      "--die-with-parent",
      "--new-session",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-net",
    ]
  ) expect(args).toContain(flag);
  const at = (s: string) => text.indexOf(s);
  expect(at("--bind /h /h")).toBeLessThan(at("--ro-bind /h/.git/config"));
  expect(at("--ro-bind /h/.git/config")).toBeLessThan(at("--tmpfs /h/.ssh"));
  expect(text).toContain("--ro-bind /dev/null /h/.netrc");
  expect(text.lastIndexOf("--bind /h/.config/zeph/ws /h/.config/zeph/ws")).toBeGreaterThan(
    at("--tmpfs /h/.config/zeph"),
  );
  expect(args.slice(-3)).toEqual(["--chdir", "/h", "--"]);
  expect(bwrapArgs({ ...plan, allowNetwork: true })).not.toContain("--unshare-net");
});

// ---------------------------------------------------------------------------------------------
// Real bash in real bubblewrap

Deno.test({
  name: "sandboxed: writing outside the workspace fails (read-only file system), inside works",
  ignore,
  async fn() {
    const { ws, home, outside, root } = await fixture();
    try {
      const runner = sandboxedRunner(ws, home);
      const attempts = [
        `echo x > ${outside}/a.txt`,
        `touch ${outside}/b.txt`,
        `mkdir ${outside}/d`,
        `cp /etc/hostname ${root}/c.txt`,
        `ln -s /etc ${outside}/l`,
        `cd .. && echo x > e.txt`,
      ];
      for (const command of attempts) {
        const r = await bash(runner, ws, command);
        expect({ command, failed: r.exitCode !== 0 }).toEqual({ command, failed: true });
        expect(r.combined.text).toMatch(/Read-only file system/);
        expect(r.sandbox).toBe("bwrap");
      }
      expect([...Deno.readDirSync(outside)]).toEqual([]);
      const ok = await bash(runner, ws, "echo inside > in.txt && mkdir -p sub/x && cat in.txt");
      expect([ok.exitCode, ok.stdout.text]).toEqual([0, "inside\n"]);
      expect(await Deno.readTextFile(join(ws, "in.txt"))).toBe("inside\n");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxed: allowed_paths are writable; off: nothing is confined",
  ignore,
  async fn() {
    const { ws, home, outside, root } = await fixture();
    try {
      const allowed = sandboxedRunner(ws, home, { allowedPaths: [outside] });
      expect((await bash(allowed, ws, `echo y > ${outside}/ok.txt`)).exitCode).toBe(0);
      const off = sandboxedRunner(ws, home, {}, "off");
      const r = await bash(off, ws, `echo z > ${root}/free.txt`);
      expect([r.exitCode, r.sandbox]).toEqual([0, null]);
      expect(await Deno.readTextFile(join(root, "free.txt"))).toBe("z\n");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxed: $HOME secrets are invisible (directories empty, files empty)",
  ignore,
  async fn() {
    const { ws, home, root } = await fixture();
    try {
      const secrets = [
        ".ssh/id_ed25519",
        ".aws/credentials",
        ".gnupg/private-keys-v1.d/k.key",
        ".config/gcloud/credentials.db",
        ".netrc",
        ".config/zeph/config.toml",
        ".local/share/zeph/zeph.db",
      ];
      for (const s of secrets) {
        await Deno.mkdir(join(home, s, ".."), { recursive: true });
        await Deno.writeTextFile(join(home, s), "TOPSECRET");
      }
      await Deno.writeTextFile(join(home, "notes.txt"), "visible");
      const runner = sandboxedRunner(ws, home);
      for (const s of secrets) {
        const r = await bash(runner, ws, `cat '${join(home, s)}'`);
        expect({ s, leaked: r.combined.text.includes("TOPSECRET") }).toEqual({ s, leaked: false });
      }
      const ls = await bash(runner, ws, `ls -A ${home}/.ssh ${home}/.aws; cat ${home}/notes.txt`);
      expect(ls.stdout.text).not.toContain("id_ed25519");
      expect(ls.stdout.text).not.toContain("credentials");
      expect(ls.stdout.text).toContain("visible");
      // Writing into a hidden directory does not reach the real one.
      await bash(runner, ws, `echo planted > ${home}/.ssh/authorized_keys`);
      expect(() => Deno.statSync(join(home, ".ssh/authorized_keys"))).toThrow(Deno.errors.NotFound);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxed: the session's runtime directory (its sockets) is invisible",
  ignore,
  async fn() {
    const { ws, home, root } = await fixture();
    const runtime = join(root, "run-user");
    await Deno.mkdir(runtime);
    const socket = join(runtime, "bus");
    const listener = Deno.listen({ transport: "unix", path: socket });
    try {
      const sandbox = new ShellSandbox(
        "bwrap",
        () => planSandbox(ws, SETTINGS, { env: { HOME: home, XDG_RUNTIME_DIR: runtime } }),
      );
      expect(sandbox.plan().hidden).toContain(runtime);
      expect(HIDDEN_SYSTEM_PATHS).toContain("/var/run/docker.sock");
      const runner = new SandboxedRunner(new LocalProcessRunner(), sandbox);
      const r = await bash(runner, ws, `test -S ${socket} && echo visible || echo hidden`);
      expect(r.stdout.text).toBe("hidden\n");
      const outside = await bash(new LocalProcessRunner(), ws, `test -S ${socket} && echo visible`);
      expect(outside.stdout.text).toBe("visible\n");
    } finally {
      listener.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxed: /tmp is private, both ways",
  ignore,
  async fn() {
    const { ws, home, root } = await fixture();
    const host = await Deno.makeTempFile({ prefix: "zeph_host_" });
    const marker = `/tmp/zeph_sandbox_${crypto.randomUUID()}`;
    try {
      const runner = sandboxedRunner(ws, home);
      const r = await bash(runner, ws, `ls ${host}; echo inner > ${marker}; cat ${marker}`);
      expect(r.combined.text).toContain("No such file or directory");
      expect(r.stdout.text).toBe("inner\n");
      expect(() => Deno.statSync(marker)).toThrow(Deno.errors.NotFound);
    } finally {
      await Deno.remove(root, { recursive: true });
      await Deno.remove(host);
    }
  },
});

Deno.test({
  name: "sandboxed: a workspace under /tmp stays the real, writable directory",
  ignore,
  async fn() {
    const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_ws_tmp_" }));
    try {
      const runner = sandboxedRunner(ws, "/nonexistent-home");
      const r = await bash(runner, ws, "echo hi > f.txt && pwd");
      expect([r.exitCode, r.stdout.text]).toEqual([0, `${ws}\n`]);
      expect(await Deno.readTextFile(join(ws, "f.txt"))).toBe("hi\n");
    } finally {
      await Deno.remove(ws, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxed: no network unless allow_network (a 127.0.0.1 server)",
  ignore,
  async fn() {
    const { ws, home, root } = await fixture();
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("pong"),
    );
    const port = server.addr.port;
    const command =
      `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
    try {
      const closed = await bash(sandboxedRunner(ws, home), ws, command);
      expect(closed.exitCode).not.toBe(0);
      expect(closed.stdout.text).not.toContain("pong");
      const open = await bash(sandboxedRunner(ws, home, { allowNetwork: true }), ws, command);
      expect([open.exitCode, open.stdout.text.endsWith("pong")]).toEqual([0, true]);
    } finally {
      await server.shutdown();
      await Deno.remove(root, { recursive: true });
    }
  },
});

/** Live processes whose command line contains `needle`. */
function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(needle) && state !== "Z") found.push(Number(entry.name));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

Deno.test({
  name: "sandboxed: a timeout kills the whole tree inside the sandbox, background jobs included",
  ignore,
  async fn() {
    const { ws, home, root } = await fixture();
    const tag = `${Math.floor(Math.random() * 1e6) + 1000}.5`;
    try {
      const runner = sandboxedRunner(ws, home);
      const r = await bash(
        runner,
        ws,
        `sleep ${tag} & (sleep ${tag}; true) & setsid sleep ${tag} & sleep ${tag}`,
        { timeoutMs: 500, killGraceMs: 100 },
      );
      expect(r.timedOut).toBe(true);
      let left = processesWith(`sleep ${tag}`);
      for (let i = 0; i < 20 && left.length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        left = processesWith(`sleep ${tag}`);
      }
      expect(left).toEqual([]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "sandboxed: protected paths stay read-only inside the workspace",
  ignore,
  async fn() {
    const { ws, home, root } = await fixture();
    try {
      const files = [".git/config", ".git/hooks/pre-commit", ".envrc", ".mcp.json"];
      await Deno.mkdir(join(ws, ".git/hooks"), { recursive: true });
      await Deno.mkdir(join(ws, ".zeph"));
      await Deno.mkdir(join(ws, ".vscode"));
      files.push(".vscode/settings.json", ".zeph/rules.toml");
      for (const f of files) await Deno.writeTextFile(join(ws, f), "original");
      const runner = sandboxedRunner(ws, home);
      const attacks = [
        ...files.map((f) => `echo evil > ${f}`),
        "echo evil > .git/hooks/post-checkout",
        "rm -f .envrc",
        "mv .mcp.json moved.json",
        "echo evil > .zeph/new.toml",
        "git config --file .git/config core.hooksPath /tmp",
      ];
      for (const command of attacks) {
        const r = await bash(runner, ws, command);
        expect({ command, failed: r.exitCode !== 0 }).toEqual({ command, failed: true });
      }
      for (const f of files) expect(await Deno.readTextFile(join(ws, f))).toBe("original");
      expect(() => Deno.statSync(join(ws, ".git/hooks/post-checkout"))).toThrow();
      // Other files of .git stay writable (git must work).
      expect((await bash(runner, ws, "echo ok > .git/HEAD")).exitCode).toBe(0);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("mode bwrap without bubblewrap refuses with the package to install; auto runs unconfined", async () => {
  const { ws, home, root } = await fixture();
  try {
    const plan = () => planSandbox(ws, SETTINGS, { env: { HOME: home } });
    const missing = join(root, "no-such-dir", "bwrap");
    const strict = new SandboxedRunner(
      new LocalProcessRunner(),
      new ShellSandbox("bwrap", plan, { bwrapPath: missing }),
    );
    const error = await bash(strict, ws, "echo ran > ran.txt").then(() => null, (e) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).category).toBe("permanent_failure");
    expect((error as ToolError).message).toContain('mode = "bwrap" requires bubblewrap');
    expect((error as ToolError).message).toContain("is not installed");
    expect((error as ToolError).hint).toContain('"bubblewrap" package');
    expect(() => Deno.statSync(join(ws, "ran.txt"))).toThrow(Deno.errors.NotFound);

    const auto = new ShellSandbox("auto", plan, { bwrapPath: missing });
    expect(auto.active()).toBe(false);
    const r = await bash(new SandboxedRunner(new LocalProcessRunner(), auto), ws, "echo ran");
    expect([r.stdout.text, r.sandbox]).toEqual(["ran\n", null]);
    expect(new ShellSandbox("off", plan).active()).toBe(false);
    expect(new ShellSandbox("bwrap", plan, { bwrapPath: missing }).active()).toBe(true);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("withSandboxOf: a replacement runner (an editor terminal) is wrapped the same way", async () => {
  const calls: string[][] = [];
  const recorder: ProcessRunner = {
    run(program: string, args: string[]): Promise<RunResult> {
      calls.push([program, ...args]);
      return new LocalProcessRunner().run("true", []);
    },
  };
  const plan = { writable: ["/w"], readOnly: [], hidden: [], allowNetwork: false };
  const sandboxed = new SandboxedRunner(
    recorder,
    new ShellSandbox("bwrap", plan, { bwrapPath: "/bin/true" }),
  );
  expect(withSandboxOf(new LocalProcessRunner(), recorder)).toBe(recorder);
  const r = await withSandboxOf(sandboxed, recorder).run("bash", ["-c", "ls"], { cwd: "/w" });
  expect(calls[0][0]).toBe("/bin/true");
  expect(calls[0].slice(-6)).toEqual(["--chdir", "/w", "--", "bash", "-c", "ls"]);
  expect(calls[0]).toContain("--unshare-net");
  expect(r.sandbox).toBe("bwrap");
});

/** The default protected paths, matched as the permission layer matches them. */
async function defaultProtected(extra: string[] = []): Promise<(relative: string) => boolean> {
  const { compileProtected, protectedMatch } = await import("../../src/permission/mod.ts");
  const { DEFAULT_PROTECTED_PATHS } = await import("../../src/config/mod.ts");
  const globs = compileProtected([...DEFAULT_PROTECTED_PATHS, ...extra]);
  return (relative) => protectedMatch(relative, globs) !== null;
}

/** A workspace holding protected paths at depth, and a clone inside it. */
async function protectedWorkspace(ws: string): Promise<string> {
  const clone = join(ws, "vendor/lib/.git");
  await Deno.mkdir(join(clone, "hooks"), { recursive: true });
  await Deno.mkdir(join(clone, "objects"));
  for (const f of ["config", "HEAD"]) await Deno.writeTextFile(join(clone, f), "");
  const files = [
    ".gitattributes",
    "sub/.envrc",
    "sub/deeper/.gitattributes",
    ".zeph/rules.toml",
    "a/b/.vscode/settings.json",
    "a/b/.vscode/launch.json",
    "conf/deploy.toml",
    "node_modules/pkg/.envrc",
    "src/main.ts",
  ];
  for (const f of files) {
    await Deno.mkdir(join(ws, f, ".."), { recursive: true });
    await Deno.writeTextFile(join(ws, f), "x\n");
  }
  return clone;
}

Deno.test("the plan: the user's protected_paths are read-only wherever they are in the roots", async () => {
  const { ws, home, root } = await fixture();
  try {
    const clone = await protectedWorkspace(ws);
    const isProtected = await defaultProtected(["conf/*.toml"]);
    const config = Config.parse({});
    const settings = sandboxSettingsOf(config, { isProtected });
    const plan = planSandbox(ws, settings, { env: { HOME: home } });
    expect(plan.readOnly.sort()).toEqual([
      join(ws, ".gitattributes"),
      join(ws, ".zeph"),
      join(ws, "a/b/.vscode/settings.json"),
      join(ws, "conf/deploy.toml"),
      join(ws, "sub/.envrc"),
      join(ws, "sub/deeper/.gitattributes"),
      // The clone's hooks and config, not its whole git directory: commits still work.
      join(clone, "config"),
      join(clone, "hooks"),
    ].sort());
    // Without the user's rules only the built-in names at the root count.
    expect(planSandbox(ws, { ...SETTINGS }, { env: { HOME: home } }).readOnly).toEqual([
      join(ws, ".zeph"),
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "bwrap: a nested clone's hooks, a subdirectory's .envrc and .gitattributes stay unwritten",
  ignore,
  async fn() {
    const { ws, home, root } = await fixture();
    try {
      const clone = await protectedWorkspace(ws);
      const runner = sandboxedRunner(ws, home, { isProtected: await defaultProtected() });
      const attempts = [
        "echo evil > vendor/lib/.git/hooks/pre-commit",
        "echo evil >> vendor/lib/.git/config",
        "echo evil >> sub/.envrc",
        "echo evil >> sub/deeper/.gitattributes",
        "echo evil >> .gitattributes",
      ];
      for (const command of attempts) {
        const r = await bash(runner, ws, command);
        expect({ command, failed: r.exitCode !== 0 }).toEqual({ command, failed: true });
      }
      const ok = await bash(
        runner,
        ws,
        "echo fine >> src/main.ts && mkdir vendor/lib/.git/objects/ab",
      );
      expect(ok.exitCode).toBe(0);
      expect(await Deno.readTextFile(join(ws, "sub/.envrc"))).toBe("x\n");
      expect(await Deno.readTextFile(join(clone, "config"))).toBe("");
      await expect(Deno.stat(join(clone, "hooks/pre-commit"))).rejects.toThrow(
        Deno.errors.NotFound,
      );
      expect(await Deno.readTextFile(join(ws, "src/main.ts"))).toBe("x\nfine\n");
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
