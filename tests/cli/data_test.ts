// Where zeph keeps its data when run as containers and scripts run it: no HOME, several
// processes at once on a brand-new database.
import { expect } from "expect";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DENO, MAIN, withWorkspace } from "./_run.ts";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

async function run(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(DENO, {
    args: ["run", ...TASK_FLAGS, "--no-prompt", MAIN, ...args],
    cwd: options.cwd,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1", ...options.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("with no HOME and no XDG_DATA_HOME a prompt runs, with one warning naming what to set", async () => {
  await withWorkspace(async (ws, home) => {
    const script = path.join(home, "s.jsonl");
    await Deno.writeTextFile(script, '{"text":"hello"}\n');
    const result = await run(["-p", "hi", "--provider", "script", "--script", script], {
      cwd: ws,
      env: { XDG_CONFIG_HOME: path.join(home, ".config") },
    });
    expect(result).toEqual({
      code: 0,
      stdout: "hello\n",
      stderr: "zeph: warning: Neither HOME nor XDG_DATA_HOME is set, so conversations and " +
        "large tool outputs are not saved and tool calls are not audited. Set XDG_DATA_HOME or " +
        "HOME, or set [memory] sqlite_path (or ZEPH_MEMORY_SQLITE_PATH) and [tools.audit] path " +
        "(or ZEPH_TOOLS_AUDIT_PATH) in config.toml.\n",
    });
  });
});

Deno.test("with no HOME, ZEPH_MEMORY_SQLITE_PATH saves the conversation and the warning names only the audit log", async () => {
  await withWorkspace(async (ws, home) => {
    const script = path.join(home, "s.jsonl");
    await Deno.writeTextFile(script, '{"text":"hello"}\n');
    const db = path.join(home, "data", "z.db");
    const result = await run(["-p", "hi", "--provider", "script", "--script", script], {
      cwd: ws,
      env: { XDG_CONFIG_HOME: path.join(home, ".config"), ZEPH_MEMORY_SQLITE_PATH: db },
    });
    expect(result.code).toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(
      "zeph: warning: Neither HOME nor XDG_DATA_HOME is set, so tool calls are not audited. " +
        "Set XDG_DATA_HOME or HOME, or set [tools.audit] path (or ZEPH_TOOLS_AUDIT_PATH) in " +
        "config.toml.",
    );
    const conn = new DatabaseSync(db);
    const row = conn.prepare("SELECT count(*) AS n FROM conversations").get() as { n: number };
    conn.close();
    expect(Number(row.n)).toBe(1);
  });
});

Deno.test("processes started at once on a brand-new database all save their conversation", async () => {
  await withWorkspace(async (ws, home) => {
    const script = path.join(home, "s.jsonl");
    await Deno.writeTextFile(script, '{"text":"hello"}\n');
    const db = path.join(home, "fresh", "z.db");
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
    const runs = await Promise.all(
      Array.from(
        { length: 5 },
        (_, i) =>
          run(["-p", `hi ${i}`, "--provider", "script", "--script", script], {
            cwd: ws,
            env: { ...env, ZEPH_MEMORY_SQLITE_PATH: db },
          }),
      ),
    );
    for (const result of runs) {
      expect(result.stderr).not.toContain("warning");
      expect(result).toMatchObject({ code: 0, stdout: "hello\n" });
    }
    const conn = new DatabaseSync(db);
    const rows = conn.prepare("SELECT title FROM conversations ORDER BY title").all();
    conn.close();
    expect(rows.map((r) => r.title)).toEqual(["hi 0", "hi 1", "hi 2", "hi 3", "hi 4"]);
  });
});
