import { expect } from "expect";
import { ConfigError, formatIssue } from "../../src/config/errors.ts";
import { parseConfig } from "../../src/config/load.ts";
import { defaultConfig } from "../../src/config/schema.ts";

Deno.test("[tools.undo]: defaults, values kept, bad values named by key", async () => {
  expect(defaultConfig().tools.undo).toEqual({
    enabled: true,
    max_file_bytes: 1024 * 1024,
    max_conversation_bytes: 64 * 1024 * 1024,
  });
  const loaded = await parseConfig(
    "[tools.undo]\nenabled = false\nmax_file_bytes = 0\nmax_conversation_bytes = 10\n",
    { source: "c.toml" },
  );
  expect(loaded.config.tools.undo).toEqual({
    enabled: false,
    max_file_bytes: 0,
    max_conversation_bytes: 10,
  });
  const error = await parseConfig(
    '[tools.undo]\nenabled = "yes"\nmax_file_bytes = 300000000\nmax_conversation_bytes = -1\n',
    { source: "c.toml" },
  ).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).issues.map(formatIssue).sort()).toEqual([
    'c.toml: tools.undo.enabled: expected a boolean (true or false), found a string "yes"',
    "c.toml: tools.undo.max_conversation_bytes: expected number to be >=0, found an integer -1",
    "c.toml: tools.undo.max_file_bytes: expected at most 268435456 bytes (256 MiB), found an integer 300000000",
  ]);
});
