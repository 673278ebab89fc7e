// Runs the real CLI (`deno run <the zeph task's flags> main.ts …`) in a temp workspace with an isolated environment.
import * as path from "node:path";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");
export const DENO = path.join(ROOT, "node_modules", "deno", "deno");
export const MAIN = path.join(ROOT, "main.ts");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh workspace plus an empty XDG config home, so the user's own config never leaks in. */
export async function withWorkspace(
  fn: (ws: string, home: string) => Promise<void>,
): Promise<void> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_cli_" }));
  const ws = path.join(base, "ws");
  const home = path.join(base, "home");
  await Deno.mkdir(ws);
  await Deno.mkdir(home);
  try {
    await fn(ws, home);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

/** Runs zeph; `stdin` (when given) is written to a piped stdin, else stdin is closed. */
export async function zeph(
  args: string[],
  options: {
    cwd: string;
    home: string;
    env?: Record<string, string>;
    stdin?: string;
    /** Deno's flags. @default TASK_FLAGS (the zeph task's) */
    denoFlags?: string[];
  },
): Promise<RunResult> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: options.home,
    XDG_CONFIG_HOME: path.join(options.home, ".config"),
    XDG_DATA_HOME: path.join(options.home, ".local", "share"),
    NO_COLOR: "1",
    ...options.env,
  };
  const child = new Deno.Command(DENO, {
    args: ["run", ...(options.denoFlags ?? TASK_FLAGS), "--no-prompt", MAIN, ...args],
    cwd: options.cwd,
    env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}
