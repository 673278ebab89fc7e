/**
 * A rule's `frames` option (src/filter/repeated_frames.ts): the code frames of a recurring code's
 * later findings fold, each header stays as printed, one count line per code; short lists, a
 * code's only finding and the lines `keep` names stay whole. Then the rules that use it (ruff's
 * full format, mypy --pretty) on real captures of bench/corpus.
 */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";
import { corpus, filter, lines } from "./_builtin.ts";

const FRAMES = {
  header: "^(?P<code>[A-Z]\\d{3}) ",
  frame: ["^\\s*\\d* \\|", "^help: "],
  keep: ["^\\s*--> "],
};

function run(input: string, frames: Record<string, unknown> = FRAMES) {
  const rule = compileRule(
    {
      name: "t",
      match: { prefix: "cmd" },
      frames,
      generic: false,
      strategy: { type: "strip_noise", patterns: ["^$"] },
    },
    "test",
  );
  return new FilterEngine([rule], { security: false }).filter("cmd", input, { failed: true }).text;
}

/** A finding of `code` at line `n`: header, location, a two-line frame and a help line. */
const finding = (code: string, n: number) =>
  `${code} message ${n}\n --> a.py:${n}:1\n${n} | source ${n}\n  | ^^^\nhelp: fix ${n}`;

Deno.test("frames: a recurring code keeps its first frame, the later ones fold with a count", () => {
  const input = [1, 2, 3, 4, 5].map((n) => finding("F401", n)).concat(
    finding("E711", 6),
    "Found 6 errors.",
  )
    .join("\n");
  const out = lines(run(input));
  expect(out).toEqual([
    ...finding("F401", 1).split("\n"),
    ...[2, 3, 4, 5].flatMap((n) => [`F401 message ${n}`, ` --> a.py:${n}:1`]),
    "… frames of 4 more F401 findings folded",
    // A code's only finding keeps its frame.
    ...finding("E711", 6).split("\n"),
    "Found 6 errors.",
  ]);
});

Deno.test("frames: fewer findings than min_findings, or no code recurring, stay whole", () => {
  const few = [1, 2, 3].map((n) => finding("F401", n)).join("\n");
  expect(run(few)).toBe(few);
  const distinct = ["A100", "B200", "C300", "D400", "E500", "F600"].map((c, i) => finding(c, i + 1))
    .join("\n");
  expect(run(distinct)).toBe(distinct);
  // min_findings lowers the threshold.
  expect(lines(run(few, { ...FRAMES, min_findings: 2 }))).toContain(
    "… frames of 2 more F401 findings folded",
  );
});

Deno.test("frames: a line that is no frame ends the fold and stays; a wrapped header's code is read", () => {
  const input = [1, 2, 3, 4, 5, 6].map((n) => finding("F401", n)).join("\n") +
    "\nsummary line\n  | not a frame any more";
  const out = lines(run(input));
  expect(out.slice(-3)).toEqual([
    "… frames of 5 more F401 findings folded",
    "summary line",
    "  | not a frame any more",
  ]);
  // `code`: the code on the line continuing a wrapped header (mypy --pretty).
  const wrapped = [1, 2, 3, 4, 5, 6].map((n) =>
    `a.py:${n}: error: Incompatible types\n"int")  [assignment]\n    x = ${n}\n    ^~~`
  ).join("\n");
  const frames = {
    header: "^\\S+:\\d+: error: ",
    code: "\\[(?P<code>[\\w-]+)\\]$",
    frame: ["^ {4}"],
  };
  const folded = lines(run(wrapped, frames));
  expect(folded.filter((l) => l.startsWith("a.py:")).length).toBe(6);
  expect(folded.filter((l) => l === '"int")  [assignment]').length).toBe(6);
  expect(folded.filter((l) => l.startsWith("    ")).length).toBe(2);
  expect(folded).toContain("… frames of 5 more assignment findings folded");
});

Deno.test("frames: a header pattern without a code group is refused", () => {
  expect(() => run("x", { header: "^[A-Z]\\d{3} ", frame: ["^ "] })).toThrow(/code/);
});

Deno.test("ruff full format: later frames of a recurring code fold, every finding's header and location stay", async () => {
  const text = await corpus("lint/ruff_full_frames.txt");
  const out = filter("ruff check --isolated --select F,E,W app.py util.py", text, true);
  const kept = new Set(lines(out));
  for (const line of lines(text)) {
    if (/^[A-Z]\d{3} |^\s*--> |^Found /.test(line)) expect(kept).toContain(line);
  }
  // The first F401 keeps its frame; the later ones' quoted lines go.
  expect(kept).toContain("1 | import os");
  expect(kept).not.toContain("2 | import collections");
  // The fix a help line names stays with each finding.
  expect(kept).toContain("help: Remove unused import: `collections`");
  expect(kept).toContain("… frames of 4 more F401 findings folded");
  // The fold bounds what stays; each code's frames keep the lines another code's quoted before.
  expect(lines(out).length).toBeLessThan(80);
});

Deno.test("mypy --pretty: wrapped messages stay under their heads, in order; later frames fold", async () => {
  const text = await corpus("python/mypy_pretty_frames.txt");
  const out = lines(
    filter("mypy --pretty --show-error-context --no-incremental typed.py", text, true),
  );
  const heads = lines(text).filter((l) => /^typed\.py:\d+: /.test(l));
  // Each head in the order printed, the line continuing it right after.
  expect(out.filter((l) => /^typed\.py:\d+: /.test(l))).toEqual(heads);
  const at = out.indexOf(
    "typed.py:22: error: Incompatible types in assignment (expression has type",
  );
  expect(out[at + 1]).toBe('"str | None", variable has type "int")  [assignment]');
  expect(out).toContain("… frames of 5 more assignment findings folded");
  expect(out).toContain("Found 11 errors in 1 file (checked 1 source file)");
});

