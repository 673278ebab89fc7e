// Which subcommand modules a command line loads: only the one it names, when that is clear.
import { expect } from "expect";
import { COMMANDS, commandsFor } from "../../src/cli/commands.ts";

const ALL = COMMANDS.map((c) => c.name);

Deno.test("commandsFor: the named subcommand alone, after global options only", () => {
  const table: [string[], (string | null)[]][] = [
    [["tool", "read", '{"path":"x"}'], ["tool"]],
    [["tool", "read", "{}", "--json", "-y"], ["tool"]],
    [["-C", "/tmp", "--config", "c.toml", "tool", "read", "{}"], ["tool"]],
    [["--cwd=/tmp", "--config=c.toml", "--yes", "--json", "sessions"], ["sessions"]],
    [["--mcp-config", "m.json", "mcp", "list"], ["mcp"]],
    [["filter", "--", "ls", "--help"], ["filter"]],
    // Help, the default action, a root option of the chat or an unknown word: everything.
    [[], ALL],
    [["--help"], ALL],
    [["help", "tool"], ALL],
    [["tool", "read", "--help"], ALL],
    [["tool", "-h"], ALL],
    [["-p", "hello"], ALL],
    [["--provider", "script", "tool", "read"], ALL],
    [["toll", "read"], ALL],
    [["-C"], ALL],
  ];
  for (const [args, names] of table) {
    expect([args, commandsFor(args).map((c) => c.name)]).toEqual([args, names]);
  }
});

Deno.test("COMMANDS: one default action, then every subcommand once", () => {
  expect(ALL.filter((n) => n === null)).toHaveLength(1);
  expect(new Set(ALL).size).toBe(ALL.length);
});
