/**
 * git's long lists on real captures (tests/fixtures/filters, bench/corpus): logs in a custom
 * one-line format, `git blame --line-porcelain`, `git shortlog -sn`, `git diff --name-status` and
 * `--name-only`.
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

Deno.test("git blame -C -C --line-porcelain: each line's file stays named when one commit's lines come from several files", async () => {
  // c.txt's lines copied from a.txt, b.txt and a.txt again, all added by one commit: git names the
  // file on each line; the last filename line shown above a line of text must still be its own.
  const input = lines((await fixture("git-blame-porcelain/copied_paths.in.txt")).trimEnd());
  const out = lines(filter("git blame -C -C --line-porcelain c.txt", input.join("\n")).trimEnd());
  /** Each text line (tab-indented) with the file the last filename line above it names. */
  const files = (text: string[]) => {
    let file = "";
    const seen: string[] = [];
    for (const line of text) {
      if (line.startsWith("filename ")) file = line.slice(9);
      else if (line.startsWith("\t")) seen.push(`${file}: ${line}`);
    }
    return seen;
  };
  expect(files(input)).toContain("a.txt: \talpha line 5 with enough text to be copied around");
  expect(files(out)).toEqual(files(input));
});

Deno.test("git blame --line-porcelain: a commit's fields are said once, every line keeps its header and text", async () => {
  // Sanitised as the engine reads it: a blank line's tab goes with its trailing blanks.
  const input = lines(sanitize(await corpus("git/blame_line_porcelain.txt")).trimEnd());
  const out = lines(filter("git blame --line-porcelain -w -M app.py", input.join("\n")).trimEnd());
  // What --porcelain prints: the fields the first time a commit comes, wherever it comes again;
  // the file (filename, previous) once per group of lines, under its header with a count.
  const header = /^([0-9a-f]{40}) \d+ \d+( \d+)?$/;
  const said = new Set<string>();
  let commit = "";
  let group = "";
  const expected = input.filter((line) => {
    const h = header.exec(line);
    if (h) commit = h[1];
    if (h?.[2]) group = line;
    if (h || line.startsWith("\t") || line === "") return true;
    const key = /^(filename|previous) /.test(line) ? `${group} ${line}` : `${commit} ${line}`;
    if (said.has(key)) return false;
    said.add(key);
    return true;
  });
  expect(out).toEqual(expected);
  expect(out.filter((l) => l === "author Alice Smith")).toHaveLength(1);
  expect(out.filter((l) => header.test(l))).toHaveLength(132);
});

Deno.test("git shortlog -sne: every author of several commits stays, a long run of one-time authors folds to a count", async () => {
  const input = lines((await corpus("git/shortlog_sne.txt")).trimEnd());
  const out = lines(filter("git shortlog -sne HEAD main", input.join("\n")).trimEnd());
  const once = input.filter((l) => /^ +1\t/.test(l));
  expect(once).toHaveLength(40);
  expect(out).toEqual([
    ...input.filter((l) => !/^ +1\t/.test(l)),
    ...once.slice(0, 3),
    "… 37 more authors with one commit each …",
  ]);
});

Deno.test("git diff --name-status: a count after a deleted file's line names the status it counts", () => {
  // git sorts by path, so a directory's modified files come on both sides of a deleted one: the
  // ones after it are counted below the D line, and the count says they are modified, not deleted.
  const input = [
    ...Array.from({ length: 8 }, (_, i) => `M\tsrc/core/a${i + 1}.py`),
    "D\tsrc/core/b.py",
    ...Array.from({ length: 8 }, (_, i) => `M\tsrc/core/c${i + 1}.py`),
    ...Array.from({ length: 8 }, (_, i) => `A\tsrc/core/d${i + 1}.py`),
  ];
  const out = lines(filter("git diff --name-status main", input.join("\n")).trimEnd());
  expect(out).toEqual([
    "M\tsrc/core/a1.py",
    "M\tsrc/core/a2.py",
    "M\tsrc/core/a3.py",
    "… 5 more M\tsrc/core/* files …",
    "D\tsrc/core/b.py",
    "… 8 more M\tsrc/core/* files …",
    "A\tsrc/core/d1.py",
    "A\tsrc/core/d2.py",
    "A\tsrc/core/d3.py",
    "… 5 more A\tsrc/core/* files …",
  ]);
});

Deno.test("git diff --name-status: past three, the added or modified files of one directory fold to a count; D and R lines all stay", async () => {
  const input = lines((await corpus("git/diff_name_status.txt")).trimEnd());
  const out = lines(filter("git diff --name-status v1.0 main", input.join("\n")).trimEnd());
  // Each line that is not an added or modified file stays, in order.
  const others = input.filter((l) => !/^[AM]\t/.test(l));
  expect(out.filter((l) => !/^[AM]\t|^… /.test(l))).toEqual(others);
  expect(out).toEqual([
    "M\tdocs/guide.md",
    "D\tdocs/legacy.md",
    "R100\tsetup.cfg\tpyproject.cfg",
    "A\tsrc/api/route1.py",
    "A\tsrc/api/route10.py",
    "A\tsrc/api/route11.py",
    "… 17 more A\tsrc/api/* files …",
    "M\tsrc/core/mod1.py",
    "M\tsrc/core/mod10.py",
    "M\tsrc/core/mod11.py",
    "… 27 more M\tsrc/core/* files …",
    "R100\tsrc/ui/view12.tsx\tsrc/ui/panel12.tsx",
    "M\tsrc/ui/view1.tsx",
    "M\tsrc/ui/view10.tsx",
    "M\tsrc/ui/view11.tsx",
    "… 8 more M\tsrc/ui/* files …",
    "M\ttests/test_1.py",
    "D\ttests/test_7.py",
    "D\ttests/test_8.py",
  ]);
});

Deno.test("git show --name-only: paths group by directory, the commit's header and message stay as printed", async () => {
  const input = await fixture("git-diff-name-only/show_commit.in.txt");
  const out = lines(filter("git show --name-only main~1", input));
  for (const line of lines(input).filter((l) => /\s/.test(l))) expect(out).toContain(line);
  expect(out).toContain("docs/legacy.md");
  expect(out).toContain(
    "src/api/route1.py, route10.py, route11.py, route12.py, route13.py, route14.py, route15.py, route16.py, route17.py, … (+11 more)",
  );
  expect(out).toContain("tests/test_1.py, test_7.py, test_8.py");
});
