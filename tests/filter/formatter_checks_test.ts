/**
 * Formatters' check modes on real captures (bench/corpus): the lines naming each file or place
 * that is not formatted, the tool's errors and its counts stay as printed; the diffs go, counted
 * (running the formatter applies them, and the unfiltered output keeps them), but isort's: it is
 * a few lines of imports that say which import moved. A short output (80 lines at most, one
 * threshold for gofmt, black, rustfmt and deno fmt) keeps its files, hunks and context, and the
 * first old and first new line of each change; the rest of a change is counted.
 */
import { expect } from "expect";
import { corpus, filter, fixture, lines } from "./_builtin.ts";
import { stripAnsi } from "../../src/filter/sanitize.ts";

const DIR = "/tmp/zeph-corpus/fmtcheck";

const CASES: { path: string; command: string; want: string[] }[] = [
  {
    path: "cargo/fmt_check.txt",
    command: "cargo fmt --check",
    want: [
      ...["alpha", "beta", "delta", "gamma"].flatMap((m) =>
        [1, 5, 11].map((at) => `Diff in ${DIR}/rs/src/${m}.rs:${at}:`)
      ),
      "(52 changed lines of rustfmt's diff not shown: `cargo fmt` applies it)",
    ],
  },
  {
    path: "python/black_check_diff.txt",
    command: "black --check --diff app",
    want: [
      ...["billing", "orders", "stock", "users"].map((m) => `would reformat ${DIR}/py/app/${m}.py`),
      "Oh no! 💥 💔 💥",
      "4 files would be reformatted, 2 files would be left unchanged.",
      "(96 changed lines of black's diff not shown: running black without --check applies it)",
    ],
  },
  {
    path: "go/gofmt_diff.txt",
    command: "gofmt -d .",
    want: [
      ...["alpha", "beta", "delta", "gamma"].map((m) => `diff ${m}.go.orig ${m}.go`),
      "(108 lines of gofmt's diff not shown: `gofmt -w` applies it)",
    ],
  },
];

/** `n` changed lines of a further file's diff, in `format`'s shape: they make an output long. */
const filler = (format: "black" | "rustfmt", n: number): string[] => {
  const changed = Array.from({ length: n }, (_, i) => `${i % 2 ? "+" : "-"}x${i} = 1`);
  return format === "black"
    ? [
      "--- /p/app/z.py\t2026-11-27 00:00:00 +0000",
      "+++ /p/app/z.py\t2026-11-27 00:00:01 +0000",
      `@@ -1,${Math.ceil(n / 2)} +1,${Math.floor(n / 2)} @@`,
      ...changed,
    ]
    : ["Diff in /p/src/z.rs:1:", ...changed];
};

/** A diff's changed line: unified (`-old`, `+new`, not a `---`/`+++` header) or deno's `3 | -old`. */
const CHANGED = /^(?:[-+](?!(?:---|\+\+\+) )|\s*\d+ \| [-+])/;
const FOLD = /^\s*… (\d+) more changed lines$/;

