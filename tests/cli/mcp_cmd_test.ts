// `zeph mcp list|call`, `--mcp-config FILE`, `zeph tools` origins and `config check` masking, run
// as the real CLI against real MCP servers.
import { expect } from "expect";
import * as path from "node:path";
import { EVERYTHING, FIXTURE } from "../mcp/_support.ts";
import { DENO, withWorkspace, zeph } from "./_run.ts";

/** A config with the fixture server as "fx" (and whatever `extra` adds). */
async function writeConfig(ws: string, extra = ""): Promise<string> {
  const file = path.join(ws, "..", "config.toml");
  await Deno.writeTextFile(
    file,
    [
      "[[mcp.servers]]",
      'id = "fx"',
      `command = ${JSON.stringify(DENO)}`,
      `args = ["run", "-A", "--no-prompt", ${JSON.stringify(FIXTURE)}]`,
      'env = { TOKEN = "${FIXTURE_TOKEN}", LITERAL = "s3cr3t-value" }',
      extra,
    ].join("\n"),
  );
  return file;
}

async function writeMcpJson(ws: string, content?: unknown): Promise<string> {
  const file = path.join(ws, ".mcp.json");
  await Deno.writeTextFile(
    file,
    JSON.stringify(
      content ?? {
        mcpServers: { every: { command: DENO, args: ["run", "-A", "--no-prompt", EVERYTHING] } },
      },
    ),
  );
  return file;
}

const ENV = { FIXTURE_TOKEN: "tok" };

Deno.test("zeph mcp list shows config and --mcp-config servers with their tools; .mcp.json is never read unasked", async () => {
  await withWorkspace(async (ws, home) => {
    const config = await writeConfig(ws);
    const mcpJson = await writeMcpJson(ws);
    const plain = await zeph(["--config", config, "mcp", "list"], { cwd: ws, home, env: ENV });
    expect([plain.code, plain.stderr]).toEqual([0, ""]);
    expect(plain.stdout).toContain("fx  ready  stdio  (config)\n  fx_slow\n");
    expect(plain.stdout).toContain("  fx_a_b_2  (a_b)\n");
    // The workspace's .mcp.json is there, but nobody asked for it.
    expect(plain.stdout).not.toContain("every");

    const both = await zeph(
      ["--config", config, "--mcp-config", mcpJson, "--json", "mcp", "list"],
      {
        cwd: ws,
        home,
        env: ENV,
      },
    );
    expect(both.code).toBe(0);
    const servers = JSON.parse(both.stdout);
    expect(
      servers.map((s: { id: string; state: string; origin: string }) => [s.id, s.state, s.origin]),
    )
      .toEqual([["fx", "ready", "config"], ["every", "ready", mcpJson]]);
    expect(servers[1].tools).toContainEqual({ id: "every_echo", name: "echo" });
  });
});

Deno.test("zeph mcp list without servers says how to add one", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["mcp", "list"], { cwd: ws, home });
    expect(r).toEqual({
      code: 0,
      stdout: "No MCP servers are configured. Add [[mcp.servers]] to the config, or pass " +
        "--mcp-config FILE (a .mcp.json).\n",
      stderr: "",
    });
  });
});

Deno.test("zeph mcp list and call print a failing server's fault once; other commands warn", async () => {
  await withWorkspace(async (ws, home) => {
    const config = await writeConfig(
      ws,
      '[[mcp.servers]]\nid = "bad"\ncommand = "/nonexistent/mcp"',
    );
    const fault = 'cannot start: command "/nonexistent/mcp" not found';
    const opts = { cwd: ws, home, env: ENV };
    const list = await zeph(["--config", config, "mcp", "list"], opts);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain(`bad  failed  stdio  (config)\n  ${fault}`);
    expect(list.stdout.split(fault).length).toBe(2);
    expect(list.stderr).toBe("");
    const json = await zeph(["--config", config, "--json", "mcp", "list"], opts);
    expect(JSON.parse(json.stdout)[1].fault).toContain(fault);
    expect(json.stderr).toBe("");
    // A call of the failed server says why, once.
    const call = await zeph(["--config", config, "mcp", "call", "bad", "x"], opts);
    expect(call.code).toBe(1);
    expect(call.stderr).toBe(
      `zeph: Cannot call "x": MCP server "bad" has failed (${fault} (check the path, or that it ` +
        "is on PATH)).\n",
    );
    // A command that does not list the servers still says why their tools are missing.
    const tools = await zeph(["--config", config, "tools"], opts);
    expect(tools.stderr).toContain(`zeph: warning: MCP server "bad" (config) ${fault}`);
  });
});

