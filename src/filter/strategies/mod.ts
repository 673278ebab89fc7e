/**
 * The strategies (the spec's nine, plus group_paths, git_log, json, fold_blocks, code_frames, group_by_file, join_runs, largest, git_transfer, join_leaves, syscall_trace, fold_records, fold_passed and fold_samples): one list of config schema and
 * compile function per strategy, from which the rule schema's union and the type names derive.
 * Adding a strategy is its file plus one line in `STRATEGIES`.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy } from "../types.ts";
import { CodeFramesConfig, compileCodeFrames } from "./code_frames.ts";
import { compileDedup, DedupConfig } from "./dedup.ts";
import { compileFoldBlocks, FoldBlocksConfig } from "./fold_blocks.ts";
import { compileFoldPassed, FoldPassedConfig } from "./fold_passed.ts";
import { compileFoldRecords, FoldRecordsConfig } from "./fold_records.ts";
import { compileFoldSamples, FoldSamplesConfig } from "./fold_samples.ts";
import { compileGitDiff, GitDiffConfig } from "./git_diff.ts";
import { compileGitLog, GitLogConfig } from "./git_log.ts";
import { compileGitStatus, GitStatusConfig } from "./git_status.ts";
import { compileGitTransfer, GitTransferConfig } from "./git_transfer.ts";
import { compileGroupByFile, GroupByFileConfig } from "./group_by_file.ts";
import { compileGroupByRule, GroupByRuleConfig } from "./group_by_rule.ts";
import { compileGroupPaths, GroupPathsConfig } from "./group_paths.ts";
import { compileJoinRuns, JoinRunsConfig } from "./join_runs.ts";
import { compileJoinLeaves, JoinLeavesConfig } from "./join_leaves.ts";
import { compileJson, JsonConfig } from "./json.ts";
import { compileKeepMatching, KeepMatchingConfig } from "./keep_matching.ts";
import { compileLargest, LargestConfig } from "./largest.ts";
import { compileStripAnnotated, StripAnnotatedConfig } from "./strip_annotated.ts";
import { compileStripNoise, StripNoiseConfig } from "./strip_noise.ts";
import { compileSyscallTrace, SyscallTraceConfig } from "./syscall_trace.ts";
import { compileTestSummary, TestSummaryConfig } from "./test_summary.ts";
import { compileTruncate, TruncateConfig } from "./truncate.ts";

export {
  anyMatcher,
  carriesFailure,
  CutGap,
  FAILURE_SIGNAL,
  FailureKeeper,
  LOCATION,
  omitted,
  patternField,
  patternList,
  refuseUnknownGroups,
  requireNamedGroups,
  sharedStage,
  SUBJECT_WINDOW,
} from "./_shared.ts";
export { GroupByRuleConfig } from "./group_by_rule.ts";
export {
  documentAmid,
  isObject,
  type Json,
  JsonConfig,
  looksLikeJson,
  pathOf,
  readJsonAsPrinted,
} from "./json.ts";

/** Every strategy: its config schema (a zod object with a literal `type`) and compile step. */
const STRATEGIES = [
  [StripNoiseConfig, compileStripNoise],
  [TruncateConfig, compileTruncate],
  [KeepMatchingConfig, compileKeepMatching],
  [StripAnnotatedConfig, compileStripAnnotated],
  [TestSummaryConfig, compileTestSummary],
  [GroupByRuleConfig, compileGroupByRule],
  [GitStatusConfig, compileGitStatus],
  [GitDiffConfig, compileGitDiff],
  [DedupConfig, compileDedup],
  [GroupPathsConfig, compileGroupPaths],
  [GitLogConfig, compileGitLog],
  [JsonConfig, compileJson],
  [FoldBlocksConfig, compileFoldBlocks],
  [CodeFramesConfig, compileCodeFrames],
  [GroupByFileConfig, compileGroupByFile],
  [JoinRunsConfig, compileJoinRuns],
  [LargestConfig, compileLargest],
  [GitTransferConfig, compileGitTransfer],
  [JoinLeavesConfig, compileJoinLeaves],
  [SyscallTraceConfig, compileSyscallTrace],
  [FoldRecordsConfig, compileFoldRecords],
  [FoldPassedConfig, compileFoldPassed],
  [FoldSamplesConfig, compileFoldSamples],
] as const;

type Schemas<T> = {
  -readonly [K in keyof T]: T[K] extends readonly [infer S, unknown] ? S : never;
};

export const StrategyConfig = z.discriminatedUnion(
  "type",
  STRATEGIES.map(([schema]) => schema) as unknown as Schemas<typeof STRATEGIES>,
);
export type StrategyConfig = z.infer<typeof StrategyConfig>;

/** The strategy type names, in list order (for messages). */
export const STRATEGY_TYPES: readonly StrategyConfig["type"][] = STRATEGIES.map(([schema]) =>
  schema.shape.type.value
);

/** The option keys of a strategy type (its `type` included), or undefined for no such type. */
export function strategyKeys(type: string): readonly string[] | undefined {
  const schema = STRATEGIES.find(([s]) => s.shape.type.value === type)?.[0];
  return schema ? Object.keys(schema.shape) : undefined;
}

type Compile = (config: StrategyConfig, engine: RegexEngine) => CompiledStrategy;
const COMPILE = new Map<string, Compile>(
  STRATEGIES.map(([schema, compile]) => [schema.shape.type.value, compile as Compile]),
);

/**
 * Compiles a validated strategy config, its patterns on `engine`; a bad pattern throws
 * `RuleFieldError`.
 */
export function compileStrategy(config: StrategyConfig, engine: RegexEngine): CompiledStrategy {
  return COMPILE.get(config.type)!(config, engine);
}
