/**
 * The config's constants and helpers that need no zod: the permission layer and the config loader
 * use them without loading the schema, which a call with nothing to validate never builds.
 */

/** A rule of `[tools.permissions]` (the schema's PermissionRuleConfig; no import: it loads zod). */
interface PermissionRule {
  pattern: string;
  action: "allow" | "ask" | "deny";
}

/**
 * Timeouts are capped at 24 h: a timer holds at most 2^31-1 ms (about 24.8 days) and a longer one
 * fires at once, so a larger value would time every command out immediately.
 */
export const MAX_TIMEOUT_SECS = 86_400;
/**
 * Byte limits of data held in memory are capped at 256 MiB, well inside what one V8 string or
 * buffer can hold.
 */
export const MAX_BUFFER_BYTES = 256 * 1024 * 1024;

/** Defaults of the reference implementation (lowercase substrings in its legacy form). */
export const DEFAULT_CONFIRM_PATTERNS = [
  "rm ",
  "git push -f",
  "git push --force",
  "drop table",
  "drop database",
  "truncate ",
  "$(",
  "`",
  "<(",
  ">(",
  "<<<",
  "eval ",
];

export const DEFAULT_BLOCKED_COMMANDS = [
  "rm -rf /",
  "sudo",
  "mkfs",
  "dd if=",
  "curl",
  "wget",
  "nc ",
  "ncat",
  "netcat",
  "shutdown",
  "reboot",
  "halt",
];

export const DEFAULT_ENV_BLOCKLIST = [
  "ZEPH_",
  "AWS_",
  "AZURE_",
  "GCP_",
  "GOOGLE_",
  "OPENAI_",
  "ANTHROPIC_",
  "HF_",
  "HUGGING",
];

/**
 * Workspace paths whose content some program later runs or trusts (git's config, attributes and
 * hooks; editor, MCP and direnv settings; shell start-up files): writing them is never
 * auto-allowed. Globs relative to the workspace, matched like permission rules.
 */
export const DEFAULT_PROTECTED_PATHS = [
  ".git/**",
  ".gitattributes",
  ".gitmodules",
  ".zeph/**",
  ".mcp.json",
  ".vscode/settings.json",
  ".envrc",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".inputrc",
];

/** `[tools.permissions]` keys that are settings, not a tool's rule list. */
export const PERMISSION_SETTINGS = ["autonomy", "protected_paths"] as const;

/**
 * The rule lists of `[tools.permissions]` by tool id, or null when there are none (then the
 * legacy `[tools.shell]` blocked_commands/confirm_patterns apply, as the spec says).
 */
export function permissionRules(
  permissions: Readonly<Record<string, unknown>>,
): Record<string, PermissionRule[]> | null {
  const settings = new Set<string>(PERMISSION_SETTINGS);
  const entries = Object.entries(permissions).filter(([k]) => !settings.has(k));
  return entries.length ? Object.fromEntries(entries) as Record<string, PermissionRule[]> : null;
}
