/**
 * test_summary: keeps what a model needs from a test run: every failing test's name, the first
 * `truncate_stack_trace` lines of each failure (message and trace) for the first `max_failures`
 * failures, and the runner's final counts; passing tests and progress go. Understands cargo test,
 * cargo nextest, pytest, go test (plain and -v), jest, vitest, deno test, node --test, mocha.
 * Improvement over the reference (cargo only): every runner above, failures kept whatever the
 * exit code (a `| tail` hides it), and output with no recognisable structure passes unchanged.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";

export const TestSummaryConfig = z.object({
  type: z.literal("test_summary"),
  max_failures: z.number().int().min(1).default(10).describe("Failures shown with their trace"),
  truncate_stack_trace: z.number().int().min(1).default(50).describe(
    "Lines kept per failure",
  ),
}).strict();
export type TestSummaryConfig = z.infer<typeof TestSummaryConfig>;

/** Final counts of every runner; always kept, and they end a failure block. */
const SUMMARY = [
  /^test result: /, // cargo
  /^\s*Summary \[.*\btests? run:/, // nextest
  /^=+ .*\b(passed|failed|errors?|skipped|deselected|xfailed|xpassed|no tests ran)\b.* in [\d.]+m?s\b.*=+$/, // pytest
  /^\d+ (passed|failed|errors?|skipped)\b.* in [\d.]+m?s/, // pytest -q
  /^(ok|FAIL|\?)\s+\S+\s+(\(cached\)|[\d.]+s|\[no test files\]|\[build failed\]|\[setup failed\])/, // go
  /^FAIL$/, // go
  /^(Tests|Test Suites|Snapshots):\s+\d/, // jest
  /^\s*(Test Files|Tests)\s+\d+ (passed|failed|skipped)/, // vitest
  /^(ok|FAILED) \| \d+ passed/, // deno
  /^[ℹ#] (tests|suites|pass|fail|cancelled|skipped|todo) \d+$/, // node --test
  /^\s*\d+ (passing|failing|pending)\b/, // mocha
  /^error: test failed, to rerun pass/, // cargo
  /^error: test run failed$/, // nextest
  /^error: Test failed$/, // deno
];

/** One line naming a failed test; kept even when its trace is not. */
const FAILED_MARKER = [
  /^test \S+.* \.\.\. FAILED$/, // cargo
  /^\s*(FAIL|SIGSEGV|SIGABRT|SIGKILL|TIMEOUT|LEAK) \[/, // nextest
  /^\S+::\S+.* (FAILED|ERROR)\b/, // pytest -v
  /^(FAILED|ERROR) \S+/, // pytest short summary
  /^FAIL\s+\S/, // jest file, vitest
  /^\s*(✕|×|✗|✖) /, // jest, vitest, node --test
  /^\s*❯ .*\bfailed\b/, // vitest file
  /^not ok \d+ /, // TAP
];

/** Lines that open a failure's message/trace block. */
const BLOCK_START = [
  /^---- \S+.* std(out|err) ----$/, // cargo
  /^\s*(---|────) (STDOUT|STDERR):\s/, // nextest
  /^_{3,} .+ _{3,}$/, // pytest
  /^\s*--- FAIL: /, // go
  /^panic: /, // go
  /^\s*● /, // jest
  /^ ?FAIL\s+\S.* > /, // vitest
  /^\s*(✖|×) /, // node --test, vitest
  /^not ok \d+ /, // TAP
  /^\s*\d+\) \S/, // mocha
];

/** Passing tests, progress and headers: dropped, and they end a failure block. */
const PASSING = [
  /^test \S+.* \.\.\. (ok|ignored)\b/,
  /^\s*PASS \[/,
  /^\S+::\S+.* (PASSED|SKIPPED|XFAIL|XPASS)\b/,
  /^\s*--- (PASS|SKIP): /,
  /^=== (RUN|PAUSE|CONT|NAME)\s/,
  /^\s*(✓|✔|√) /,
  /^PASS\s/,
  /^PASS$/,
  /^ok \d+ /,
  /^running \d+ tests?\b/,
  /^\s*Running \S/,
  /^\s*Starting \d+ tests? across/,
];

/** Section headers: they end a block without being kept. */
const SECTION = [
  /^(failures|successes):$/,
  /^=+ .* =+$/,
  /^ (ERRORS|FAILURES) $/,
  /^\s*⎯{3,}/,
  /^\s*─{5,}\s*$/,
  /^-{5,}\s*(output|output end)\s*-{5,}$/,
  /^# Subtest: /,
  /^1\.\.\d+$/,
];

/** Lines outside any block that still matter (a crash outside a test, a collection error). */
const LOOSE_SIGNAL =
  /^(error(\[\w+\])?:|Error:|ERROR\b|fatal|FATAL|panic:|Segmentation fault|Traceback)|panicked at/;

/** Stack frames from runtimes and test harnesses: never where the bug is. */
const TRACE_NOISE = [
  /^\s+at \/rustc\//,
  /^\s+\d+: (std|core|alloc|test|__rustc)::/,
  /^\s+\d+: <(fn|F as|alloc|core|std)[\s(:<]/,
  /^\s+at \S+\/library\/(std|core|alloc|test)\//,
  /^note: Some details are omitted, run with `RUST_BACKTRACE=full`/,
  /^\s+at (node:internal\/|process\.processTicksAndRejections|async Promise\.all|new Promise \(<anonymous>\))/,
  /^\s+at .*\(node:internal\//,
  /^\s+at .*\/node_modules\/(vitest|@vitest|jest-|jest\/|mocha|tinypool)/,
  /^\s+at ext:(cli|core|deno_)/,
  /^\s+\d+: <unknown>$/,
  /^Stack backtrace:$/,
  /^\s+.*\(node:(internal\/|async_hooks:)/,
  /^\s+(duration_ms|failureType|type): /,
];

/**
 * Every line is classified with one sticky regex (all alternatives are anchored at column 0):
 * V8 tries one alternation once instead of five regexes in turn. Alternatives keep the
 * precedence summary > block start > failed marker > passing > section.
 */
// deno's `name ... ok`, `name ... FAILED`, `name => file:1:2` start with any text, so a regex
// must scan the whole line; they are only tried on lines holding their literal.
const DENO_FAILED = /^\S.* \.\.\. FAILED\b/;
const DENO_BLOCK = /^\S.* => \S+:\d+:\d+$/;
const DENO_OK = /^\S.* \.\.\. ok\b/;

const join = (list: RegExp[]) => list.map((re) => `(?:${re.source})`).join("|");
const KINDS = ["summary", "block", "marker", "passing", "section"] as const;
const LISTS = [SUMMARY, BLOCK_START, FAILED_MARKER, PASSING, SECTION];
const CLASSIFY = new RegExp(LISTS.map((list) => `(${join(list)})`).join("|"), "y");
/** Capture index of each kind's wrapper group (the lists have groups of their own). */
const GROUP_AT: number[] = [];
{
  let next = 1;
  for (const list of LISTS) {
    GROUP_AT.push(next);
    next += 1 + (new RegExp(`${join(list)}|`).exec("")!.length - 1);
  }
}
const MARKER = new RegExp(join([...FAILED_MARKER, DENO_FAILED]));
const NOISE_FRAME = new RegExp(join(TRACE_NOISE));

type LineKind = "summary" | "block" | "marker" | "passing" | "section" | null;

function classify(line: string): LineKind {
  CLASSIFY.lastIndex = 0;
  const m = CLASSIFY.exec(line);
  let kind: LineKind = null;
  if (m) {
    for (let k = 0; k < GROUP_AT.length; k++) {
      if (m[GROUP_AT[k]] !== undefined) {
        kind = KINDS[k];
        break;
      }
    }
  }
  if (kind === "summary" || kind === "block") return kind;
  if (line.includes(" => ") && DENO_BLOCK.test(line)) return "block";
  if (kind === "marker") return kind;
  const dots = line.includes(" ... ");
  if (dots && DENO_FAILED.test(line)) return "marker";
  if (kind === "passing") return kind;
  if (dots && DENO_OK.test(line)) return "passing";
  return kind;
}

export function compileTestSummary(config: TestSummaryConfig): CompiledStrategy {
  return {
    type: "test_summary",
    createStage(ctx: StageContext): Stage {
      const input: string[] = [];
      return {
        push: (line) => void input.push(line),
        finish() {
          const result = summarize(input, config, ctx.failed);
          for (const line of result?.lines ?? input) ctx.emit(line);
          return result?.confidence ?? "fallback";
        },
      };
    },
  };
}

interface Block {
  head: string;
  body: string[];
}

function summarize(
  lines: string[],
  config: TestSummaryConfig,
  failed: boolean,
): { lines: string[]; confidence: "full" | "partial" } | null {
  const out: (string | Block)[] = [];
  const markers = new Set<string>();
  const heads = new Set<string>();
  let summaries = 0;
  let passing = 0;
  let failures = 0;
  let loose = 0;
  let block: Block | null = null;
  // go test -v prints a test's log lines before its `--- FAIL:` line.
  let sinceRun: string[] = [];

  for (const line of lines) {
    const kind = classify(line);
    if (kind === "summary") {
      block = null;
      summaries++;
      out.push(line);
      continue;
    }
    if (kind === "block") {
      if (heads.has(line)) {
        // deno lists each failure again under FAILURES: the name is already shown.
        block = null;
        continue;
      }
      heads.add(line);
      failures++;
      block = { head: line, body: /^\s*--- FAIL: /.test(line) ? sinceRun : [] };
      sinceRun = [];
      out.push(block);
      if (MARKER.test(line)) markers.add(line.trim());
      continue;
    }
    if (kind === "marker") {
      block = null;
      failures++;
      if (!markers.has(line.trim())) {
        markers.add(line.trim());
        out.push(line);
      }
      continue;
    }
    if (kind === "passing") {
      block = null;
      passing++;
      sinceRun = [];
      continue;
    }
    if (kind === "section") {
      block = null;
      continue;
    }
    if (block) {
      if (!NOISE_FRAME.test(line)) block.body.push(line);
      continue;
    }
    if (/^\s+\S/.test(line) && sinceRun.length < config.truncate_stack_trace) sinceRun.push(line);
    if (LOOSE_SIGNAL.test(line) && loose < 20) {
      loose++;
      out.push(line);
    }
  }

  if (summaries === 0 && passing === 0 && failures === 0) return null;
  // A failed run with nothing we recognise as a failure: the structure was unexpected.
  if (failed && failures === 0) return null;

  aggregateCargoResults(out);
  const result: string[] = [];
  let shown = 0;
  let hidden = 0;
  for (const item of out) {
    if (typeof item === "string") {
      result.push(item);
      continue;
    }
    result.push(item.head);
    if (shown >= config.max_failures) {
      hidden++;
      continue;
    }
    shown++;
    while (item.body.length && item.body[item.body.length - 1].trim() === "") item.body.pop();
    const limit = config.truncate_stack_trace;
    result.push(...item.body.slice(0, limit));
    if (item.body.length > limit) result.push(`... (${item.body.length - limit} more lines)`);
  }
  if (hidden) result.push(`... (${hidden} more failure traces not shown)`);
  return { lines: result, confidence: summaries > 0 ? "full" : "partial" };
}

const CARGO_RESULT =
  /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out; finished in ([\d.]+)s$/;

/**
 * cargo prints one `test result:` per test binary; a workspace run has dozens. They are summed
 * into one line (in place of the last) so the counts survive and the repetition does not.
 */
function aggregateCargoResults(out: (string | Block)[]): void {
  const at: number[] = [];
  const sums = [0, 0, 0, 0, 0];
  let seconds = 0;
  out.forEach((item, i) => {
    const m = typeof item === "string" ? CARGO_RESULT.exec(item) : null;
    if (!m) return;
    at.push(i);
    for (let k = 0; k < 5; k++) sums[k] += Number(m[k + 2]);
    seconds += Number(m[7]);
  });
  if (at.length < 2) return;
  const [passed, failed, ignored, measured, filtered] = sums;
  out[at[at.length - 1]] = `test result: ${
    failed ? "FAILED" : "ok"
  }. ${passed} passed; ${failed} failed; ${ignored} ignored; ${measured} measured; ${filtered} filtered out; finished in ${
    seconds.toFixed(2)
  }s (${at.length} test binaries)`;
  for (const i of at.slice(0, -1).reverse()) out.splice(i, 1);
}
