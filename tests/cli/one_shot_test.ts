/**
 * The one-shot reader against commander: every line it accepts must reach the tool call exactly
 * as commander's parse of the same line does (globals, tool, input), and what it declines is
 * left to commander.
 */
import { expect } from "expect";
import * as path from "node:path";
import type { CliDeps, GlobalOptions, Runtime, RuntimeOptions } from "../../src/cli/mod.ts";
import { runCli } from "../../src/cli/mod.ts";
import { oneShotToolCall } from "../../src/cli/one_shot.ts";

interface Seen {
  code: number;
  globals?: GlobalOptions;
  options?: RuntimeOptions;
  call?: { name: string; input: unknown };
}

/** Runs `args` through runCli with deps that record the runtime asked for and the call made. */
async function run(args: string[], oneShot: boolean): Promise<Seen> {
  const seen: Partial<Seen> = {};
  const runtime = {
    registry: {
      dispatch(call: { name: string; input: unknown }) {
        seen.call = { name: call.name, input: call.input };
        return Promise.resolve({ ok: true, text: "done" });
      },
    },
    scope: () => ({}),
    close: () => Promise.resolve(),
  } as unknown as Runtime;
  const deps = {
    buildRuntime(globals: GlobalOptions, options?: RuntimeOptions) {
      seen.globals = globals;
      seen.options = options;
      return Promise.resolve(runtime);
    },
  } as unknown as CliDeps;
  const log = console.log;
  console.log = () => {};
  try {
    return { ...seen, code: await runCli(args, deps, { oneShot }) };
  } finally {
    console.log = log;
  }
}

const ws = Deno.makeTempDirSync();
const input = '{"path":"x","limit":5}';
Deno.writeTextFileSync(path.join(ws, "cmd.json"), '{"command":"true"}');

const ACCEPTED: string[][] = [
  ["tool", "read", input],
  ["tool", "read"],
  ["tool", "bash", `@${path.join(ws, "cmd.json")}`],
  ["tool", "read", input, "--json"],
  ["tool", "--json", "read", input],
  ["--json", "tool", "read", input],
  ["-y", "tool", "read", input],
  ["--yes", "--json", "tool", "read", input],
  ["-C", ws, "tool", "read", input],
  ["--cwd", ws, "tool", "read", input],
  [`--cwd=${ws}`, "tool", "read", input],
  ["--config", path.join(ws, "c.toml"), "tool", "read", input],
  [`--config=${path.join(ws, "c.toml")}`, "-y", "tool", "read", input],
  ["--mcp-config", path.join(ws, "m.json"), "tool", "read", input],
  ["-C", ws, "tool", "reed", input],
  // An option value that reads as the subcommand is the option's.
  ["--config", "tool", "tool", "read", input],
  ["--mcp-config=tool", "-y", "tool", "read", input],
  ["--config", "tool", "tool", "tool", input],
];

const DECLINED: string[][] = [
  [],
  ["tool"],
  ["tool", "--json"],
  ["tool", "read", input, "-y"],
  ["tool", "read", input, "--yes"],
  ["tool", "read", input, "-C", ws],
  ["tool", "read", "--help"],
  ["tool", "read", "-h"],
  ["tool", "help"],
  ["tool", "read", input, "extra"],
  ["tool", "read", "--", input],
  ["tool", "read", "-5"],
  ["tool", "-", input],
  ["--json", "tool", "read", input, "--json"],
  ["-y", "-y", "tool", "read", input],
  ["-C", "tool", "read", input],
  ["-C", "-y", "tool", "read", input],
  ["--cwd=", "tool", "read", input],
  ["-yC", ws, "tool", "read", input],
  [`-C${ws}`, "tool", "read", input],
  ["--model", "m", "tool", "read", input],
  ["--yes=1", "tool", "read", input],
  ["tools"],
  ["-p", "hi"],
  ["read", "tool"],
];

Deno.test("one-shot reader: each line it accepts reaches the call as commander's parse does", async () => {
  for (const args of ACCEPTED) {
    expect({ args, accepted: oneShotToolCall(args) !== null }).toEqual({ args, accepted: true });
    const quick = await run(args, true);
    const commander = await run(args, false);
    expect({ args, ...quick }).toEqual({ args, ...commander });
    expect(quick.code).toBe(0);
  }
});

Deno.test("one-shot reader: declines what only commander reads", () => {
  for (const args of DECLINED) {
    expect({ args, call: oneShotToolCall(args) }).toEqual({ args, call: null });
  }
});

Deno.test("one-shot reader: the input `-` (stdin) is an operand", () => {
  expect(oneShotToolCall(["tool", "write", "-"])).toEqual({
    options: {},
    id: "write",
    input: "-",
  });
  expect(oneShotToolCall(["-C", "/w", "--json", "tool", "read"])).toEqual({
    options: { cwd: "/w", json: true },
    id: "read",
  });
});
