/**
 * The grouping strategies keep their members as printed: through the built-in rules, every line
 * of a real output's grouping (bench/corpus) is an input line as printed (indentation aside) or
 * an engine marker (a group's header, a count), and each finding's location stays — in its line
 * as printed, or in the count of a message already shown.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { isMarker, loadFilterEngine, normalLine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const corpus = new URL("../../bench/corpus/", import.meta.url);

/** Real outputs, and each format's head written independently of the rules' patterns. */
const CASES: { file: string; head: RegExp }[] = [
  { file: "node/tsc_errors", head: /^\S+\(\d+,\d+\): (error|warning) TS\d+:/ },
  { file: "python/pylint_package", head: /^[^\s:]+:\d+:\d+: [CRWEFI]\d{4}:/ },
  { file: "python/mypy_errors", head: /^[^\s:]+:\d+: (error|warning):/ },
  {
    file: "ruby/rubocop_lib",
    head: /^[^\s:]+:\d+:\d+: [CWRIEF]: (\[Correct\w+\] )?[A-Z]\w*\/\w+:/,
  },
  { file: "lint/markdownlint_docs", head: /^\S+:\d+(:\d+)? (error |warning )?MD\d{3}\/[\w/-]+/ },
  { file: "make/gcc_direct", head: /^[^\s:]+:\d+:\d+: (warning|error):/ },
  { file: "make/build_warnings", head: /^[^\s:]+:\d+:\d+: (warning|error):/ },
  { file: "lint/biome_lint", head: /^\S+:\d+:\d+ lint\/\w+\/\w+/ },
];

/** A head's location: the text before its first `: ` or ` ` after the position. */
const locationOf = (head: string) => /^\S+?(?:\(\d+,\d+\)|:\d+(?::\d+)?)/.exec(head)![0];

for (const { file, head } of CASES) {
  Deno.test(`grouping keeps its members as printed and every location: ${file}`, async () => {
    const meta = JSON.parse(await Deno.readTextFile(new URL(`${file}.json`, corpus)));
    const input = await Deno.readTextFile(new URL(`${file}.txt`, corpus));
    const result = engine.filter(meta.command, input, { failed: meta.exit_code !== 0 });
    const inputs = new Set(input.split("\n").map(normalLine));
    const rewritten = result.text.split("\n").slice(0, -1).filter((line) =>
      !isMarker(line) && !inputs.has(normalLine(line).replace(/ \(x\d+\)$/, ""))
    );
    expect(rewritten).toEqual([]);
    const heads = input.split("\n").flatMap((line) => head.exec(line)?.[0] ?? []);
    expect(heads.length).toBeGreaterThan(1);
    const missing = heads.map(locationOf).filter((l) => !result.text.includes(l));
    expect(missing).toEqual([]);
  });
}

Deno.test("grouping keeps every finding's line as printed, the repeated message too", () => {
  const input = [
    ...Array.from(
      { length: 20 },
      (_, i) =>
        `src/m${i}.ts(3,7): error TS2322: Type 'number' is not assignable to type 'string'.`,
    ),
    "src/alone.ts(9,1): error TS2304: Cannot find name 'x'.",
  ].join("\n");
  const out = engine.filter("npx tsc -p .", input, { failed: true }).text;
  // Signals are whole lines: a finding cut to its location would lose one; the output is never
  // longer than the input.
  expect(out.length).toBeLessThanOrEqual(input.length);
  const lines = out.split("\n");
  for (const line of input.split("\n")) expect(lines).toContain(line);
});

Deno.test("mypy's findings keep their `path:line: error:` heads and their notes", () => {
  const input = [
    ...Array.from(
      { length: 6 },
      (_, i) =>
        `pkg/m${i}.py:${i + 1}: error: Function is missing a type annotation  [no-untyped-def]`,
    ),
    'pkg/a.py:9: error: Name "y" is not defined  [name-defined]',
    'pkg/a.py:9: note: Did you mean "x"?',
    "Found 7 errors in 7 files (checked 8 source files)",
  ].join("\n");
  const out = engine.filter("mypy pkg", input, { failed: true }).text;
  for (let i = 0; i < 6; i++) expect(out).toContain(`pkg/m${i}.py:${i + 1}: error:`);
  expect(out).toContain('pkg/a.py:9: error: Name "y" is not defined  [name-defined]');
  expect(out).toContain('pkg/a.py:9: note: Did you mean "x"?');
  expect(out.length).toBeLessThanOrEqual(input.length);
});
