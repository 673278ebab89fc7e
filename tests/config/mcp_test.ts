// `[mcp]` in config.toml and Claude Code's .mcp.json for --mcp-config.
import { expect } from "expect";
import * as path from "node:path";
import { ConfigError, loadConfig, loadMcpJson } from "../../src/config/mod.ts";

async function withFile(
  name: string,
  text: string,
  fn: (file: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, name);
    await Deno.writeTextFile(file, text);
    await fn(file);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("[[mcp.servers]]: defaults filled, both transports", async () => {
  await withFile(
    "config.toml",
    '[[mcp.servers]]\nid = "gh"\ncommand = "gh-mcp"\n\n[[mcp.servers]]\nid = "web"\nurl = "https://example.com/mcp"\ntrust = "readonly"\n',
    async (file) => {
      const { config } = await loadConfig({ path: file, env: {} });
      expect(config.mcp).toEqual({
        startup_timeout: 30,
        servers: [
          {
            id: "gh",
            command: "gh-mcp",
            args: [],
            env: {},
            headers: {},
            timeout: 60,
            enabled: true,
            allow_tools: [],
            deny_tools: [],
            trust: "none",
          },
          {
            id: "web",
            url: "https://example.com/mcp",
            args: [],
            env: {},
            headers: {},
            timeout: 60,
            enabled: true,
            allow_tools: [],
            deny_tools: [],
            trust: "readonly",
          },
        ],
      });
    },
  );
});

Deno.test("[[mcp.servers]]: bad entries are errors naming the key and the fix", async () => {
  const cases: [string, string][] = [
    ['id = "a"', 'needs exactly one of "command" (stdio) or "url" (HTTP)'],
    ['id = "a"\ncommand = "x"\nurl = "http://h/"', 'needs exactly one of "command"'],
    ['id = "has space"\ncommand = "x"', "expected 1-32 letters, digits"],
    ['id = "a"\nurl = "ftp://h/"', "mcp.servers[0].url"],
    ['id = "a"\ncommand = "x"\ntrust = "some"', "mcp.servers[0].trust"],
    [
      'id = "a"\ncommand = "x"\n[[mcp.servers]]\nid = "a"\ncommand = "y"',
      'server id "a" is used twice',
    ],
  ];
  for (const [body, expected] of cases) {
    await withFile("config.toml", `[[mcp.servers]]\n${body}\n`, async (file) => {
      const error = await loadConfig({ path: file, env: {} }).catch((e) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toContain(expected);
    });
  }
});

Deno.test("loadMcpJson: stdio and http entries become [[mcp.servers]] entries", async () => {
  const json = {
    mcpServers: {
      fs: { command: "npx", args: ["-y", "fs-server"], env: { ROOT: "${HOME}" } },
      remote: { type: "http", url: "https://example.com/mcp", headers: { A: "b" } },
    },
  };
  await withFile(".mcp.json", JSON.stringify(json), async (file) => {
    const servers = await loadMcpJson(file);
    expect(servers.map((s) => [s.id, s.command, s.args, s.env, s.url, s.headers])).toEqual([
      ["fs", "npx", ["-y", "fs-server"], { ROOT: "${HOME}" }, undefined, {}],
      ["remote", undefined, [], {}, "https://example.com/mcp", { A: "b" }],
    ]);
  });
});

Deno.test("loadMcpJson: not JSON, wrong shape, bad entry are clear errors", async () => {
  const cases: [string, string][] = [
    ["{not json", "invalid JSON"],
    ['{"servers": {}}', "Expected Claude Code's .mcp.json format"],
    ['{"mcpServers": {"bad name!": {"command": "x"}}}', "mcpServers.bad name!:"],
  ];
  for (const [text, expected] of cases) {
    await withFile(".mcp.json", text, async (file) => {
      const error = await loadMcpJson(file).catch((e) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toContain(file);
      expect(error.message).toContain(expected);
    });
  }
});
