// The interactive CLI as a person sees it: a real terminal (tmux, 80 columns), keys sent, the
// screen read back. Needs tmux; skipped with a note where it is missing.
import { expect } from "expect";
import * as path from "node:path";
import { displayWidth } from "../../src/cli/line_width.ts";
import { openStore } from "../../src/store/mod.ts";
import { HAS_TMUX, NEEDS_TMUX, startZeph } from "./_tmux.ts";
import { withWorkspace, zeph } from "./_run.ts";
import { writeScript } from "../_support/scripted.ts";

const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const LONG_LINE = "progress line of a rather long build step that is wider than eighty columns";

Deno.test({
  name:
    `a long tool line stays one redrawn row at 80 columns; no copies in the scrollback${NEEDS_TMUX}`,
  ignore: !HAS_TMUX,
  async fn() {
    await withWorkspace(async (ws, home) => {
      const command = `for i in 1 2 3 4 5 6 7 8; do echo "$i ${LONG_LINE}"; sleep 0.3; done`;
      const file = await writeScript(home, [
        { text: "Building.", tool_calls: [{ id: "c1", name: "bash", input: { command } }] },
        { text: "Built." },
      ]);
      const z = await startZeph(["--script", file, "--yes"], { cwd: ws, home });
      try {
        await z.waitFor(/^›/m);
        await z.type("build it");
        await z.keys("Enter");
        // The title, cut, then the elapsed time and the last output line, cut: one row.
        const running = await z.waitFor(/\d\.\ds {2}\d progress/);
        const status = running.split("\n").find((l) => SPINNER.test(l[0] ?? ""))!;
        expect(status).toMatch(/^. \$ bash for i in 1 2 .*… {2}\d+\.\ds {2}\d progress line .*…$/);
        expect(displayWidth(status)).toBeLessThanOrEqual(79);
        await z.waitFor("Built.");
        const history = await z.history();
        // One finished line for the call, and no spinner row left behind.
        const done = history.split("\n").filter((l) => l.startsWith("✓ $ bash for i"));
        expect(done.length).toBe(1);
        // The finished line is cut like the status line: one row, the duration kept.
        expect(done[0]).toMatch(/^✓ \$ bash for i in 1 2 .*… \d+(ms|\.\ds)$/);
        expect(displayWidth(done[0])).toBeLessThanOrEqual(79);
        expect(history.split("\n").filter((l) => SPINNER.test(l[0] ?? ""))).toEqual([]);
      } finally {
        await z.close();
      }
    });
  },
});

Deno.test({
  name:
    `a thinking spinner with elapsed time and the Ctrl-C hint while the model is awaited${NEEDS_TMUX}`,
  ignore: !HAS_TMUX,
  async fn() {
    await withWorkspace(async (ws, home) => {
      const file = await writeScript(home, [{ text: "Here I am.", delay_ms: 2500 }]);
      const z = await startZeph(["--script", file], { cwd: ws, home });
      try {
        await z.waitFor(/^›/m);
        await z.type("hello");
        await z.keys("Enter");
        const screen = await z.waitFor(/thinking… +\d+\.\ds · Ctrl-C to cancel/);
        expect(screen).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking…/);
        const after = await z.waitFor("Here I am.");
        expect(after).not.toContain("thinking…");
      } finally {
        await z.close();
      }
      // The same in a one-shot run on a terminal.
      const once = await startZeph(["-p", "hello", "--script", file], { cwd: ws, home });
      try {
        await once.waitFor(/thinking… +\d+\.\ds · Ctrl-C to cancel/);
        const done = await once.waitFor("[exit 0]");
        expect(done).toContain("Here I am.");
        expect(done).not.toContain("thinking…");
      } finally {
        await once.close();
      }
    });
  },
});

Deno.test({
  name:
    `after a permission answer the spinner, live output and elapsed time come back${NEEDS_TMUX}`,
  ignore: !HAS_TMUX,
  async fn() {
    await withWorkspace(async (ws, home) => {
      const command =
        "rm -rf ./nothing-here; for i in 1 2 3 4 5 6 7 8; do echo step-$i; sleep 0.4; done";
      const file = await writeScript(home, [
        { tool_calls: [{ id: "c1", name: "bash", input: { command } }] },
        { text: "All steps done." },
      ]);
      const z = await startZeph(["--script", file], { cwd: ws, home });
      try {
        await z.waitFor(/^›/m);
        await z.type("run the steps");
        await z.keys("Enter");
        const question = await z.waitFor("[y]es once / [n]o");
        expect(question).toContain("$ rm -rf ./nothing-here  (destructive:");
        expect(question).toContain("asks because:");
        await z.type("y");
        await z.keys("Enter");
        const live = await z.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] \$ bash rm -rf .* \d+\.\ds {2}step-\d/);
        expect(live).toBeTruthy();
        await z.waitFor("All steps done.");
      } finally {
        await z.close();
      }
    });
  },
});

Deno.test({
  name:
    `the write question shows the diff; a paste is one prompt; typing during a turn is discarded${NEEDS_TMUX}`,
  ignore: !HAS_TMUX,
  async fn() {
    await withWorkspace(async (ws, home) => {
      await Deno.writeTextFile(path.join(ws, ".envrc"), "export A=1\n");
      const file = await writeScript(home, [
        {
          text: "Changing it.",
          tool_calls: [{
            id: "c1",
            name: "write",
            input: { path: ".envrc", content: "export A=2\n" },
          }],
        },
        { text: "Changed.", delay_ms: 1500 },
        { text: "Got the paste." },
      ]);
      const z = await startZeph(["--script", file], { cwd: ws, home });
      try {
        await z.waitFor(/^›/m);
        await z.type("change it");
        await z.keys("Enter");
        const question = await z.waitFor("[y]es once / [n]o");
        expect(question).toContain(
          "  --- a/.envrc\n  +++ b/.envrc\n  @@ -1 +1 @@\n  -export A=1\n  +export A=2",
        );
        await z.type("y");
        await z.keys("Enter");
        await z.waitFor("thinking…");
        await z.type("typed too early");
        await z.keys("Enter");
        await z.waitFor("Changed.");
        const note = await z.waitFor("keys typed during the turn were discarded");
        expect(note).toContain("(16 keys typed during the turn were discarded)");
        await z.paste("first line\nsecond line");
        await z.keys("Enter");
        await z.waitFor("Got the paste.");
        await z.type("/exit");
        await z.keys("Enter");
        await z.waitFor("[exit 0]");
      } finally {
        await z.close();
      }
      expect(await Deno.readTextFile(path.join(ws, ".envrc"))).toBe("export A=2\n");
      // The paste was one prompt with its line break; the keys typed too early sent nothing.
      const [conversation] = JSON.parse(
        (await zeph(["sessions", "--json"], { cwd: ws, home })).stdout,
      );
      const store = openStore(path.join(home, ".local", "share", "zeph", "zeph.db"));
      try {
        const prompts = store.loadMessages(conversation.id).filter((m) => m.role === "user")
          .flatMap((m) => m.parts.flatMap((p) => p.type === "text" ? [p.text] : []));
        expect(prompts).toEqual(["change it", "first line\nsecond line"]);
      } finally {
        store.close();
      }
    });
  },
});
