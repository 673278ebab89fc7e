/** `zeph filter --strategies`: the option reference comes from the schemas, every option said. */
import { expect } from "expect";
import { describeStrategy, listStrategies, STRATEGY_TYPES } from "../../src/filter/mod.ts";
import { strategyKeys } from "../../src/filter/strategies/mod.ts";

Deno.test("every option of every strategy is listed with a type and a meaning", () => {
  const undescribed: string[] = [];
  for (const type of STRATEGY_TYPES) {
    const lines = describeStrategy(type)!;
    const options = lines.filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(" ")[0]);
    // Listed in the schema's order, `type` aside: the loader's keys and the reference's agree.
    expect([type, options]).toEqual([type, strategyKeys(type)!.filter((k) => k !== "type")]);
    lines.forEach((line, i) => {
      if (/^ {2}\S/.test(line) && !/^ {6}\S/.test(lines[i + 1] ?? "")) {
        undescribed.push(`${type}.${line.trim()}`);
      }
    });
  }
  expect(undescribed).toEqual([]);
});

Deno.test("one strategy's reference: required, defaults, ranges", () => {
  expect(describeStrategy("keep_matching")).toEqual([
    'keep_matching: strategy = { type = "keep_matching", … }',
    "  patterns (list of strings, required)",
    "      Regexes (RE2 syntax) of lines to keep",
  ]);
  const truncate = describeStrategy("truncate")!;
  expect(truncate.filter((l) => /^ {2}\S/.test(l))).toEqual([
    "  max_lines (integer ≥ 1, default 100)",
    "  head (integer ≥ 0, default 20)",
    "  tail (integer ≥ 0, default 20)",
    "  keep_signals (integer ≥ 0, default 10000)",
    "  keep_odd (boolean, default true)",
    "  keep_patterns (list of strings, default [])",
    "  keep_pattern_lines (integer 1-10000, default 10000)",
    "  keep_pattern_unit (string, optional)",
    "  record_start (string, optional)",
  ]);
  expect(describeStrategy("strip_nois")).toBe(null);
});

Deno.test("the list names every type with what it needs", () => {
  const list = listStrategies();
  expect(list.length).toBe(STRATEGY_TYPES.length + 3);
  // Counts of optional keys change as strategies grow; what a type needs is the contract.
  expect(list.find((l) => l.startsWith("  strip_noise "))).toMatch(
    / needs patterns; \d+ optional$/,
  );
  expect(list.find((l) => l.startsWith("  fold_blocks "))).toMatch(
    / needs start, end; \d+ optional$/,
  );
  expect(list.at(-1)).toBe("zeph filter --strategies <type> describes one type's options.");
});
