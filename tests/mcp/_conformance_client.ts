/**
 * The client the MCP conformance suite runs (`conformance client --command …` appends the test
 * server's URL and sets MCP_CONFORMANCE_SCENARIO): the real zeph agent (`zeph -p`) with the
 * server passed by `--mcp-config` and a scripted model that calls the scenario's tool.
 */
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");
const url = Deno.args.at(-1)!;
const scenario = Deno.env.get("MCP_CONFORMANCE_SCENARIO") ?? "";

/** The tool calls a model would make in each scenario. */
const CALLS: Record<string, { name: string; input: unknown }[]> = {
  initialize: [],
  tools_call: [{ name: "conformance_add_numbers", input: { a: 2, b: 3 } }],
  "sse-retry": [{ name: "conformance_test_reconnection", input: {} }],
  "elicitation-sep1034-client-defaults": [
    { name: "conformance_test_client_elicitation_defaults", input: {} },
  ],
};

const dir = await Deno.makeTempDir({ prefix: "zeph-conformance-" });
try {
  const mcpJson = path.join(dir, "mcp.json");
  await Deno.writeTextFile(
    mcpJson,
    JSON.stringify({ mcpServers: { conformance: { type: "http", url } } }),
  );
  const calls = CALLS[scenario] ?? [];
  const script = path.join(dir, "script.jsonl");
  await Deno.writeTextFile(
    script,
    [
      ...(calls.length ? [{ tool_calls: calls.map((c, i) => ({ id: `c${i}`, ...c })) }] : []),
      { text: "done" },
    ].map((t) => JSON.stringify(t)).join("\n"),
  );
  const config = path.join(dir, "config.toml");
  await Deno.writeTextFile(
    config,
    `[memory]\nsqlite_path = ${JSON.stringify(path.join(dir, "z.db"))}\n`,
  );
  const out = await new Deno.Command(path.join(ROOT, "node_modules", "deno", "deno"), {
    args: [
      "run",
      "-A",
      "--no-prompt",
      path.join(ROOT, "main.ts"),
      "--config",
      config,
      "--mcp-config",
      mcpJson,
      "-C",
      dir,
      "-y",
      "-p",
      `conformance scenario ${scenario}`,
      "--provider",
      "script",
      "--script",
      script,
    ],
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  Deno.exitCode = out.code;
} finally {
  await Deno.remove(dir, { recursive: true });
}
