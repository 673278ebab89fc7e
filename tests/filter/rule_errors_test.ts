/**
 * The mistakes a newcomer makes in filters.toml, each reported with the file and line, the rule,
 * the key as written and the fix (src/filter/rule_errors.ts, load.ts), and the rest still loads.
 */
import { expect } from "expect";
import { BUILTIN_FILTERS_DIR, loadBuiltinRules, mergeUserRules } from "../../src/filter/mod.ts";

/** The built-ins, compiled once for every case. */
const builtins = loadBuiltinRules(BUILTIN_FILTERS_DIR);

/** Loads `toml` as the user's filters.toml at `D/filters.toml`, as the loader merges it. */
async function warningsFor(toml: string): Promise<{ warnings: string[]; names: string[] }> {
  const rules = [...await builtins];
  const warnings: string[] = [];
  mergeUserRules(rules, toml, "D/filters.toml", warnings);
  return { warnings, names: rules.map((r) => r.name) };
}

/** One `[[rules]]` entry on lines 1-4, its strategy table written out. */
function rule(strategy: string, extra = "", match = `{ prefix = "mytool" }`): string {
  return `[[rules]]\nname = "mine"\nmatch = ${match}\nstrategy = ${strategy}\n${extra}`;
}

const CASES: [string, string, string][] = [
  [
    "a mistyped strategy key",
    rule(`{ type = "strip_noise", paterns = ['^ok'] }`),
    `D/filters.toml:4: rule "mine" skipped: strategy.paterns: unknown key "paterns"; did you mean "patterns"?`,
  ],
  [
    "a mistyped rule key",
    `[[rules]]\nnme = "mine"\nmatch = { prefix = "x" }\nstrategy = { type = "strip_noise", patterns = ['^ok'] }\n`,
    `D/filters.toml:2: rule "#1" skipped: nme: unknown key "nme"; did you mean "name"?`,
  ],
  [
    "a mistyped key the guard reads",
    rule(`{ type = "strip_noise", patterns = ['^ok'] }`, "renderd = true\n"),
    `D/filters.toml:5: rule "mine" skipped: renderd: unknown key "renderd"; did you mean "rendered"?`,
  ],
  [
    "a mistyped match key",
    rule(`{ type = "strip_noise", patterns = ['^ok'] }`, "", `{ prefx = "mytool" }`),
    `D/filters.toml:3: rule "mine" skipped: match.prefx: unknown key "prefx"; did you mean "prefix"?`,
  ],
  [
    "a string where a list goes",
    rule(`{ type = "strip_noise", patterns = '^\\s*$' }`),
    `D/filters.toml:4: rule "mine" skipped: strategy.patterns: expected a list, found a string '^\\s*$'; write a list, even of one: patterns = ['^\\s*$'].`,
  ],
  [
    "a quoted boolean",
    rule(`{ type = "strip_noise", patterns = ['^ok'] }`, `enabled = "yes"\n`),
    `D/filters.toml:5: rule "mine" skipped: enabled: expected a boolean (true or false), found a string "yes"; write true or false without quotes.`,
  ],
  [
    "a quoted number",
    rule(`{ type = "truncate", max_lines = "10", head = 2, tail = 2 }`),
    `D/filters.toml:4: rule "mine" skipped: strategy.max_lines: expected a number, found a string "10"; write the number without quotes.`,
  ],
  [
    "a bare string as match",
    rule(`{ type = "strip_noise", patterns = ['^ok'] }`, "", `"mytool"`),
    `D/filters.toml:3: rule "mine" skipped: match: expected a table, found a string "mytool"; write match = { prefix = "mytool" } (or exact, or regex).`,
  ],
  [
    "two matchers",
    rule(`{ type = "strip_noise", patterns = ['^ok'] }`, "", `{ prefix = "a", regex = '^a' }`),
    `D/filters.toml:3: rule "mine" skipped: match: set exactly one of exact, prefix or regex; found prefix and regex: split them into two rules or keep one.`,
  ],
  [
    "a mistyped strategy type",
    rule(`{ type = "strip_noisy", patterns = ['^ok'] }`),
    `D/filters.toml:4: rule "mine" skipped: strategy.type: unknown strategy type "strip_noisy" (did you mean "strip_noise"?); use one of strip_noise, truncate, keep_matching, strip_annotated, test_summary, group_by_rule, git_status, git_diff, dedup, group_paths, git_log, json, fold_blocks, code_frames, group_by_file, join_runs, largest, git_transfer, join_leaves, syscall_trace, fold_records, fold_passed, fold_samples.`,
  ],
  [
    "another strategy's option",
    rule(`{ type = "strip_noise", patterns = ['^ok'], max_lines = 10 }`),
    `D/filters.toml:4: rule "mine" skipped: strategy.max_lines: unknown key "max_lines": it is an option of truncate, not of strip_noise (strip_noise takes patterns, keep, uncounted, keep_distinct, failed_patterns, passed_patterns, min_lines, summary, on_empty, rewrite, common_directory, frame_marks, frame_marks_kept, frames, headers, json_drop, once, once_in, said_by_next, said_before, keep_before, last_steps, results, max_results, results_fold, results_head, results_apart, results_evidence, results_trusted, results_on_failure, results_outline, results_until, results_after, results_not_under, failure_context, recall, verdicts, blocks, scopes, within, cells; \`zeph filter --strategies strip_noise\` describes each).`,
  ],
  [
    "an empty pattern list",
    rule(`{ type = "keep_matching", patterns = [] }`),
    `D/filters.toml:4: rule "mine" skipped: strategy.patterns: needs at least 1 entry, found none (an empty list does nothing); add one to patterns.`,
  ],
  [
    "no strategy",
    `[[rules]]\nname = "mine"\nmatch = { prefix = "x" }\n`,
    `D/filters.toml:1: rule "mine" skipped: strategy: missing; say what the rule does: strategy = { type = "strip_noise", patterns = ['^DEBUG '] }.`,
  ],
  [
    "a bad regex",
    rule(`{ type = "strip_noise", patterns = ['^ok', '^(unclosed'] }`),
    'D/filters.toml:4: rule "mine" skipped: strategy.patterns[1]: invalid RE2 regex: error parsing regexp: missing closing ): `^(unclosed`.',
  ],
  [
    "lookahead",
    rule(`{ type = "strip_noise", patterns = ['^ok(?= )'] }`),
    'D/filters.toml:4: rule "mine" skipped: strategy.patterns[0]: invalid RE2 regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`; RE2 has no lookahead or lookbehind: match the text itself (`^ok \\d+ ` rather than `^ok(?= )`), or leave the condition out and add a narrower pattern.',
  ],
  [
    "lookbehind",
    rule(`{ type = "strip_noise", patterns = ['(?<=Checking )src'] }`),
    'D/filters.toml:4: rule "mine" skipped: strategy.patterns[0]: invalid RE2 regex: error parsing regexp: lookbehind `(?<=` is not RE2 syntax; RE2 has no lookahead or lookbehind: match the text itself (`^ok \\d+ ` rather than `^ok(?= )`), or leave the condition out and add a narrower pattern.',
  ],
  [
    "a backreference",
    rule(`{ type = "strip_noise", patterns = ['(\\w)\\1'] }`),
    'D/filters.toml:4: rule "mine" skipped: strategy.patterns[0]: invalid RE2 regex: error parsing regexp: invalid escape sequence: `\\1`; RE2 has no backreferences (`\\1`): match the repeated text with its own pattern.',
  ],
  [
    "a misnamed group in a one-line diagnostic",
    rule(
      `{ type = "group_by_rule", file_pattern = '^(\\S+\\.css)$', line_pattern = '^\\s+(?P<line>\\d+:\\d+)\\s+(?P<message>.+?)\\s{2,}(?P<rule>[a-z-]+)$' }`,
    ),
    `D/filters.toml:4: rule "mine" skipped: strategy.line_pattern: has a named group "line" it does not read; the groups it reads are "loc", "rule", "msg", "sev", "lineno" (rename or drop "line").`,
  ],
  [
    "a one-line diagnostic without its message group",
    rule(
      `{ type = "group_by_rule", line_pattern = '^(?P<loc>\\S+:\\d+) (?P<rule>[a-z-]+) .*$' }`,
    ),
    `D/filters.toml:4: rule "mine" skipped: strategy.line_pattern: has no named group "msg"; add (?P<msg>…) around the message.`,
  ],
  [
    "a regex in a basic string",
    `[[rules]]\nname = "mine"\nmatch = { prefix = "x" }\nstrategy = { type = "strip_noise", patterns = ["^ok\\d"] }\n`,
    `Cannot load D/filters.toml: invalid TOML at line 4, column 53: Invalid TOML document: unrecognised escape sequence. Write regexes as literal strings in single quotes ('^ok \\d+'), where a backslash is just a backslash. Its rules were skipped.`,
  ],
  [
    "[[rule]] for [[rules]]",
    `[[rule]]\nname = "mine"\n`,
    `D/filters.toml: unknown top-level key "rule" ignored (did you mean "rules", as in [[rules]]?).`,
  ],
  [
    "a rule's key above any header",
    `name = "mine"\n`,
    `D/filters.toml: unknown top-level key "name" ignored; a rule's keys go under a [[rules]] header.`,
  ],
  [
    "a strategy's name where its table goes",
    rule(`"strip_noise"`),
    'D/filters.toml:4: rule "mine" skipped: strategy: expected a table, found a string "strip_noise"; write strategy = { type = "strip_noise", … } with its options (`zeph filter --strategies strip_noise` lists them).',
  ],
  [
    "switching a rule off with a quoted false",
    `[[rules]]\nname = "gcc"\nenabled = "false"\n`,
    'D/filters.toml:3: rule "gcc" skipped: enabled: expected a boolean (true or false), found a string "false"; write true or false without quotes.',
  ],
  [
    "a description key",
    rule(`{ type = "truncate" }`, `description = "cppcheck's findings"\n`),
    'D/filters.toml:5: rule "mine" skipped: description: unknown key "description"; a rule takes name, match, strategy, frames, enabled, generic, rendered, failure_records; a note on the rule goes in a # comment above it.',
  ],
  [
    "switching off a mistyped built-in",
    `[[rules]]\nname = "hadolnt"\nenabled = false\n`,
    'D/filters.toml:1: rule "hadolnt" has enabled = false but no rule has that name, so nothing was switched off (did you mean "hadolint"?); `zeph filter --rules` lists the names.',
  ],
];

