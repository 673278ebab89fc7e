/**
 * Model providers: Claude, OpenAI (and compatible servers), Ollama, and the scripted provider,
 * behind one `Provider` interface, plus the shared retry policy. Adapters translate messages and
 * errors; they never run tools, touch the store or render anything. SDKs are imported on the
 * first request, so start-up does not pay for them. API keys come from the environment only and
 * never appear in messages or logs.
 */
import { type Config, PROVIDER_NAMES, type ProviderName } from "../config/lite.ts";
import { ANTHROPIC_KEY_ENV, AnthropicProvider } from "./anthropic.ts";
import { OllamaProvider } from "./ollama.ts";
import { OPENAI_KEY_ENV, OpenAiProvider } from "./openai.ts";
import type { ProviderOptions } from "./_shared.ts";
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
   * FILE`); `buildProvider` wires it from the loaded script.
   */
  script?: (config: Config) => Provider;
}

/** One entry of the provider list: how to build the adapter and where it connects. */
interface ProviderEntry {
  create(
    config: Config,
    env: (name: string) => string | undefined,
    common: ProviderOptions,
    options: CreateProviderOptions,
  ): Provider;
  /** The address requests go to, for messages about an unreachable provider. */
  endpoint(config: Config): string;
}

/** The factories, one per name of `PROVIDER_NAMES` (config/providers.ts): the type checks both. */
const PROVIDERS: Record<ProviderName, ProviderEntry> = {
  ollama: {
    create: (config, _env, common) => new OllamaProvider(config, common),
    endpoint: (config) => config.llm.ollama.base_url,
  },
  claude: {
    create: (config, env, common) =>
      new AnthropicProvider(config, {
        ...common,
        apiKey: requireKey(env, ANTHROPIC_KEY_ENV, "Claude", "claude"),
      }),
    endpoint: (config) => config.llm.claude.base_url || "https://api.anthropic.com",
  },
  openai: {
    create: (config, env, common) => {
      // A compatible server (llama.cpp, vLLM, LM Studio…) often needs no key; the SDK still
      // wants one, so a placeholder goes out when base_url points elsewhere and none is set.
      const custom = config.llm.openai.base_url !== "";
      const apiKey = custom
        ? (env(OPENAI_KEY_ENV) || "no-key")
        : requireKey(env, OPENAI_KEY_ENV, "OpenAI", "openai");
      return new OpenAiProvider(config, { ...common, apiKey });
    },
    endpoint: (config) => config.llm.openai.base_url || "https://api.openai.com/v1",
  },
  script: {
    create: (config, _env, _common, options) => {
      if (!options.script) {
        throw new ProviderError(
          "Cannot use the scripted provider: no script was given",
          "permanent_failure",
          { hint: "Run with --provider script --script FILE (a JSONL file of model turns)." },
        );
      }
      return options.script(config);
    },
    endpoint: () => "(script)",
  },
};

/**
 * The provider `[llm] provider` selects. Throws a ProviderError (category policy_blocked) before
 * any request when a required API key is missing.
 */
export function createProvider(config: Config, options: CreateProviderOptions = {}): Provider {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const common = { fetch: options.fetch, onRetry: options.onRetry };
  return providerEntry(config.llm.provider).create(config, env, common, options);
}

/** The factory of `name`, looked up as an own property (a name like "constructor" is no provider). */
function providerEntry(name: string): ProviderEntry {
  if (!Object.hasOwn(PROVIDERS, name)) {
    throw new ProviderChoiceError(
      `Unknown provider "${name}". Use one of: ${PROVIDER_NAMES.join(", ")}.`,
    );
  }
  return PROVIDERS[name as ProviderName];
}

/** Where the provider `name` sends its requests under `config`. */
export function providerEndpoint(config: Config, name: ProviderName): string {
  return providerEntry(name).endpoint(config);
}

/** The command line's override of `[llm]`: `--provider`, `--model`, `--script`, `--legacy`. */
export interface ProviderChoice {
  provider?: string;
  model?: string;
  /** A JSONL script of model turns; implies the scripted provider. */
  script?: string;
  /** The scripted provider without native tool use (the legacy text path). */
  legacy?: boolean;
}

/** A provider choice that cannot work (unknown name, a bad or missing script): a usage error. */
export class ProviderChoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderChoiceError";
  }
}

/**
 * The provider `config` and `choice` select, its script loaded. The choice is written into
 * `config` (`[llm] provider`, the model), so callers pass a copy and read the outcome from it.
 * Throws ProviderChoiceError for a usage mistake and ProviderError for a missing API key.
 */
export async function buildProvider(
  config: Config,
  choice: ProviderChoice,
  options: CreateProviderOptions = {},
): Promise<Provider> {
  if (choice.script) config.llm.provider = "script";
  if (choice.provider) {
    if (!(PROVIDER_NAMES as readonly string[]).includes(choice.provider)) {
      throw new ProviderChoiceError(
        `Unknown provider "${choice.provider}". Use one of: ${PROVIDER_NAMES.join(", ")}.`,
      );
    }
    if (choice.script && choice.provider !== "script") {
      throw new ProviderChoiceError(
        `--script replays a scripted model, but --provider is "${choice.provider}": ` +
          "drop --script, or use --provider script (which --script implies).",
      );
    }
    config.llm.provider = choice.provider as ProviderName;
  }
  if (choice.model) {
    const p = config.llm.provider;
    if (p !== "script") config.llm[p].model = choice.model;
  }
  if (choice.legacy && config.llm.provider !== "script") {
    throw new ProviderChoiceError(
      "--legacy applies to the scripted provider; for Ollama set [llm.ollama] tool_use = false.",
    );
  }
  if (config.llm.provider !== "script") return createProvider(config, options);
  if (!choice.script) {
    throw new ProviderChoiceError(
      "The scripted provider needs a script: pass --script FILE (a JSONL file of model " +
        'turns; see README "## Scripted provider").',
    );
  }
  const { loadScript, ScriptError, ScriptProvider } = await import("./script.ts");
  let script: import("./script.ts").Script;
  try {
    script = await loadScript(choice.script);
  } catch (error) {
    if (error instanceof ScriptError) throw new ProviderChoiceError(error.message);
    throw error;
  }
  const supportsToolUse = choice.legacy ? false : undefined;
  return createProvider(config, {
    ...options,
    script: () => new ScriptProvider(script, { supportsToolUse }),
  });
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