Deno.test("zeph mcp call goes through the dispatch boundary: ask, --yes, tool errors, bad names", async () => {
  await withWorkspace(async (ws, home) => {
    const config = await writeConfig(ws);
    const opts = { cwd: ws, home, env: ENV };
    const asked = await zeph(["--config", config, "mcp", "call", "fx", "slow", '{"ms": 0}'], opts);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain("category: confirmation_required");

    const ok = await zeph(
      ["--config", config, "-y", "mcp", "call", "fx", "slow", '{"ms": 0}'],
      opts,
    );
    expect(ok).toEqual({ code: 0, stdout: "slept 0 ms\n", stderr: "" });

    const invalid = await zeph(["--config", config, "-y", "mcp", "call", "fx", "slow", "{}"], opts);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("category: invalid_parameters");
    expect(invalid.stderr).toContain("must have required property 'ms'");

    const failed = await zeph(
      ["--config", config, "-y", "--json", "mcp", "call", "fx", "fail", '{"reason": "no"}'],
      opts,
    );
    expect([failed.code, JSON.parse(failed.stdout).category]).toEqual([1, "invalid_parameters"]);

    const noServer = await zeph(["--config", config, "mcp", "call", "zz", "slow"], opts);
    expect([noServer.code, noServer.stderr]).toEqual([
      2,
      'zeph: Cannot call "slow": no MCP server "zz" (servers: fx). Run zeph mcp list.\n',
    ]);
    const noTool = await zeph(["--config", config, "mcp", "call", "fx", "nope"], opts);
    expect(noTool.code).toBe(2);
    expect(noTool.stderr).toContain('MCP server "fx" offers no such tool (tools: slow, fail,');
  });
});

Deno.test("--mcp-config: a missing or malformed file is a clear error", async () => {
  await withWorkspace(async (ws, home) => {
    const missing = await zeph(["--mcp-config", "nope.json", "mcp", "list"], { cwd: ws, home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Cannot read MCP config file "${path.join(ws, "nope.json")}"`);

    const bad = await writeMcpJson(ws, { mcpServers: { x: { args: ["a"] } } });
    const r = await zeph(["--mcp-config", bad, "mcp", "list"], { cwd: ws, home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${bad}: mcpServers.x: server "x" needs exactly one of "command" (stdio) or "url" (HTTP)`,
    );
  });
});

Deno.test("zeph tools shows MCP tools with their origin; config check masks literal env values", async () => {
  await withWorkspace(async (ws, home) => {
    const config = await writeConfig(ws);
    const tools = await zeph(["--config", config, "tools", "--json"], { cwd: ws, home, env: ENV });
    const defs = JSON.parse(tools.stdout) as { name: string; origin: string }[];
    expect(defs.find((d) => d.name === "read")!.origin).toBe("builtin");
    expect(defs.find((d) => d.name === "fx_slow")!.origin).toBe("mcp:fx");
    const text = await zeph(["--config", config, "tools"], { cwd: ws, home, env: ENV });
    expect(text.stdout).toContain("fx_slow  (mcp server fx)\n  Sleeps for ms milliseconds");

    const check = await zeph(["--config", config, "config", "check", "--json"], { cwd: ws, home });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout).mcp.servers[0].env).toEqual({
      TOKEN: "${FIXTURE_TOKEN}",
      LITERAL: "********",
    });
  });
});
