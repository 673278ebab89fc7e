/**
 * Test support for the loop: a temp workspace, a registry of small real tools (a real `sleep`
 * subprocess, a real `bash -c`), a scripted provider built from inline turns, and an event log.
 */
import { z } from "zod";
import { AgentSession, type AgentSessionOptions } from "../../src/agent/session.ts";
import type { AgentEvent } from "../../src/agent/events.ts";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import type { ScriptProvider } from "../../src/provider/script.ts";
import { scriptedProvider } from "../_support/scripted.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { ToolError } from "../../src/errors/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { type AnyTool, defineTool } from "../../src/tools/tool.ts";

/** Counts executions per tool, so tests can assert what really ran. */
export const runs: Record<string, number> = {};
function count(name: string) {
  runs[name] = (runs[name] ?? 0) + 1;
}

export const echoTool = defineTool({
  name: "echo",
  description: "Returns its text.",
  params: z.object({ text: z.string().describe("text to return") }).strict(),
  mutates: false,
  kind: "read",
  group: "read",
  invocation: { type: "call" },
  subjects: (p) => [p.text],
  execute(p) {
    count("echo");
    return Promise.resolve({ text: `echo: ${p.text}` });
  },
});

/** The same output whatever the argument: feeds the doom-loop detector. */
export const constantTool = defineTool({
  name: "constant",
  description: "Always prints the same line.",
  params: z.object({ n: z.number().describe("ignored") }).strict(),
  mutates: false,
  kind: "other",
  group: "read",
  invocation: { type: "call" },
  subjects: () => [],
  execute() {
    count("constant");
    return Promise.resolve({ text: "the same output" });
  },
});

/** A real `sleep` process, killed on cancel. */
export const sleepTool = defineTool({
  name: "sleep",
  description: "Sleeps.",
  params: z.object({ seconds: z.number().describe("how long") }).strict(),
  mutates: false,
  kind: "execute",
  group: "command",
  invocation: { type: "call" },
  subjects: (p) => [String(p.seconds)],
  async execute(p, ctx) {
    count("sleep");
    const child = new Deno.Command("sleep", {
      args: [String(p.seconds)],
      signal: ctx.signal,
      stdout: "null",
      stderr: "null",
    }).spawn();
    ctx.emit({ type: "output", callId: ctx.callId, tool: "sleep", stream: "stdout", chunk: "zz" });
    const status = await child.status;
    if (ctx.signal.aborted) throw new ToolError("cancelled", "Cannot finish sleep: cancelled");
    return { text: `slept ${p.seconds}s`, exitCode: status.code };
  },
});

/** A real `bash -c`, invoked by ```bash fences on the legacy path. */
export const shellTool = defineTool({
  name: "bash",
  description: "Runs a command.",
  params: z.object({ command: z.string().describe("the command") }).strict(),
  mutates: true,
  kind: "execute",
  group: "command",
  invocation: { type: "fenced", fence: "bash" },
  subjects: (p) => [p.command],
  async execute(p, ctx) {
    count("bash");
    const out = await new Deno.Command("bash", { args: ["-c", p.command], cwd: ctx.cwd }).output();
    return { text: new TextDecoder().decode(out.stdout).trimEnd(), exitCode: out.code };
  },
});

/** ```scrape fences carry JSON; returns what it got. */
export const scrapeTool = defineTool({
  name: "web_scrape",
  description: "Scrapes.",
  params: z.object({ url: z.string(), select: z.string() }).strict(),
  mutates: false,
  kind: "fetch",
  group: "web",
  invocation: { type: "fenced", fence: "scrape" },
  subjects: (p) => [p.url],
  execute(p) {
    count("web_scrape");
    return Promise.resolve({ text: `scraped ${p.url} ${p.select}` });
  },
});

/** Fails with server_error `failures` times, then succeeds (a retryable fetch tool). */
export function flakyTool(failures: number): AnyTool {
  let left = failures;
  return defineTool({
    name: "flaky",
    description: "Fails, then works.",
    params: z.object({}).strict(),
    mutates: false,
    kind: "fetch",
    group: "web",
    invocation: { type: "call" },
    subjects: () => [],
    execute() {
      count("flaky");
      if (left-- > 0) throw new ToolError("server_error", "Cannot fetch: HTTP 503");
      return Promise.resolve({ text: "fetched" });
    },
  });
}

/** A mutating tool that writes a file: asks by default (no rules, mutates). */
export const noteTool = defineTool({
  name: "note",
  description: "Writes a note file.",
  params: z.object({ name: z.string(), text: z.string() }).strict(),
  mutates: true,
  kind: "edit",
  group: "edit",
  invocation: { type: "call" },
  subjects: (p) => [p.name],
  async execute(p, ctx) {
    count("note");
    await Deno.writeTextFile(`${ctx.cwd}/${p.name}`, p.text);
    return { text: `wrote ${p.name}` };
  },
});

export interface Harness {
  dir: string;
  session: AgentSession;
  provider: ScriptProvider;
  registry: ToolRegistry;
  events: AgentEvent[];
  config: Config;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface HarnessOptions {
  /** JSONL lines (objects are stringified). */
  turns: (Record<string, unknown> | string)[];
  config?: (c: Config) => void;
  tools?: AnyTool[];
  session?: Partial<AgentSessionOptions>;
}

export async function harness(options: HarnessOptions): Promise<Harness> {
  for (const k of Object.keys(runs)) delete runs[k];
  const dir = await Deno.makeTempDir({ prefix: "zeph-agent-" });
  const config = defaultConfig();
  options.config?.(config);
  const sandbox = await Sandbox.create(dir);
  const registry = new ToolRegistry({
    tools: options.tools ?? [echoTool, constantTool, sleepTool, noteTool],
    executor: new LocalExecutor(),
    policy: PermissionPolicy.fromConfig(config),
    config,
  });
  const provider = scriptedProvider(options.turns);
  const events: AgentEvent[] = [];
  const session = new AgentSession({
    provider,
    registry,
    cwd: sandbox.workspace,
    sandbox,
    random: () => 0,
    ...options.session,
  });
  return {
    dir: sandbox.workspace,
    session,
    provider,
    registry,
    events,
    config,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The events of one kind, for whole-value assertions. */
export function ofType<T extends AgentEvent["type"]>(
  events: AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e) => e.type === type) as Extract<AgentEvent, { type: T }>[];
}
