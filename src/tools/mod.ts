/**
 * The tool system's public surface: defineTool, the registry with its one dispatch boundary,
 * the composable executors and the error taxonomy. This folder owns dispatch order; it must
 * not import the agent, the front-ends or any provider.
 */
export * from "../errors/mod.ts";
export * from "./deps.ts";
export * from "./executors/mod.ts";
export * from "./registry.ts";
export * from "./tool.ts";
