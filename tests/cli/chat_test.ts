// The agent from the command line, end to end and offline: the scripted provider drives the real
// CLI (`deno run -A main.ts …`) in a temp workspace, with an isolated config and data dir.
import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";
import { writeScript } from "../_support/scripted.ts";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");
const DEMO = path.join(ROOT, "examples", "demo.jsonl");

Deno.test("the demo script reads, greps, runs a command and edits a file, offline", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(
      ["-p", "Tidy up greet.ts", "--provider", "script", "--script", DEMO, "-C", ws, "--yes"],
      { cwd: ROOT, home },
    );
    expect({ code: r.code, stderr: r.stderr.includes("[tool_error]") }).toEqual({
      code: 0,
      stderr: false,
    });
    expect(await Deno.readTextFile(path.join(ws, "greet.ts"))).toBe(
      "export function greet(name: string): string {\n  return `hello, ${name}!`;\n}\n\n" +
        'console.log(greet("world"));\n',
    );
    expect(r.stdout).toContain("Done: greet.ts now says `hello, ${name}!`.");
    for (const title of ["write greet.ts", "read greet.ts", "grep", "bash wc -l greet.ts && ls"]) {
      expect(r.stderr).toContain(title);
    }
  });
});

Deno.test("--json prints the event stream as JSONL", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [
      { text: "Checking.", tool_calls: [{ id: "c1", name: "nope", input: {} }] },
      { text: "Bye." },
    ]);
    const r = await zeph(["-p", "hi", "--script", file, "--json"], { cwd: ws, home });
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual([
      "message_start",
      "text",
      "message_end",
      "tool_start",
      "tool_end",
      "message_start",
      "text",
      "message_end",
      "turn_end",
      "result",
    ]);
    expect(events[1]).toEqual({ type: "text", text: "Checking." });
    expect(events[2]).toEqual({ type: "message_end", role: "assistant", text: "Checking." });
    expect(events[3]).toEqual({
      type: "tool_start",
      callId: "c1",
      tool: "nope",
      kind: "other",
      input: {},
      subjects: [],
    });
    expect(events[4].result).toMatchObject({ callId: "c1", ok: false, category: "tool_not_found" });
    expect(events.at(-2)).toEqual({ type: "turn_end", stopReason: "end_turn" });
    expect(events.at(-1)).toMatchObject({ type: "result", is_error: false, result: "Bye." });
  });
});

Deno.test("-p exits 1 on a provider error and names the problem", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [{
      error: { status: 401, message: "invalid x-api-key" },
    }]);
    const r = await zeph(["-p", "hi", "--script", file], { cwd: ws, home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("[provider_error] script: invalid x-api-key");
    expect(r.stderr).toContain("(turn ended: error)");
  });
});

Deno.test("bad scripts and provider options are usage errors (exit 2)", async () => {
  await withWorkspace(async (ws, home) => {
    const bad = path.join(home, "bad.jsonl");
    await Deno.writeTextFile(bad, '{"text": "ok"}\n{"tool_calls": [{"id": "a"}]}\n');
    const cases: [string[], string][] = [
      [["-p", "x", "--script", bad], `zeph: Cannot load script ${bad}:2: tool_calls.0.name:`],
      [["-p", "x", "--script", "/nonexistent.jsonl"], 'Cannot read script "/nonexistent.jsonl"'],
      [["-p", "x", "--provider", "gpt"], 'Unknown provider "gpt". Use one of: ollama, claude'],
      [["-p", "x", "--provider", "script"], "The scripted provider needs a script: pass --script"],
    ];
    for (const [args, message] of cases) {
      const r = await zeph(args, { cwd: ws, home });
      expect({ code: r.code, stderr: r.stderr.includes(message) }).toEqual({
        code: 2,
        stderr: true,
      });
    }
  });
});

Deno.test("an unreachable provider: zeph names the provider and URL and how to configure one", async () => {
  await withWorkspace(async (ws, home) => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close(); // nothing listens there now
    const config = path.join(home, "config.toml");
    await Deno.writeTextFile(
      config,
      `[llm]\nprovider = "ollama"\n[llm.ollama]\nbase_url = "http://127.0.0.1:${port}"\n` +
        `[tools.retry]\nmax_attempts = 0\n`,
    );
    const r = await zeph(["-p", "hi", "--config", config], { cwd: ws, home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Cannot reach Ollama at http://127.0.0.1:${port}: connection refused. Start Ollama`,
    );
    // The setup help adds to the notice: no second URL (the configured one is the only one),
    // no second "set base_url", the configured model.
    expect(r.stderr).toContain(
      'zeph: to set up a model: install Ollama (https://ollama.com) and run "ollama pull qwen3:8b";',
    );
    expect(r.stderr.match(/127\.0\.0\.1:\d+/g)).toEqual([`127.0.0.1:${port}`]);
    expect(r.stderr.match(/\[llm\.ollama\] base_url/g)?.length).toBe(1);
    expect(r.stderr).toContain('[llm] provider = "claude" with ANTHROPIC_API_KEY');

    // Interactive: the help comes with the first failed turn only.
    const twice = await zeph(["--config", config], { cwd: ws, home, stdin: "hi\nagain\n" });
    expect(twice.stderr.match(/Cannot reach Ollama/g)?.length).toBe(2);
    expect(twice.stderr.match(/to set up a model/g)?.length).toBe(1);
  });
});

