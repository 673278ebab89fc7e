/**
 * The official reference server (`@modelcontextprotocol/server-everything`) over stdio and over
 * Streamable HTTP on 127.0.0.1, called through the registry's dispatch boundary: listing,
 * text/image/structured/resource results, schema validation, progress and cancellation.
 */
import { expect } from "expect";
import type { ToolEvent } from "../../src/tools/tool.ts";
import { everythingEntry, type McpHarness, startEverythingHttp, startHarness } from "./_support.ts";

async function withEverything(fn: (h: McpHarness) => Promise<void> | void): Promise<void> {
  const h = await startHarness([everythingEntry("every")]);
  try {
    expect(h.warnings).toEqual([]);
    await fn(h);
  } finally {
    await h.close();
  }
}

const call = (h: McpHarness, name: string, input: unknown, extra = {}) =>
  h.registry.dispatch({ id: `c-${name}`, name, input }, h.scope(extra));

Deno.test("server-everything over stdio: its tools are registered with ids, flag and schema", async () => {
  await withEverything((h) => {
    const [status] = h.manager.status();
    expect([status.id, status.state, status.transport]).toEqual(["every", "ready", "stdio"]);
    const names = status.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]));
    const echo = h.registry.get("every_echo")!;
    // echo says readOnlyHint: true, so a retry of a failed call is harmless.
    expect(echo.mcp).toEqual({ serverId: "every", tool: "echo", retrySafe: true });
    expect([echo.mutates, echo.kind]).toEqual([true, "read"]); // trust "none" asks all the same
    expect(h.registry.definitions().find((d) => d.name === "every_echo")!.inputSchema).toEqual({
      type: "object",
      properties: { message: { type: "string", description: "Message to echo" } },
      required: ["message"],
    });
    for (const t of status.tools) expect(t.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});

Deno.test("server-everything: text, image, structured and resource results reach the model as text", async () => {
  await withEverything(async (h) => {
    const echo = await call(h, "every_echo", { message: "hi" });
    expect([echo.ok, echo.text]).toEqual([true, "Echo: hi"]);

    const sum = await call(h, "every_get-sum", { a: 2, b: 3 });
    expect(sum.text).toContain("5");

    const image = await call(h, "every_get-tiny-image", {});
    expect(image.ok).toBe(true);
    expect(image.text).toMatch(/\[image: image\/png, \d+ bytes, not shown\]/);

    const weather = await call(h, "every_get-structured-content", { location: "Chicago" });
    expect(weather.ok).toBe(true);
    expect(weather.text).toContain('"temperature"');

    const links = await call(h, "every_get-resource-links", { count: 2 });
    expect(links.text.match(/\[resource link: [^\]]+<[^>]+>/g)?.length).toBe(2);

    const embedded = await call(h, "every_get-resource-reference", { resourceId: 1 });
    expect(embedded.text).toMatch(/\[resource <[^>]+>\]\n/);
  });
});

Deno.test("server-everything: arguments are checked against the server's JSON Schema before the call", async () => {
  await withEverything(async (h) => {
    const bad = await call(h, "every_echo", { message: 3 });
    expect([bad.ok, bad.category]).toEqual([false, "invalid_parameters"]);
    expect(bad.text).toContain("message: must be string");
    const missing = await call(h, "every_get-structured-content", {});
    expect(missing.text).toContain("must have required property 'location'");
    const outside = await call(h, "every_get-structured-content", { location: "Paris" });
    expect(outside.text).toContain("must be equal to one of the allowed values");
  });
});

Deno.test("server-everything: progress becomes tool notices; a cancel stops the call", async () => {
  await withEverything(async (h) => {
    const events: ToolEvent[] = [];
    const done = await call(h, "every_trigger-long-running-operation", {
      duration: 0.3,
      steps: 3,
    }, { emit: (e: ToolEvent) => events.push(e) });
    expect(done.ok).toBe(true);
    // The SDK handles notifications a tick after they arrive and drops a call's progress
    // handler with its response, so the last step's notice may come too late to be shown.
    const notices = events.map((e) => e.type === "notice" ? e.message : "");
    expect(notices.slice(0, 2)).toEqual(["progress 1/3", "progress 2/3"]);
    expect(notices.slice(2)).toEqual(notices.length === 3 ? ["progress 3/3"] : []);

    const abort = new AbortController();
    const started = performance.now();
    const pending = call(h, "every_trigger-long-running-operation", { duration: 30, steps: 30 }, {
      signal: abort.signal,
      emit: () => abort.abort(),
    });
    const cancelled = await pending;
    expect([cancelled.ok, cancelled.category, cancelled.outcome]).toEqual([
      false,
      "cancelled",
      "cancelled",
    ]);
    expect(performance.now() - started).toBeLessThan(10_000);
    // The connection is still usable after the cancel.
    expect((await call(h, "every_echo", { message: "after" })).text).toBe("Echo: after");
  });
});

Deno.test("server-everything over Streamable HTTP on 127.0.0.1: list and call", async () => {
  const server = await startEverythingHttp();
  const h = await startHarness([{
    id: "web_every",
    url: server.url,
    args: [],
    env: {},
    headers: { "X-Test": "1" },
    timeout: 30,
    enabled: true,
    allow_tools: ["echo", "get-tiny-image"],
    deny_tools: ["get-tiny-image"],
    trust: "all",
  }]);
  try {
    expect(h.warnings).toEqual([]);
    const [status] = h.manager.status();
    expect([status.state, status.transport, status.tools.map((t) => t.id)]).toEqual([
      "ready",
      "http",
      ["web_every_echo"],
    ]);
    // trust = "all": no ask needed.
    const r = await h.registry.dispatch(
      { id: "h1", name: "web_every_echo", input: { message: "over http" } },
      h.scope({ ask: undefined }),
    );
    expect([r.ok, r.text]).toEqual([true, "Echo: over http"]);
  } finally {
    await h.close();
    await server.stop();
  }
});

Deno.test("Streamable HTTP: a server that restarted (and forgot the session) is re-initialised", async () => {
  let server = await startEverythingHttp();
  const h = await startHarness([{
    id: "every",
    url: server.url,
    args: [],
    env: {},
    headers: {},
    timeout: 30,
    enabled: true,
    allow_tools: ["echo"],
    deny_tools: [],
    trust: "all",
  }]);
  try {
    expect((await call(h, "every_echo", { message: "one" })).text).toBe("Echo: one");
    await server.stop();
    server = await startEverythingHttp(server.port);
    const again = await call(h, "every_echo", { message: "two" });
    expect([again.ok, again.text]).toEqual([true, "Echo: two"]);
    expect(h.manager.status()[0].state).toBe("ready");
    expect(h.warnings).toEqual([]);
  } finally {
    await h.close();
    await server.stop();
  }
});
