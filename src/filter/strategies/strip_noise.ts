/**
 * strip_noise: drops lines matching any pattern (`failed_patterns` only when the command failed,
 * `passed_patterns` only when it passed), but a line matching `keep` (a parse error's caret lines
 * among a diff's context lines); a line
 * matching `uncounted` goes too without being counted in the summary (blank lines, a diff's
 * context when the summary counts changed lines). With `keep_distinct` a line the patterns drop
 * stays when its `name` group gives a name no earlier one gave, for the first `max` names (the
 * first skipped test of each reason): the reasons stay, bounded, the rest are counted.
 * Full when something went, else Fallback.
 * Optional: `min_lines` leaves short outputs alone (the first `min_lines` lines are held, so
 * memory stays bounded), `summary` adds one line saying how many lines went (`on_empty` is the
 * line when every line went and the command succeeded: `make: ok`), and `rewrite` reshapes the
 * lines kept (`ls -la`'s rows to `name size`): the first entry whose pattern matches a line
 * replaces it by its template, `{1}` or `{name}` standing for the pattern's groups.
 * `cells` names aligned table rows (psql's) kept without their cells' padding, one space either
 * side of each ` | ` separator: the rows are the answer, the spaces that line their columns up
 * are not. The separators are the columns where the rule line under the table's header has a
 * `+`; a ` | ` elsewhere is a value's text and stays, and so does a line under no rule line.
 * `frame_marks` drops code frames: a line of marks only (a caret under a source line) goes with
 * the line just above it, the copy of a source line that the diagnostic's location already names,
 * unless that line reads as a failure (it says what failed: a `throw`, an assertion). With
 * `frame_marks_kept` the first frames stay whole, marks included: a compiler's echo of the line
 * its first errors are on is the code the reader edits next; later frames go.
 * `frames` name stack frames that go with the source line printed under them (Python's
 * `File "/usr/lib/python3.11/json/decoder.py", line 337, in decode` and its more indented code line).
 * `headers` name section headers (ansible's `TASK [name]`) that stay only when a line of their
 * section stays, and `json_drop` names fields that go from the JSON object a kept line ends with
 * (`=> {"stdout_lines": …}`, the twin of `stdout`). `once` names lines shown the first time only:
 * a later line of the same text (the assertion helper's stack frame under every failing test),
 * indented alike or not (rustc indents its `= help:` lines by the width of the line number
 * above), says nothing the first did not, so it goes. `once_in` names lines shown once per
 * scope: a line matching one entry's `line` goes when a line of the same text came before it
 * within the scope the last line matching its `scope` opened, scopes being the same when their
 * `name` groups read the same (wherever they come again); before any scope, or after a scope
 * line with no `name`, such lines all stay (rustc's source line `3 | }` is said once per file
 * its `--> src/a.rs:3:1` names, not once for two files, and a program's own output after
 * cargo's `Running` keeps its repeated rows); with its `kind`, scopes are apart by the kind the
 * last line `kind` matches names too (a ruff frame line said again by a finding of another code
 * stays with each; three findings of one code on one line say it once); `once` is read as a
 * `once_in` entry whose one scope is always open. `said_by_next` names lines the next line says
 * again: a line matching one entry's `line` goes when the line right after it matches its
 * `next` and both patterns' `name` groups read the same (git's `Auto-merging a.py` right before
 * `CONFLICT (content): Merge conflict in a.py`); with `kept_by` it stays after all when a line
 * matching that comes before the next line matching `line` (gcc's `In function` header over a
 * warning, an error further under it); with `headline` and `under` it goes only under a
 * diagnostic whose headline `under` matches (rustdoc's broken link, not a compile error that
 * quotes a doc comment). `said_before` names lines an earlier line of their
 * block (the lines since the last blank one) already said: a line matching one entry's `line`
 * goes when a line read before it in the block matched its `before` with the same `name` group
 * (rustc's suggestion `6 -     return n;` under the source line `6 |     return n;`); with
 * `keep_said` the other way round: such a line stays only when an earlier line said it (bandit's
 * code line `12\t…` under `Location: a.py:12` stays, the context lines around it go). `keep_before` names lines (configure's
 * `configure: error: …`) before which the line just dropped stays (blank lines between skipped):
 * the step the failure ended.
 * `last_steps` names progress steps by kind (Django's `Creating test database …` and `Applying
 * app.0001_x... OK`): on a failed run, when a failure line (a traceback's head) comes, the last
 * step of each kind read since the failure line before stays before it, in the order printed,
 * whatever lines that read as no failure were kept since (a warning): the setup step the failure
 * happened in; so do they at the output's end when no line was kept since them (a run killed in
 * its steps).
 * `results` name per-item result lines (a verbose test run's `Class#test_a = 0.00 s = .`, a
 * copy's file list): a run of at most `max_results` of them stays as printed, a longer run
 * becomes one line counting it (`results_fold`) unless that line is no shorter than the run
 * (with `results_head`, the run's first lines stay above it: a profile's top rows by its sort key;
 * with `results_apart`, a result line matching another `results` entry than the one before it
 * starts a run of its own: a diff's removed lines and the added lines after them each keep
 * their first);
 * with `results_on_failure = false` only a run that passed folds them, and with `results_trusted`
 * a result line folds even when its text names a failure (a passing test called `reports an error`).
 * With `results_outline` the results are an outline nested by indentation (rspec's documentation
 * format, whose failing example `(FAILED - 1)` is no result and ends a run): the lines of the run
 * the ending line is nested under (the nearest earlier one of each smaller indent: its groups) stay
 * as printed, and the results between them fold, each stretch on its own; the run is held whole
 * for that. `results_until` names the line after which nothing is a result (rspec's `Failures:`,
 * under which indented text explains each failure). `results_after` names the line the results
 * begin under (rspec's top-level example group, with a line indented deeper right under it):
 * what comes before is no result.
 * `results_not_under` names the lines that open an error block (rspec's `An error occurred …`,
 * `Failure/Error:`, an exception class line): the lines under its first one, up to the next one
 * indented no deeper, are no results (a load or hook error's source excerpt and message, which
 * rspec prints outside the outline and before it).
 * `results_evidence` names lines that show the results are an echo, not the answer (sqlite3
 * prints statements as rows in `.mode insert` and `.dump`, and echoes them with `.echo on`): runs
 * read before one of them stay as printed.
 * `failure_context` keeps result-shaped lines around a failing result (TAP's `not ok`) as printed:
 * the run's last line right above it when it is its name (tape's `# name`), and the lines right
 * under it that are its diagnostics (bats' `# …`; at most `after_max` of them). `scopes` names the lines a tool opens and
 * closes a scope with (make's `Entering directory`/`Leaving directory`): they stay only around a
 * failure, where they say which directory the failing file is in.
 * `blocks` name multi-line passages that go whole: from a `start` line through the next `end`
 * line (a heredoc `go build -x` echoes: `cat >$WORK/b001/importcfg << 'EOF'` … `EOF`), or up to
 * the `end` line with `keep_end` (a summary closed by the run's verdict, which stays). A block
 * the output ends inside, or one longer than BLOCK_CAP lines, is read as lines after all.
 * `recall` names dropped lines that come back before a later kept line giving the same name:
 * the step that failed, echoed before other steps ran beside it (`go build -x`'s compile line
 * `… -p example.com/a …` before `# example.com/a` and its errors).
 * `within` names the part of the output the rule reads (a formatter's diff, `ToolPart`): the
 * other lines stay as printed and no option reads them (a test runner's `- expected` lines after
 * `black --check --diff . ;` are its assertion's, not black's removed lines).
 */
