/**
 * The rules' own folds keep their odd lines out (src/filter/generic_outliers.ts, reused by the
 * strategies), on real captures: `ls -la` of a build's output directory whose setuid, world-
 * writable, other-owner and empty entries sit in the middle the `ls` rule's cut removes, `ls -la
 * /usr/bin` whose setuid and setgid binaries do, and PHP's built-in server log whose `[503]`
 * requests the log-dedup rule counted with the `[200]`s (its `[<N>]` mask is meant for a pid).
 * The must-fold side: the rows alike still go, the alike requests are still counted.
 */
import { expect } from "expect";
import {
  BUILTIN_FILTERS_DIR,
  compileRule,
  FilterEngine,
  loadBuiltinRules,
} from "../../src/filter/mod.ts";
import { findOutliers } from "../../src/filter/generic_outliers.ts";

const CORPUS = new URL("../../bench/corpus/", import.meta.url);
const read = (path: string) => Deno.readTextFileSync(new URL(path, CORPUS)).replace(/\n$/, "");
const engine = new FilterEngine(await loadBuiltinRules(BUILTIN_FILTERS_DIR), { security: false });

/** The engine's output for a saved run, as lines. */
function filtered(command: string, input: string): string[] {
  return engine.filter(command, input, { failed: false }).text.split("\n");
}

Deno.test("rule outliers: ls -la keeps the odd entries of the rows its cut removes", () => {
  const input = read("files/ls_la_dist.txt");
  const out = filtered("ls -la dist", input);
  const odd = input.split("\n").filter((line) => /^-rws|^-rw-rw-rw-| nobody | 0 Nov /.test(line));
  expect(odd.length).toBe(4);
  for (const line of odd) expect(out).toContain(line);
  // The chunks alike still go: the cut keeps its head, tail and the four.
  expect(out.filter((line) => /^-rw-r--r-- 1 root +root +[1-9]/.test(line)).length).toBe(79);
  expect(out.filter((line) => /^\.\.\. \(\d+ lines omitted\) \.\.\.$/.test(line)).length).toBe(5);
});

Deno.test("rule outliers: ls -la /usr/bin keeps every setuid and setgid binary", () => {
  const input = read("files/ls_la_usr_bin.txt");
  const out = filtered("ls -la /usr/bin", input);
  const odd = input.split("\n").filter((line) => /^-rws|^-rwxr-s/.test(line));
  expect(odd.length).toBe(11);
  for (const line of odd) expect(out).toContain(line);
  // Dates are when a file changed, not a kind of file: a year apart from the others is no odd one.
  expect(out.length).toBeLessThan(130);
});

Deno.test("rule outliers: a log's [503] requests are counted apart from its [200]s", () => {
  const input = read("logs/php_server_health.txt");
  const out = filtered("cat server.log", input);
  const first503 = input.split("\n").find((line) => line.includes(" [503]: "))!;
  const first200 = input.split("\n").find((line) => line.includes(" [200]: "))!;
  expect(out).toContain(`${first503} (x4)`);
  expect(out).toContain(`${first200} (x76)`);
  expect(out.at(-1)).toBe("(5 unique lines of 241)");
});

Deno.test("rule outliers: dedup splits a key by a value every third line holds, too", () => {
  // A fold shows a value a third of the lines hold as a second kind of line; a count of lines
  // alike must not merge it.
  const rule = compileRule({
    name: "t",
    match: { prefix: "cmd" },
    strategy: { type: "dedup" },
  }, "test");
  const lines = Array.from(
    { length: 30 },
    (_, i) => `worker[${i % 3 === 0 ? 500 : 200}] request ${1 + (i % 7)}ms`,
  );
  const text = new FilterEngine([rule], { security: false }).filter("cmd", lines.join("\n"), {
    failed: false,
  }).text;
  expect(text).toBe(
    ["worker[500] request 1ms (x10)", "worker[200] request 2ms (x20)", "(2 unique lines of 30)"]
      .join("\n"),
  );
  // The lines alike stay one count.
  expect(findOutliers(lines.map((l) => l.replace(/\[500\]/, "[200]")), { kinds: true }).odd.size)
    .toBe(0);
});

