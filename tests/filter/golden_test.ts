/**
 * Golden tests of every built-in rule: tests/fixtures/filters/<rule>/<case>.in.txt is filtered
 * with the command in <case>.cmd (line 1; line 2 `exit N` for a failed run) and must equal
 * <case>.out.txt. Regenerate on purpose with ZEPH_UPDATE_GOLDEN=1 and review the diff.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const FIXTURES = new URL("../fixtures/filters/", import.meta.url);
const UPDATE = Deno.env.get("ZEPH_UPDATE_GOLDEN") === "1";
const { engine, warnings } = await loadFilterEngine(defaultConfig(), { configDir: null });

Deno.test("built-in rules load without warnings", () => {
  expect(warnings).toEqual([]);
});

Deno.test("every built-in rule has at least one golden case", async () => {
  const dirs = new Set<string>();
  for await (const e of Deno.readDir(FIXTURES)) if (e.isDirectory) dirs.add(e.name);
  const missing = engine.rules.map((r) => r.name).filter((name) => !dirs.has(name));
  expect(missing).toEqual([]);
});

for (
  const rule of [...Deno.readDirSync(FIXTURES)].filter((e) => e.isDirectory).map((e) => e.name)
    .sort()
) {
  const dir = new URL(`${rule}/`, FIXTURES);
  const cases = [...Deno.readDirSync(dir)]
    .filter((e) => e.name.endsWith(".in.txt"))
    .map((e) => e.name.slice(0, -".in.txt".length))
    .sort();
  for (const name of cases) {
    Deno.test(`golden ${rule}/${name}`, async () => {
      const input = await Deno.readTextFile(new URL(`${name}.in.txt`, dir));
      const [command, exitLine = ""] = (await Deno.readTextFile(new URL(`${name}.cmd`, dir)))
        .split("\n");
      const exitCode = Number(/^exit (-?\d+)$/.exec(exitLine)?.[1] ?? 0);
      const outcome = engine.filter(command, input, { failed: exitCode !== 0 });
      // The fixture must exercise the rule its folder is named after.
      expect(outcome.rules).toContain(rule);
      const actual = `${outcome.text}\n--- stats: ${outcome.stats.confidence} [${
        outcome.rules.join(", ")
      }] ${outcome.stats.inline || "(nothing removed)"}\n`;
      const golden = new URL(`${name}.out.txt`, dir);
      if (UPDATE) await Deno.writeTextFile(golden, actual);
      expect(actual).toEqual(await Deno.readTextFile(golden));
      // The same when the output must be sanitised (an escape sequence, removed), also for the
      // output repeated into runs.
      const failed = exitCode !== 0;
      for (const text of [input, input.repeat(12)]) {
        expect(engine.filter(command, `\x1b[0m${text}`, { failed }).text)
          .toBe(engine.filter(command, text, { failed }).text);
      }
    });
  }
}
