// `zeph acp` started by hand (stdin a terminal) says in one stderr line what it is; started by
// an editor (stdin a pipe) it prints nothing but protocol.
import { expect } from "expect";
import * as path from "node:path";
import { ACP_TERMINAL_NOTICE } from "../../src/acp/mod.ts";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");
const DENO = path.join(ROOT, "node_modules", "deno", "deno");
const MAIN = path.join(ROOT, "main.ts");
const HAS_SCRIPT = new Deno.Command("sh", { args: ["-c", "command -v script"] }).outputSync()
  .success;

async function withHome(fn: (home: string) => Promise<void>) {
  const home = await Deno.makeTempDir({ prefix: "zeph_acp_home_" });
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test({
  name:
    "zeph acp on a terminal prints a short note on stderr naming ACP on stdio and how to use it",
  ignore: !HAS_SCRIPT,
  fn: () =>
    withHome(async (home) => {
      // `script` gives zeph a pty for stdin; its stderr goes to the pty too, which we read.
      // stdin of `script` is closed, so the pty sees end of input and zeph acp exits.
      const out = await new Deno.Command("script", {
        args: ["-qec", `'${DENO}' run -A --no-prompt '${MAIN}' acp`, "/dev/null"],
        cwd: home,
        clearEnv: true,
        env: { PATH: Deno.env.get("PATH")!, HOME: home, NO_COLOR: "1", TERM: "dumb" },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const screen = new TextDecoder().decode(out.stdout).replaceAll("\r", "");
      const lines = screen.split("\n").filter((l) => l.trim() !== "");
      expect(lines).toEqual(ACP_TERMINAL_NOTICE.split("\n"));
      // Each line fits an 80-column terminal: nothing wraps mid-word.
      expect(lines.filter((l) => [...l].length > 80)).toEqual([]);
      expect(ACP_TERMINAL_NOTICE).toContain("Agent Client Protocol");
      expect(ACP_TERMINAL_NOTICE).toContain("stdin/stdout");
      expect(ACP_TERMINAL_NOTICE).toContain("zeph acp");
    }),
});

Deno.test("zeph acp on a pipe writes nothing to stderr", () =>
  withHome(async (home) => {
    const out = await new Deno.Command(DENO, {
      args: ["run", ...TASK_FLAGS, "--no-prompt", MAIN, "acp"],
      cwd: home,
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH")!, HOME: home, NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    expect(out.code).toBe(0);
    expect(new TextDecoder().decode(out.stderr)).toBe("");
  }));