Deno.test("interactive: lines from stdin, /help, /clear, /unblock, /exit", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [{ text: "First answer." }, { text: "Second answer." }]);
    const r = await zeph(["--script", file], {
      cwd: ws,
      home,
      stdin: "hello\n/help\n/bogus\n/clear\n/unblock bash\nagain\n/exit\nnever read\n",
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("First answer.\nSecond answer.\n");
    // Piped prompts: the header names provider and workspace once, without typing hints.
    expect(r.stderr.split("\n")[0]).toBe(`zeph · script · ${ws} · mode code`);
    expect(r.stderr).not.toContain("Type a request");
    expect(r.stderr).toContain("/clear            new conversation");
    expect(r.stderr).toContain(
      "/undo [n]         undo the last n file changes of this conversation",
    );
    expect(r.stderr).toContain("Unknown command /bogus. Type /help for the list.");
    expect(r.stderr).toContain(
      "(new conversation; tool quota, session rules and result cache reset)",
    );
    expect(r.stderr).toContain("/unblock <tool>   allow a tool the anomaly detector blocked");
    expect(r.stderr).toContain("bash is not blocked. No tool is blocked.");
  });
});

Deno.test("interactive: end of input ends the session with exit 0", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [{ text: "Only answer." }]);
    const r = await zeph(["--script", file], { cwd: ws, home, stdin: "hello\n" });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: "Only answer.\n" });
  });
});

Deno.test("--resume continues a stored conversation; zeph sessions lists and deletes", async () => {
  await withWorkspace(async (ws, home) => {
    const first = await writeScript(home, [{ text: "First." }]);
    expect((await zeph(["-p", "remember 42", "--script", first], { cwd: ws, home })).code).toBe(0);
    const listed = await zeph(["sessions", "--json"], { cwd: ws, home });
    const [conversation] = JSON.parse(listed.stdout);
    expect(conversation).toMatchObject({ title: "remember 42", cwd: ws, messageCount: 2 });

    const second = await writeScript(home, [{ text: "It was 42." }]);
    const resumed = await zeph(
      ["--resume", conversation.id, "-p", "what was it?", "--script", second],
      { cwd: ws, home },
    );
    expect({ code: resumed.code, stdout: resumed.stdout }).toEqual({
      code: 0,
      stdout: "It was 42.\n",
    });
    const after = JSON.parse((await zeph(["sessions", "--json"], { cwd: ws, home })).stdout);
    expect(after.map((c: { id: string; messageCount: number }) => [c.id, c.messageCount]))
      .toEqual([[conversation.id, 4]]);
    const text = await zeph(["sessions"], { cwd: ws, home });
    expect(text.stdout).toContain(`${conversation.id}  `);
    expect(text.stdout).toMatch(/ 4 {2}\S+ {2}remember 42\n/);

    const bogus = await zeph(["--resume", "nope", "-p", "x", "--script", second], {
      cwd: ws,
      home,
    });
    expect({ code: bogus.code, stderr: bogus.stderr }).toEqual({
      code: 2,
      stderr: 'zeph: No conversation "nope". List them with: zeph sessions\n',
    });
    const deleted = await zeph(["sessions", "delete", conversation.id], { cwd: ws, home });
    expect(deleted.stdout).toBe(`Deleted conversation ${conversation.id}.\n`);
    expect((await zeph(["sessions"], { cwd: ws, home })).stdout).toContain("No conversations yet");
  });
});

Deno.test("ZEPH_AGENT_MAX_TOOL_ITERATIONS caps the loop; --legacy runs fenced bash", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, [
      { tool_calls: [{ id: "a", name: "read", input: { path: "x.txt" } }] },
      { tool_calls: [{ id: "b", name: "read", input: { path: "y.txt" } }] },
      { text: "never" },
    ]);
    const r = await zeph(["-p", "go", "--script", file], {
      cwd: ws,
      home,
      env: { ZEPH_AGENT_MAX_TOOL_ITERATIONS: "1" },
    });
    expect(r.code).toBe(3); // cut short by a limit
    expect(r.stderr).toContain("[max_iterations] Stopped after 1 tool iterations");

    const legacy = await writeScript(home, [
      { text: "Running:\n```bash\necho legacy-ok > out.txt\n```" },
      { text: "Done." },
    ]);
    const l = await zeph(["-p", "go", "--script", legacy, "--legacy", "--yes"], { cwd: ws, home });
    expect({ code: l.code, out: await Deno.readTextFile(path.join(ws, "out.txt")) }).toEqual({
      code: 0,
      out: "legacy-ok\n",
    });
  });
});
