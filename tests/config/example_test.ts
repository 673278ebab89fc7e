// config.example.toml is part of the product: it must load, equal the defaults, and list every key.
import { expect } from "expect";
import * as path from "node:path";
import { parse } from "smol-toml";
import { configKeyPaths } from "../../src/config/keys.ts";
import { loadConfig } from "../../src/config/load.ts";
import { defaultConfig } from "../../src/config/schema.ts";

const EXAMPLE = path.join(import.meta.dirname!, "..", "..", "config.example.toml");

Deno.test("config.example.toml loads without warnings and equals defaultConfig()", async () => {
  const loaded = await loadConfig({ path: EXAMPLE, env: {} });
  expect(loaded.warnings).toEqual([]);
  expect(loaded.config).toEqual(defaultConfig());
});

Deno.test("config.example.toml lists every schema key (permissions as a commented example)", async () => {
  const text = await Deno.readTextFile(EXAMPLE);
  const raw = parse(text) as Record<string, unknown>;
  const missing = configKeyPaths().filter((key) => {
    if (key === "tools.permissions") return !/^# \[\[tools\.permissions\.bash\]\]$/m.test(text);
    if (key === "tools.permissions.protected_paths") {
      return !/^# protected_paths = \[.*\] # \S/m.test(text);
    }
    let current: unknown = raw;
    for (const k of key.split(".")) {
      if (typeof current !== "object" || current === null || !(k in current)) return true;
      current = (current as Record<string, unknown>)[k];
    }
    return false;
  });
  expect(missing).toEqual([]);
});

Deno.test("every key line of config.example.toml carries a comment", async () => {
  const text = await Deno.readTextFile(EXAMPLE);
  const uncommented = text.split("\n")
    .filter((line) => /^[a-z_]+ = /.test(line))
    .filter((line) => !/\s# \S/.test(line));
  expect(uncommented).toEqual([]);
});

Deno.test("configKeyPaths walks nested tables and treats rule maps as one key", () => {
  const keys = configKeyPaths();
  expect(keys).toContain("agent.max_tool_iterations");
  expect(keys).toContain("tools.filters.security.extra_patterns");
  expect(keys).toContain("tools.permissions");
  expect(keys.filter((k) => k.startsWith("tools.permissions"))).toEqual([
    "tools.permissions",
    "tools.permissions.protected_paths",
  ]);
});
