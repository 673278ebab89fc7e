import { expect } from "expect";
import * as path from "node:path";
import { Config, PROVIDER_NAMES } from "../../src/config/mod.ts";
import { buildProvider, type ProviderChoice, providerEndpoint } from "../../src/provider/mod.ts";

const NO_KEYS = { env: () => undefined };

async function failure(choice: ProviderChoice, llm: Record<string, unknown> = {}) {
  try {
    await buildProvider(Config.parse({ llm }), choice, NO_KEYS);
  } catch (error) {
    return { type: (error as Error).name, message: (error as Error).message };
  }
  throw new Error("buildProvider did not fail");
}

Deno.test("the provider list: the schema accepts every name and no other", () => {
  for (const name of PROVIDER_NAMES) {
    expect(Config.parse({ llm: { provider: name } }).llm.provider).toBe(name);
  }
  expect(Config.safeParse({ llm: { provider: "gemini" } }).success).toBe(false);
});

Deno.test("buildProvider: the choice overrides [llm] and is written into the config", async () => {
  const config = Config.parse({ llm: { provider: "claude" } });
  const provider = await buildProvider(config, { provider: "ollama", model: "m1" }, NO_KEYS);
  expect([provider.name, provider.model, config.llm.provider]).toEqual(["ollama", "m1", "ollama"]);
  expect(providerEndpoint(config, "ollama")).toBe("http://127.0.0.1:11434");
  expect(providerEndpoint(config, "claude")).toBe("https://api.anthropic.com");
});

Deno.test("buildProvider: a script implies the scripted provider; --legacy turns off tool use", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = path.join(dir, "s.jsonl");
    await Deno.writeTextFile(file, '{"text": "hi"}\n');
    const config = Config.parse({});
    const provider = await buildProvider(config, { script: file, legacy: true }, NO_KEYS);
    expect([provider.name, provider.supportsToolUse, config.llm.provider]).toEqual([
      "script",
      false,
      "script",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildProvider: usage mistakes are ProviderChoiceErrors; a missing key a ProviderError", async () => {
  const cases: [ProviderChoice, Record<string, unknown>, { type: string; message: string }][] = [
    [{ provider: "gpt" }, {}, {
      type: "ProviderChoiceError",
      message: 'Unknown provider "gpt". Use one of: ollama, claude, openai, script.',
    }],
    [{ legacy: true }, {}, {
      type: "ProviderChoiceError",
      message:
        "--legacy applies to the scripted provider; for Ollama set [llm.ollama] tool_use = false.",
    }],
    [{ provider: "ollama", script: "s.jsonl" }, {}, {
      type: "ProviderChoiceError",
      message: '--script replays a scripted model, but --provider is "ollama": ' +
        "drop --script, or use --provider script (which --script implies).",
    }],
    [{ provider: "script" }, {}, {
      type: "ProviderChoiceError",
      message: "The scripted provider needs a script: pass --script FILE (a JSONL file of model " +
        'turns; see README "## Scripted provider").',
    }],
    [{}, { provider: "claude" }, {
      type: "ProviderError",
      message: "Cannot use Claude: the environment variable ANTHROPIC_API_KEY is not set",
    }],
  ];
  for (const [choice, llm, expected] of cases) expect(await failure(choice, llm)).toEqual(expected);
});
