/**
 * Terminal latency of `zeph -p` on a real pty (util-linux `script`), against a local
 * OpenAI-compatible server on 127.0.0.1 that streams its answer after a hold. Run:
 * `deno task bench:terminal [other-checkout …]` (prints a markdown table; each extra checkout,
 * e.g. /work/main, is measured in the same run as a baseline).
 * - first spinner frame: from the model request's arrival at the server to the first "thinking…"
 *   frame on the pty (negative: the frame came first), and from the process spawn;
 * - first token: from the server writing the first byte of its stream to that text on the pty.
 */
import * as path from "node:path";
import { median } from "./_stats.ts";

const RUNS = Number(Deno.env.get("ZEPH_BENCH_RUNS") ?? 7);
const HOLD_MS = 400;
const TOKEN = "Zebra-token-1";
const DENO = path.resolve(import.meta.dirname!, "..", "node_modules", "deno", "deno");

interface Sample {
  spawnToSpinner: number | null;
  requestToSpinner: number | null;
  firstByteToToken: number;
}

/** One streamed chat completion per request; records when it arrived and its first byte. */
function serve() {
  const times = { request: 0, firstByte: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    times.request = performance.now();
    const encoder = new TextEncoder();
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      encoder.encode(
        `data: ${
          JSON.stringify({
            id: "b",
            object: "chat.completion.chunk",
            created: 0,
            model: "bench",
            choices: [{ index: 0, delta, finish_reason: finish }],
          })
        }\n\n`,
      );
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        await req.arrayBuffer();
        await new Promise((r) => setTimeout(r, HOLD_MS));
        times.firstByte = performance.now();
        controller.enqueue(chunk({ role: "assistant", content: TOKEN }));
        controller.enqueue(chunk({ content: " and the rest." }));
        controller.enqueue(chunk({}, "stop"));
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  return { server, times, port: server.addr.port };
}

async function once(
  checkout: string,
  port: number,
  times: { request: number; firstByte: number },
  dir: string,
): Promise<Sample> {
  const config = path.join(dir, "config.toml");
  await Deno.writeTextFile(
    config,
    `[llm]\nprovider = "openai"\n[llm.openai]\nbase_url = "http://127.0.0.1:${port}/v1"\nmodel = "bench"\n`,
  );
  const zeph = [
    DENO,
    "run",
    "-A",
    "--no-prompt",
    path.join(checkout, "main.ts"),
    "--config",
    config,
    "-p",
    "hi",
  ]
    .map((a) => `'${a}'`).join(" ");
  const started = performance.now();
  const child = new Deno.Command("script", {
    args: ["-qfec", zeph, "/dev/null"],
    cwd: dir,
    env: {
      OPENAI_API_KEY: "bench",
      HOME: dir,
      XDG_DATA_HOME: path.join(dir, "data"),
      XDG_CONFIG_HOME: path.join(dir, "config"),
      NO_COLOR: "1",
      TERM: "xterm",
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let seen = "";
  let spinner: number | null = null;
  let token: number | null = null;
  const decoder = new TextDecoder();
  for await (const bytes of child.stdout) {
    const now = performance.now();
    seen += decoder.decode(bytes, { stream: true });
    if (spinner === null && seen.includes("thinking…")) spinner = now;
    if (token === null && seen.includes(TOKEN)) token = now;
  }
  const status = await child.status;
  if (token === null) {
    throw new Error(`${checkout}: no token on the pty (exit ${status.code}):\n${seen}`);
  }
  return {
    spawnToSpinner: spinner === null ? null : spinner - started,
    requestToSpinner: spinner === null ? null : spinner - times.request,
    firstByteToToken: token - times.firstByte,
  };
}

const checkouts = [
  path.resolve(import.meta.dirname!, ".."),
  ...Deno.args.map((a) => path.resolve(a)),
];
const { server, times, port } = serve();
const dir = await Deno.makeTempDir({ prefix: "zeph_term_bench_" });
const results = new Map<string, Sample[]>(checkouts.map((c) => [c, []]));
try {
  // Interleaved, so load changes hit every checkout alike.
  for (let i = 0; i < RUNS; i++) {
    for (const c of checkouts) results.get(c)!.push(await once(c, port, times, dir));
  }
} finally {
  await server.shutdown();
  await Deno.remove(dir, { recursive: true });
}
const fmt = (xs: (number | null)[]) => {
  const vals = xs.filter((x): x is number => x !== null);
  return vals.length ? `${median(vals).toFixed(1)}` : "never";
};
console.log(
  `| checkout | spawn → first spinner frame ms | model request → first spinner frame ms | provider's first byte → token on screen ms |`,
);
console.log(`| --- | ---: | ---: | ---: |`);
for (const [c, samples] of results) {
  console.log(
    `| ${c} | ${fmt(samples.map((s) => s.spawnToSpinner))} | ${
      fmt(samples.map((s) => s.requestToSpinner))
    } | ${fmt(samples.map((s) => s.firstByteToToken))} |`,
  );
}
console.log(
  `\nMedians of ${RUNS} runs each, interleaved; the server holds its answer ${HOLD_MS} ms.`,
);
