/**
 * Permissions: the config's allow/ask/deny rules compiled to globs and evaluated per call
 * (policy.ts), with analysers per tool. The bash analyser (shell.ts: parsing, danger checks,
 * rule matching) is this folder's second entry point, imported where it is installed or first
 * used, so loading the policy does not load the parser. It decides; it never runs a command,
 * asks the user or imports tools.
 */
export {
  type CompiledProtected,
  compileProtected,
  fileWords,
  protectedMatch,
} from "./_command_tables.ts";
export { type CompiledGlob, compileGlob, escapeGlob } from "./glob.ts";
export {
  type DecideOptions,
  type Decision,
  legacyShellRules,
  mostRestrictive,
  type PermissionAnalyzer,
  PermissionPolicy,
  type PolicyTool,
} from "./policy.ts";
export { flagSpellings, permissionRuleWarnings } from "./rule_warnings.ts";
export type {
  AnalyzeOptions,
  EffectKind,
  ShellAnalysis,
  ShellPermissionSettings,
  SimpleCommand,
} from "./shell.ts";
