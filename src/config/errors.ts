/** Config errors addressed to the user: each names the file, line/column or key, and the fix. */
import { maskUrlPasswords } from "../secrets/mod.ts";

export interface ConfigIssue {
  /** The config file, or the environment variable, the problem comes from. */
  source: string;
  /** Dotted key path (`tools.shell.timeout`), when the problem is about one key. */
  key?: string;
  line?: number;
  column?: number;
  message: string;
}

export function formatIssue(issue: ConfigIssue): string {
  return maskUrlPasswords(formatIssueUnmasked(issue));
}

function formatIssueUnmasked(issue: ConfigIssue): string {
  const where = issue.line !== undefined
    ? `${issue.source}:${issue.line}:${issue.column ?? 1}`
    : issue.source;
  const key = issue.key ? ` ${issue.key}:` : "";
  return `${where}:${key} ${issue.message}`;
}

/** The config cannot be used; every problem found is listed (not only the first). */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    super(
      issues.length === 1
        ? `Invalid configuration: ${formatIssue(issues[0])}`
        : `Invalid configuration:\n${issues.map((i) => `  ${formatIssue(i)}`).join("\n")}`,
    );
    this.name = "ConfigError";
    this.issues = issues;
  }
}
