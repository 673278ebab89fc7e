/**
 * The official MCP conformance suite in client mode (`@modelcontextprotocol/conformance`): for
 * each scenario it starts a test server on localhost and runs tests/mcp/_conformance_client.ts
 * (the real agent, `--mcp-config` and a scripted model) with the server's URL. It needs a newer
 * Node than the CI image has, so it runs under this Deno. Elicitation is not implemented (zeph
 * does not advertise it, and ACP cannot forward it to the editor yet), so its scenario is not run.
 */
import { expect } from "expect";
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");
const CLI = path.join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "conformance",
  "dist",
  "index.js",
);
const CLIENT = path.join(ROOT, "tests", "mcp", "_conformance_client.ts");

for (const scenario of ["initialize", "tools_call", "sse-retry"]) {
  Deno.test(`MCP conformance (client): ${scenario} passes`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "zeph-conformance-run-" });
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          CLI,
          "client",
          "--command",
          `${Deno.execPath()} run -A ${CLIENT}`,
          "--scenario",
          scenario,
        ],
        cwd: dir,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(text);
      if (!summary) throw new Error(`no result summary in the suite's output:\n${text}`);
      const [, passed, total, failed] = summary;
      expect({ scenario, passed, failed }).toEqual({ scenario, passed: total, failed: "0" });
      expect(text).toContain("OVERALL: PASSED");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
