/**
 * Dispatch overhead: one call through ToolRegistry.dispatch (unknown-tool check, zod validation,
 * permission decision over a realistic rule list, executor, hooks loop) with a trivial in-memory
 * tool, so no I/O is measured. Target ≤ 1 ms per call. Run: `deno task bench:dispatch`.
 */
import { z } from "zod";
import { defaultConfig } from "../src/config/schema.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { LocalExecutor } from "../src/tools/executors/mod.ts";
import { ToolRegistry } from "../src/tools/registry.ts";
import { readTool } from "../src/tools/read.ts";
import { SessionGuards } from "../src/tools/session_guards.ts";
import { defineTool } from "../src/tools/tool.ts";
import { percentile } from "./_stats.ts";

const BATCH = 100;
const BATCHES = 400;
const TARGET_MS = 1;

const EchoParams = z.object({
  path: z.string().min(1).describe("A path"),
  offset: z.number().int().min(1).default(1).describe("First line"),
  limit: z.number().int().min(1).optional().describe("Line count"),
}).strict();

const echo = defineTool({
  name: "echo",
  description: "Returns its path.",
  params: EchoParams,
  mutates: false,
  kind: "read",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  execute: (p) => Promise.resolve({ text: p.path }),
});

const cachedEcho = defineTool({ ...echo, name: "cached_echo", cacheable: true });

async function measure(
  label: string,
  registry: ToolRegistry,
  input: Record<string, unknown>,
  scope: Parameters<ToolRegistry["dispatch"]>[1],
  tool = "echo",
): Promise<string> {
  let n = 0;
  const call = () => registry.dispatch({ id: `c${n++}`, name: tool, input }, scope);
  for (let i = 0; i < 2000; i++) await call(); // warm-up (JIT, zod caches)
  const first = await call();
  const perCall: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const t = performance.now();
    for (let i = 0; i < BATCH; i++) await call();
    perCall.push((performance.now() - t) / BATCH);
  }
  perCall.sort((a, b) => a - b);
  const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  const p99 = percentile(perCall, 0.99);
  return `| ${label} | ${first.ok ? "ok" : first.category} | ${fmt(percentile(perCall, 0.5))} | ${
    fmt(p99)
  } | ${p99 <= TARGET_MS ? "yes" : "NO"} |`;
}

if (import.meta.main) {
  const config = defaultConfig();
  const sandbox = await Sandbox.create(Deno.cwd());
  const scope = { cwd: sandbox.workspace, sandbox };
  // 30 rules, the match near the end: the permission step does real work.
  const rules = [
    ...Array.from(
      { length: 28 },
      (_, i) => ({ pattern: `secret${i}/**`, action: "deny" as const }),
    ),
    { pattern: "*.env", action: "deny" as const },
    { pattern: "src/*", action: "allow" as const },
  ];
  const policy = new PermissionPolicy({ echo: rules });
  const registry = new ToolRegistry({
    tools: [echo],
    executor: new LocalExecutor(),
    policy,
    config,
  });
  const bare = new ToolRegistry({
    tools: [echo],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({}),
    config,
  });

  console.log(`dispatch overhead, ${BATCHES} batches of ${BATCH} calls, per-call time per batch`);
  console.log("| case | result | p50 | p99 | ≤ 1 ms |");
  console.log("|---|---|---|---|---|");
  console.log(await measure("allowed, no rules", bare, { path: "src/main.ts" }, scope));
  console.log(
    await measure("allowed by rule 30 of 30", registry, { path: "src/a/b/main.ts" }, scope),
  );
  console.log(await measure("denied by rule 29", registry, { path: "config/.env" }, scope));
  console.log(await measure("invalid params (zod error)", registry, { path: 3 }, scope));

  // The session guards (issue 19): result cache and anomaly detector in the scope, and
  // [tools.policy] with 30 rules whose match is the last one.
  const guarded = { ...scope, guards: SessionGuards.fromConfig(config) };
  const policyConfig = defaultConfig();
  policyConfig.tools.policy.enabled = true;
  policyConfig.tools.policy.rules = [
    ...Array.from({ length: 29 }, (_, i) => ({
      effect: "deny" as const,
      tool: "echo",
      paths: [`/secret${i}/**`],
      env: [],
    })),
    { effect: "allow" as const, tool: "echo", paths: [], env: [], args_match: "src/" },
  ];
  const all = new PermissionPolicy({
    echo: [{ pattern: "*", action: "allow" }],
    cached_echo: [{ pattern: "*", action: "allow" }],
    read: [{ pattern: "*", action: "allow" }],
  });
  const withGuards = new ToolRegistry({
    tools: [echo, cachedEcho, readTool],
    executor: new LocalExecutor(),
    policy: all,
    config,
  });
  const withPolicy = new ToolRegistry({
    tools: [echo],
    executor: new LocalExecutor(),
    policy: all,
    config: policyConfig,
  });
  const src = { path: "src/main.ts" };
  console.log(await measure("baseline: allowed by a rule, no guards", withGuards, src, scope));
  console.log(await measure("guards, tool not cacheable (invalidates)", withGuards, src, guarded));
  console.log(
    await measure("guards, cacheable tool, cache hit", withGuards, src, guarded, "cached_echo"),
  );
  console.log(await measure("[tools.policy] 30 rules, allow at 30", withPolicy, src, scope));
  const readme = { path: "README.md" };
  console.log(
    await measure("real read of README.md, no guards", withGuards, readme, scope, "read"),
  );
  console.log(
    await measure(
      "real read of README.md, cache hit (1 stat)",
      withGuards,
      readme,
      guarded,
      "read",
    ),
  );
}
