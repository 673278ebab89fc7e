/**
 * What a linter's grouped output must keep, lost by the rules on real runs: every distinct
 * finding's message and location (biome's coloured `✖`/`⚠` messages, clippy's messages that
 * differ only by the names they quote), and the run's count of what it checked (`Checked 4
 * files`, `Found 3 source files`), a summary line rather than noise. Tested through the built-in
 * rules on real captures (tests/fixtures/filters: biome 1.9.4, clippy 0.1.95, pyright 1.1.414,
 * deno 2.9).
 */
import { expect } from "expect";
import { sanitize } from "../../src/filter/mod.ts";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

/** A capture's lines as the engine reads them: escape sequences and hyperlinks removed. */
const printed = async (path: string): Promise<string[]> => lines(sanitize(await fixture(path)));

/** `text`'s lines trimmed, for lines a group indents under its header. */
const trimmed = (text: string): string[] => lines(text).map((line) => line.trim());

Deno.test("biome in colour (`biome ci`) keeps each finding's `✖`/`⚠` message and location", async () => {
  const input = await printed("biome-group/ci_colored.in.txt");
  const out = filter("biome ci src", await fixture("biome-group/ci_colored.in.txt"), true);
  // Each finding: its `path:line:col lint/…` header, its message the next line that is not blank.
  const findings = input.flatMap((line, i) => {
    const location = /^(\S+:\d+:\d+) lint\//.exec(line)?.[1];
    const message = input.slice(i + 1).find((next) => next.trim() !== "")?.trim();
    return location && message ? [{ location, message }] : [];
  });
  const messages = new Set(findings.map((f) => f.message));
  const locations = findings.map((f) => f.location);
  expect(messages.size).toBe(5);
  expect(locations.length).toBe(8);
  expect([...messages].filter((message) => !/^[✖⚠] /.test(message))).toEqual([]);
  const shown = trimmed(out);
  expect([...messages].filter((message) => !shown.includes(message))).toEqual([]);
  expect(locations.filter((location) => !out.includes(location))).toEqual([]);
});

Deno.test("clippy keeps each message that differs by its names whole, and each location line as printed", async () => {
  const input = await printed("cargo-clippy/messages_by_names.in.txt");
  const out = filter("cargo clippy", input.join("\n"), true);
  const shown = trimmed(out);
  // `&String` → `&str` and `&Vec` → `&[_]` are one lint's message with other names: each is said.
  const messages = new Set(input.filter((line) => line.startsWith("warning: writing")));
  expect(messages.size).toBe(2);
  expect([...messages].filter((message) => !shown.includes(message))).toEqual([]);
  // Every `-->` line stays as printed, the two under the `&Vec` message shown once included.
  const places = input.filter((line) => /^\s*--> /.test(line)).map((line) => line.trim());
  expect(places.length).toBe(7);
  expect(places.filter((place) => !shown.includes(place))).toEqual([]);
  expect(out).toContain(
    [
      "  warning: writing `&Vec` instead of `&[_]` involves a new object where a slice will do",
      "   --> src/main.rs:5:16",
      "    --> src/main.rs:13:19",
      "    --> src/main.rs:17:18",
    ].join("\n"),
  );
});

Deno.test("a message said at many places keeps one line of locations; many messages of one shape, their names", () => {
  // rustc's layout: a message at five places, then eight unused variables of one file.
  const warning = (message: string, at: string) => [`warning: ${message}`, `  --> ${at}`, ""];
  const input = [
    ...[1, 2, 3, 4, 5].flatMap((n) => warning("unneeded `return` statement", `src/a.rs:${n}:5`)),
    ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) =>
      warning(`unused variable: \`v${n}\``, `src/b.rs:${n}:9`)
    ),
    "warning: `app` (lib) generated 13 warnings",
  ].join("\n");
  expect(lines(filter("cargo build", input))).toEqual([
    "unneeded `…` statement (5):",
    "  warning: unneeded `return` statement",
    "    --> src/a.rs:1:5",
    "  … 4 more saying this at src/a.rs:2:5, src/a.rs:3:5, src/a.rs:4:5, src/a.rs:5:5",
    "unused variable: `…` (8):",
    "  warning: unused variable: `v1`",
    "    --> src/b.rs:1:9",
    "  warning: unused variable: `v2`",
    "    --> src/b.rs:2:9",
    "  warning: unused variable: `v3`",
    "    --> src/b.rs:3:9",
    "  … 5 more like this at src/b.rs:4:9 `v4`, src/b.rs:5:9 `v5`, src/b.rs:6:9 `v6`, src/b.rs:7:9 `v7`, src/b.rs:8:9 `v8`",
    "warning: `app` (lib) generated 13 warnings",
  ]);
});

Deno.test("a linter's closing count of what it checked stays", async () => {
  const cases = [
    ["deno lint src", "deno-lint/many_files.in.txt", "Checked 4 files"],
    ["deno lint src", "deno-lint/problems.in.txt", "Checked 1 file"],
    ["pyright --verbose", "mypy-pyright/pyright_verbose.in.txt", "Found 3 source files"],
    ["basedpyright", "mypy-pyright/basedpyright.in.txt", "Found 12 source files"],
    ["biome ci src", "biome-group/ci_colored.in.txt", "Checked 2 files in 22ms. No fixes applied."],
    ["biome lint src/ok.js", "biome/clean.in.txt", "Checked 1 file in 2ms. No fixes applied."],
  ];
  for (const [command, path, total] of cases) {
    const out = lines(filter(command, await fixture(path), path !== "biome/clean.in.txt"));
    expect({ path, kept: out.includes(total) }).toEqual({ path, kept: true });
  }
});

Deno.test("pyright --verbose: its setup, heap stats and timings go; the report stays, the search paths when it failed", async () => {
  // pyright 1.1.414 (npm): a failing package whose import cannot be resolved (its resolution trace
  // under it), a failing project read from pyproject.toml, and a passing one.
  const runs = [
    ["npx pyright --verbose shop", await corpus("python/pyright_verbose_errors.txt"), true],
    ["npx pyright --verbose", await fixture("pyright-verbose/errors.in.txt"), true],
    ["npx pyright --verbose pkg", await fixture("pyright-verbose/passing.in.txt"), false],
  ] as const;
  for (const [command, input, failed] of runs) {
    const out = lines(filter(command, input, failed));
    const all = lines(input);
    const report = all.filter((line) =>
      / - error: |^\d+ errors?, |^Found \d+ source files$|^Could not import .*\.py'$|^ {2}Looking /
        .test(line)
    );
    expect(report.length).toBeGreaterThan(1);
    for (const line of report) expect(out).toContain(line);
    const setup =
      /^(Heap stats: |Auto-excluding |Assuming Python |Execution environment: |\[FG\] |Completed in |Loading \S+ file at )/;
    expect(out.filter((line) => setup.test(line))).toEqual([]);
    expect(out.includes("  Search paths:")).toBe(failed);
    expect(out.at(-1)).toMatch(
      /^\(\d+ lines of pyright's --verbose setup, heap stats and timings not shown\)$/,
    );
  }
});
