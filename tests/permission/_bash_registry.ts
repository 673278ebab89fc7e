/**
 * The real bash tool behind `config`'s permission policy with the shell analyser installed, as
 * main.ts wires them: the registry the dispatch-level permission tests run commands through.
 */
import type { Config } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { analyzeShell, installShellAnalyzer } from "../../src/permission/shell.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";

export function bashRegistry(config: Config): { policy: PermissionPolicy; registry: ToolRegistry } {
  const policy = PermissionPolicy.fromConfig(config);
  installShellAnalyzer(policy, config);
  const registry = new ToolRegistry({
    tools: [bashTool],
    executor: new LocalExecutor(),
    policy,
    config,
    deps: { analyzeShell },
  });
  return { policy, registry };
}
