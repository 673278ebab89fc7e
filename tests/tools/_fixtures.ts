// Small in-memory tools for the registry/executor tests: real zod schemas, no I/O.
import { z } from "zod";
import { defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { LocalExecutor, type ToolExecutor } from "../../src/tools/executors/mod.ts";
import { type CallScope, ToolRegistry } from "../../src/tools/registry.ts";
import { type AnyTool, defineTool, type ToolContext, type ToolDeps } from "../../src/tools/tool.ts";
import type { PermissionRuleConfig } from "../../src/config/schema.ts";

export const EchoParams = z.object({
  path: z.string().describe("A path"),
  times: z.number().int().min(1).default(1).describe("Repetitions"),
}).strict();

/** Records every context it ran with. */
export function echoTool(seen: ToolContext[] = []) {
  return defineTool({
    name: "echo",
    description: "Echoes the path.",
    params: EchoParams,
    mutates: false,
    kind: "read",
    group: "read",
    invocation: { type: "call" },
    subjects: (p) => [p.path],
    execute(p, ctx) {
      seen.push(ctx);
      return Promise.resolve({ text: p.path.repeat(p.times) });
    },
  });
}

export const touchTool = defineTool({
  name: "touch",
  description: "Pretends to write two paths.",
  params: z.object({ from: z.string(), to: z.string() }).strict(),
  mutates: true,
  kind: "edit",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.from, p.to],
  execute: (p) => Promise.resolve({ text: `touched ${p.from} ${p.to}` }),
});

export const bashLikeTool = defineTool({
  name: "bash",
  description: "Runs a command.",
  params: z.object({ command: z.string() }).strict(),
  mutates: true,
  kind: "execute",
  group: "command",
  invocation: { type: "fenced", fence: "bash" },
  subjects: (p) => [p.command],
  execute: (p) => Promise.resolve({ text: `ran ${p.command}` }),
});

export const scrapeLikeTool = defineTool({
  name: "web_scrape",
  description: "Scrapes a page.",
  params: z.object({ url: z.string(), select: z.string() }).strict(),
  mutates: false,
  kind: "fetch",
  group: "web",
  invocation: { type: "fenced", fence: "scrape" },
  subjects: (p) => [p.url],
  execute: (p) => Promise.resolve({ text: `scraped ${p.url}` }),
});

/** Throws whatever it is told to. */
export function failingTool(thrown: () => unknown): AnyTool {
  return defineTool({
    name: "fail",
    description: "Fails.",
    params: z.object({}).strict(),
    mutates: false,
    kind: "other",
    group: "read",
    invocation: { type: "call" },
    subjects: () => [],
    execute: () => Promise.reject(thrown()),
  });
}

export async function makeRegistry(
  tools: AnyTool[],
  options: {
    rules?: Record<string, PermissionRuleConfig[]>;
    executor?: ToolExecutor;
    deps?: Partial<ToolDeps>;
  } = {},
): Promise<{ registry: ToolRegistry; scope: CallScope; policy: PermissionPolicy }> {
  const config = defaultConfig();
  const policy = new PermissionPolicy(options.rules ?? {});
  const registry = new ToolRegistry({
    tools,
    executor: options.executor ?? new LocalExecutor(),
    policy,
    config,
    deps: options.deps,
  });
  const cwd = Deno.cwd();
  const scope: CallScope = { cwd, sandbox: await Sandbox.create(cwd) };
  return { registry, scope, policy };
}