import { z } from "zod";
import type { Pattern, RegexEngine } from "../regex.ts";
import { cutNote, linesStoodFor, sayCut } from "../notes.ts";
import { indentOf } from "../sanitize.ts";
import { type CompiledStrategy, RuleFieldError, type Stage, type StageContext } from "../types.ts";
import { AlignedCells } from "./_cells.ts";
import { dropJsonTailFields } from "./_json_tail.ts";
import {
  anyMatcher,
  carriesFailure,
  FAILURE_SIGNAL,
  LOCATION,
  optionalPatternField,
  patternField,
  patternList,
  requireNamedGroups,
} from "./_shared.ts";
import { sayingDirectoryOnce } from "./_directory.ts";
import { keepingFailedScopes } from "./_scopes.ts";
import { ToolPart } from "./_tool_part.ts";
import { droppingPassedTests } from "./_verdicts.ts";

export const StripNoiseConfig = z.object({
  type: z.literal("strip_noise"),
  patterns: z.array(z.string()).min(1).describe("Regexes (RE2 syntax) of lines to drop"),
  keep: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of lines that stay though a pattern matches them (a parse error's caret lines among a diff's context lines)",
  ),
  uncounted: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of lines that go like `patterns` but are not counted in the summary's {n} (blank lines, a diff's context lines when it counts changed lines)",
  ),
  keep_distinct: z.object({
    line: z.string().describe("Regex (RE2 syntax) of the lines, with a `name` group"),
    max: z.number().int().min(1).max(100).default(5).describe("Names kept at most"),
  }).strict().optional().describe(
    "Lines a pattern drops that stay when their `name` group reads a name no earlier one gave, for the first `max` names (a skipped test's reason); the others go, counted",
  ),
  failed_patterns: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of lines dropped only when the command failed (what a build made: a result on success, progress beside its errors)",
  ),
  passed_patterns: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of lines dropped only when the command passed (a task runner's tally: on a failure it says how much of the run failed)",
  ),
  min_lines: z.number().int().min(0).max(100_000).default(0).describe(
    "Outputs of at most this many lines pass unchanged",
  ),
  summary: z.string().max(200).optional().describe(
    "Line appended when lines were dropped; {n} is replaced by their count",
  ),
  on_empty: z.string().max(200).optional().describe(
    "The line shown when every line was dropped and the command succeeded (`make: ok`); {n} is their count",
  ),
  rewrite: z.array(
    z.object({
      pattern: z.string().describe("Regex (RE2 syntax) of the lines to reshape"),
      to: z.string().max(200).describe("The line's new text; {1} or {name} is the group's text"),
    }).strict(),
  ).default([]).describe("Kept lines reshaped by the first entry whose pattern matches"),
  common_directory: z.boolean().default(false).describe(
    "The absolute directory the kept lines' paths share (three or more) is said once, first, and the paths shown relative",
  ),
  frame_marks: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of mark-only lines (`^^^` under a source line): each goes, with the line above it",
  ),
  frame_marks_kept: z.number().int().min(0).max(1000).default(0).describe(
    "The first frames frame_marks reads stay whole (the source line and its marks); later ones go",
  ),
  frames: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of stack-frame lines that go with the more indented source line under them",
  ),
  headers: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of section headers that stay only when a line of their section stays",
  ),
  json_drop: z.array(z.string().min(1)).default([]).describe(
    "Fields removed from the JSON object a kept line ends with (` => {…}`), at any depth",
  ),
  once: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of lines shown the first time only: a later line of the same text goes",
  ),
  once_in: z.array(
    z.object({
      line: z.string().describe("Regex (RE2 syntax) of the line shown once per scope"),
      scope: z.string().describe(
        "Regex (RE2 syntax) of the line opening a scope, its `name` group naming it (no name: no scope)",
      ),
      kind: z.string().optional().describe(
        "Regex (RE2 syntax) of a line whose `name` group names the kind of what follows (a finding's code): scopes of one name but different kinds are apart",
      ),
    }).strict(),
  ).default([]).describe(
    "Lines shown the first time only within the scope a `scope` line names (rustc's `3 | }` per file its `--> src/a.rs:3:1` names); outside any scope they all stay",
  ),
  said_by_next: z.array(
    z.object({
      line: z.string().describe("Regex (RE2 syntax) of the line that may go, with a `name` group"),
      next: z.string().describe(
        "Regex (RE2 syntax) of the line right after it that says it again, with a `name` group",
      ),
      kept_by: z.string().optional().describe(
        "Regex (RE2 syntax) of a later line that keeps it after all when it comes before the next line matching `line` (gcc's `error:` further under an `In function` header over a warning)",
      ),
      headline: z.string().optional().describe(
        "Regex (RE2 syntax) of a diagnostic's first line (rustc's `warning: …`, `error[E0585]: …`): with `under`, the line goes only under a headline `under` matches too, up to the next headline",
      ),
      under: z.string().optional().describe(
        "Regex (RE2 syntax) of the headlines the line goes under (rustdoc's broken-link warnings; needs `headline`)",
      ),
    }).strict(),
  ).default([]).describe(
    "Lines that go when the line right after them names the same thing (`Auto-merging a.py` before `CONFLICT …: Merge conflict in a.py`)",
  ),
  said_before: z.array(
    z.object({
      line: z.string().describe("Regex (RE2 syntax) of the line that may go, with a `name` group"),
      before: z.string().describe(
        "Regex (RE2 syntax) of an earlier line of its block that says it, with a `name` group",
      ),
      keep_said: z.boolean().default(false).describe(
        "The other way round: the line stays only when an earlier line of its block said it, and goes otherwise (the code line a `Location: a.py:12` names stays, the context around it goes)",
      ),
    }).strict(),
  ).default([]).describe(
    "Lines that go when an earlier line of their block (since the last blank line) gave the same name (a suggestion's `6 -     return n;` under the source line `6 |     return n;`)",
  ),
  keep_before: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of kept lines (an error) before which the line dropped just before stays",
  ),
  last_steps: z.object({
    steps: z.array(z.string()).min(1).describe(
      "Regexes (RE2 syntax) of progress steps, one per kind (`Creating test database …`, `Applying app.0001_x... OK`)",
    ),
    failure: z.string().describe(
      "Regex (RE2 syntax) of a failure's first line (a traceback's head, also after a step's text)",
    ),
  }).strict().optional().describe(
    "On a failed run, the last dropped step of each kind since the last failure line (or kept line reading as one) stays before the next failure line, whatever other lines were kept between (a warning), or at the output's end when none was kept since it: the step the failure happened in",
  ),
  results: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of per-item result lines: a run of at most max_results stays as printed, a longer one is counted",
  ),
  max_results: z.number().int().min(1).max(1000).default(10).describe(
    "Result lines in a run that stay as printed; a longer run becomes one line (needs results)",
  ),
  results_fold: z.string().max(200).default("… {n} result lines folded …").describe(
    "The line a longer run of result lines becomes; {n} is their count",
  ),
  results_head: z.number().int().min(0).max(1000).default(0).describe(
    "Result lines a longer run keeps as printed above its fold line (a table's top rows); {n} counts the rest",
  ),
  results_apart: z.boolean().default(false).describe(
    "Whether a result line matching another `results` entry than the line before it starts a new run (a diff's removed lines, then its added ones: each run keeps its own head)",
  ),
  results_evidence: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of lines that show the result lines are an echo (sqlite3's echoed dot-commands and queries): until one is read, runs of results stay as printed",
  ),
  results_trusted: z.boolean().default(false).describe(
    "Whether result lines fold even when their text names a failure or a location: the pattern alone says they passed (TAP's `ok 3 reports an error`)",
  ),
  results_on_failure: z.boolean().default(true).describe(
    "Whether runs of result lines fold when the command failed too (false: only a run that passed folds them; a failed one keeps them around its failure)",
  ),
  results_outline: z.boolean().default(false).describe(
    "Result lines are an outline nested by indentation (rspec's documentation format): the lines of a run that a line ending it is nested under (the nearest earlier one of each smaller indent) stay as printed, the others fold around them",
  ),
  results_until: z.string().optional().describe(
    "Regex (RE2 syntax) of a line after which no line is read as a result (rspec's `Failures:`: the indented text under it explains them)",
  ),
  results_after: z.string().optional().describe(
    "Regex (RE2 syntax) of the line the results begin under (rspec's top-level example group): no line is a result until one is read with a line indented deeper right under it",
  ),
  results_not_under: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of the lines that open an error block (rspec's `An error occurred …`, `Failure/Error:`, `NameError:`): no line in one is a result; it holds the lines under its first line (blank, more indented, or opening a block too) up to the next line indented no deeper than that",
  ),
  failure_context: z.object({
    failure: z.string().describe("Regex (RE2 syntax) of a failing result line (TAP's `not ok`)"),
    before: z.string().optional().describe(
      "Regex (RE2 syntax) of a result line that stays right before a failing one: the test's name (tape's `# name`)",
    ),
    after: z.string().optional().describe(
      "Regex (RE2 syntax) of the lines right after a failing one that stay as printed, never folded as results: what the test printed (bats' and perl's `# …`)",
    ),
    after_max: z.number().int().min(1).max(1000).optional().describe(
      "At most this many lines after a failing one stay as its diagnostics (sqlite3 echoes the statement that failed under its error, then the next ones); unset: every matching line",
    ),
  }).strict().optional().describe(
    "Result-shaped lines around a failing result that stay: its name before it, its diagnostics after it",
  ),
  recall: z.array(
    z.object({
      line: z.string().describe("Regex (RE2 syntax) of a dropped line, with a `name` group"),
      by: z.string().describe(
        "Regex (RE2 syntax) of a later kept line that brings it back, with a `name` group",
      ),
    }).strict(),
  ).default([]).describe(
    "Dropped lines that come back right before a later kept line naming the same thing (the compile step echoed before its package's `# example.com/a` and errors)",
  ),
  verdicts: z.object({
    line: z.string().describe(
      "Regex (RE2 syntax) of a line of one test, its `id` group naming the test (`3: case 0: ok`)",
    ),
    verdict: z.string().describe(
      "Regex (RE2 syntax) of a test's verdict line, its `id` group naming the test",
    ),
    passed: z.string().describe("Regex (RE2 syntax) of a verdict line that says the test passed"),
    summary: z.string().max(200).default("").describe(
      "The line saying how many lines of passing tests went; {n} is their count",
    ),
  }).strict().optional().describe(
    "A verbose test run whose lines name their test: each test's lines are held until its verdict, and go with it when the test passed",
  ),
  blocks: z.array(
    z.object({
      start: z.string().describe("Regex (RE2 syntax) of a block's first line"),
      end: z.string().describe("Regex (RE2 syntax) of the line closing it (read after the start)"),
      keep_end: z.boolean().default(false).describe(
        "The end line is no part of the block: it is read as any other line (a run's closing verdict, `FAILURES!`, that ends a summary)",
      ),
    }).strict(),
  ).default([]).describe(
    "Multi-line passages that go whole, from a `start` line through the next `end` line (a heredoc a command echo writes: `cat >$WORK/b001/importcfg << 'EOF'` … `EOF`)",
  ),
  scopes: z.object({
    open: z.string().describe(
      "Regex (RE2 syntax) of a line opening a scope (make's `Entering directory`)",
    ),
    close: z.string().describe("Regex (RE2 syntax) of the line closing it (`Leaving directory`)"),
  }).strict().optional().describe(
    "Scope lines that stay only around a failure: they say where it happened",
  ),
  within: z.object({
    start: z.string().describe(
      "Regex (RE2 syntax) of the line opening the rule's part (a diff's file header: `--- a.py\\t…`, `Diff in src/a.rs:3:`)",
    ),
    body: z.string().describe(
      "Regex (RE2 syntax) of the lines that go on with it (a diff's `-`, `+` and context lines); a unified hunk head's counts say how many lines its hunk holds",
    ),
    end: z.string().optional().describe(
      "Regex (RE2 syntax) of a line that closes the part though `body` matches it (cargo's `   Compiling a v0.1.0` after rustfmt's last hunk)",
    ),
  }).strict().optional().describe(
    "The part of the output the rule reads (a formatter's diff): lines outside it stay as printed, whatever the other options say of them",
  ),
  cells: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of aligned table rows (psql's `a   | b   |`) kept with each cell's padding gone: one space either side of each ` | ` separator at the columns where the rule line under the header has a `+`; a rule using it declares `rendered`",
  ),
}).strict();
export type StripNoiseConfig = z.infer<typeof StripNoiseConfig>;

