/**
 * The OS sandbox's cost per command: `bash -c true` through `ToolRegistry.dispatch` (allow-all
 * rule, `allowed_paths` analysis) with the plain process runner and with the runner that wraps
 * it in bubblewrap (the plan made per command, as main.ts does, against the real `$HOME`). The
 * paths alternate call by call so load on the machine hits them alike. A third path adds the
 * search for `[tools.permissions] protected_paths` (the default list) that main.ts makes per
 * command, over this repository's tree (the temp workspace is empty). Run:
 * `deno task bench:sandbox`.
 */
import { defaultConfig } from "../src/config/schema.ts";
import {
  LocalProcessRunner,
  planSandbox,
  probeBwrap,
  type ProcessRunner,
  SandboxedRunner,
  sandboxSettingsOf,
  ShellSandbox,
} from "../src/exec/mod.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { compileProtected, protectedMatch } from "../src/permission/mod.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { bashTool } from "../src/tools/bash.ts";
import { LocalExecutor } from "../src/tools/executors/mod.ts";
import { type CallScope, ToolRegistry } from "../src/tools/registry.ts";
import { percentile } from "./_stats.ts";

const RUNS = Number(Deno.args[0] ?? 300);
const WARM_UP = 20;

const probe = probeBwrap();
if (!probe.available) {
  console.log(`bubblewrap is not usable here (${probe.reason}): nothing to measure`);
  Deno.exit(0);
}

const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_sbx_bench_" }));
const config = defaultConfig();
const sandbox = await Sandbox.create(workspace);
const settings = sandboxSettingsOf(config);
const env = Deno.env.toObject();
const plain = new LocalProcessRunner();
const wrapped = new SandboxedRunner(
  plain,
  new ShellSandbox("bwrap", () => planSandbox(workspace, settings, { env })),
);

function registryWith(runner: ProcessRunner): ToolRegistry {
  return new ToolRegistry({
    tools: [bashTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({ bash: [{ pattern: "*", action: "allow" }] }),
    config,
    deps: { runner },
  });
}
const globs = compileProtected(config.tools.permissions.protected_paths);
const repository = new URL("..", import.meta.url).pathname;
const searching = new SandboxedRunner(
  plain,
  new ShellSandbox("bwrap", () => {
    // The search runs over a real tree, and what it finds is bound; the command itself still
    // runs in the empty workspace.
    const found = planSandbox(repository, {
      ...settings,
      isProtected: (relative) => protectedMatch(relative, globs) !== null,
    }, { env });
    const plan = planSandbox(workspace, settings, { env });
    return { ...plan, readOnly: [...plan.readOnly, ...found.readOnly] };
  }),
);
const paths = {
  off: registryWith(plain),
  bwrap: registryWith(wrapped),
  search: registryWith(searching),
};
const scope: CallScope = { cwd: workspace, sandbox };

async function once(registry: ToolRegistry): Promise<number> {
  const t = performance.now();
  const r = await registry.dispatch({ id: "b", name: "bash", input: { command: "true" } }, scope);
  const ms = performance.now() - t;
  if (!r.ok) throw new Error(`bench call failed: ${r.text}`);
  return ms;
}

for (let i = 0; i < WARM_UP; i++) {
  await once(paths.off);
  await once(paths.bwrap);
  await once(paths.search);
}
const times = { off: [] as number[], bwrap: [] as number[], search: [] as number[] };
for (let i = 0; i < RUNS; i++) {
  times.off.push(await once(paths.off));
  times.bwrap.push(await once(paths.bwrap));
  times.search.push(await once(paths.search));
}
await Deno.remove(workspace, { recursive: true });

const row = (label: string, xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { label, p50: percentile(s, 0.5), p95: percentile(s, 0.95) };
};
const rows = [
  row("sandbox off", times.off),
  row("bubblewrap", times.bwrap),
  row("bubblewrap + protected_paths search (this repository)", times.search),
];
const load = (() => {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "n/a";
  }
})();
console.log(`\`bash -c true\` through dispatch, ${RUNS} alternating runs each (load ${load}):\n`);
console.log("| runner | p50 | p95 |");
console.log("|---|---:|---:|");
for (const r of rows) {
  console.log(`| ${r.label} | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms |`);
}
console.log(
  `| added by the sandbox | ${(rows[1].p50 - rows[0].p50).toFixed(2)} ms | ${
    (rows[1].p95 - rows[0].p95).toFixed(2)
  } ms |`,
);
console.log(
  `| added by the protected_paths search | ${(rows[2].p50 - rows[1].p50).toFixed(2)} ms | ${
    (rows[2].p95 - rows[1].p95).toFixed(2)
  } ms |`,
);
