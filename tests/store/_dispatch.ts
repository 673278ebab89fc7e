/**
 * A registry with the overflow hook and read_overflow (reading the same store), a test tool that prints whatever it is
 * told, and a stand-in filter hook (order 10) that drops lines as the real filter would.
 */
import { z } from "zod";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import type { Store } from "../../src/store/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { readOverflowTool } from "../../src/tools/read_overflow.ts";
import { type CallScope, ToolRegistry } from "../../src/tools/registry.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { overflowHook } from "../_support/hooks.ts";

/** Prints `text` (or `repeat` copies of a line); `failed`/`exit_code` mark a failed command. */
export const printTool = defineTool({
  name: "print",
  description: "Prints the given text.",
  params: z.object({
    text: z.string().default("").describe("what to print"),
    repeat: z.number().int().min(0).default(0).describe("print `text` + newline this often"),
    failed: z.boolean().optional().describe("set output.failed"),
    exit_code: z.number().int().optional().describe("set output.exitCode"),
  }).strict(),
  mutates: false,
  kind: "execute",
  group: "command",
  invocation: { type: "call" },
  subjects: () => [],
  execute(p) {
    const text = p.repeat > 0 ? `${p.text}\n`.repeat(p.repeat) : p.text;
    return Promise.resolve({ text, failed: p.failed, exitCode: p.exit_code });
  },
});

/** Keeps only lines containing "error" (the shape of a real filter's effect and stats). */
export const keepErrorsHook = {
  name: "filter",
  order: 10,
  apply(result: { text: string; filterStats?: unknown }) {
    const lines = result.text.split("\n");
    const kept = lines.filter((l) => l.includes("error"));
    if (kept.length === lines.length) return;
    result.filterStats = {
      rawLines: lines.length,
      filteredLines: kept.length,
      rawChars: result.text.length,
      filteredChars: kept.join("\n").length,
      confidence: "full",
      rules: ["keep-errors"],
      inline: "",
    };
    result.text = kept.join("\n");
  },
};

export function makeRegistry(
  store: Store | null,
  options: { config?: Config; filter?: boolean } = {},
): ToolRegistry {
  const config = options.config ?? defaultConfig();
  const registry = new ToolRegistry({
    tools: [printTool, readOverflowTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(),
    config,
    deps: { overflow: store },
  });
  if (options.filter) registry.addOutputHook(keepErrorsHook);
  registry.addOutputHook(overflowHook(store, config));
  return registry;
}

/** The scope of one call in the workspace, in `conversationId`. */
export async function scopeFor(conversationId: string | null): Promise<CallScope> {
  return { cwd: Deno.cwd(), sandbox: await Sandbox.create(Deno.cwd()), conversationId };
}
