import { expect } from "expect";
import * as path from "node:path";
import { ConfigError } from "../../src/config/errors.ts";
import { loadConfig } from "../../src/config/load.ts";
import { MAX_POLICY_FILE_BYTES } from "../../src/config/policy_file.ts";

async function withConfig(
  files: Record<string, string>,
  fn: (configPath: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(path.join(dir, name), text);
    }
    await fn(path.join(dir, "config.toml"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function loadError(configPath: string): Promise<string> {
  try {
    await loadConfig({ path: configPath, env: {} });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const POLICY = '[tools.policy]\nenabled = true\npolicy_file = "policy.toml"\n' +
  '[[tools.policy.rules]]\neffect = "allow"\ntool = "inline"\n';

Deno.test("policy_file replaces the inline rules; it is read relative to the config file", async () => {
  await withConfig({
    "config.toml": POLICY,
    "policy.toml": '[[rules]]\neffect = "deny"\ntool = "bash"\nargs_match = "sudo"\n',
  }, async (configPath) => {
    const loaded = await loadConfig({ path: configPath, env: {} });
    expect(loaded.config.tools.policy.rules).toEqual([
      { effect: "deny", tool: "bash", args_match: "sudo", paths: [], env: [] },
    ]);
  });
});

Deno.test("a disabled policy does not read its file", async () => {
  await withConfig({
    "config.toml": '[tools.policy]\npolicy_file = "nowhere.toml"\n',
  }, async (configPath) => {
    const loaded = await loadConfig({ path: configPath, env: {} });
    expect(loaded.config.tools.policy.rules).toEqual([]);
  });
});

Deno.test("policy file errors name the file or the key and say what to do", async () => {
  const cases: [Record<string, string>, (dir: string) => string][] = [
    [
      { "config.toml": POLICY },
      (dir) =>
        `Invalid configuration: ${dir}/config.toml: tools.policy.policy_file: Cannot read the ` +
        `policy file "${dir}/policy.toml": not found. Fix the path, or clear policy_file to use ` +
        "the inline rules.",
    ],
    [
      { "config.toml": POLICY, "policy.toml": "x".repeat(MAX_POLICY_FILE_BYTES + 1) },
      (dir) => `"${dir}/policy.toml": 262145 bytes, larger than the 256 KiB limit.`,
    ],
    [
      {
        "config.toml": POLICY,
        "policy.toml": '[[rules]]\neffect = "deny"\ntool = "bash"\nargs_match = "(?=x)"\n',
      },
      (dir) => `${dir}/policy.toml: rules[0].args_match: not a valid RE2 regex`,
    ],
    [
      { "config.toml": POLICY, "policy.toml": '[[rules]]\neffect = "block"\ntool = "bash"\n' },
      (dir) => `${dir}/policy.toml: rules[0].effect:`,
    ],
    [
      { "config.toml": POLICY, "policy.toml": '[[rule]]\neffect = "deny"\ntool = "bash"\n' },
      (dir) => `${dir}/policy.toml: (root): unknown key(s) "rule"; a policy file holds [[rules]]`,
    ],
    [
      { "config.toml": POLICY, "policy.toml": "[[rules]\n" },
      (dir) => `${dir}/policy.toml:1:`,
    ],
  ];
  for (const [files, expected] of cases) {
    await withConfig(files, async (configPath) => {
      const dir = path.dirname(configPath);
      expect(await loadError(configPath)).toContain(expected(dir));
    });
  }
});

Deno.test("inline rules are validated with the key named", async () => {
  const cases: [string, string][] = [
    [
      '[[tools.policy.rules]]\neffect = "deny"\ntool = "bash"\nargs_match = "a\\\\1"\n',
      "tools.policy.rules[0].args_match: not a valid RE2 regex",
    ],
    ['[[tools.authorization.rules]]\neffect = "deny"\n', "tools.authorization.rules[0].tool:"],
    ["[tools.anomaly]\nfailure_threshold = 1.5\n", "tools.anomaly.failure_threshold:"],
    ["[tools.anomaly]\nwindow_size = 0\n", "tools.anomaly.window_size:"],
    ["[tools.result_cache]\nttl_secs = -1\n", "tools.result_cache.ttl_secs:"],
    [
      '[tools.policy]\ndefault_effect = "ask"\n',
      'tools.policy.default_effect: expected one of "allow", "deny"',
    ],
  ];
  for (const [toml, expected] of cases) {
    await withConfig({ "config.toml": toml }, async (configPath) => {
      expect(await loadError(configPath)).toContain(expected);
    });
  }
});
