/**
 * Strategy options that make no sense as set — a count or limit at 0 or below, a list that must
 * not be empty, an option set without the one it acts with — refuse the rule at load, naming the
 * rule, the key and the fix. One row per option of the class.
 */
import { expect } from "expect";
import { compileRule, RuleError } from "../../src/filter/rule.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

/** [strategy as written, the key named, a text of the fix]. */
const refused: [Record<string, unknown>, string, string][] = [
  // A count or limit at 0 or below.
  [
    { type: "strip_noise", patterns: ["^x"], results: ["^ok "], max_results: 0 },
    "strategy.max_results",
    "at least 1 (got 0)",
  ],
  [
    { type: "strip_noise", patterns: ["^x"], min_lines: -1 },
    "strategy.min_lines",
    "at least 0 (got -1)",
  ],
  [{ type: "truncate", max_lines: 0 }, "strategy.max_lines", "at least 1 (got 0)"],
  [{ type: "truncate", head: -5 }, "strategy.head", "at least 0 (got -5)"],
  [{ type: "git_log", max_stat_files: 0 }, "strategy.max_stat_files", "at least 1 (got 0)"],
  [{ type: "git_transfer", max_names: 0 }, "strategy.max_names", "at least 1 (got 0)"],
  [{ type: "git_status", max_files: 0 }, "strategy.max_files", "at least 1 (got 0)"],
  [{ type: "git_diff", max_hunk_lines: 0 }, "strategy.max_hunk_lines", "at least 1 (got 0)"],
  [{ type: "group_by_rule", max_locations: 0 }, "strategy.max_locations", "at least 1 (got 0)"],
  [{ type: "group_paths", max_groups: 0 }, "strategy.max_groups", "at least 1 (got 0)"],
  [{ type: "test_summary", max_failures: 0 }, "strategy.max_failures", "at least 1 (got 0)"],
  [{ type: "json", max_items: 0 }, "strategy.max_items", "at least 1 (got 0)"],
  [
    { type: "largest", row_pattern: "^(?P<size>\\d+)\\s+(?P<name>.+)$", keep: 0 },
    "strategy.keep",
    "at least 1 (got 0)",
  ],
  [{ type: "join_leaves", per_line: 1 }, "strategy.per_line", "at least 2 (got 1)"],
  [
    { type: "join_runs", pattern: "^ok (?P<item>.+)$", to: "ok {items}", max_items: 1 },
    "strategy.max_items",
    "at least 2 (got 1)",
  ],
  [{ type: "dedup", max_unique_patterns: 0 }, "strategy.max_unique_patterns", "at least 1 (got 0)"],
  [
    { type: "strip_annotated", patterns: ["^x"], long_output_threshold: 0 },
    "strategy.long_output_threshold",
    "at least 1 (got 0)",
  ],
  [{ type: "code_frames", max_span: 2 }, "strategy.max_span", "at least 8 (got 2)"],
  [
    { type: "strip_noise", patterns: ["^x"], max_results: 2.5, results: ["^ok"] },
    "strategy.max_results",
    "whole number",
  ],
  [
    { type: "strip_noise", patterns: ["^x"], max_results: 5000, results: ["^ok"] },
    "strategy.max_results",
    "at most 1000 (got 5000)",
  ],
  // A list that must not be empty.
  [{ type: "strip_noise", patterns: [] }, "strategy.patterns", "add one to patterns"],
  [{ type: "keep_matching", patterns: [] }, "strategy.patterns", "add one to patterns"],
  [{ type: "strip_annotated", patterns: [] }, "strategy.patterns", "add one to patterns"],
  // An option set without the one it acts with.
  [
    { type: "strip_noise", patterns: ["^x"], max_results: 3 },
    "strategy.max_results",
    "set results or remove max_results",
  ],
  [
    { type: "strip_noise", patterns: ["^x"], results: [], max_results: 3 },
    "strategy.max_results",
    "set results or remove max_results",
  ],
  [
    { type: "strip_noise", patterns: ["^x"], results_fold: "{n} ok" },
    "strategy.results_fold",
    "set results or remove results_fold",
  ],
  [
    { type: "group_by_rule", max_repeats: 2 },
    "strategy.max_repeats",
    "set file_layout or remove max_repeats",
  ],
  [
    { type: "group_by_rule", file_layout: false, max_repeats: 2 },
    "strategy.max_repeats",
    "set file_layout or remove max_repeats",
  ],
  [
    { type: "group_by_rule", continuation_pattern: "^  " },
    "strategy.continuation_pattern",
    "set line_pattern or remove continuation_pattern",
  ],
  [
    { type: "group_by_rule", file_layout: true, line_pattern: "^x" },
    "strategy.file_layout",
    "set both or remove file_layout",
  ],
  [
    { type: "group_by_rule", quoted_source: true, file_pattern: "^(x)$" },
    "strategy.quoted_source",
    "set both or remove quoted_source",
  ],
  [
    { type: "truncate", max_lines: 10, head: 8, tail: 8 },
    "strategy.head",
    "must not exceed max_lines",
  ],
];

