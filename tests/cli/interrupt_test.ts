import { expect } from "expect";
import * as path from "node:path";
import { DENO, MAIN, withWorkspace } from "./_run.ts";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

Deno.test("Ctrl-C during `zeph tool bash` cancels the call: exit 1 with a cancelled result, the command killed", async () => {
  await withWorkspace(async (ws, home) => {
    const marker = path.join(ws, "finished");
    const child = new Deno.Command(DENO, {
      args: [
        "run",
        ...TASK_FLAGS,
        "--no-prompt",
        MAIN,
        "--yes",
        "--json",
        "tool",
        "bash",
        JSON.stringify({ command: `echo started; sleep 37; touch ${marker}` }),
      ],
      cwd: ws,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, ".config"),
        XDG_DATA_HOME: path.join(home, ".local", "share"),
        NO_COLOR: "1",
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Interrupt once the command runs (its process group exists once bash has started).
    let started = false;
    while (!started) {
      await new Promise((r) => setTimeout(r, 100));
      const ps = await new Deno.Command("pgrep", { args: ["-f", "^sleep 37$"] }).output();
      started = ps.code === 0;
    }
    child.kill("SIGINT");
    const out = await child.output();
    expect(out.code).toBe(1);
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    expect([result.tool, result.ok, result.category]).toEqual(["bash", false, "cancelled"]);
    // The command's process group was killed with the call: no sleep is left behind.
    const left = await new Deno.Command("pgrep", { args: ["-f", "^sleep 37$"] }).output();
    expect(left.code).toBe(1);
    expect(await Deno.stat(marker).then(() => true, () => false)).toBe(false);
  });
});
