/**
 * git's long lists on real captures (tests/fixtures/filters, bench/corpus): logs in a custom
 * one-line format.
 */
import { expect } from "expect";
import { filter, fixture, lines } from "./_builtin.ts";

// The same 271-commit history in three formats: a leading hash, abbreviated or full, then a tab,
// a blank or the line's end. Each keeps its first 150 commits, whatever the format, and the last
// five after the count of those between.
for (
  const [name, command] of [
    ["format_tab", "git log --format='%h%x09%s'"],
    ["format_full_hash", "git log --format=%H"],
    ["pretty_author", "git log --pretty=format:'%h %an %s'"],
  ]
) {
  Deno.test(`${command}: the commit budget counts commits, not lines`, async () => {
    const input = lines((await fixture(`git-log-truncate/${name}.in.txt`)).trimEnd());
    const out = lines(filter(command, input.join("\n")).trimEnd());
    const head = input.slice(0, 200);
    const tail = input.slice(-5);
    expect(out).toEqual([...head, `... (${input.length - 205} lines omitted) ...`, ...tail]);
  });
}
