/**
 * Output filters: the declarative rule engine that shrinks command output before the model
 * reads it (sanitise → matching rules in sequence → security pass), its strategies (the spec's
 * nine plus group_paths and git_log), and the loader for built-in (`filters/*.toml`) and user
 * rules. It must not run commands, talk to the model or decide permissions: it only rewrites text
 * handed to it (main.ts wires `filterToolOutput` as the registry's output hook). It imports
 * nothing from tools/.
 */
export {
  type EngineOptions,
  FilterCounters,
  FilterEngine,
  type FilterOutcome,
  type StageTrace,
} from "./engine.ts";
export { explainFilter } from "./explain.ts";
export { describeRules } from "./describe_rules.ts";
export { describeStrategy, listStrategies } from "./strategy_help.ts";
export { type FilterableResult, filterToolOutput } from "./hook.ts";
export {
  BUILTIN_FILTERS_DIR,
  dropsConfigured,
  filtersConfigDir,
  loadBuiltinRules,
  loadFilterEngine,
  type LoadOptions,
  MAX_FILTERS_FILE_BYTES,
  mergeUserRules,
  parseRuleFile,
  userFilePath,
} from "./load.ts";
export {
  type CompiledRule,
  compileRule,
  type CompileRuleOptions,
  MatchConfig,
  RuleConfig,
  RuleError,
} from "./rule.ts";
export {
  compilePattern,
  MAX_PATTERN_LENGTH,
  type Pattern,
  PatternError,
  type RegexEngine,
  v8Form,
} from "./regex.ts";
export { matchCandidates } from "./command.ts";
export { countLines, sanitize, stripAnsi } from "./sanitize.ts";
export {
  isMarker,
  keepAsPrinted,
  KeptLines,
  type Kind,
  kindOf,
  normalLine,
  type Restore,
} from "./verbatim.ts";
export { compileExtraPatterns, SecurityScanner } from "./security.ts";
export { STRATEGY_TYPES, StrategyConfig } from "./strategies/mod.ts";
export { type Confidence, type FilterStats, worstConfidence } from "./types.ts";
