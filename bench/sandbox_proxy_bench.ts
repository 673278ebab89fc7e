/**
 * The added cost of `[tools.shell.sandbox] allowed_domains` per sandboxed command: `bash -c true`
 * through the bubblewrap runner without the proxy, with the proxy and socat as the bridge (when
 * installed), and with the Deno bridge; then one `curl` request to a local server through the
 * proxy (Deno bridge and socat) against the same request unconfined. The paths alternate run by
 * run so load on the machine hits them alike. Run: `deno task bench:sandbox_proxy [runs]`.
 */
import {
  findSocat,
  LocalProcessRunner,
  NetworkProxy,
  planSandbox,
  probeBwrap,
  type ProcessRunner,
  SandboxedRunner,
  sandboxSettingsOf,
  ShellSandbox,
} from "../src/exec/mod.ts";
import { defaultConfig } from "../src/config/schema.ts";
import { blockedAddressReason } from "../src/web/mod.ts";
import { percentile } from "./_stats.ts";

const RUNS = Number(Deno.args[0] ?? 60);
const WARM_UP = 5;

const probe = probeBwrap();
if (!probe.available) {
  console.log(`bubblewrap is not usable here (${probe.reason}): nothing to measure`);
  Deno.exit(0);
}

const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_proxy_bench_" }));
const settings = sandboxSettingsOf(defaultConfig());
const env = Deno.env.toObject();
const plan = () => planSandbox(workspace, settings, { env });
const plain = new LocalProcessRunner();
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  () => new Response("ok\n"),
);
const proxy = new NetworkProxy({
  allowedDomains: ["bench.test"],
  addressRefusal: blockedAddressReason,
  resolve: () => Promise.resolve(["127.0.0.1"]),
});
const socat = findSocat();
const runners: Record<string, ProcessRunner> = {
  "bubblewrap, no network (the baseline)": new SandboxedRunner(
    plain,
    new ShellSandbox("bwrap", plan),
  ),
  ...(socat
    ? {
      "bubblewrap + proxy, socat bridge": new SandboxedRunner(
        plain,
        new ShellSandbox("bwrap", plan, { network: proxy, socat }),
      ),
    }
    : {}),
  "bubblewrap + proxy, Deno bridge": new SandboxedRunner(
    plain,
    new ShellSandbox("bwrap", plan, { network: proxy, socat: null }),
  ),
};
const url = `http://bench.test:${server.addr.port}/`;
const requests: Record<string, [ProcessRunner, string]> = {
  "curl unconfined, direct (the baseline)": [
    plain,
    `curl -sS --noproxy '*' http://127.0.0.1:${server.addr.port}/`,
  ],
  ...(socat
    ? {
      "curl through the proxy, socat bridge": [
        runners["bubblewrap + proxy, socat bridge"],
        `curl -sS ${url}`,
      ] as [ProcessRunner, string],
    }
    : {}),
  "curl through the proxy, Deno bridge": [
    runners["bubblewrap + proxy, Deno bridge"],
    `curl -sS ${url}`,
  ],
};

async function once(runner: ProcessRunner, command: string, expected: string): Promise<number> {
  const t = performance.now();
  const r = await runner.run("bash", ["-c", command], { cwd: workspace, timeoutMs: 10_000 });
  const ms = performance.now() - t;
  if (r.exitCode !== 0 || r.stdout.text !== expected) {
    throw new Error(`bench command failed: ${r.combined.text}`);
  }
  return ms;
}

async function measure(paths: Record<string, [ProcessRunner, string]>, expected: string) {
  const times: Record<string, number[]> = Object.fromEntries(
    Object.keys(paths).map((k) => [k, []]),
  );
  for (let i = 0; i < WARM_UP + RUNS; i++) {
    for (const [label, [runner, command]] of Object.entries(paths)) {
      const ms = await once(runner, command, expected);
      if (i >= WARM_UP) times[label].push(ms);
    }
  }
  const rows = Object.entries(times).map(([label, xs]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { label, p50: percentile(s, 0.5), p95: percentile(s, 0.95) };
  });
  console.log("| path | p50 | p95 | p50 added |");
  console.log("|---|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.label} | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${
        (r.p50 - rows[0].p50).toFixed(2)
      } ms |`,
    );
  }
}

const load = () => {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
};
console.log(`\`bash -c true\`, ${RUNS} alternating runs each (load ${load()}):\n`);
await measure(
  Object.fromEntries(Object.entries(runners).map(([k, r]) => [k, [r, "true"]])),
  "",
);
console.log(
  `\none \`curl\` request to a local server, ${RUNS} alternating runs each (load ${load()}):\n`,
);
await measure(requests, "ok\n");
if (!socat) console.log("\n(socat is not installed: its rows are left out)");
proxy.close();
await server.shutdown();
await Deno.remove(workspace, { recursive: true });
