/**
 * git's long lists on real captures (tests/fixtures/filters, bench/corpus): logs in a custom
 * one-line format, `git blame --line-porcelain`.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";
import { sanitize } from "../../src/filter/mod.ts";

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

Deno.test("git blame --line-porcelain: a commit's fields are said once, every line keeps its header and text", async () => {
  // Sanitised as the engine reads it: a blank line's tab goes with its trailing blanks.
  const input = lines(sanitize(await corpus("git/blame_line_porcelain.txt")).trimEnd());
  const out = lines(filter("git blame --line-porcelain -w -M app.py", input.join("\n")).trimEnd());
  // What --porcelain prints: the fields the first time a commit comes, wherever it comes again.
  const header = /^([0-9a-f]{40}) \d+ \d+( \d+)?$/;
  const said = new Set<string>();
  let commit = "";
  const expected = input.filter((line) => {
    const h = header.exec(line);
    if (h) commit = h[1];
    if (h || line.startsWith("\t") || line === "") return true;
    const key = `${commit} ${line}`;
    if (said.has(key)) return false;
    said.add(key);
    return true;
  });
  expect(out).toEqual(expected);
  expect(out.filter((l) => l === "author Alice Smith")).toHaveLength(1);
  expect(out.filter((l) => header.test(l))).toHaveLength(132);
});