Deno.test("rule outliers: truncate with keep_odd = false cuts the odd rows too", () => {
  const rule = compileRule({
    name: "t",
    match: { prefix: "ls" },
    strategy: { type: "truncate", max_lines: 100, head: 70, tail: 10, keep_odd: false },
  }, "test");
  const input = read("files/ls_la_dist.txt");
  const out = new FilterEngine([rule], { security: false }).filter("ls -la dist", input, {
    failed: false,
  }).text.split("\n");
  expect(out.some((line) => line.includes(" nobody "))).toBe(false);
  expect(out.length).toBe(81);
});

Deno.test("rule outliers: git status keeps a deleted file among the modified ones past its cap", () => {
  const input = read("git/status_many_changes.txt");
  const out = filtered("git status", input);
  expect(out).toContain("\tdeleted:    src/mod_77.py");
  expect(out).toContain("\tdeleted:    src/mod_63.py");
  expect(out.filter((line) => line.startsWith("\tmodified:")).length).toBe(61);
  expect(out).toContain("… and 27 more unstaged");
  // The short format the same way: ` D` among ` M`s.
  const short = input.split("\n").filter((line) => line.startsWith("\t")).map((line) => {
    const [state, path] = line.slice(1).split(/:\s+/);
    return `${state === "deleted" ? " D" : " M"} ${path}`;
  });
  const shortOut = filtered("git status -s", short.join("\n"));
  expect(shortOut).toContain(" D src/mod_77.py");
  expect(shortOut.at(-1)).toBe("… and 39 more unstaged");
});

Deno.test("rule outliers: a count dedup appended (`(x2)`) is no odd value to the cut after it", () => {
  const lines = Array.from(
    { length: 30 },
    (_, i) =>
      `2025-06-24 14:36:${String(i).padStart(2, "0")} status unpacked lib${i}:amd64 1.${i}-1${
        i % 9 === 4 ? " (x2)" : ""
      }`,
  );
  expect(findOutliers(lines).kept.size).toBe(0);
  lines[17] = lines[17].replace("unpacked", "half-configured");
  expect([...findOutliers(lines).kept]).toEqual([17]);
});

Deno.test("rule outliers: dedup splits odd values in an output of any length, not only the first lines held", () => {
  // Past the lines one reading holds, dedup reads the output in windows, each seeded with lines
  // its keys held in common before: a lone [503] late in a long log, a service that turns to
  // [503] half way through, still count apart from the [200]s.
  const rule = compileRule(
    { name: "t", match: { prefix: "cmd" }, strategy: { type: "dedup" } },
    "t",
  );
  const run = new FilterEngine([rule], { security: false });
  const line = (i: number, status: number) =>
    `[Fri Nov 27 10:${String(i % 60).padStart(2, "0")}:00 2026] 127.0.0.1:${
      40000 + (i % 9000)
    } [${status}]: GET /health`;
  const cases: [number, number][] = [[30_000, 25_000], [50_000, 45_001], [100, 60]];
  for (const [n, odd] of cases) {
    const lines = Array.from({ length: n }, (_, i) => line(i, i === odd ? 503 : 200));
    const out = run.filter("cmd", lines.join("\n"), { failed: false }).text.split("\n");
    expect(out).toEqual([`${lines[0]} (x${n - 1})`, lines[odd], `(2 unique lines of ${n})`]);
  }
  // Half the output [200], then half [503]: two counts, each shown by its first line.
  const flip = Array.from({ length: 50_000 }, (_, i) => line(i, i < 25_000 ? 200 : 503));
  const out = run.filter("cmd", flip.join("\n"), { failed: false }).text.split("\n");
  expect(out).toEqual([
    `${flip[0]} (x25000)`,
    `${flip[25_000]} (x25000)`,
    "(2 unique lines of 50000)",
  ]);
});
