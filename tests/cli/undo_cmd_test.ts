// `zeph undo` and the chat's `/undo`, end to end: the real CLI with the scripted provider in a
// temp workspace and data dir.
import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";
import { writeScript } from "../_support/scripted.ts";

const TURNS = [
  {
    text: "Writing.",
    tool_calls: [{ id: "c1", name: "write", input: { path: "src/greet.ts", content: "v1\n" } }],
  },
  {
    text: "Editing.",
    tool_calls: [{
      id: "c2",
      name: "edit",
      input: { path: "src/greet.ts", old_string: "v1", new_string: "v2" },
    }],
  },
  {
    text: "Moving.",
    tool_calls: [{
      id: "c3",
      name: "move_path",
      input: { source: "src/greet.ts", destination: "lib/greet.ts" },
    }],
  },
  { text: "Done." },
];

/** HH:MM as `zeph undo` prints it, for the listing's times. */
const TIME = /\d\d:\d\d/g;

/** Runs TURNS in `ws`; returns the conversation id. */
async function runTurns(ws: string, home: string): Promise<string> {
  const file = await writeScript(home, TURNS);
  const run = await zeph(["-p", "go", "--script", file, "--yes"], { cwd: ws, home });
  expect(run.code).toBe(0);
  return /zeph --resume ([0-9a-f-]+)/.exec(run.stderr)![1];
}

/** `zeph undo --list` after TURNS, times as HH:MM. */
const listing = (id: string) =>
  `Conversation ${id}:\n` +
  '  1  HH:MM  move_path "src/greet.ts" -> "lib/greet.ts"\n' +
  '  2  HH:MM  edit "src/greet.ts"\n' +
  '  3  HH:MM  write "src/greet.ts"\n';

Deno.test("zeph undo --list shows the changes newest first; zeph undo restores and refuses", async () => {
  await withWorkspace(async (ws, home) => {
    const id = await runTurns(ws, home);

    const list = await zeph(["undo", "--list"], { cwd: ws, home });
    expect({ code: list.code, out: list.stdout.replace(TIME, "HH:MM") }).toEqual({
      code: 0,
      out: listing(id),
    });

    const one = await zeph(["undo"], { cwd: ws, home });
    expect({ code: one.code, out: one.stdout }).toEqual({
      code: 0,
      out: 'Restored: move_path "src/greet.ts" -> "lib/greet.ts"\n' +
        "2 changes are still recorded (zeph undo --list).\n",
    });
    expect(await Deno.readTextFile(path.join(ws, "src/greet.ts"))).toBe("v2\n");
    await expect(Deno.stat(path.join(ws, "lib"))).rejects.toThrow(Deno.errors.NotFound);

    // The user edits the file: the edit is not undone over it, and the command fails.
    await Deno.writeTextFile(path.join(ws, "src/greet.ts"), "mine\n");
    const refused = await zeph(["undo", "2", "--conversation", id], { cwd: ws, home });
    expect({ code: refused.code, out: refused.stdout.replace(TIME, "HH:MM") }).toEqual({
      code: 1,
      out: 'Refused: "src/greet.ts" changed since zeph edited it at HH:MM; not restored\n' +
        "2 changes are still recorded (zeph undo --list).\n",
    });
    expect(await Deno.readTextFile(path.join(ws, "src/greet.ts"))).toBe("mine\n");

    const json = await zeph(["undo", "--list", "--json"], { cwd: ws, home });
    expect(JSON.parse(json.stdout).map((e: { tool: string }) => e.tool)).toEqual([
      "edit",
      "write",
    ]);

    const bad = await zeph(["undo", "zero"], { cwd: ws, home });
    expect({ code: bad.code, err: bad.stderr.trim() }).toEqual({
      code: 2,
      err: 'zeph: Cannot undo "zero" changes: give a positive whole number, e.g. undo 2.',
    });
    const unknown = await zeph(["undo", "--conversation", "nope"], { cwd: ws, home });
    expect({ code: unknown.code, err: unknown.stderr.trim() }).toEqual({
      code: 1,
      err: 'zeph: No conversation "nope". List them with: zeph sessions',
    });
  });
});

Deno.test("zeph undo in a workspace without changes says so", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["undo"], { cwd: ws, home });
    expect({ code: r.code, out: r.stdout }).toEqual({
      code: 0,
      out: "No changes to undo in this workspace.\n",
    });
  });
});

Deno.test("interactive: /undo and /undo n restore this conversation's changes", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeScript(home, TURNS);
    const r = await zeph(["--script", file, "--yes"], {
      cwd: ws,
      home,
      stdin: "/undo\ngo\n/undo\n/undo 5\n/undo x\n/exit\n",
    });
    expect(r.code).toBe(0);
    const replies = r.stderr.split("\n").filter((l) =>
      /^(Restored|Refused|Nothing|No more|\d+ changes|Cannot undo)/.test(l)
    );
    expect(replies).toEqual([
      "Nothing to undo: this conversation has made no changes yet.",
      'Restored: move_path "src/greet.ts" -> "lib/greet.ts"',
      "2 changes are still recorded (zeph undo --list).",
      'Restored: edit "src/greet.ts"',
      'Restored: write "src/greet.ts"',
      "No more changes are recorded.",
      'Cannot undo "x" changes: give a positive whole number, e.g. undo 2.',
    ]);
    expect([...Deno.readDirSync(ws)]).toEqual([]);
  });
});

Deno.test("zeph undo from a subdirectory finds the workspace's conversation and restores there", async () => {
  await withWorkspace(async (ws, home) => {
    const id = await runTurns(ws, home);
    const sub = path.join(ws, "docs", "deep");
    await Deno.mkdir(sub, { recursive: true });

    const list = await zeph(["undo", "--list"], { cwd: sub, home });
    expect({ code: list.code, out: list.stdout.replace(TIME, "HH:MM") }).toEqual({
      code: 0,
      out: listing(id),
    });

    // The config is read once and nothing of the tool runtime starts: its warning is printed
    // once, and the MCP server (which cannot start) is never tried.
    const config = path.join(home, "undo.toml");
    await Deno.writeTextFile(
      config,
      '[tools]\nbogus = 1\n[[mcp.servers]]\nid = "bad"\ncommand = "/nonexistent/mcp"\n',
    );
    const two = await zeph(["--config", config, "undo", "2"], { cwd: sub, home });
    expect({ code: two.code, out: two.stdout, err: two.stderr }).toEqual({
      code: 0,
      out: 'Restored: move_path "src/greet.ts" -> "lib/greet.ts"\n' +
        'Restored: edit "src/greet.ts"\n' +
        "1 change is still recorded (zeph undo --list).\n",
      err: `zeph: warning: ${config}: unknown key "tools.bogus" ignored\n` +
        `zeph: undoing in the conversation's workspace ${ws}\n`,
    });
    expect(await Deno.readTextFile(path.join(ws, "src/greet.ts"))).toBe("v1\n");

    // --conversation from outside the workspace also restores in the conversation's workspace.
    const last = await zeph(["undo", "--conversation", id], { cwd: home, home });
    expect({ code: last.code, out: last.stdout }).toEqual({
      code: 0,
      out: 'Restored: write "src/greet.ts"\nNo more changes are recorded.\n',
    });
    await expect(Deno.stat(path.join(ws, "src/greet.ts"))).rejects.toThrow(Deno.errors.NotFound);
  });
});