/** Result lines held at least, to show a run as printed when it is shorter than its fold line. */
const HELD_RESULTS = 16;
/** A line shown once per scope: `scope` opens a named one; null for `once` (always open). */
type OnceEntry = {
  line: (text: string) => boolean;
  scope: Pattern | null;
  kind?: Pattern;
};

/** How many distinct `once`/`once_in` lines are remembered per entry; later ones are all shown. */
const ONCE_CAP = 10_000;

/** Lines a block may hold before it is read as lines after all (its end never came). */
const BLOCK_CAP = 5_000;
/** Lines held under a `said_by_next` line waiting for its `kept_by`; past them it stays. */
const KEPT_BY_CAP = 2_000;

/** The options of strip_noise that are lists of patterns. */
type PatternListKey = {
  [K in keyof StripNoiseConfig]-?: StripNoiseConfig[K] extends string[] ? K : never;
}[keyof StripNoiseConfig];

export function compileStripNoise(
  config: StripNoiseConfig,
  engine: RegexEngine,
): CompiledStrategy {
  /** The matcher of an optional pattern list, or null when the list is empty. */
  const optionalMatcher = (key: PatternListKey) =>
    config[key].length ? anyMatcher(patternList(config[key], `strategy.${key}`, engine)) : null;
  const dropsLine = anyMatcher(patternList(config.patterns, "strategy.patterns", engine));
  const isKept = optionalMatcher("keep");
  const isUncounted = optionalMatcher("uncounted");
  const distinct = config.keep_distinct && {
    line: patternField(config.keep_distinct.line, "strategy.keep_distinct.line", engine),
    max: config.keep_distinct.max,
  };
  const matches = (line: string) =>
    (dropsLine(line) || isUncounted?.(line) === true) && isKept?.(line) !== true;
  const failedMatches = optionalMatcher("failed_patterns");
  const passedMatches = optionalMatcher("passed_patterns");
  const minLines = config.min_lines;
  const summary = config.summary;
  const isMark = optionalMatcher("frame_marks");
  const rewrites = config.rewrite.map((r, i) => ({
    pattern: patternField(r.pattern, `strategy.rewrite.${i}.pattern`, engine),
    to: r.to,
  }));
  const reshape = (line: string): string | null => {
    for (const { pattern, to } of rewrites) {
      const match = pattern.exec(line);
      if (match) {
        return to.replace(
          /\{(\w+)\}/g,
          (_, g: string) => match.group(/^\d+$/.test(g) ? Number(g) : g) ?? "",
        );
      }
    }
    return null;
  };
  const isHeader = optionalMatcher("headers");
  const jsonDrop = new Set(config.json_drop);
  const isFrame = optionalMatcher("frames");
  const isAfterStep = optionalMatcher("keep_before");
  const lastSteps = config.last_steps && {
    steps: config.last_steps.steps.map((source, i) =>
      patternField(source, `strategy.last_steps.steps.${i}`, engine)
    ),
    failure: patternField(config.last_steps.failure, "strategy.last_steps.failure", engine),
  };
  // `once` is a `once_in` entry whose scope is always open (one scope, never named again):
  // first, so that a line it drops is noted by no other entry, as `once` reads before `once_in`.
  const isOnce = optionalMatcher("once");
  const kindField = (source: string, i: number) => {
    const field = `strategy.once_in.${i}.kind`;
    requireNamedGroups(source, field, ["name"], () => "the kind");
    return patternField(source, field, engine);
  };
  const onceIn: OnceEntry[] = [
    ...(isOnce ? [{ line: isOnce, scope: null }] : []),
    ...config.once_in.map((pair, i) => {
      const line = patternField(pair.line, `strategy.once_in.${i}.line`, engine);
      return {
        line: (text: string) => line.test(text),
        scope: patternField(pair.scope, `strategy.once_in.${i}.scope`, engine),
        kind: pair.kind === undefined ? undefined : kindField(pair.kind, i),
      };
    }),
  ];
  const saidByNext = config.said_by_next.map((pair, i) => {
    const field = `strategy.said_by_next.${i}`;
    // Each is read only beside the other: the one left out is named.
    if ((pair.headline === undefined) !== (pair.under === undefined)) {
      const [missing, set] = pair.headline === undefined
        ? ["headline", "under"]
        : ["under", "headline"];
      throw new RuleFieldError(
        `${field}.${missing}`,
        `missing beside \`${set}\`: \`headline\` names every diagnostic's first line, \`under\` those the line goes under`,
      );
    }
    return {
      line: patternField(pair.line, `${field}.line`, engine),
      next: patternField(pair.next, `${field}.next`, engine),
      keptBy: optionalPatternField(pair.kept_by, `${field}.kept_by`, engine),
      headline: optionalPatternField(pair.headline, `${field}.headline`, engine),
      under: optionalPatternField(pair.under, `${field}.under`, engine),
    };
  });
  const resultPatterns = patternList(config.results, "strategy.results", engine);
  const isResult = resultPatterns.length ? anyMatcher(resultPatterns) : null;
  // Which `results` entry a line matches (-1: none), each line read once: with results_apart the
  // first entry it matches, else 0 for any (one alternation).
  const resultKind = config.results_apart
    ? (line: string) => resultPatterns.findIndex((p) => p.test(line))
    : (line: string) => isResult?.(line) ? 0 : -1;
  const isRow = optionalMatcher("cells");
  const isEvidence = optionalMatcher("results_evidence");
  const resultsEnd = optionalPatternField(config.results_until, "strategy.results_until", engine);
  const resultsStart = optionalPatternField(config.results_after, "strategy.results_after", engine);
  const opensError = optionalMatcher("results_not_under");
  const context = config.failure_context;
  const contextMatcher = (key: "failure" | "before" | "after") => {
    const source = context?.[key];
    return source === undefined
      ? null
      : patternField(source, `strategy.failure_context.${key}`, engine);
  };
  const failing = contextMatcher("failure");
  const failingName = contextMatcher("before");
  const failingOutput = contextMatcher("after");
  const saidBefore = config.said_before.map((pair, i) => ({
    line: patternField(pair.line, `strategy.said_before.${i}.line`, engine),
    before: patternField(pair.before, `strategy.said_before.${i}.before`, engine),
    keepSaid: pair.keep_said,
  }));
  const recall = config.recall.map((pair, i) => ({
    line: patternField(pair.line, `strategy.recall.${i}.line`, engine),
    by: patternField(pair.by, `strategy.recall.${i}.by`, engine),
  }));
  const within = config.within && {
    start: patternField(config.within.start, "strategy.within.start", engine),
    body: patternField(config.within.body, "strategy.within.body", engine),
    end: optionalPatternField(config.within.end, "strategy.within.end", engine),
  };
  const blocks = config.blocks.map((pair, i) => ({
    start: patternField(pair.start, `strategy.blocks.${i}.start`, engine),
    end: patternField(pair.end, `strategy.blocks.${i}.end`, engine),
    keepEnd: pair.keep_end,
  }));
  // The lines it recognises (drops, reshapes or reads as frames) are its tool's: in a compound
  // command's output the other commands' lines pass as printed, whatever its patterns say of them.
  const recognisers = [
    dropsLine,
    failedMatches,
    passedMatches,
    isFrame,
    isMark,
    isOnce,
    isResult,
    isHeader,
    isRow,
  ];
  for (const { pattern } of rewrites) recognisers.push((line) => pattern.test(line));
  if (within) recognisers.push((line) => within.start.test(line));
  const known = recognisers.filter((r): r is (line: string) => boolean => r !== null);
  const strategy: CompiledStrategy = {
    type: "strip_noise",
    owns: (line) => known.some((r) => r(line)),
    createStage(ctx: StageContext): Stage {
      let removed = 0;
      /** Lines gone that `uncounted` names: not in the summary's count. */
      let uncounted = 0;
      /** With keep_distinct: the names kept so far (at most its `max`). */
      const distinctNames = new Set<string>();
      /** Whether a line keep_distinct names gives a name not kept yet, with room left (noted). */
      const newName = (line: string) => {
        if (!distinct || distinctNames.size >= distinct.max) return false;
        const name = distinct.line.exec(line)?.group("name");
        if (name === undefined || distinctNames.has(name)) return false;
        distinctNames.add(name);
        return true;
      };
      let rewritten = 0;
      let emitted = 0;
      // Lines held until the output is known to be longer than min_lines.
      let held: string[] | null = minLines > 0 ? [] : null;
      // With frame_marks: the last kept line, held until the next line says whether it is a
      // source line under which marks stand.
      let above: string | null = null;
      // With frame_marks_kept: the frames kept whole so far.
      let framesKept = 0;
      // With headers: the last section header, held until a line of its section stays.
      let header: string | null = null;
      // With frames: the indent of a dropped frame line, whose more indented source line goes too.
      let frameIndent = -1;
      // With keep_before: the line dropped just before, while no line has been kept since.
      let dropped: string | null = null;
      // With results: the current run of result lines (held up to max_results) and its length.
      let run: string[] = [];
      let runLength = 0;
      // The lines the run stands for: an earlier stage's fold note among its results counts as
      // the lines it folded (`… 4 lines of a passing test's output folded …`).
      let runLines = 0;
      // With results_apart: the `results` entry the run's lines match.
      let runKind = -1;
      // With failure_context: the run's last line (held or not), and whether the lines read
      // since a failing result are all its diagnostics.
      let lastResult = "";
      // With results_evidence: whether a line has shown the results are an echo, and the lines
      // held until one does (it may come after the runs it says are echoed). Read without one,
      // runs are held whole and stay.
      let evidenced = isEvidence === null;
      let awaiting: string[] | null = isEvidence === null ? null : [];
      let underFailure = false;
      let diagnostics = 0;
      // Held: enough lines to tell whether a short run is shorter than its fold line.
      // An outline's run is held whole: the groups a later line is nested under may be anywhere in it.
      const heldResults = config.results_outline
        ? Infinity
        : Math.max(config.max_results, config.results_head, HELD_RESULTS);
      // With results_until: whether its line came (no line is a result after it).
      let resultsOver = false;
      // With results_after: whether a line indented deeper has come right under its line (no
      // line is a result before), and the indent of the line just read when it matched (or -1).
      let resultsBegun = resultsStart === undefined;
      let underStart = -1;
      // With results_not_under: the indent of the open error block's first line (null: none).
      let errorIndent: number | null = null;
      /**
       * Whether a line stands where a result may: outside an error block, and (with
       * results_after) in the results or right under their first line. Reads every line.
       */
      const resultPlace = (line: string) => {
        const indent = indentOf(line);
        if (opensError?.(line)) errorIndent = Math.min(errorIndent ?? indent, indent);
        else if (errorIndent !== null && line.trim() !== "" && indent <= errorIndent) {
          errorIndent = null;
        }
        if (errorIndent !== null) {
          underStart = -1;
          return false;
        }
        if (underStart >= 0 && indent > underStart && line.trim() !== "") resultsBegun = true;
        underStart = resultsStart?.test(line) ? indent : -1;
        return resultsBegun;
      };
      // With cells: the tables read so far, by their columns (the stage reads one line ahead).
      const tables = isRow === null ? null : new AlignedCells();
      // An earlier stage's cut note (`... (12 lines omitted) ...`), held until a line after it is
      // emitted: the lines dropped since the line emitted before it and until the one after it
      // stood in its gap, and it counts them too. `gone` is how many had gone at the last line
      // emitted.
      let cut: { n: number; form: number; at: number } | null = null;
      let gone = 0;
      const settle = () => {
        if (cut === null) return;
        ctx.emit(sayCut(cut.form, cut.n + removed + uncounted - cut.at));
        cut = null;
      };
      const emit = (line: string) => {
        settle();
        const note = cutNote(line);
        const now = removed + uncounted;
        if (note !== null) {
          cut = { n: note.n + now - gone, form: note.form, at: now };
          gone = now;
          emitted++;
          return;
        }
        gone = now;
        let reshaped = rewrites.length ? reshape(line) : null;
        if (reshaped === null && isRow?.(line)) reshaped = tables!.unpad(line);
        if (jsonDrop.size) reshaped = dropJsonTailFields(reshaped ?? line, jsonDrop) ?? reshaped;
        if (reshaped !== null) rewritten++;
        if (!/^\s*$/.test(line)) emitted++;
        ctx.emit(reshaped ?? line);
      };
      // With recall: per entry, the last dropped line giving each name (bounded: past the cap,
      // later ones are not remembered).
      const recalled = recall.map(() => new Map<string, string>());
      /** Notes a dropped line an entry may bring back. */
      const remember = (line: string) => {
        recall.forEach(({ line: pattern }, i) => {
          const name = pattern.exec(line)?.group("name");
          if (name === undefined) return;
          if (recalled[i].has(name) || recalled[i].size < ONCE_CAP) recalled[i].set(name, line);
        });
      };
      /** Emits the dropped lines a kept line brings back, each once. */
      const bringBack = (line: string) => {
        recall.forEach(({ by }, i) => {
          const name = by.exec(line)?.group("name");
          const step = name === undefined ? undefined : recalled[i].get(name);
          if (step === undefined) return;
          recalled[i].delete(name!);
          removed--;
          emit(step);
        });
      };
      // With last_steps: per kind, the last step read since a failure line, and when it came. A
      // line kept in between that is no failure (a warning, a line the tool printed) leaves it:
      // the step is still the one a failure after that line happens in.
      let steps: ({ line: string; at: number } | null)[] = lastSteps?.steps.map(() => null) ?? [];
      let stepsRead = 0;
      // Whether a line was kept since the last step: the output's end then is no step's.
      let keptSinceStep = false;
      const keep = (line: string) => {
        // A kept line that reads as a failure of its own (a test's `ERROR: test_a`) is shown with
        // what came before it: the steps are its, not a later failure's. A step kept is shown.
        if (stepsRead && FAILURE_SIGNAL.test(line)) {
          steps = steps.map(() => null);
          stepsRead = 0;
        } else if (stepsRead) steps = steps.map((step) => step?.line === line ? null : step);
        keptSinceStep = true;
        if (header !== null) emit(header);
        header = null;
        if (recall.length) bringBack(line);
        emit(line);
      };
      // With once and once_in: per entry, the scope the last scope line named (null: none; an
      // entry of `once` is always in its one scope, "") and the texts shown in each scope named
      // so far (bounded: past the cap, later lines all stay). A scope named again (a diagnostic
      // back in a file after a note in another) goes on with its texts.
      // With `kind`, a scope's name is the kind the last kind line named with the scope line's
      // name: a ruff F821's frame line is not the F841 frame's above it of the same file.
      const scopes = onceIn.map(({ scope }) => ({
        name: scope === null ? "" : null as string | null,
        kind: "",
        shown: new Map<string, Set<string>>(),
        size: 0,
      }));
      /** Notes the scope a line opens (every line is read, dropped or not). */
      const noteScope = (line: string) => {
        onceIn.forEach(({ scope, kind }, i) => {
          const named = kind?.exec(line)?.group("name");
          if (named !== undefined) scopes[i].kind = named;
          const open = scope?.exec(line);
          if (!open) return;
          const name = open.group("name");
          scopes[i].name = name ? (kind ? `${scopes[i].kind}\u0000${name}` : name) : null;
        });
      };
      /**
       * Whether a line an entry names came before within its scope (noting it in each entry's
       * scope where it did not). A line `once` drops is noted by no other entry.
       */
      const shownInScope = (line: string) => {
        let again = false;
        for (let i = 0; i < onceIn.length; i++) {
          const at = scopes[i];
          if (at.name === null || !onceIn[i].line(line)) continue;
          const text = line.trimStart();
          let shown = at.shown.get(at.name);
          if (shown?.has(text)) {
            if (onceIn[i].scope === null) return true;
            again = true;
          } else if (at.size < ONCE_CAP) {
            if (shown === undefined) at.shown.set(at.name, shown = new Set());
            shown.add(text);
            at.size++;
          }
        }
        return again;
      };
      /** A stretch of result lines: as printed when no longer than max_results or its fold line. */
      const foldStretch = (lines: string[]) => {
        if (lines.length === 0) return;
        // The fold line stands at the depth of the first line it counts, in the outline.
        const fold = " ".repeat(indentOf(lines[0])) +
          config.results_fold.replaceAll("{n}", String(lines.length));
        if (lines.length <= config.max_results || lines.join("\n").length <= fold.length) {
          for (const result of lines) keep(result);
        } else {
          removed += lines.length;
          keep(fold);
        }
      };
      /**
       * An outline's run ended by `next`: the lines `next` is nested under stay as printed, each
       * stretch between them folds on its own.
       */
      const endOutline = (next: string) => {
        let indent = next.trim() === "" ? 0 : indentOf(next);
        const groups: number[] = [];
        for (let i = run.length - 1; i >= 0 && indent > 0; i--) {
          const at = indentOf(run[i]);
          if (at < indent) {
            groups.push(i);
            indent = at;
          }
        }
        let from = 0;
        for (const at of groups.reverse()) {
          foldStretch(run.slice(from, at));
          keep(run[at]);
          from = at + 1;
        }
        foldStretch(run.slice(from));
        run = [];
        runLength = 0;
      };
      const endRun = (next = "") => {
        if (runLength === 0) return;
        if (config.results_outline && evidenced) return endOutline(next);
        const head = Math.min(config.results_head, runLength);
        const shown = run.slice(0, head).reduce((n, line) => n + linesStoodFor(line), 0);
        // The run's lines are its fold's, not in a cut note's gap before it.
        settle();
        const fold = config.results_fold.replaceAll("{n}", String(runLines - shown));
        // A run no longer than its fold line stays as printed (it is all held then), and so does
        // one read before any evidence that results are an echo (held whole then).
        if (
          !evidenced || runLength <= config.max_results ||
          (runLength <= run.length && run.slice(head).join("\n").length <= fold.length)
        ) { for (const result of run) keep(result); } else {
          for (const result of run.slice(0, head)) keep(result);
          removed += runLines - shown;
          keep(fold);
        }
        run = [];
        runLength = 0;
        runLines = 0;
      };
      // With said_before: per entry, the names its `before` lines gave in the current block
      // (bounded: past the cap, later lines all stay).
      const block = saidBefore.map(() => new Set<string>());
      /** Whether an earlier line of the block said this one; notes the names this one gives. */
      const saidEarlier = (line: string) => {
        if (/^\s*$/.test(line)) {
          for (const names of block) names.clear();
          return false;
        }
        let again = false;
        saidBefore.forEach(({ line: pattern, before, keepSaid }, i) => {
          const name = pattern.exec(line)?.group("name");
          // Past the cap a block's names are no longer noted: its `keep_said` lines all stay.
          const known = block[i].has(name ?? "") || (keepSaid && block[i].size >= ONCE_CAP);
          if (name !== undefined && known !== keepSaid) again = true;
          const said = before.exec(line)?.group("name");
          if (said !== undefined && block[i].size < ONCE_CAP) block[i].add(said);
        });
        return again;
      };
      // With within: the part of the output the rule reads. A blank line outside it says
      // nothing of whose it is, and the options read it.
      const part = within ? new ToolPart(within.start, within.body, within.end) : null;
      const strip = (line: string) => {
        if (part !== null && !part.read(line) && line.trim() !== "") {
          endRun(line);
          if (above !== null) keep(above);
          above = null;
          dropped = null;
          return keep(line);
        }
        if (onceIn.length) noteScope(line);
        if (saidBefore.length && saidEarlier(line)) {
          if (above !== null) keep(above);
          above = null;
          removed++;
          return;
        }
        const diagnostic = underFailure && failingOutput !== null &&
          diagnostics < (context?.after_max ?? Infinity) && failingOutput.test(line);
        const failed = failing !== null && failing.test(line);
        diagnostics = failed ? 0 : diagnostics + 1;
        underFailure = diagnostic || failed;
        // A failing result's name, the run's last line, stays as printed above it.
        if (failing !== null && failingName !== null && runLength > 0 && failing.test(line)) {
          if (failingName.test(lastResult)) {
            if (run.length === runLength) run.pop();
            runLength--;
            runLines -= linesStoodFor(lastResult);
            endRun();
            keep(lastResult);
          }
        }
        if (!resultsOver && resultsEnd?.test(line)) resultsOver = true;
        const placed = isResult === null || resultPlace(line);
        const kind = !diagnostic && !resultsOver && placed && isResult !== null
          ? resultKind(line)
          : -1;
        // A line carrying a failure or a location is no passing result: it never folds.
        if (
          kind >= 0 && !matches(line) && (config.results_trusted || !carriesFailure(line)) &&
          (config.results_on_failure || !ctx.failed)
        ) {
          if (above !== null) keep(above);
          above = null;
          dropped = null;
          if (config.results_apart) {
            if (runLength > 0 && kind !== runKind) endRun(line);
            runKind = kind;
          }
          if (runLength++ < heldResults || !evidenced) run.push(line);
          runLines += linesStoodFor(line);
          lastResult = line;
          return;
        }
        // A blank line the patterns drop between results (a verbose build prints one after
        // each) belongs to their run.
        if (runLength > 0 && /^\s*$/.test(line) && matches(line)) {
          removed++;
          return;
        }
        endRun(line);
        if (lastSteps && ctx.failed) {
          if (stepsRead && lastSteps.failure.test(line)) {
            const held = steps.filter((step) => step !== null).sort((a, b) => a!.at - b!.at);
            for (const step of held) {
              removed--;
              keep(step!.line);
            }
            steps = steps.map(() => null);
            stepsRead = 0;
          } else {
            const kind = lastSteps.steps.findIndex((step) => step.test(line));
            if (kind >= 0) {
              steps[kind] = { line, at: stepsRead++ };
              keptSinceStep = false;
            }
          }
        }
        if (isFrame !== null) {
          const under = frameIndent;
          frameIndent = -1;
          if (isFrame(line)) {
            if (above !== null) keep(above);
            above = null;
            frameIndent = indentOf(line);
            removed++;
            return;
          }
          if (under >= 0 && indentOf(line) > under && line.trim() !== "") {
            removed++;
            return;
          }
        }
        if (isHeader?.(line) && !matches(line)) {
          if (above !== null) keep(above);
          above = null;
          if (header !== null) removed++;
          header = line;
          return;
        }
        if (isMark?.(line)) {
          if (framesKept < config.frame_marks_kept) {
            framesKept++;
            if (above !== null) keep(above);
            above = null;
            keep(line);
            return;
          }
          // A line naming a location is the diagnostic itself, not a copy of the source: it stays.
          // So does a source line that reads as a failure (a `throw new Error("…")`, an
          // `assert…(` call): the frame under it names the place, the line says what failed.
          if (above !== null && (LOCATION.test(above) || FAILURE_SIGNAL.test(above))) keep(above);
          else if (above !== null) removed++;
          removed++;
          above = null;
          return;
        }
        if (
          (matches(line) ||
            ((ctx.failed ? failedMatches?.(line) : passedMatches?.(line)) &&
              isKept?.(line) !== true) ||
            (onceIn.length > 0 && shownInScope(line))) && !newName(line)
        ) {
          if (above !== null) keep(above);
          above = null;
          if (isUncounted?.(line)) uncounted++;
          else removed++;
          // A blank line between the step and the failure is no step: the step stays the one.
          if (isAfterStep !== null && line.trim() !== "") dropped = line;
          if (recall.length) remember(line);
          return;
        }
        if (dropped !== null && isAfterStep!(line)) {
          removed--;
          keep(dropped);
        }
        dropped = null;
        if (isMark === null) return keep(line);
        if (above !== null) keep(above);
        above = line;
      };
      // With said_by_next: a line held until the next one says whether it says it again, and
      // the name it gives, per entry whose `line` it matches.
      let pending: { line: string; names: (string | undefined)[] } | null = null;
      // Per entry, whether the last headline read is one it goes under (always, without `under`).
      const underHeadline = saidByNext.map(({ under }) => under === undefined);
      // A line the next said again whose entry has `kept_by`: held with the lines after it
      // until one of them keeps it, the next line matching an entry's `line` (or the end) lets it
      // go, or past KEPT_BY_CAP lines it stays.
      let undecided: { line: string; keptBy: Pattern; after: string[] } | null = null;
      const decide = (keep: boolean) => {
        const { line, after } = undecided!;
        undecided = null;
        if (keep) strip(line);
        else removed++;
        for (const l of after) strip(l);
      };
      const said = (line: string) => {
        if (undecided !== null) {
          if (undecided.keptBy.test(line)) {
            undecided.after.push(line);
            return decide(true);
          }
          if (saidByNext.some(({ line: pattern }) => pattern.test(line))) decide(false);
          else {
            undecided.after.push(line);
            if (undecided.after.length > KEPT_BY_CAP) decide(true);
            return;
          }
        }
        if (pending !== null) {
          const { names } = pending;
          const again = saidByNext.findIndex(({ next }, i) => {
            if (names[i] === undefined) return false;
            const match = next.exec(line);
            return match !== null && match.group("name") === names[i];
          });
          const keptBy = again >= 0 ? saidByNext[again].keptBy : undefined;
          if (keptBy !== undefined) {
            undecided = { line: pending.line, keptBy, after: [] };
            pending = null;
            return said(line);
          }
          if (again >= 0) removed++;
          else strip(pending.line);
          pending = null;
        }
        // An entry with `under` reads its lines only under a headline it names.
        saidByNext.forEach(({ headline, under }, i) => {
          if (headline?.test(line)) underHeadline[i] = under!.test(line);
        });
        const names = saidByNext.map(({ line: pattern }, i) =>
          underHeadline[i] ? pattern.exec(line)?.group("name") : undefined
        );
        if (names.some((name) => name !== undefined)) pending = { line, names };
        else strip(line);
      };
      const flushSaid = () => {
        if (undecided !== null) decide(false);
        if (pending !== null) strip(pending.line);
        pending = null;
      };
      const lineByLine = saidByNext.length ? said : strip;
      // With blocks: the open block's lines (held until its end comes) and the pattern of its end.
      let blockLines: string[] = [];
      let blockEnd: Pattern | null = null;
      let blockKeepsEnd = false;
      /** Reads the held block's lines one by one: its end did not come. */
      const unblock = () => {
        const lines = blockLines;
        blockLines = [];
        blockEnd = null;
        for (const l of lines) lineByLine(l);
      };
      const inBlocks = (line: string) => {
        if (blockEnd !== null) {
          if (blockEnd.test(line)) {
            removed += blockLines.length + (blockKeepsEnd ? 0 : 1);
            blockLines = [];
            blockEnd = null;
            if (blockKeepsEnd) lineByLine(line);
            return;
          }
          blockLines.push(line);
          if (blockLines.length > BLOCK_CAP) unblock();
          return;
        }
        const opened = blocks.find(({ start }) => start.test(line));
        if (opened === undefined) return lineByLine(line);
        blockEnd = opened.end;
        blockKeepsEnd = opened.keepEnd;
        blockLines.push(line);
      };
      const pass = blocks.length ? inBlocks : lineByLine;
      const feed = (line: string) => {
        if (held === null) return pass(line);
        held.push(line);
        if (held.length > minLines) {
          const lines = held;
          held = null;
          for (const l of lines) pass(l);
        }
      };
      const take = (line: string) => {
        if (awaiting === null) return feed(line);
        awaiting.push(line);
        if (!isEvidence!(line)) return;
        const lines = awaiting;
        awaiting = null;
        evidenced = true;
        for (const l of lines) feed(l);
      };
      return {
        push(line) {
          if (tables === null) return take(line);
          const previous = tables.read(line);
          if (previous !== null) take(previous);
        },
        finish() {
          const last = tables?.end() ?? null;
          if (last !== null) take(last);
          if (awaiting !== null) {
            const lines = awaiting;
            awaiting = null;
            for (const l of lines) feed(l);
          }
          if (held !== null) {
            for (const line of held) ctx.emit(line);
            return "fallback";
          }
          if (blockEnd !== null) unblock();
          flushSaid();
          endRun();
          // A failed run that ends under its steps (killed, a crash the shell reports) stopped
          // in the last of them: they stay, as before a failure line.
          if (lastSteps && ctx.failed && stepsRead && !keptSinceStep) {
            const last = steps.filter((step) => step !== null).sort((a, b) => a!.at - b!.at);
            for (const step of last) {
              removed--;
              keep(step!.line);
            }
          }
          if (above !== null) keep(above);
          // A header the output ends under is where the run stopped (a hang, a timeout): it stays.
          if (header !== null) emit(header);
          settle();
          // A failed command is never summarised as fine: the engine shows its evidence.
          if (removed + uncounted > 0 && emitted === 0 && config.on_empty && !ctx.failed) {
            ctx.emit(config.on_empty.replaceAll("{n}", String(removed)));
          } else if (removed > 0 && summary) ctx.emit(summary.replaceAll("{n}", String(removed)));
          return removed + uncounted > 0 || rewritten > 0 ? "full" : "fallback";
        },
      };
    },
  };
  const scoped = config.scopes
    ? keepingFailedScopes(
      strategy,
      patternField(config.scopes.open, "strategy.scopes.open", engine),
      patternField(config.scopes.close, "strategy.scopes.close", engine),
    )
    : strategy;
  const verdicts = config.verdicts;
  const judged = verdicts
    ? droppingPassedTests(scoped, {
      line: patternField(verdicts.line, "strategy.verdicts.line", engine),
      verdict: patternField(verdicts.verdict, "strategy.verdicts.verdict", engine),
      passed: patternField(verdicts.passed, "strategy.verdicts.passed", engine),
      summary: verdicts.summary,
    })
    : scoped;
  return config.common_directory ? sayingDirectoryOnce(judged) : judged;
}
