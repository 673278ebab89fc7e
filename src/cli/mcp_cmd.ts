/**
 * `zeph mcp list`: the MCP servers of the config (and `--mcp-config`), their state and tools.
 * `zeph mcp call <server> <tool> '<json>'`: one call through the dispatch boundary, as
 * `zeph tool` makes it (validation, permission, overflow, audit).
 */
import { CliError } from "./errors.ts";
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";
import { runToolCall } from "./tool_cmd.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  const mcp = program.command("mcp").description("list and call the tools of MCP servers");
  mcp
    .command("list")
    .description("start the configured MCP servers and list their state and tools")
    .option("--json", "print a JSON array of {id, origin, transport, state, fault, tools}")
    .action(async (_opts, command) => {
      const globals = globalsOf(command);
      // The list shows each server's fault: one message, not also a warning.
      const runtime = await deps.buildRuntime(globals, { mcpFaultsShown: true });
      try {
        const servers = runtime.mcp?.status() ?? [];
        if (globals.json) {
          console.log(JSON.stringify(servers, null, 2));
          return;
        }
        if (servers.length === 0) {
          console.log(
            "No MCP servers are configured. Add [[mcp.servers]] to the config, or pass " +
              "--mcp-config FILE (a .mcp.json).",
          );
          return;
        }
        for (const s of servers) {
          console.log(`${s.id}  ${s.state}  ${s.transport}  (${s.origin})`);
          if (s.fault) console.log(`  ${s.fault}`);
          for (const t of s.tools) {
            console.log(`  ${t.id}${t.id === `${s.id}_${t.name}` ? "" : `  (${t.name})`}`);
          }
        }
        deps.status.exitCode = servers.some((s) => s.state !== "ready") ? 1 : 0;
      } finally {
        await runtime.close();
      }
    });
  mcp
    .command("call")
    .description("call one tool of an MCP server and print its result")
    .argument("<server>", "server id, as `zeph mcp list` shows it")
    .argument("<tool>", "the tool's name on that server")
    .argument("[input]", "JSON object with the tool's arguments", "{}")
    .option("--json", 'print {"tool","ok","output","category","error"}')
    .action(async (serverId, toolName, inputText, _opts, command) => {
      await runToolCall(deps, globalsOf(command), {
        inputText,
        // The call names the one server it needs and reports that server's fault: one message.
        runtime: { mcpFaultsShown: true },
        resolve(runtime) {
          const server = runtime.mcp?.status().find((s) => s.id === serverId);
          if (!server) {
            const known = runtime.mcp?.status().map((s) => s.id).join(", ") || "none";
            throw new CliError(
              `Cannot call "${toolName}": no MCP server "${serverId}" (servers: ${known}). ` +
                `Run zeph mcp list.`,
            );
          }
          if (server.state !== "ready") {
            throw new CliError(
              `Cannot call "${toolName}": MCP server "${serverId}" ` +
                `${server.state === "failed" ? "has failed" : `is ${server.state}`}` +
                `${server.fault ? ` (${server.fault})` : ""}.`,
              1,
            );
          }
          const tool = server.tools.find((t) => t.name === toolName);
          if (!tool) {
            throw new CliError(
              `Cannot call "${toolName}": MCP server "${serverId}" offers no such tool ` +
                `(tools: ${server.tools.map((t) => t.name).join(", ") || "none"}).`,
            );
          }
          return tool.id;
        },
      });
    });
}
