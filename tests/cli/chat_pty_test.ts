// The interactive CLI on a real terminal (util-linux `script` allocates the pty, 80 columns):
// the plan checklist as drawn, and `n` + reason at an ask reaching the model. Plus the plan
// drawn again by --resume (in a pipe: ASCII marks).
import { expect } from "expect";
import * as path from "node:path";
import { openStore } from "../../src/store/mod.ts";
import { DENO, MAIN, withWorkspace, zeph } from "./_run.ts";
import { writeScript } from "../_support/scripted.ts";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

const HAS_SCRIPT = new Deno.Command("sh", { args: ["-c", "command -v script"] }).outputSync()
  .success;

const PLAN = [
  { content: "Read the parser", status: "completed" },
  {
    content: "Fix the tokenizer so that escaped quotes inside strings no longer end the " +
      "string early",
    status: "in_progress",
    priority: "high",
  },
  { content: "Run the tests", status: "pending" },
];

/** zeph in a pty of 80 columns; `send` writes keys once the screen shows `after`. */
async function onTerminal(
  ws: string,
  home: string,
  args: string[],
  steps: { after: string; send: string }[],
): Promise<string> {
  const quoted = [DENO, "run", ...TASK_FLAGS, "--no-prompt", MAIN, ...args]
    .map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qec", `stty cols 80 rows 40; cd '${ws}' && exec ${quoted}`, "/dev/null"],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_DATA_HOME: path.join(home, ".local", "share"),
      NO_COLOR: "1",
      TERM: "xterm",
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let screen = "";
  const reading = (async () => {
    for await (const chunk of child.stdout) screen += new TextDecoder().decode(chunk);
  })();
  const deadline = Date.now() + 30_000;
  for (const step of steps) {
    while (!screen.includes(step.after)) {
      if (Date.now() > deadline) {
        throw new Error(`never saw ${JSON.stringify(step.after)}:\n${screen}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await writer.write(new TextEncoder().encode(step.send));
  }
  await child.status;
  await reading;
  await writer.close().catch(() => {});
  await child.stderr.cancel();
  return screen;
}

Deno.test({
  name: "terminal: the plan checklist fits 80 columns; n + a reason reaches the model",
  ignore: !HAS_SCRIPT,
  fn: async () => {
    await withWorkspace(async (ws, home) => {
      const file = await writeScript(home, [
        { tool_calls: [{ id: "p1", name: "update_plan", input: { entries: PLAN } }] },
        { tool_calls: [{ id: "w1", name: "write", input: { path: "x.txt", content: "hi" } }] },
        { text: "Listing first." },
      ]);
      const screen = await onTerminal(ws, home, ["--script", file], [
        { after: "/exit to quit", send: "fix it\r" },
        { after: "[a]lways", send: "n\r" },
        { after: "Enter to skip", send: "too risky, list first\r" },
        { after: "Listing first.", send: "\x04" },
      ]);
      // A row as the terminal shows it: what follows the last carriage return (the status line
      // is redrawn after "\r" and cleared with "\x1b[2K").
      const lines = screen.split(/\r?\n/).map((l) =>
        l.slice(l.lastIndexOf("\r") + 1).replaceAll("\x1b[2K", "")
      );
      const at = lines.findIndex((l) => l.startsWith("Plan (1/3 done)"));
      expect(lines.slice(at, at + 5)).toEqual([
        "Plan (1/3 done)",
        "  ☑ Read the parser",
        "  ◐ Fix the tokenizer so that escaped quotes inside strings no longer end the",
        "    string early (high)",
        "  ☐ Run the tests",
      ]);
      expect(screen).not.toContain("\x1b[1;33m"); // NO_COLOR
      const store = openStore(path.join(home, ".local", "share", "zeph", "zeph.db"));
      try {
        const [conversation] = store.listConversations();
        const messages = store.loadMessages(conversation.id);
        const result = messages.flatMap((m) => m.parts).find((p) =>
          p.type === "tool_result" && p.callId === "w1"
        );
        expect(result).toMatchObject({
          isError: true,
          text: expect.stringContaining(
            'error: Cannot run write "x.txt": the user rejected it and said: "too risky, list first"',
          ),
        });
        expect(store.loadPlan(conversation.id).map((e) => e.status)).toEqual([
          "completed",
          "in_progress",
          "pending",
        ]);
      } finally {
        store.close();
      }
      await expect(Deno.stat(path.join(ws, "x.txt"))).rejects.toThrow();
    });
  },
});

Deno.test("--resume draws the stored plan before the answer (ASCII marks in a pipe)", async () => {
  await withWorkspace(async (ws, home) => {
    const first = await writeScript(home, [
      { tool_calls: [{ id: "p1", name: "update_plan", input: { entries: PLAN.slice(0, 1) } }] },
      { text: "Planned." },
    ]);
    const r1 = await zeph(["-p", "plan", "--script", first], { cwd: ws, home });
    expect(r1.code).toBe(0);
    expect(r1.stderr).toContain("Plan (1/1 done)\n  [x] Read the parser\n");
    const id = /--resume ([0-9a-f-]+)/.exec(r1.stderr)![1];
    const second = await writeScript(home, [{ text: "Done already." }]);
    const r2 = await zeph(["--resume", id, "-p", "status?", "--script", second], {
      cwd: ws,
      home,
    });
    expect([r2.code, r2.stdout]).toEqual([0, "Done already.\n"]);
    // The resume header (with the last exchange), then the plan, before the answer.
    expect(r2.stderr.startsWith(`Resuming ${id} · plan · ${ws}\n`)).toBe(true);
    expect(r2.stderr).toContain(
      "  you: plan\n  zeph: Planned.\nPlan (1/1 done)\n  [x] Read the parser\n",
    );
  });
});
