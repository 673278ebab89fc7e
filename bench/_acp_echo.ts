// Baseline for bench/acp_bench.ts: answers initialize with a fixed line, no SDK, nothing else.
const reader = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
await reader.read();
await Deno.stdout.write(
  new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] },
    }) + "\n",
  ),
);
await reader.read();
