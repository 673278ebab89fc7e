// The scripted model, as tests set it up: a script file for the CLI's `--script`, a provider
// from inline turns, and a workspace with a real SQLite store and the overflow hook for loops
// whose outputs are offloaded (the agent's overflow and summarize tests).
import * as path from "node:path";
import { z } from "zod";
import { AgentSession, type AgentSessionOptions } from "../../src/agent/session.ts";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { parseScript, ScriptProvider } from "../../src/provider/script.ts";
import type { Provider } from "../../src/provider/types.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { openStore, type SqliteStore } from "../../src/store/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { type AnyTool, defineTool } from "../../src/tools/tool.ts";
import { overflowHook } from "./hooks.ts";

/** One script line per turn: an object is written as JSON, a string as it is. */
export type ScriptTurn = Record<string, unknown> | string;

function scriptText(turns: ScriptTurn[]): string {
  return turns.map((t) => typeof t === "string" ? t : JSON.stringify(t)).join("\n");
}

/** Writes `turns` as a script file in `dir` (a fresh name each call) for `--script`. */
export async function writeScript(dir: string, turns: ScriptTurn[]): Promise<string> {
  const file = path.join(dir, `script-${crypto.randomUUID()}.jsonl`);
  await Deno.writeTextFile(file, scriptText(turns) + "\n");
  return file;
}

/** The scripted provider playing `turns`; `name` is the file name its errors show. */
export function scriptedProvider(turns: ScriptTurn[], name = "test.jsonl"): ScriptProvider {
  return new ScriptProvider(parseScript(scriptText(turns), name));
}

/** A read-only tool that prints `text`: an output big enough to be offloaded. */
export function bigOutputTool(text: string): AnyTool {
  return defineTool({
    name: "big",
    description: "Prints a lot.",
    params: z.object({}).strict(),
    mutates: false,
    kind: "execute",
    group: "command",
    invocation: { type: "call" },
    subjects: () => [],
    execute: () => Promise.resolve({ text }),
  });
}

export interface StoreWorkspace extends AsyncDisposable {
  store: SqliteStore;
  sandbox: Sandbox;
  registry: ToolRegistry;
  /** A session in the workspace over the store, with `provider` as its model. */
  session(provider: Provider, options?: Partial<AgentSessionOptions>): AgentSession;
}

/**
 * A temp workspace with a SQLite store and a registry of `tools` whose results pass the
 * overflow hook; disposing closes the store and removes the directory.
 */
export async function storeWorkspace(
  tools: AnyTool[],
  configure: (config: Config) => void = () => {},
): Promise<StoreWorkspace> {
  const dir = await Deno.makeTempDir({ prefix: "zeph-store-ws-" });
  const store = openStore(path.join(dir, "zeph.db"));
  const config = defaultConfig();
  configure(config);
  const sandbox = await Sandbox.create(dir);
  const registry = new ToolRegistry({
    tools,
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(),
    config,
    deps: { overflow: store },
  });
  registry.addOutputHook(overflowHook(store, config));
  return {
    store,
    sandbox,
    registry,
    session: (provider, options = {}) =>
      new AgentSession({
        provider,
        registry,
        cwd: sandbox.workspace,
        sandbox,
        store,
        ...options,
      }),
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}
