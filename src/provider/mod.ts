/**
 * Model providers: Claude, OpenAI (and compatible servers), Ollama, and the scripted provider,
 * behind one `Provider` interface, plus the shared retry policy. Adapters translate messages and
 * errors; they never run tools, touch the store or render anything. SDKs are imported on the
 * first request, so start-up does not pay for them. API keys come from the environment only and
 * never appear in messages or logs.
 */
import type { Config } from "../config/schema.ts";
import { ANTHROPIC_KEY_ENV, AnthropicProvider } from "./anthropic.ts";
import { OllamaProvider } from "./ollama.ts";
import { OPENAI_KEY_ENV, OpenAiProvider } from "./openai.ts";
import { type Provider, ProviderError, type RetryNotice } from "./types.ts";

export * from "./types.ts";
export { backoffDelay, type RetryOptions, sleep, withRetry } from "./retry.ts";
export { ANTHROPIC_KEY_ENV, AnthropicProvider } from "./anthropic.ts";
export { OPENAI_KEY_ENV, OpenAiProvider } from "./openai.ts";
export { OllamaProvider } from "./ollama.ts";

export interface CreateProviderOptions {
  /** Reads an environment variable. @default Deno.env.get */
  env?: (name: string) => string | undefined;
  /** The fetch the SDKs use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Called before each retry when the request itself has no `onRetry`. */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * Builds the scripted provider for `[llm] provider = "script"` (`--provider script --script
   * FILE`); the agent wires it here so this folder does not depend on the script reader.
   */
  script?: (config: Config) => Provider;
}

/**
 * The provider `[llm] provider` selects. Throws a ProviderError (category policy_blocked) before
 * any request when a required API key is missing.
 */
export function createProvider(config: Config, options: CreateProviderOptions = {}): Provider {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const common = { fetch: options.fetch, onRetry: options.onRetry };
  switch (config.llm.provider) {
    case "ollama":
      return new OllamaProvider(config, common);
    case "claude":
      return new AnthropicProvider(config, {
        ...common,
        apiKey: requireKey(env, ANTHROPIC_KEY_ENV, "Claude", "claude"),
      });
    case "openai": {
      // A compatible server (llama.cpp, vLLM, LM Studio…) often needs no key; the SDK still
      // wants one, so a placeholder goes out when base_url points elsewhere and none is set.
      const custom = config.llm.openai.base_url !== "";
      const apiKey = custom
        ? (env(OPENAI_KEY_ENV) || "no-key")
        : requireKey(env, OPENAI_KEY_ENV, "OpenAI", "openai");
      return new OpenAiProvider(config, { ...common, apiKey });
    }
    case "script":
      if (!options.script) {
        throw new ProviderError(
          "Cannot use the scripted provider: no script was given",
          "permanent_failure",
          { hint: "Run with --provider script --script FILE (a JSONL file of model turns)." },
        );
      }
      return options.script(config);
  }
}

function requireKey(
  env: (name: string) => string | undefined,
  name: string,
  provider: string,
  section: string,
): string {
  const key = env(name)?.trim();
  if (key) return key;
  throw new ProviderError(
    `Cannot use ${provider}: the environment variable ${name} is not set`,
    "policy_blocked",
    {
      retryable: false,
      hint: `Export ${name}=<your key>, or set [llm] provider = "ollama" in config.toml ` +
        `to use a local model (current: [llm] provider = "${section}").`,
    },
  );
}
