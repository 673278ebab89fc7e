/** The policy of issue 16's peer runs: only read-only programs are allowed. */
import type { PermissionRuleConfig } from "../../src/config/schema.ts";

const READ_ONLY = ["cat", "echo", "grep", "sed", "find", "rg", "awk", "head", "tail", "ls", "wc"];

/** Only read-only programs (and `git status/log/diff/show/branch*`); `rm -rf*` denied. */
export const READ_ONLY_RULES: PermissionRuleConfig[] = [
  { pattern: "rm -rf*", action: "deny" },
  ...READ_ONLY.flatMap((p): PermissionRuleConfig[] => [
    { pattern: p, action: "allow" },
    { pattern: `${p} *`, action: "allow" },
  ]),
  ...["status", "log", "diff", "show", "branch"].map((s): PermissionRuleConfig => ({
    pattern: `git ${s}*`,
    action: "allow",
  })),
];
