// Modes in the CLI, run as a user would (piped stdin, the real main.ts): --mode, /mode listing and
// switching, and config check reporting a bad mode table.
import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";
import { writeScript } from "../_support/scripted.ts";

const touch = (id: string) => ({
  tool_calls: [{ id, name: "bash", input: { command: "touch made_by_bash" } }],
});

Deno.test("--mode ask refuses bash; /mode lists the modes; /mode code lets the next turn run it", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [touch("b1"), { text: "Refused." }, touch("b2"), {
      text: "Made it.",
    }]);
    const r = await zeph(["--script", file, "--mode", "ask", "--yes"], {
      cwd: ws,
      home,
      stdin: "make a file\n/mode\n/mode code\nnow make it\n/mode nope\n/exit\n",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Refused.\nMade it.\n");
    expect(r.stderr).toContain(" · mode ask\n");
    expect(r.stderr).toContain('Tool "bash" is not available in mode "ask"');
    expect(r.stderr).toContain(
      [
        "Modes (* current; /mode <name> to switch):",
        "  code       Code (read, edit, command, web, mcp)",
        "* ask        Ask (read, web)",
        "  architect  Architect (read, edit; edits only \\.md$)",
        "",
      ].join("\n"),
    );
    expect(r.stderr).toContain("(mode: code, Code)\n");
    expect(r.stderr).toContain(
      'Cannot switch to mode "nope": there is no such mode. Modes: code, ask, architect\n',
    );
    await Deno.stat(path.join(ws, "made_by_bash"));
  });
});

Deno.test("--mode with an unknown mode is a usage error (exit 2) naming the modes", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [{ text: "never" }]);
    const r = await zeph(["-p", "hi", "--script", file, "--mode", "yolo"], { cwd: ws, home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'zeph: --mode: Cannot switch to mode "yolo": there is no such mode. Modes: code, ask, architect',
    );
  });
});

Deno.test("config check: a bad file_regex and an unknown default_mode are errors naming the key", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "config.toml");
    await Deno.writeTextFile(
      config,
      '[modes.docs]\ngroups = ["read", "edit"]\nfile_regex = \'(?=x)\\.md$\'\n',
    );
    const bad = await zeph(["config", "check", "--config", config], { cwd: ws, home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${config}: modes.docs.file_regex: Cannot use the file_regex`);
    expect(bad.stderr).toContain("Write an RE2 pattern (no lookaround or backreferences)");

    await Deno.writeTextFile(config, '[agent]\ndefault_mode = "dcos"\n');
    const unknown = await zeph(["config", "check", "--config", config], { cwd: ws, home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      `${config}: agent.default_mode: Cannot start in mode "dcos": there is no such mode. ` +
        "Modes: code, ask, architect (add [modes.dcos] to define it).",
    );

    await Deno.writeTextFile(config, '[modes.Docs]\ngroups = ["read"]\n');
    const slug = await zeph(["config", "check", "--config", config], { cwd: ws, home });
    expect(slug.code).toBe(2);
    expect(slug.stderr).toContain(
      `${config}: modes.Docs: a mode slug is lowercase letters, digits, '-' and '_' ` +
        '(e.g. [modes.docs]), found the name "Docs"',
    );

    await Deno.writeTextFile(config, '[modes.docs]\ngroups = ["read", "shell"]\n');
    const group = await zeph(["config", "check", "--config", config], { cwd: ws, home });
    expect(group.code).toBe(2);
    expect(group.stderr).toContain(
      `${config}: modes.docs.groups[1]: expected one of "read", "edit", "command", "web", "mcp", ` +
        `found a string "shell"`,
    );
  });
});

Deno.test("[tools] enabled = false: the model's bash call is refused and nothing is made", async () => {
  await withWorkspace(async (ws, home) => {
    const config = path.join(home, "config.toml");
    await Deno.writeTextFile(config, "[tools]\nenabled = false\n");
    const file = await writeScript(home, [touch("b1"), { text: "Text only." }]);
    const r = await zeph(["-p", "make a file", "--script", file, "--config", config, "--yes"], {
      cwd: ws,
      home,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Text only.\n");
    expect(r.stderr).toContain("Cannot run bash: tools are turned off ([tools] enabled = false)");
    await expect(Deno.stat(path.join(ws, "made_by_bash"))).rejects.toThrow();
  });
});

Deno.test("--resume goes on in the mode the conversation was in; --mode overrides it", async () => {
  await withWorkspace(async (ws, home) => {
    const first = await writeScript(home, [{ text: "Noted." }]);
    const r1 = await zeph(["-p", "remember", "--script", first, "--mode", "architect"], {
      cwd: ws,
      home,
    });
    const id = /zeph --resume (\S+)\)/.exec(r1.stderr)?.[1] ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await writeScript(home, [touch("b1"), { text: "Refused." }]);
    const r2 = await zeph(["--resume", id, "--script", second, "--yes"], {
      cwd: ws,
      home,
      stdin: "make a file\n/mode\n",
    });
    expect(r2.stderr).toContain(" · mode architect\n");
    expect(r2.stderr).toContain('Tool "bash" is not available in mode "architect"');
    expect(r2.stderr).toContain("* architect  Architect");
    await expect(Deno.stat(path.join(ws, "made_by_bash"))).rejects.toThrow();

    const third = await writeScript(home, [touch("b2"), { text: "Made." }]);
    const r3 = await zeph([
      "-p",
      "now",
      "--resume",
      id,
      "--script",
      third,
      "--mode",
      "code",
      "--yes",
    ], {
      cwd: ws,
      home,
    });
    expect(r3.stdout).toBe("Made.\n");
    await Deno.stat(path.join(ws, "made_by_bash"));
  });
});
