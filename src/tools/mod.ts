/**
 * The tool system's public surface: defineTool and the typed tool context, the registry with its
 * one dispatch boundary, the real tool deps, the composable executors and undo of file changes
 * (the record hook and the restore); the error taxonomy (src/errors/) is re-exported for tools.
 * This folder owns dispatch order; it must not import the agent or the front-ends, and of
 * provider/ it knows only the type of a tool as the model sees it.
 */
export * from "../errors/mod.ts";
export * from "./ask_reply.ts";
export * from "./deps.ts";
export * from "./executors/mod.ts";
export * from "./modes.ts";
export * from "./registry.ts";
export * from "./tafc.ts";
export * from "./tool.ts";
export { type AnomalyAlert, AnomalyDetector, countedOutcome } from "./anomaly.ts";
export { PolicyEnforcer, policyRuleWarnings, type PolicyVerdict } from "./policy_rules.ts";
export { cacheKey, ResultCache } from "./result_cache.ts";
export { SessionGuards } from "./session_guards.ts";
export * from "./undo.ts";
export { BUILTIN_TOOL_IDS, loadBuiltinTool } from "./tool_loaders.ts";
export { unifiedDiff } from "./_diff.ts";
