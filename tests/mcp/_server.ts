/**
 * A small MCP server on the official SDK for the fault cases (stdio). The first argument picks
 * how it starts: "ok" (default), "exit-at-start" (writes to stderr and exits), "garbage-at-start"
 * (writes a non-JSON line on stdout), "hang" (never answers initialize). Its tools: slow (sleeps,
 * reports progress, honours cancellation), fail (isError), crash (exits mid-call), garbage
 * (writes a non-JSON line on stdout mid-call), big (a result of `bytes` bytes), env (its
 * environment), spawn (starts a child; returns the pids), add_tool (registers a tool, which sends list_changed), and "a.b"/"a_b" whose ids
 * collide once made provider-safe.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import process from "node:process";

const mode = Deno.args[0] ?? "ok";
if (mode === "exit-at-start") {
  console.error("fixture: cannot open the database /nonexistent/db");
  Deno.exit(3);
}
if (mode === "garbage-at-start") {
  console.log("Welcome to the fixture server! (not JSON-RPC)");
}
if (mode === "hang") {
  // Reads stdin and never answers.
  for await (const _ of Deno.stdin.readable) { /* ignore */ }
  await new Promise(() => {});
}

const server = new McpServer({ name: "zeph-fixture", version: "1.0.0" });
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

server.registerTool("slow", {
  description: "Sleeps for ms milliseconds, reporting progress every 100 ms",
  inputSchema: { ms: z.number().int().min(0) },
}, async ({ ms }, extra) => {
  const token = extra._meta?.progressToken;
  const steps = Math.max(1, Math.floor(ms / 100));
  for (let i = 1; i <= steps; i++) {
    if (extra.signal.aborted) {
      await Deno.writeTextFile(Deno.env.get("FIXTURE_CANCEL_FILE") ?? "/dev/null", "cancelled");
      return text("cancelled");
    }
    await new Promise((r) => setTimeout(r, ms / steps));
    if (token !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
      });
    }
  }
  return text(`slept ${ms} ms`);
});

server.registerTool("fail", {
  description: "Reports an error",
  inputSchema: { reason: z.string() },
}, ({ reason }) => ({ content: [{ type: "text", text: reason }], isError: true }));

server.registerTool("crash", { description: "Exits mid-call" }, () => {
  console.error("fixture: segfault in crash()");
  setTimeout(() => Deno.exit(1), 10);
  return new Promise(() => {});
});

server.registerTool("garbage", { description: "Writes garbage on stdout mid-call" }, () => {
  process.stdout.write("this is not json\n");
  return new Promise(() => {});
});

server.registerTool("big", {
  description: "Returns a result of the given size",
  inputSchema: { bytes: z.number().int().min(1) },
}, ({ bytes }) => {
  const line = "0123456789abcdef".repeat(4) + "\n";
  return text(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
});

server.registerTool("env", { description: "Returns its environment as JSON" }, () => {
  return text(JSON.stringify(Deno.env.toObject()));
});

server.registerTool("add_tool", {
  description: "Registers a tool named `name`",
  inputSchema: { name: z.string() },
}, ({ name }) => {
  server.registerTool(name, { description: `Added at run time` }, () => text(`${name} ran`));
  return text(`added ${name}`);
});

server.registerTool("spawn", { description: "Starts `sleep 60`; returns both pids" }, () => {
  const child = new Deno.Command("sleep", { args: ["60"] }).spawn();
  return text(JSON.stringify({ server: Deno.pid, child: child.pid }));
});

server.registerTool("a.b", { description: "Dotted name" }, () => text("dotted"));
server.registerTool("a_b", { description: "Underscored name" }, () => text("underscored"));
server.registerTool(
  "scrape",
  { description: "Collides with web_scrape under id web" },
  () => text("mcp scrape"),
);

await server.connect(new StdioServerTransport());
