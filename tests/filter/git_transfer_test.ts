/** The git_transfer strategy: ref updates grouped by kind, other lines as printed, caps counted. */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";

function run(input: string[], options: { max_stat_files?: number; max_names?: number } = {}) {
  const strategy = { type: "git_transfer", ...options };
  const rule = compileRule({ name: "t", match: { prefix: "git" }, strategy }, "test");
  // The strategy alone: the generic folds after it would cut a long line it passes on.
  const out = new FilterEngine([rule], { security: false, generic: false, guard: false })
    .filter("git fetch", input.join("\n"));
  return { text: out.text.split("\n"), confidence: out.stats.confidence };
}

Deno.test("git_transfer names each kind once per run of ref updates, past max_names a count", () => {
  const refs = ["a", "b", "c", "d"].map((b) => ` * [new branch]      ${b}  -> origin/${b}`);
  expect(run([
    "From example.com:app",
    ...refs,
    " * [new branch]      local -> upstream/renamed",
    "   1111111..2222222  main  -> origin/main",
  ], { max_names: 3 })).toEqual({
    text: [
      "From example.com:app",
      "[new branch] origin/a, origin/b, origin/c, … (+2 more)",
      // A range is a line of its own, as printed.
      "   1111111..2222222  main  -> origin/main",
    ],
    confidence: "full",
  });
});

Deno.test("git_transfer keeps a pull's stat lines and totals as printed and counts the stat lines past its cap", () => {
  expect(run([
    "Updating 1111111..2222222",
    "Fast-forward",
    " src/a.ts    | 12 ++++++------",
    " src/b.ts    |  3 +++",
    " img/logo.png | Bin 0 -> 812 bytes",
    " 3 files changed, 9 insertions(+), 6 deletions(-)",
    " create mode 100644 img/logo.png",
  ], { max_stat_files: 2 })).toEqual({
    text: [
      "Updating 1111111..2222222",
      "Fast-forward",
      " src/a.ts    | 12 ++++++------",
      " src/b.ts    |  3 +++",
      " … (1 more files)",
      " 3 files changed, 9 insertions(+), 6 deletions(-)",
      "create mode 100644 img/logo.png",
    ],
    confidence: "full",
  });
});

Deno.test("git_transfer passes other output unchanged as a Fallback, however long its lines", () => {
  const long = ` a${" ".repeat(100_000)}| x`;
  expect(run(["Already up to date.", long])).toEqual({
    text: ["Already up to date.", long],
    confidence: "fallback",
  });
});