Deno.test("a formatter's short check output keeps every file, hunk and context line and each change's first lines; the rest is counted", async () => {
  const cases: [string, string][] = [
    ["gofmt -l -d .", "gofmt-diff/small_diff_parse_error.in.txt"],
    ["black --check --diff app", "black-diff/cannot_parse.in.txt"],
    ["cargo fmt --check", "cargo-fmt-check/error_and_diffs.in.txt"],
    ["deno fmt --check src", "deno-fmt-check/check.in.txt"],
  ];
  const foldedIn: string[] = [];
  for (const [command, path] of cases) {
    const raw = await fixture(path);
    // Every line as printed (the sanitizer empties blank context lines and joins runs of them;
    // the generic pass drops the empty gutter rows of a compiler's code frame).
    const printed = (text: string) =>
      lines(text).filter((line) => line.trim() !== "" && !/^\s*\|[\s|]*$/.test(line));
    const before = printed(raw);
    const after = printed(filter(command, raw, true));
    // The lines that are no change (files, hunk heads, context, errors, counts) all stay, in order.
    const unchanged = (all: string[]) => all.filter((l) => !CHANGED.test(l) && !FOLD.test(l));
    expect({ path, lines: unchanged(after) }).toEqual({ path, lines: unchanged(before) });
    // A changed line kept is as printed; with the folds' counts they are all the changes.
    const kept = after.filter((l) => CHANGED.test(l));
    for (const line of kept) expect(before).toContain(line);
    const folded = after.reduce((n, l) => n + Number(FOLD.exec(l)?.[1] ?? 0), 0);
    expect({ path, changes: kept.length + folded })
      .toEqual({ path, changes: before.filter((l) => CHANGED.test(l)).length });
    if (folded > 0) foldedIn.push(path);
  }
  // A change of two old and two new lines stays whole (black's here); the longer ones fold.
  expect(foldedIn).toEqual([
    "gofmt-diff/small_diff_parse_error.in.txt",
    "cargo-fmt-check/error_and_diffs.in.txt",
    "deno-fmt-check/check.in.txt",
  ]);
  // A small gofmt diff keeps the first old and the first new line of a change.
  const out = lines(
    filter("gofmt -l -d .", await fixture("gofmt-diff/small_diff_parse_error.in.txt"), true),
  );
  expect(out).toContain("-\tout := make([]string,0,len(s.items))");
  expect(out).toContain("+\tout := make([]string, 0, len(s.items))");
  expect(out).toContain("-type Store struct{");
});

for (const { path, command, want } of CASES) {
  Deno.test(`${command}: the files and counts stay, the diff goes`, async () => {
    expect(lines(filter(command, await corpus(path), true))).toEqual(want);
  });
}

Deno.test("clang-format --dry-run: every place stays, its source line and caret go", async () => {
  const raw = lines(await corpus("native/clang_format_dry_run.txt"));
  const places = raw.filter((line) => /^\w+\.c:\d+:\d+: error: /.test(line));
  const out = filter(
    "clang-format --dry-run -Werror alpha.c beta.c delta.c fine.c gamma.c",
    raw.join("\n"),
    true,
  );
  expect(places.length).toBe(68);
  expect(lines(out)).toEqual([...places, "(136 quoted source and caret lines not shown)"]);
});

Deno.test("cargo fmt --check: a file rustfmt cannot parse keeps its error, location and excerpt", () => {
  const tail = filler("rustfmt", 80);
  const raw = [
    "error: this file contains an unclosed delimiter",
    " --> /p/src/fine.rs:1:18",
    "  |",
    "1 | pub fn broken( {",
    "  |               -  ^",
    "  |               |",
    "  |               unclosed delimiter",
    "",
    "Error writing files: failed to resolve mod `fine`: cannot parse /p/src/fine.rs",
    ...tail,
  ];
  // The excerpt's empty gutter rows (a bare `|`, a connector) go; its source and labels stay.
  expect(lines(filter("cargo fmt --check", raw.join("\n"), true))).toEqual([
    "error: this file contains an unclosed delimiter",
    " --> /p/src/fine.rs:1:18",
    "1 | pub fn broken( {",
    "  |               -  ^",
    "  |               unclosed delimiter",
    "Error writing files: failed to resolve mod `fine`: cannot parse /p/src/fine.rs",
    "Diff in /p/src/z.rs:1:",
    "(80 changed lines of rustfmt's diff not shown: `cargo fmt` applies it)",
  ]);
});

Deno.test("cargo fmt --check: a parse error stays whole, the count is of the changed lines", async () => {
  const raw = lines(await fixture("cargo-fmt-check/error_and_diffs.in.txt"));
  const out = lines(
    filter(
      "cargo fmt --check -- --color never",
      [...raw, ...filler("rustfmt", 60)].join("\n"),
      true,
    ),
  );
  // The error, its location and its whole excerpt (source, label and caret lines) as printed,
  // the excerpt's empty gutter row aside.
  expect(out.slice(0, 7)).toEqual([...raw.slice(0, 2), ...raw.slice(3, 7), raw[8]]);
  expect(raw[2]).toBe("  |");
  expect(out.slice(7)).toEqual([
    "Diff in /tmp/l5/rs/p/src/main.rs:1:",
    "Diff in /tmp/l5/rs/p/src/ugly.rs:1:",
    "Diff in /p/src/z.rs:1:",
    // 6 + 10 `-`/`+` lines and the filler's; context and blank lines are no changed lines.
    `(${
      raw.filter((l) => /^[-+]/.test(l)).length + 60
    } changed lines of rustfmt's diff not shown: \`cargo fmt\` applies it)`,
  ]);
  expect(out.at(-1)).toContain("(76 changed lines");
});

