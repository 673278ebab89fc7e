// zeph in scripts: JSON output shapes, exit codes, piped stdin and big tool inputs, end to end.
import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";
import { writeScript } from "../_support/scripted.ts";

Deno.test("--output-format json prints one result object: final text, conversation id, usage", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [
      { text: "Looking.", tool_calls: [{ id: "c1", name: "list_directory", input: {} }] },
      { text: "Nothing here.", usage: { input_tokens: 12, output_tokens: 3 } },
    ]);
    const r = await zeph(["-p", "hi", "--script", file, "--output-format", "json"], {
      cwd: ws,
      home,
    });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.length).toBe(1);
    const result = JSON.parse(lines[0]);
    expect(result).toMatchObject({
      type: "result",
      is_error: false,
      stop_reason: "end_turn",
      exit_code: 0,
      result: "Nothing here.",
      usage: { input_tokens: 12, output_tokens: 3, cache_read_tokens: 0 },
    });
    const sessions = JSON.parse((await zeph(["sessions", "--json"], { cwd: ws, home })).stdout);
    expect(result.conversation_id).toBe(sessions[0].id);
  });
});

Deno.test("a turn a limit cut short exits 3 and its result says so; a provider error exits 1", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [
      { tool_calls: [{ id: "a", name: "list_directory", input: {} }] },
      { tool_calls: [{ id: "b", name: "list_directory", input: { path: "." } }] },
    ]);
    const r = await zeph(["-p", "go", "--script", file, "--json"], {
      cwd: ws,
      home,
      env: { ZEPH_AGENT_MAX_TOOL_ITERATIONS: "1" },
    });
    expect(r.code).toBe(3);
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(result).toMatchObject({ is_error: true, stop_reason: "max_iterations", exit_code: 3 });
    expect(result.error).toContain("Stopped after 1 tool iterations");

    const failing = await writeScript(home, [{ error: { status: 500, message: "boom" } }]);
    const f = await zeph(["-p", "x", "--script", failing, "--output-format", "json"], {
      cwd: ws,
      home,
    });
    expect(f.code).toBe(1);
    expect(JSON.parse(f.stdout)).toMatchObject({ is_error: true, stop_reason: "error" });
  });
});

Deno.test("piped interactive mode exits 1 when a turn failed, 0 when all succeeded", async () => {
  await withWorkspace(async (ws, home) => {
    const failing = await writeScript(home, [{ text: "one" }, {
      error: { status: 500, message: "down" },
    }]);
    const r = await zeph(["--script", failing], { cwd: ws, home, stdin: "first\nsecond\n" });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("one");
    const fine = await writeScript(home, [{ text: "one" }, { text: "two" }]);
    const ok = await zeph(["--script", fine], { cwd: ws, home, stdin: "first\nsecond\n" });
    expect([ok.code, ok.stdout]).toEqual([0, "one\ntwo\n"]);
  });
});

Deno.test("cat f | zeph -p adds the piped text to the prompt", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [{ text: "ok" }]);
    const r = await zeph(["-p", "explain", "--script", file], {
      cwd: ws,
      home,
      stdin: "line one\nline two\n",
    });
    expect(r.code).toBe(0);
    const [conversation] = JSON.parse(
      (await zeph(["sessions", "--json"], { cwd: ws, home })).stdout,
    );
    // The title is the prompt with whitespace collapsed: the piped lines follow the -p text.
    expect(conversation.title).toBe("explain line one line two");
  });
});

Deno.test("--script with another --provider and an unknown --output-format are usage errors", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [{ text: "ok" }]);
    const cases: [string[], string][] = [
      [["-p", "x", "--script", file, "--provider", "ollama"], '--provider is "ollama"'],
      [["-p", "x", "--script", file, "--output-format", "xml"], 'Unknown output format "xml"'],
    ];
    for (const [args, message] of cases) {
      const r = await zeph(args, { cwd: ws, home });
      expect([r.code, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toContain(message);
    }
  });
});

Deno.test("zeph tool bash reports the exit code and fails with the command; filter passes it through", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["--json", "tool", "bash", '{"command": "echo hi; exit 3"}'], {
      cwd: ws,
      home,
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      exit_code: 3,
      output: "hi\n[exit code 3]",
    });
    const ok = await zeph(["--json", "tool", "bash", '{"command": "true"}'], { cwd: ws, home });
    expect([ok.code, JSON.parse(ok.stdout).exit_code]).toEqual([0, 0]);
    const filtered = await zeph(["filter", "--", "echo hi; exit 4"], { cwd: ws, home });
    expect(filtered.code).toBe(4);
    expect(filtered.stdout).toContain("hi");
  });
});

Deno.test("zeph tool takes its input from stdin (-) or a file (@file), for inputs over ARG_MAX", async () => {
  await withWorkspace(async (ws, home) => {
    const content = "x".repeat(300_000) + "\n";
    const params = JSON.stringify({ path: "big.txt", content });
    const r = await zeph(["--yes", "tool", "write", "-"], { cwd: ws, home, stdin: params });
    expect(r.code).toBe(0);
    expect(await Deno.readTextFile(path.join(ws, "big.txt"))).toBe(content);
    await Deno.writeTextFile(path.join(home, "p.json"), '{"path": "big.txt", "limit": 1}');
    const read = await zeph(["tool", "read", `@${home}/p.json`], { cwd: ws, home });
    expect(read.code).toBe(0);
    expect(read.stdout.startsWith("   1\txxx")).toBe(true);
    const missing = await zeph(["tool", "read", "@nope.json"], { cwd: ws, home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read the tool input file "nope.json"');
  });
});
