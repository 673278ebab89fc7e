import { expect } from "expect";
import { type AcpArgs, parseAcpArgs } from "../../src/acp/mod.ts";
import { spawnAcp, workspace } from "./_client.ts";

Deno.test("parseAcpArgs: the options zeph acp takes, after `acp` or with --acp anywhere", () => {
  const cases: [string[], AcpArgs][] = [
    [["acp"], { cwd: "/here", choice: {} }],
    [["--acp", "--config", "c.toml", "-C", "/w"], { cwd: "/w", config: "c.toml", choice: {} }],
    [
      ["acp", "--provider", "script", "--script", "s.jsonl", "--legacy", "--cwd", "/x"],
      { cwd: "/x", choice: { provider: "script", script: "s.jsonl", legacy: true } },
    ],
    [["acp", "--model", "m1"], { cwd: "/here", choice: { model: "m1" } }],
  ];
  for (const [args, expected] of cases) expect(parseAcpArgs(args, "/here")).toEqual(expected);
});

Deno.test("parseAcpArgs: an unknown option or a missing value is an AcpUsageError", () => {
  const cases: [string[], string][] = [
    [["acp", "--yes"], 'Unknown option "--yes" for zeph acp. It takes --config, -C/--cwd,'],
    [["acp", "--config"], "Option --config needs a value."],
  ];
  for (const [args, message] of cases) {
    let error: Error | undefined;
    try {
      parseAcpArgs(args, "/here");
    } catch (e) {
      error = e as Error;
    }
    expect({ name: error?.name, start: error?.message.startsWith(message) }).toEqual({
      name: "AcpUsageError",
      start: true,
    });
  }
});

Deno.test("zeph acp with an unknown option exits 2 and says so on stderr, not on the wire", async () => {
  const ws = await workspace([{ text: "unused" }]);
  const child = spawnAcp(ws, { extraArgs: ["--bogus"] });
  await child.stdin.close();
  const out = await child.output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  expect({ code: out.code, stdout: text(out.stdout) }).toEqual({ code: 2, stdout: "" });
  expect(text(out.stderr)).toContain('zeph: Unknown option "--bogus" for zeph acp.');
});
