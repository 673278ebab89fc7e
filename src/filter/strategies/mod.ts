/**
 * The strategies (the spec's nine, plus group_paths and git_log): config schemas (one union) and
 * compile functions.
 */
import { z } from "zod";
import type { CompiledStrategy } from "../types.ts";
import { compileDedup, DedupConfig } from "./dedup.ts";
import { compileGitDiff, GitDiffConfig } from "./git_diff.ts";
import { compileGitLog, GitLogConfig } from "./git_log.ts";
import { compileGitStatus, GitStatusConfig } from "./git_status.ts";
import { compileGroupByRule, GroupByRuleConfig } from "./group_by_rule.ts";
import { compileGroupPaths, GroupPathsConfig } from "./group_paths.ts";
import { compileKeepMatching, KeepMatchingConfig } from "./keep_matching.ts";
import { compileStripAnnotated, StripAnnotatedConfig } from "./strip_annotated.ts";
import { compileStripNoise, StripNoiseConfig } from "./strip_noise.ts";
import { compileTestSummary, TestSummaryConfig } from "./test_summary.ts";
import { compileTruncate, TruncateConfig } from "./truncate.ts";

export { DEFAULT_NORMALIZERS } from "./dedup.ts";

export const STRATEGY_TYPES = [
  "strip_noise",
  "truncate",
  "keep_matching",
  "strip_annotated",
  "test_summary",
  "group_by_rule",
  "git_status",
  "git_diff",
  "dedup",
  "group_paths",
  "git_log",
] as const;

export const StrategyConfig = z.discriminatedUnion("type", [
  StripNoiseConfig,
  TruncateConfig,
  KeepMatchingConfig,
  StripAnnotatedConfig,
  TestSummaryConfig,
  GroupByRuleConfig,
  GitStatusConfig,
  GitDiffConfig,
  DedupConfig,
  GroupPathsConfig,
  GitLogConfig,
]);
export type StrategyConfig = z.infer<typeof StrategyConfig>;

/** Compiles a validated strategy config; a bad pattern throws `RuleFieldError`. */
export function compileStrategy(config: StrategyConfig): CompiledStrategy {
  switch (config.type) {
    case "strip_noise":
      return compileStripNoise(config);
    case "truncate":
      return compileTruncate(config);
    case "keep_matching":
      return compileKeepMatching(config);
    case "strip_annotated":
      return compileStripAnnotated(config);
    case "test_summary":
      return compileTestSummary(config);
    case "group_by_rule":
      return compileGroupByRule(config);
    case "git_status":
      return compileGitStatus(config);
    case "git_diff":
      return compileGitDiff(config);
    case "dedup":
      return compileDedup(config);
    case "group_paths":
      return compileGroupPaths(config);
    case "git_log":
      return compileGitLog(config);
  }
}
