/**
 * `[tools.policy] policy_file`: a TOML file of `[[rules]]` that replaces the inline rules (spec).
 * Read with the bounded loader (a regular file, at most 256 KiB, UTF-8), validated with the same
 * rule schema, so every problem names the file and the rule's key.
 */
import * as path from "node:path";
import { readBoundedTextFile, UnreadableFileError } from "./bounded_file.ts";
import { ConfigError, type ConfigIssue } from "./errors.ts";
import type { Config } from "./schema.ts";

/** Largest policy file read (spec: 256 KiB). */
export const MAX_POLICY_FILE_BYTES = 256 * 1024;

/**
 * Loads `policy_file` into `config.tools.policy.rules` when the policy is enabled and the key is
 * set; a relative path resolves against the config file's directory (else the process cwd).
 */
export async function applyPolicyFile(config: Config, configPath: string | null): Promise<void> {
  const policy = config.tools.policy;
  const file = policy.policy_file.trim();
  if (!policy.enabled || file === "") return;
  const base = configPath ? path.dirname(configPath) : Deno.cwd();
  const resolved = path.resolve(base, file);
  const issue = (message: string, key = "tools.policy.policy_file"): ConfigIssue => ({
    source: configPath ?? "(defaults)",
    key,
    message,
  });
  let text: string;
  try {
    text = await readBoundedTextFile(resolved, {
      maxBytes: MAX_POLICY_FILE_BYTES,
      what: "the policy file",
    });
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    const hint = error.kind === "not-found"
      ? " Fix the path, or clear policy_file to use the inline rules."
      : "";
    throw new ConfigError([issue(`${error.message}${hint}`)]);
  }
  const { parse, TomlError } = await import("smol-toml");
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.replace(/^Invalid TOML document:\s*/, "").split("\n")[0];
    throw new ConfigError([{
      source: resolved,
      line: error.line,
      column: error.column,
      message: `TOML syntax error in the policy file: ${reason}`,
    }]);
  }
  // Its schema loads only here: a config without a policy file never builds it.
  const { PolicyFile } = await import("./tool_guards.ts");
  const parsed = PolicyFile.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => ({
      source: resolved,
      key: i.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`).join("")
        .replace(/^\./, "") || "(root)",
      message: i.code === "unrecognized_keys"
        ? `unknown key(s) ${i.keys.map((k) => `"${k}"`).join(", ")}; a policy file holds ` +
          "[[rules]] tables with effect, tool, paths, args_match and env"
        : i.message,
    })));
  }
  policy.rules = parsed.data.rules;
}
