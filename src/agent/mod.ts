/**
 * The agent: a session (conversation, policy with session rules, quota) and the tool loop that
 * drives a provider through the registry's dispatch boundary, with its safety limits. It emits
 * events and never renders, prompts or reads argv: front-ends (cli/, acp/) do that.
 */
export * from "./events.ts";
export * from "./legacy.ts";
export * from "./limits.ts";
export { type PromptOptions, runTurn, type TurnSession } from "./loop.ts";
export * from "./session.ts";
export * from "./tool_selection.ts";
