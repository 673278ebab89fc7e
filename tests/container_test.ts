// zeph as a drop-in tool in a container: a read-only root with only the workspace writable
// (bubblewrap stands in for the container), no HOME, no terminal, NO_COLOR, and configuration
// from ZEPH_* variables only. The release workflow runs the same checks on the Docker image.
import { expect } from "expect";
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..");
const DENO = path.join(ROOT, "node_modules", "deno", "deno");
const MAIN = path.join(ROOT, "main.ts");
const FLAGS = ["--allow-all", "--no-prompt", "--unstable-lazy-dynamic-imports"];

function bwrapWorks(): boolean {
  try {
    return new Deno.Command("bwrap", {
      args: ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}
const BWRAP = bwrapWorks();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * zeph in a read-only root where only `ws` is writable; env is exactly `env` plus PATH. With
 * `merged`, stderr goes to stdout, so the order of warnings and output shows as on a terminal.
 */
async function inContainer(
  ws: string,
  args: string[],
  env: Record<string, string>,
  { merged = false } = {},
): Promise<Run> {
  const out = await new Deno.Command("bwrap", {
    args: [
      "--ro-bind",
      "/",
      "/",
      "--bind",
      ws,
      ws,
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--chdir",
      ws,
      "--die-with-parent",
      ...(merged ? ["/bin/sh", "-c", 'exec "$@" 2>&1', "sh"] : []),
      DENO,
      "run",
      ...FLAGS,
      MAIN,
      ...args,
    ],
    clearEnv: true,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

async function withWorkspace(fn: (ws: string) => Promise<void>): Promise<void> {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_container_" }));
  try {
    await fn(ws);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
}

// deno-lint-ignore no-control-regex
const ESCAPE = /\x1b\[/;

Deno.test({
  name: "container: no HOME, read-only root: tools and a one-shot prompt work, with warnings",
  ignore: !BWRAP,
  fn: () =>
    withWorkspace(async (ws) => {
      await Deno.writeTextFile(path.join(ws, "a.txt"), "alpha\nbeta\n");
      const read = await inContainer(ws, ["tool", "read", '{"path": "a.txt"}'], {});
      expect(read.code).toBe(0);
      expect(read.stdout).toContain("beta");
      // No data directory: the store and the audit log say so once each, and nothing crashes.
      expect(read.stderr).not.toContain("Uncaught");
      expect(read.stderr).toContain("tool calls are not audited");

      const script = path.join(ws, "model.jsonl");
      await Deno.writeTextFile(
        script,
        [
          {
            text: "Writing it.",
            tool_calls: [{ id: "w1", name: "write", input: { path: "out.txt", content: "ok\n" } }],
          },
          { text: "Done: out.txt written." },
        ].map((l) => JSON.stringify(l)).join("\n") + "\n",
      );
      const prompt = await inContainer(ws, [
        "--yes",
        "-p",
        "write out.txt",
        "--provider",
        "script",
        "--script",
        script,
      ], {});
      expect(prompt.stderr).not.toContain("Uncaught");
      expect(prompt.code).toBe(0);
      expect(prompt.stdout).toContain("Done: out.txt written.");
      expect(ESCAPE.test(prompt.stdout + prompt.stderr)).toBe(false);
      expect(await Deno.readTextFile(path.join(ws, "out.txt"))).toBe("ok\n");
    }),
});

Deno.test({
  name: "container: a read-only HOME says each file it cannot write once, before any output",
  ignore: !BWRAP,
  fn: () =>
    withWorkspace(async (ws) => {
      // HOME exists but lies in the read-only root, as a container image's home does.
      const home = await Deno.makeTempDir({ prefix: "zeph_ro_home_" });
      try {
        await Deno.writeTextFile(path.join(ws, "a.txt"), "alpha\n");
        const script = path.join(ws, "model.jsonl");
        await Deno.writeTextFile(
          script,
          '{"tool_calls": [{"id": "r1", "name": "read", "input": {"path": "a.txt"}}]}\n' +
            '{"text": "Done."}\n',
        );
        const data = path.join(home, ".local", "share", "zeph");
        const warnings = [
          `zeph: warning: Cannot write the store "${data}/zeph.db" (read-only file system), so ` +
          "conversations and large tool outputs are not saved; set [memory] sqlite_path (or " +
          "ZEPH_MEMORY_SQLITE_PATH) to a writable file.",
          `zeph: warning: Cannot write the audit log "${data}/audit.jsonl" (read-only file ` +
          "system), so tool calls are not audited; set [tools.audit] path (or " +
          "ZEPH_TOOLS_AUDIT_PATH) to a writable file, or turn the log off with " +
          "ZEPH_TOOLS_AUDIT_ENABLED=false.",
        ];
        const tool = await inContainer(ws, ["tool", "read", '{"path": "a.txt"}'], {
          HOME: home,
        }, { merged: true });
        expect(tool).toEqual({
          code: 0,
          stdout: [...warnings, "   1\talpha", ""].join("\n"),
          stderr: "",
        });

        const prompt = await inContainer(
          ws,
          ["--yes", "-p", "read a.txt", "--provider", "script", "--script", script],
          { HOME: home },
          { merged: true },
        );
        expect(prompt.code).toBe(0);
        const lines = prompt.stdout.split("\n");
        expect(lines.slice(0, 2)).toEqual(warnings);
        expect(lines.filter((l) => l.includes("warning"))).toEqual(warnings);
        expect(lines.at(-2)).toBe("Done.");
      } finally {
        await Deno.remove(home, { recursive: true });
      }
    }),
});

Deno.test({
  name: "container: configuration from ZEPH_* variables only, quiet and stored in the workspace",
  ignore: !BWRAP,
  fn: () =>
    withWorkspace(async (ws) => {
      const env = {
        ZEPH_MEMORY_SQLITE_PATH: path.join(ws, ".zeph", "zeph.db"),
        ZEPH_TOOLS_AUDIT_ENABLED: "false",
        ZEPH_TOOLS_PERMISSIONS_AUTONOMY: "full",
      };
      const check = await inContainer(ws, ["config", "check", "--json"], env);
      expect(check.code).toBe(0);
      const resolved = JSON.parse(check.stdout);
      expect(resolved.memory.sqlite_path).toBe(env.ZEPH_MEMORY_SQLITE_PATH);
      expect(resolved.tools.audit.enabled).toBe(false);
      expect(resolved.tools.permissions.autonomy).toBe("full");

      // autonomy = full: the write needs no --yes; the store opens in the workspace.
      const write = await inContainer(
        ws,
        ["tool", "write", '{"path": "b.txt", "content": "x\\n"}', "--json"],
        env,
      );
      expect(write.stderr).toBe("");
      expect(write.code).toBe(0);
      expect(JSON.parse(write.stdout)).toMatchObject({ tool: "write", ok: true });
      expect(await Deno.readTextFile(path.join(ws, "b.txt"))).toBe("x\n");
      expect((await Deno.stat(env.ZEPH_MEMORY_SQLITE_PATH)).isFile).toBe(true);

      // Outside the writable workspace the read-only root holds, whatever the autonomy.
      const outside = await inContainer(
        ws,
        ["tool", "write", '{"path": "/etc/zeph-test", "content": "x"}'],
        env,
      );
      expect(outside.code).toBe(1);
    }),
});

Deno.test("the Dockerfile runs the compiled binary as a non-root user in /work; CI smoke-tests it", () => {
  const dockerfile = Deno.readTextFileSync(path.join(ROOT, "Dockerfile"));
  expect(dockerfile).toContain("deno task compile");
  expect(dockerfile).toMatch(/^COPY --from=build \/src\/dist\/zeph \/usr\/local\/bin\/zeph$/m);
  expect(dockerfile).toMatch(/^USER zeph$/m);
  expect(dockerfile).toMatch(/^WORKDIR \/work$/m);
  expect(dockerfile).toMatch(/^ENTRYPOINT \["zeph"\]$/m);
  // The user is created non-root (uid > 0) before USER switches to it.
  expect(dockerfile).toMatch(/useradd [^\n]*--uid [1-9]\d* [^\n]*zeph/);
  const workflow = Deno.readTextFileSync(path.join(ROOT, ".github", "workflows", "release.yml"));
  const job = workflow.slice(workflow.indexOf("\n  docker:"), workflow.indexOf("\n  release:"));
  expect(job).toContain("docker build -t zeph:smoke .");
  for (const use of ["--read-only", "tool read", "-p hi --provider script", "zeph:smoke acp"]) {
    expect(job).toContain(use);
  }
  expect(workflow).toContain("needs: [build, smoke, docker]");
});
