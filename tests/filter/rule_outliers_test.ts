/**
 * The rules' own folds keep their odd lines out (src/filter/generic_outliers.ts, reused by the
 * strategies), on real captures: `ls -la` of a build's output directory whose setuid, world-
 * writable, other-owner and empty entries sit in the middle the `ls` rule's cut removes, `ls -la
 * /usr/bin` whose setuid and setgid binaries do. The must-fold side: the rows alike still go.
 */
import { expect } from "expect";
import {
  BUILTIN_FILTERS_DIR,
  compileRule,
  FilterEngine,
  loadBuiltinRules,
} from "../../src/filter/mod.ts";

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
