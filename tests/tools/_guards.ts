/**
 * Test support for the session guards (result cache, anomaly detector, policy rules): an agent
 * session over the real file tools and the real bash tool in a temp workspace, every ask
 * approved, driven by the scripted provider.
 */
import { AgentSession } from "../../src/agent/session.ts";
import type { AgentEvent } from "../../src/agent/events.ts";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import type { ScriptProvider } from "../../src/provider/script.ts";
import { scriptedProvider } from "../_support/scripted.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { FILE_TOOLS } from "../../src/tools/file_tools.ts";
import { type CallScope, type FinalHook, ToolRegistry } from "../../src/tools/registry.ts";
import type { AnyTool } from "../../src/tools/tool.ts";

export const call = (id: string, name: string, input: unknown) => ({ id, name, input });

export interface GuardHarness {
  dir: string;
  config: Config;
  registry: ToolRegistry;
  provider: ScriptProvider;
  session: AgentSession;
  events: AgentEvent[];
  /** Runs one user turn with the scripted turns given at creation. */
  prompt(text?: string): Promise<string>;
  /** What the model received as tool results, per request after the first, in order. */
  results(): { callId: string; text: string; isError: boolean }[];
  [Symbol.asyncDispose](): Promise<void>;
}

export async function guardHarness(options: {
  turns: Record<string, unknown>[];
  config?: (c: Config) => void;
  tools?: AnyTool[];
  env?: Record<string, string>;
  policy?: PermissionPolicy;
  /** Answers asks; null is non-interactive (asks are refused). @default allow once */
  ask?: CallScope["ask"] | null;
  /** Extra final hooks (the audit log). */
  finalHooks?: FinalHook[];
}): Promise<GuardHarness> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph-guards-" }));
  const config = defaultConfig();
  // Repeated identical reads are what the cache answers: the repetition guard stays out of it.
  config.agent.repeat_threshold = 0;
  options.config?.(config);
  const sandbox = await Sandbox.create(dir);
  const env = options.env ?? {};
  const registry = new ToolRegistry({
    tools: options.tools ?? [...FILE_TOOLS, bashTool],
    executor: new LocalExecutor(),
    policy: options.policy ?? PermissionPolicy.fromConfig(config),
    config,
    env: (name) => env[name],
  });
  const provider = scriptedProvider(options.turns);
  const events: AgentEvent[] = [];
  const session = new AgentSession({
    provider,
    registry,
    cwd: dir,
    sandbox,
    ask: options.ask === null ? undefined : options.ask ?? (() => Promise.resolve("allow_once")),
  });
  for (const hook of options.finalHooks ?? []) registry.addFinalHook(hook);
  return {
    dir,
    config,
    registry,
    provider,
    session,
    events,
    prompt: (text = "go") => session.prompt(text, { sink: (e) => events.push(e) }),
    results: () =>
      provider.requests.flatMap((r) => {
        const last = r.messages.at(-1);
        return last?.role === "user"
          ? last.parts.flatMap((p) =>
            p.type === "tool_result" ? [{ callId: p.callId, text: p.text, isError: p.isError }] : []
          )
          : [];
      }),
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}
