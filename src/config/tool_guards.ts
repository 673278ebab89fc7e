/**
 * The schema of the session guards around tool dispatch: `[tools.result_cache]`,
 * `[tools.anomaly]`, `[tools.policy]` and `[tools.authorization]` (spec "Tool Result Cache",
 * "Anomaly detection", "OAP Authorization Config"). Kept apart from schema.ts, which imports it.
 */
import { RE2JS } from "re2js";
import { z } from "zod";

/** Longest `args_match` pattern: the regex gate's limit (src/filter/regex.ts). */
export const MAX_ARGS_MATCH_LENGTH = 512;
/** Most rules `[tools.policy]` and `[tools.authorization]` hold together (spec: 256). */
export const MAX_POLICY_RULES = 256;

export const ResultCacheConfig = z.object({
  enabled: z.boolean().default(true),
  /** Seconds an entry lives; 0 means no expiry. */
  ttl_secs: z.number().int().min(0).max(86_400).default(300),
}).strict();

export const AnomalyConfig = z.object({
  enabled: z.boolean().default(true),
  window_size: z.number().int().min(1).max(1000).default(20),
  failure_threshold: z.number().min(0).max(1).default(0.7),
  auto_block: z.boolean().default(true),
}).strict();

/** A regex the linear-time engine (RE2) accepts: checked when the config loads. */
const ArgsMatch = z.string().min(1).max(MAX_ARGS_MATCH_LENGTH).superRefine((source, ctx) => {
  try {
    RE2JS.compile(source);
  } catch (error) {
    ctx.addIssue({
      code: "custom",
      message: `not a valid RE2 regex (${(error as Error).message}); lookaround and ` +
        "backreferences are not supported",
    });
  }
});

export const PolicyRuleConfig = z.object({
  effect: z.enum(["allow", "deny"]),
  /** Glob on the tool id (`bash`, `read`, `*`); `shell` and `sh` also name bash. */
  tool: z.string().min(1),
  /** Globs on the call's canonical absolute paths; the rule matches when any path matches any. */
  paths: z.array(z.string().min(1)).default([]),
  /** RE2 regex searched in every string argument; the rule matches when one contains a match. */
  args_match: ArgsMatch.optional(),
  /** Environment variable names that must all be set for the rule to apply. */
  env: z.array(z.string().min(1)).default([]),
}).strict();
export type PolicyRuleConfig = z.infer<typeof PolicyRuleConfig>;

const PolicyRules = z.array(PolicyRuleConfig).max(MAX_POLICY_RULES);

export const PolicyConfig = z.object({
  enabled: z.boolean().default(false),
  /** What a call no rule matches gets. */
  default_effect: z.enum(["allow", "deny"]).default("deny"),
  rules: PolicyRules.default([]),
  /** A TOML file of `[[rules]]` (≤ 256 KiB) that replaces `rules`; relative to the config file. */
  policy_file: z.string().default(""),
}).strict();

export const AuthorizationConfig = z.object({
  enabled: z.boolean().default(false),
  rules: PolicyRules.default([]),
}).strict();

/** The shape of a `policy_file`: `[[rules]]` tables only. */
export const PolicyFile = z.object({ rules: PolicyRules.default([]) }).strict();

export type ResultCacheConfig = z.infer<typeof ResultCacheConfig>;
export type AnomalyConfig = z.infer<typeof AnomalyConfig>;
export type PolicyConfig = z.infer<typeof PolicyConfig>;
export type AuthorizationConfig = z.infer<typeof AuthorizationConfig>;
