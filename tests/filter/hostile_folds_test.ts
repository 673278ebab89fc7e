/**
 * The folds and options merged for #22, fed hostile inputs: many lines that all look like the
 * start of a block, a quote or a run, and failures hidden among what folds. Each output stays
 * within a small multiple of its input (no quadratic growth) and keeps every failure line.
 */
import { expect } from "expect";
import { foldRepeatedBlocks } from "../../src/filter/generic_blocks.ts";
import { foldStackFrames } from "../../src/filter/generic_folds.ts";
import { foldShapeRuns } from "../../src/filter/generic_shapes.ts";
import { fastestMs } from "../_support/timing.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import {
  BUILTIN_FILTERS_DIR,
  loadBuiltinRules,
  loadFilterEngine,
  parseRuleFile,
} from "../../src/filter/mod.ts";

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

const OPTIONS = Array.from(
  { length: 24 },
  (_, i) => `  -${String.fromCharCode(97 + i)}, --opt${i}  what option ${i} does`,
);

Deno.test("a usage fold keeps a stack trace printed after the listing and a blank line", () => {
  const frames = ["    at main (/app/cli.js:12:5)", "    at /app/node_modules/x/index.js:3:9"];
  const input = ["Usage: mycli [options] <file>", "", "Options:", ...OPTIONS, "", ...frames];
  const out = filter("mycli --frob x", input, true);
  expect(out).toContain("lines of usage folded");
  for (const frame of frames) expect(out.split("\n")).toContain(frame);
});

Deno.test("a usage fold keeps an error line inside the listing, also when the error is about a flag", () => {
  const error = "  Error: ENOENT: no such file or directory, open 'x.json'";
  const input = [
    "Usage: mycli [options] <file>",
    "",
    "Options:",
    ...OPTIONS.slice(0, 12),
    error,
    ...OPTIONS.slice(12),
  ];
  expect(filter("mycli --frob x", input, true).split("\n")).toContain(error);
  const described = [
    "error: unknown option '--frob'",
    ...input.flatMap((line) => line.startsWith("  -") ? [line, "      its description"] : [line]),
  ];
  const out = filter("mycli --frob x", described, true);
  expect(out).toContain("lines of option descriptions folded");
  expect(out.split("\n")).toContain(error);
});

Deno.test("quoted_source without a file_pattern is an error naming the file, the rule and the key", () => {
  const warnings: string[] = [];
  const text = [
    "[[rules]]",
    'name = "mine"',
    "match = { regex = '^mytool' }",
    "strategy = { type = \"group_by_rule\", quoted_source = true, line_pattern = '^(?P<loc>\\d+) (?P<msg>.*)$' }",
  ].join("\n");
  expect(parseRuleFile(text, "/cfg/filters/mine.toml", warnings)).toEqual([]);
  expect(warnings.join("\n")).toMatch(
    /mine\.toml:4: rule "mine" skipped: strategy\.quoted_source: needs line_pattern and file_pattern/,
  );
});

Deno.test("a run of result lines never folds a result line that reports a failure", () => {
  const paths = Array.from({ length: 30 }, (_, i) => `src/file${i}.txt`);
  const input = [
    "sending incremental file list",
    ...paths.slice(0, 15),
    "FAILED",
    ...paths.slice(15),
    "",
    "sent 1,234 bytes  received 56 bytes  2,580.00 bytes/sec",
  ];
  const out = stage("rsync", input, true);
  expect(out).toContain("FAILED");
  expect(out.some((line) => line.includes("transferred paths folded"))).toBe(true);
});

Deno.test("routine-log folds keep a warning or error behind a level-named logger and trouble told at INFO", () => {
  const routine = Array.from(
    { length: 30 },
    (_, i) => `2026-11-26 21:47:${String(i).padStart(2, "0")},304 INFO  [main] app - step ${i}`,
  );
  const odd = [
    "2026-11-26 21:47:40,304 [config] WARN deprecated key db.pool",
    "2026-11-26 21:47:40,304 INFO  [main] ERR connection reset",
    "2026-11-26 21:47:40,304 INFO  [main] CRIT disk full",
    "2026/11/26 21:47:40 [info] dial tcp 10.0.0.1:5432: connection refused",
    "2026-11-26 21:47:40,304 INFO  [main] app - killed by signal 9",
    "21:47:40.1 notice: server exited with status 1",
  ];
  for (const line of odd) {
    const out = filter(
      "./server --port 80",
      [...routine.slice(0, 15), line, ...routine.slice(15)],
      true,
    );
    expect(out).toContain("log lines folded");
    expect(out.split("\n")).toContain(line);
  }
});

Deno.test("a block fold keeps each differing line whole when it does not start as the first block's lines do", () => {
  const block = (v: string, w: string) => ["abcd one", "abcd two", `abcd ${v}`, w];
  const input = [...block("v1", "abcd w1"), ...block("v2", "abcX"), ...block("v3", "abcY")];
  const out = foldRepeatedBlocks(input);
  expect(out.length).toBeLessThan(input.length);
  for (const text of ["v2", "abcX", "v3", "abcY"]) expect(out.join("\n")).toContain(text);
});

Deno.test("native frames naming many /lib paths without a shared object are read in linear time", () => {
  // Each `(/lib/` starts a path a shared object's name could end: its characters may not be
  // re-read for each place the name could start.
  const line = `    #1 0x1 in f ${`(/lib/${"a".repeat(300)}`.repeat(4)}`;
  const frames = Array.from({ length: 2000 }, (_, i) => `${line}${i}`);
  let out: readonly string[] = [];
  const ms = fastestMs(() => out = foldStackFrames(frames), 250);
  expect(out.length).toBe(frames.length);
  expect(ms).toBeLessThan(250);
});

Deno.test("prefixed hunk headers whose counts overlap the next header are read in linear time", () => {
  // Each header claims far more lines than come before the next one: the lines after it are
  // read once, not once per header that counts them. Each header is a diff line: none folds.
  const lines = Array.from({ length: 20_000 }, (_, i) => `step${i}: @@ -1,99999 +1,99999 @@ x`);
  let out: readonly string[] = [];
  const ms = fastestMs(() => out = foldShapeRuns(lines, true), 1000);
  expect(out).toEqual(lines);
  expect(ms).toBeLessThan(1000);
});

Deno.test("native frames in shared objects under /lib still fold, their libraries named", () => {
  const out = foldStackFrames([
    "    #0 0x55 in main /src/a.c:3",
    "    #1 0x7f in g (/usr/lib/x86_64-linux-gnu/libstdc++.so.6+0x1a)",
    "    #2 0x7f in h (/lib/x86_64-linux-gnu/libbar.so+0x2b)",
    "    #3 0x55 in start /src/a.c:9",
  ]);
  expect(out).toEqual([
    "    #0 0x55 in main /src/a.c:3",
    expect.stringMatching(/2 frames in libstdc\+\+\.so, libbar\.so/),
    "    #3 0x55 in start /src/a.c:9",
  ]);
});
