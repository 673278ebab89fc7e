/**
 * The folds and options merged for #22, fed hostile inputs: many lines that all look like the
 * start of a block, a quote or a run, and failures hidden among what folds. Each output stays
 * within a small multiple of its input (no quadratic growth) and keeps every failure line.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { BUILTIN_FILTERS_DIR, loadBuiltinRules, loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, lines: string[], failed = false) =>
  engine.filter(command, lines.join("\n"), { failed }).text;
const rules = await loadBuiltinRules(BUILTIN_FILTERS_DIR);

/** What one built-in rule's own stage makes of the lines (the engine's fallbacks aside). */
function stage(name: string, lines: string[], failed: boolean): string[] {
  const rule = rules.find((r) => r.name === name);
  if (!rule) throw new Error(`no built-in rule ${name}`);
  const out: string[] = [];
  const s = rule.strategy.createStage({ emit: (line) => out.push(line), failed });
  for (const line of lines) s.push(line);
  s.finish();
  return out;
}

Deno.test("shellcheck's quoted code is shown with a few findings of its line, not copied under each of thousands", () => {
  const n = 2000;
  const input = [
    "In a.sh line 1:",
    ...Array.from({ length: n }, (_, i) => `echo $x${i}`),
    ...Array.from({ length: n }, (_, i) => `^-- SC${1000 + (i % 9)} (info): Quote x${i}.`),
  ];
  const size = input.join("\n").length;
  const out = stage("shellcheck", input, true).join("\n");
  expect(out.length).toBeLessThan(size * 3);
  // Every finding keeps its message.
  for (const i of [0, n / 2, n - 1]) expect(out).toContain(`Quote x${i}.`);
});