Deno.test("a strategy option out of its bounds or set alone refuses the rule, naming the key and the fix", () => {
  const got = refused.map(([strategy, field, fix]) => {
    try {
      compileRule({ name: "mine", match: { prefix: "mytool" }, strategy }, "test");
      return { strategy, error: "loaded" };
    } catch (error) {
      if (!(error instanceof RuleError)) throw error;
      return {
        strategy,
        error: error.rule === "mine" && error.field === field && error.reason.includes(fix)
          ? "as expected"
          : error.message,
      };
    }
  });
  expect(got).toEqual(refused.map(([strategy]) => ({ strategy, error: "as expected" })));
});

Deno.test("the same options set with what they act with, or within bounds, load", () => {
  const loaded: Record<string, unknown>[] = [
    { type: "strip_noise", patterns: ["^x"], results: ["^ok "], max_results: 1 },
    { type: "strip_noise", patterns: ["^x"], results: ["^ok "], results_fold: "{n} ok" },
    { type: "strip_noise", patterns: ["^x"], min_lines: 0 },
    {
      type: "group_by_rule",
      file_layout: true,
      line_pattern: "^\\s+(?P<loc>\\d+:\\d+)\\s+(?P<msg>.+)\\s+(?P<rule>\\S+)$",
      file_pattern: "^(\\S+)$",
      max_repeats: 2,
    },
    {
      type: "group_by_rule",
      line_pattern: "^(?P<loc>\\S+:\\d+): (?P<msg>.+) \\[(?P<rule>\\w+)\\]$",
      continuation_pattern: "^  ",
    },
    { type: "truncate", max_lines: 10, head: 5, tail: 5 },
  ];
  for (const strategy of loaded) {
    expect(compileRule({ name: "mine", match: { prefix: "mytool" }, strategy }, "test").name)
      .toBe("mine");
  }
});

Deno.test("filters.toml: a rule with max_results = 0 is skipped with a warning naming the file, rule, key and fix", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/filters.toml`,
      [
        "[[rules]]",
        'name = "mytool-results"',
        'match = { prefix = "mytool" }',
        "strategy = { type = \"strip_noise\", patterns = ['^x'], results = ['^ok '], max_results = 0 }",
      ].join("\n"),
    );
    const { engine, warnings } = await loadFilterEngine(defaultConfig(), { configDir: dir });
    expect(warnings).toEqual([
      `${dir}/filters.toml:4: rule "mytool-results" skipped: strategy.max_results: must be at least 1 (got 0); set a whole number of at least 1, or remove max_results for its default.`,
    ]);
    expect(engine.match("mytool run").map((r) => r.name)).not.toContain("mytool-results");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("truncate's keep_pattern_lines without keep_patterns is refused at load", () => {
  expect(() =>
    compileRule(
      {
        name: "mine",
        match: { prefix: "x" },
        strategy: { type: "truncate", keep_pattern_lines: 50 },
      },
      "test",
    )
  ).toThrow(/keep_pattern_lines.*keep_patterns/);
});

Deno.test("results_head without results, quiet_details without details: refused at load", () => {
  const compile = (strategy: Record<string, unknown>) => () =>
    compileRule({ name: "mine", match: { prefix: "x" }, strategy }, "test");
  expect(compile({ type: "strip_noise", patterns: ["^x"], results_head: 5 })).toThrow(
    /results_head.*results/,
  );
  expect(compile({ type: "strip_noise", patterns: ["^x"], results_apart: true })).toThrow(
    /results_apart.*results/,
  );
  expect(compile({ type: "group_paths", quiet_details: "^  " })).toThrow(/quiet_details.*details/);
  expect(compile({ type: "group_paths", entry: "^(\\S+)$" })).toThrow(/entry.*"path"/);
});