Deno.test("black --check --diff: the count is of the changed lines, not headers, context or blanks", async () => {
  const raw = lines(await fixture("black-diff/cannot_parse.in.txt"));
  const out = lines(
    filter("black --check --diff app", [...filler("black", 60), ...raw].join("\n"), true),
  );
  expect(out).toEqual([
    "would reformat /tmp/l5/py/app/a.py",
    "would reformat /tmp/l5/py/app/b.py",
    "error: cannot format /tmp/l5/py/app/d.py: Cannot parse: 1:11: def broken(:",
    "Oh no! 💥 💔 💥",
    "2 files would be reformatted, 1 file would be left unchanged, 1 file would fail to reformat.",
    "(74 changed lines of black's diff not shown: running black without --check applies it)",
  ]);
});

Deno.test("isort --check --diff: each file's import diff stays, its ---/+++ header pair goes", async () => {
  const raw = lines(await corpus("python/isort_check_diff.txt"));
  const kept = lines(filter("isort --check --diff app", raw.join("\n"), true));
  expect(kept.filter((line) => line.startsWith("ERROR: "))).toEqual(
    raw.filter((line) => line.startsWith("ERROR: ")),
  );
  expect(kept.some((line) => /^(---|\+\+\+) /.test(line))).toBe(false);
  expect(kept.slice(0, 9)).toEqual([
    `ERROR: ${DIR}/py/app/users.py Imports are incorrectly sorted and/or formatted.`,
    "@@ -1,7 +1,7 @@",
    "+import json",
    "+import os",
    " import sys",
    "-import os",
    "-from typing import List,Dict",
    "-import json",
    "+from typing import Dict, List",
  ]);
});

Deno.test("a formatter chained with a failing test run reads only its own diff: the runner's `-`/`+` lines stay whole", async () => {
  // Each case: the capture, its command and the runner's first line (where black's, gofmt's,
  // rustfmt's or deno fmt's output ends).
  const cases: [string, string, string][] = [
    ["black-diff/then_unittest", "black --check --diff . ; python3 -m unittest", "FF"],
    ["black-diff-hunks/then_unittest", "black --check --diff . ; python3 -m unittest", "FF"],
    ["gofmt-diff/then_go_test", "gofmt -d . ; go test ./...", "--- FAIL: TestRender (0.00s)"],
    ["gofmt-diff-hunks/then_go_test", "gofmt -d . ; go test ./...", "--- FAIL: TestRender (0.00s)"],
    [
      "cargo-fmt-check-hunks/then_cargo_test",
      "cargo fmt --check ; cargo test --offline",
      "running 2 tests",
    ],
    [
      "deno-fmt-check-hunks/then_deno_test",
      "deno fmt --check . ; deno test --no-check render_test.ts",
      "render lists keys ... FAILED (979µs)",
    ],
  ];
  const plain = (text: string) => lines(stripAnsi(text));
  for (const [path, command, first] of cases) {
    const raw = plain(await fixture(`${path}.in.txt`));
    const at = raw.indexOf(first);
    // The runner's lines that read like a diff's: its assertion diffs, got/want values, a
    // panic's list (`- user`), go test's `--- FAIL:` heads; not unittest's rulers, its own
    // rule's to drop.
    const signed = raw.slice(at).filter((line) => /^\s*[-+]/.test(line) && !/^-+$/.test(line));
    const out = lines(filter(command, raw.join("\n"), true));
    const kept = out.filter((line) => signed.includes(line));
    expect({ path, at: at > 0, kept }).toEqual({ path, at: true, kept: signed });
    // The formatter's own diff is still read: its changes fold.
    expect({ path, folded: out.some((l) => FOLD.test(l) || / not shown: /.test(l)) })
      .toEqual({ path, folded: true });
  }
});
