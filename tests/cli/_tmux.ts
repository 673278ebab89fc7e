// Drives the interactive CLI in a real terminal: a detached tmux session of 80×30, keys sent
// with send-keys, the screen read with capture-pane. Tests that use it are skipped (and say so)
// where tmux is not installed; .ci/run installs it.
import * as path from "node:path";
import { DENO, MAIN } from "./_run.ts";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

export const HAS_TMUX = (() => {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

/** The name suffix of a test that needs tmux, when it is missing. */
export const NEEDS_TMUX = HAS_TMUX ? "" : " (skipped: needs tmux)";

/** Runs tmux on the server of `socket` (each screen has its own, so no test shares a server). */
async function tmux(socket: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

export interface Screen {
  /** Sends keys as tmux send-keys does ("Enter", "C-c", or literal text with `literal`). */
  keys(...keys: string[]): Promise<void>;
  /** Types text literally. */
  type(text: string): Promise<void>;
  /** Pastes text as a bracketed paste. */
  paste(text: string): Promise<void>;
  /** The visible screen. */
  screen(): Promise<string>;
  /** The whole scrollback plus the screen. */
  history(): Promise<string>;
  /** Waits until the screen matches; returns it. Throws with the screen after `ms`. */
  waitFor(match: RegExp | string, ms?: number): Promise<string>;
  close(): Promise<void>;
}

/** Starts `zeph <args>` in a fresh tmux session with an isolated HOME. */
export async function startZeph(
  args: string[],
  options: { cwd: string; home: string; columns?: number },
): Promise<Screen> {
  const name = `zeph-test-${crypto.randomUUID().slice(0, 8)}`;
  const env = {
    HOME: options.home,
    XDG_CONFIG_HOME: path.join(options.home, ".config"),
    XDG_DATA_HOME: path.join(options.home, ".local", "share"),
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    TERM: "xterm-256color",
    NO_COLOR: "1",
  };
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const command = [
    "env",
    "-i",
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    DENO,
    "run",
    ...TASK_FLAGS,
    "--no-prompt",
    MAIN,
    ...args,
  ].map(quote).join(" ");
  // The shell stays after zeph exits, so the last screen can still be read.
  await tmux(
    name,
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    String(options.columns ?? 80),
    "-y",
    "30",
    "-c",
    options.cwd,
    `${command}; echo "[exit $?]"; sleep 600`,
  );
  const screen = () => tmux(name, "capture-pane", "-p", "-t", name);
  return {
    keys: async (...keys) => void await tmux(name, "send-keys", "-t", name, ...keys),
    type: async (text) => void await tmux(name, "send-keys", "-t", name, "-l", text),
    paste: async (text) => {
      await tmux(name, "set-buffer", "-b", name, text);
      await tmux(name, "paste-buffer", "-p", "-d", "-b", name, "-t", name);
    },
    screen,
    history: () => tmux(name, "capture-pane", "-p", "-S", "-", "-t", name),
    async waitFor(match, ms = 15_000) {
      const deadline = Date.now() + ms;
      let last = "";
      while (Date.now() < deadline) {
        last = await screen();
        if (typeof match === "string" ? last.includes(match) : match.test(last)) return last;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`Timed out waiting for ${match} on the screen:\n${last}`);
    },
    close: async () => void await tmux(name, "kill-server").catch(() => {}),
  };
}
