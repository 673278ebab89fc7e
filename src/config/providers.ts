/**
 * The model providers, the one list: `[llm] provider` accepts these names, the CLI's `--provider`
 * lists them, and provider/mod.ts keeps one factory per name (its type requires every one).
 * Free of zod, so the CLI's `--help` can list them without loading the schema.
 */
export const PROVIDER_NAMES = ["ollama", "claude", "openai", "script"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
