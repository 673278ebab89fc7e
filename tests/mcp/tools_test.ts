// Pure parts of the MCP mapping: ids, the trust table, result rendering, error codes.
import { expect } from "expect";
import {
  categoryOfMcpCode,
  MCP_ERROR_CODES,
  mcpCodeOf,
  mcpToolId,
  renderContent,
  runsUnasked,
} from "../../src/mcp/mod.ts";
import { isRetryable } from "../../src/errors/mod.ts";

Deno.test("mcpToolId: {server}_{name}, unsafe characters replaced, at most 64, collisions suffixed", () => {
  const none = () => false;
  expect(mcpToolId("gh", "create_issue", none)).toBe("gh_create_issue");
  expect(mcpToolId("gh", "repos/list.all", none)).toBe("gh_repos_list_all");
  expect(mcpToolId("gh", "ünï cödé", none)).toBe("gh__n__c_d_");
  const long = mcpToolId("server", "x".repeat(100), none);
  expect([long.length, long.startsWith("server_xxx")]).toEqual([64, true]);
  const taken = new Set([long, `${long.slice(0, 62)}_2`]);
  expect(mcpToolId("server", "x".repeat(100), (id) => taken.has(id))).toBe(
    `${long.slice(0, 62)}_3`,
  );
});

Deno.test("runsUnasked: trust decides how far annotations count", () => {
  const table = [
    ["none", { readOnlyHint: true }, false],
    ["none", undefined, false],
    ["readonly", { readOnlyHint: true }, true],
    ["readonly", { readOnlyHint: true, destructiveHint: true }, false],
    ["readonly", undefined, false],
    ["all", undefined, true],
    ["all", { destructiveHint: false }, true],
    ["all", { destructiveHint: true }, false],
  ] as const;
  expect(table.map(([trust, hints]) => runsUnasked(trust, hints))).toEqual(
    table.map(([, , expected]) => expected),
  );
});

Deno.test("renderContent: every content kind, structuredContent once", () => {
  expect(renderContent({
    content: [
      { type: "text", text: "hello" },
      { type: "image", mimeType: "image/png", data: "AAAA" },
      { type: "audio", mimeType: "audio/wav", data: "AAA=" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "mem://x", text: "inner" } },
      { type: "resource", resource: { uri: "mem://b", mimeType: "application/zip", blob: "AA==" } },
    ],
  })).toBe(
    [
      "hello",
      "[image: image/png, 3 bytes, not shown]",
      "[audio: audio/wav, 2 bytes, not shown]",
      "[resource link: a.txt <file:///a.txt> (text/plain)]",
      "[resource <mem://x>]\ninner",
      "[resource <mem://b>: application/zip, 1 bytes, not shown]",
    ].join("\n"),
  );
  // Carried by a text block already: not repeated.
  expect(
    renderContent({ content: [{ type: "text", text: '{"a": 1}' }], structuredContent: { a: 1 } }),
  )
    .toBe('{"a": 1}');
  expect(renderContent({ content: [], structuredContent: { a: 1 } })).toBe('{\n  "a": 1\n}');
  expect(renderContent({})).toBe("(no content)");
});

Deno.test("McpErrorCode: retryable codes map to retryable categories, and only those", () => {
  expect(MCP_ERROR_CODES.map((c) => [c, categoryOfMcpCode(c), isRetryable(categoryOfMcpCode(c))]))
    .toEqual([
      ["transient", "network_error", true],
      ["rate_limited", "rate_limited", true],
      ["invalid_input", "invalid_parameters", false],
      ["auth_failure", "policy_blocked", false],
      ["server_error", "server_error", true],
      ["not_found", "permanent_failure", false],
      ["policy_blocked", "policy_blocked", false],
    ]);
  const codes = [
    { code: -32602, message: "bad params" },
    { code: -32601, message: "no method" },
    { code: -32603, message: "internal" },
    { code: 401, message: "Error POSTing to endpoint (HTTP 401)" },
    { code: 429, message: "slow down" },
    { code: 503, message: "unavailable" },
    new TypeError("fetch failed"),
    new Error("Streamable HTTP error: Error POSTing to endpoint (HTTP 404): gone"),
    new Error("something odd"),
  ].map(mcpCodeOf);
  expect(codes).toEqual([
    "invalid_input",
    "not_found",
    "server_error",
    "auth_failure",
    "rate_limited",
    "server_error",
    "transient",
    "not_found",
    "server_error",
  ]);
});