for (const [what, toml, warning] of CASES) {
  Deno.test(`filters.toml mistake: ${what}`, async () => {
    const { warnings } = await warningsFor(toml);
    expect(warnings).toEqual([warning]);
  });
}

Deno.test("a broken rule is skipped and the good ones beside it still load", async () => {
  const toml = rule(`{ type = "strip_noise", paterns = ['^ok'] }`) + "\n" +
    `[[rules]]\nname = "good"\nmatch = { prefix = "good" }\nstrategy = { type = "keep_matching", patterns = ['^x'] }\n`;
  const { warnings, names } = await warningsFor(toml);
  expect([warnings.length, names.includes("mine"), names.at(-1)]).toEqual([1, false, "good"]);
});

Deno.test("the README's table of mistakes quotes what the loader says", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const start = readme.indexOf("**Mistakes and what zeph says.**");
  const table = readme.slice(start, readme.indexOf("\n\n", readme.indexOf("\n|", start)));
  const said: string[] = [];
  for (const [, toml] of CASES) said.push(...(await warningsFor(toml)).warnings);
  const rows = table.split("\n").filter((line) =>
    line.startsWith("| ") && !/^\| (mistake|-)/.test(line)
  );
  expect(rows.length).toBeGreaterThanOrEqual(11);
  for (const row of rows) {
    const cell = row.split(" | ").at(-1)!;
    // Each quoted warning up to its first elision is a part of one the loader gives.
    for (const [, quote] of cell.matchAll(/`([^`]+)`/g)) {
      const part = quote.split("…")[0];
      expect({ row: row.slice(0, 40), found: said.some((w) => w.includes(part)) }).toEqual({
        row: row.slice(0, 40),
        found: true,
      });
    }
  }
});
