/**
 * src/config/defaults.ts holds the config a run with nothing to validate gets (no file keys, no
 * `ZEPH_*` override) without building the zod schema. It must equal the schema's defaults:
 * after a default changes, regenerate it with
 * `ZEPH_UPDATE_GOLDEN=1 deno test -A tests/config/defaults_test.ts` and review the diff.
 */
import { expect } from "expect";
import { defaultsSnapshot } from "../../src/config/defaults.ts";
import { Config } from "../../src/config/schema.ts";

const FILE = new URL("../../src/config/defaults.ts", import.meta.url);

/** The module text for the schema's current defaults. */
function render(defaults: unknown): string {
  return `/**
 * The config the schema gives for no keys at all (\`Config.parse({})\`), so a run with nothing to
 * validate does not build the schema. Generated: \`ZEPH_UPDATE_GOLDEN=1 deno test -A
 * tests/config/defaults_test.ts\` rewrites it, and that test fails when it differs from the schema.
 */
import type { Config } from "./schema.ts";

/**
 * A fresh copy of the defaults on every call: callers may change the config they get. (The cast:
 * TypeScript cannot type the permission table's settings beside its rule lists; the test checks
 * the value.)
 */
export function defaultsSnapshot(): Config {
  return ${JSON.stringify(defaults, null, 2)} as unknown as Config;
}
`;
}

Deno.test("defaults.ts equals the schema's defaults", async () => {
  const defaults = Config.parse({});
  if (Deno.env.get("ZEPH_UPDATE_GOLDEN") === "1") {
    await Deno.writeTextFile(FILE, render(defaults));
    await new Deno.Command(Deno.execPath(), { args: ["fmt", FILE.pathname] }).output();
  }
  // Through JSON: the snapshot holds only what JSON can, so a default it cannot hold fails here.
  const stale = "src/config/defaults.ts differs from the schema's defaults; regenerate it with " +
    "ZEPH_UPDATE_GOLDEN=1 deno test -A tests/config/defaults_test.ts and review the diff";
  try {
    expect(defaultsSnapshot()).toStrictEqual(JSON.parse(JSON.stringify(defaults)));
  } catch (error) {
    throw new Error(`${stale}\n${(error as Error).message}`);
  }
  // A default JSON cannot hold (undefined, a RegExp, a Map) would differ here.
  expect(defaultsSnapshot()).toStrictEqual(defaults);
});

Deno.test("defaultsSnapshot returns a new object each call", () => {
  const a = defaultsSnapshot();
  a.tools.file.max_read_lines = 1;
  a.tools.shell.blocked_commands.push("x");
  const b = defaultsSnapshot();
  expect(b.tools.file.max_read_lines).toBe(Config.parse({}).tools.file.max_read_lines);
  expect(b.tools.shell.blocked_commands).toEqual(Config.parse({}).tools.shell.blocked_commands);
});