Deno.test("mypy --pretty: the wrapped heads stay with their lines beside a one-line code's findings", () => {
  // mypy 1.x --pretty at 80 columns: `empty-body` recurs on one-line heads, which mypy-by-code
  // reads once the frames fold; the wrapped heads must not part from their `[code]` lines.
  const text = [
    'a.py:5: error: Incompatible types in assignment (expression has type "int",',
    'variable has type "str")  [assignment]',
    "    x: str = 1",
    "             ^",
    'a.py:6: error: Incompatible types in assignment (expression has type "int",',
    'variable has type "str")  [assignment]',
    "    y: str = 2",
    "             ^",
    'a.py:7: error: Incompatible types in assignment (expression has type "str",',
    'variable has type "int")  [assignment]',
    '    z: int = "a"',
    "             ^~~",
    'a.py:8: error: Incompatible types in assignment (expression has type "int",',
    'variable has type "str")  [assignment]',
    "    w: str = 3",
    "             ^",
    'a.py:9: error: Argument 1 to "f" has incompatible type "str"; expected "int" ',
    "[arg-type]",
    '    f("a")',
    "      ^~~",
    'a.py:10: error: Argument 1 to "f" has incompatible type "str"; expected "int" ',
    "[arg-type]",
    '    f("b")',
    "      ^~~",
    'a.py:11: error: Argument 1 to "f" has incompatible type "str"; expected "int" ',
    "[arg-type]",
    '    f("c")',
    "      ^~~",
    'a.py:12: error: Argument 1 to "g" has incompatible type "str"; expected "int" ',
    "[arg-type]",
    '    g("a", 1)',
    "      ^~~",
    'a.py:12: error: Argument 2 to "g" has incompatible type "int"; expected "str" ',
    "[arg-type]",
    '    g("a", 1)',
    "           ^",
    'a.py:13: note: Revealed type is "str"',
    'a.py:15: error: Argument 1 to "append" of "list" has incompatible type "str";',
    'expected "int"  [arg-type]',
    '        l.append("very long string argument that will make the message lon...',
    "                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~...",
    "a.py:17: error: Missing return statement  [empty-body]",
    "        def m(self) -> int: ...",
    "        ^~~~~~~~~~~~~~~~~~~~~~~",
    "a.py:19: error: Missing return statement  [empty-body]",
    "        def m(self) -> str: ...",
    "        ^~~~~~~~~~~~~~~~~~~~~~~",
    'a.py:19: error: Return type "str" of "m" incompatible with return type "int" in',
    'supertype "A"  [override]',
    "        def m(self) -> str: ...",
    "        ^~~~~~~~~~~~~~~~~~~~~~~",
    'a.py:20: error: Incompatible types in assignment (expression has type "int",',
    'variable has type "str")  [assignment]',
    "    v: str = 4",
    "             ^",
    "Found 14 errors in 1 file (checked 1 source file)",
  ].join("\n");
  const out = lines(filter("mypy --pretty a.py", text, true));
  // The generic pass folds the run of alike two-line findings (a wrapped head and `[arg-type]`):
  // the list under its marker names each block's head, the line they share said by the marker.
  const marker = out.findIndex((l) =>
    l.endsWith("blocks like the one above; the lines that differ:")
  );
  const listed = new Set<number>();
  for (let j = marker + 1; marker >= 0 && /^a\.py:\d+: error: .*[^\]]$/.test(out[j]); j++) {
    listed.add(j);
  }
  expect(listed.size).toBe(4);
  for (const [i, line] of lines(text).entries()) {
    // A wrapped head kept as printed, outside that list, has the line continuing it right after it.
    if (!/^a\.py:\d+: error: .*[^\]]$/.test(line)) continue;
    for (const [j, kept] of out.entries()) {
      if (kept === line && !listed.has(j)) expect(out[j + 1]).toBe(lines(text)[i + 1]);
    }
  }
  // Grouped, the two empty-body findings would print more lines than mypy-by-code reads once the
  // frames fold: they stay as printed, in order, the first with its frame right under it.
  expect(out).not.toContain("empty-body (2):");
  const first = out.indexOf("a.py:17: error: Missing return statement  [empty-body]");
  expect(first).toBeGreaterThan(
    out.indexOf('a.py:5: error: Incompatible types in assignment (expression has type "int",'),
  );
  expect(out.slice(first + 1, first + 3).map((l) => l.trim())).toEqual([
    "def m(self) -> int: ...",
    "^~~~~~~~~~~~~~~~~~~~~~~",
  ]);
  expect(out.filter((l) => l.trim() === "def m(self) -> int: ...")).toHaveLength(1);
});

Deno.test("ruff: a source line a finding of another code quoted before stays in each frame", async () => {
  // F841 at a.py:10 and F821 at a.py:11 quote the same three lines: F821's frame keeps its own
  // quote of the line its marks point into.
  const input = await Deno.readTextFile(
    new URL("../fixtures/filters/ruff/codes_sharing_lines.in.txt", import.meta.url),
  );
  const out = lines(filter("ruff check .", input, true));
  const f821 = out.indexOf("  --> a.py:11:11");
  expect(out.slice(f821 + 1, f821 + 5)).toEqual([
    " 9 | def g() -> None:",
    '10 |     y: int = "s"',
    "11 |     print(undefined_name)",
    "   |           ^^^^^^^^^^^^^^",
  ]);
  // Findings of one code on one file still say a line once (`1 | import os` of F401 twice).
  const f401 = out.indexOf(" --> a.py:2:8");
  expect(out[f401 + 1]).toBe("help: Remove unused import: `sys`");
});
