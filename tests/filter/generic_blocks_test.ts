/**
 * Runs of multi-line blocks of one shape (src/filter/generic_blocks.ts): npm's EBADENGINE
 * warnings (a real output) keep one block and a line per package; identical blocks keep one with
 * a count; blocks whose repeated lines are failures, blocks with nothing in common and short runs
 * stay as they are.
 */
import { expect } from "expect";
import { foldRepeatedBlocks } from "../../src/filter/generic_blocks.ts";
import { threadCpuMs } from "../_support/timing.ts";

const CORPUS = new URL("../../bench/corpus/node/", import.meta.url);

Deno.test("npm's EBADENGINE blocks: the first whole, then the package and range of each", () => {
  const input = Deno.readTextFileSync(new URL("npm_install_engines.txt", CORPUS)).trimEnd()
    .split("\n");
  const w = "npm warn EBADENGINE";
  expect(foldRepeatedBlocks(input)).toEqual([
    `${w} Unsupported engine {`,
    `${w}   package: 'chokidar-next@3.1.0',`,
    `${w}   required: { node: '>=22' },`,
    `${w}   current: { node: 'v20.20.2', npm: '11.19.1' }`,
    `${w} }`,
    `${w} … 14 blocks like the one above; the lines that differ:`,
    `${w}   package: 'chokidar-next@3.1.0', required: { node: '>=22' }, (x2)`,
    `${w}   package: 'esbuild-wasm-lite@3.1.0', required: { node: '>=23' }, (x2)`,
    `${w}   package: 'fastq-lite@3.1.0', required: { node: '>=22.12.0' }, (x2)`,
    `${w}   package: 'pino-mini@3.1.0', required: { node: '>=22.12.0' }, (x2)`,
    `${w}   package: 'sharp-lite@3.1.0', required: { node: '>=24' }, (x2)`,
    `${w}   package: 'undici-lite@3.1.0', required: { node: '>=22.19.0' }, (x2)`,
    `${w}   package: 'zod-next@3.1.0', required: { node: '>=22.12.0' }, (x2)`,
    "",
    "added 8 packages in 320ms",
  ]);
});

Deno.test("identical blocks keep one copy and their count", () => {
  const block = ["Retrying request to the registry", "  waiting for the lock on cache.db"];
  expect(foldRepeatedBlocks(["start", ...block, ...block, ...block, ...block, "done"])).toEqual([
    "start",
    ...block,
    "… 3 repeats of the 2 lines above folded …",
    "done",
  ]);
  // The marker starts with the block's indent only: the start its lines share would read as a
  // line of the tool's own cut short.
  const shared = ["  retry: fetching a.tgz", "  retry: fetching b.tgz"];
  expect(foldRepeatedBlocks([...shared, ...shared, ...shared])).toEqual([
    ...shared,
    "  … 2 repeats of the 2 lines above folded …",
  ]);
});

Deno.test("blocks of one shape stay whole when they are not blocks to fold", () => {
  const shaped = (n: number, line: (i: number) => string[]) =>
    Array.from({ length: n }, (_, i) => line(i)).flat();
  const cases: Record<string, string[]> = {
    // Which failure an assertion belongs to matters: each keeps its lines.
    "repeated lines that are failures": shaped(
      5,
      (
        i,
      ) => [
        `thread 'case_${i}' stopped at src/lib.rs:${i}:9:`,
        "assertion `left == right` failed",
        "note: run with a backtrace",
      ],
    ),
    "blocks with nothing the same": shaped(
      4,
      (i) => [`FAIL test_${i}`, `  expected ${i} got ${i + 1}`],
    ),
    "two blocks only": shaped(2, (i) => [`Unsupported engine {`, `  package: 'p${i}@1.0.0',`, "}"]),
    "a fold no shorter than the blocks": shaped(
      3,
      (i) => [`Fetching item number ${i}`, "  cached copy used"],
    ),
    "prose separated by blank lines": shaped(6, (i) => [`Paragraph ${i} says something else.`, ""]),
  };
  for (const [name, input] of Object.entries(cases)) {
    expect({ name, out: foldRepeatedBlocks(input) }).toEqual({ name, out: input });
  }
});

Deno.test("a run ends where the shape does; the lines around it stay in place", () => {
  const warn = (
    p: string,
  ) => [
    `warning: deprecated option in ${p}`,
    "  use `strict` instead",
    "  see the migration guide",
  ];
  const input = [
    "building",
    ...warn("a.toml"),
    ...warn("b.toml"),
    ...warn("c.toml"),
    "error: build failed",
  ];
  expect(foldRepeatedBlocks(input)).toEqual([
    "building",
    ...warn("a.toml"),
    "… 3 blocks like the one above; the lines that differ:",
    "warning: deprecated option in a.toml",
    "warning: deprecated option in b.toml",
    "warning: deprecated option in c.toml",
    "error: build failed",
  ]);
});

Deno.test("foldRepeatedBlocks stays linear on long outputs without and with runs", () => {
  const plain = Array.from({ length: 100_000 }, (_, i) => `line ${i % 7} of ${i}`);
  const runs = Array.from(
    { length: 20_000 },
    (_, i) => ["Unsupported engine {", `  package: 'p${i}@1.0.0',`, "  required: '>=22'", "}"],
  ).flat();
  const failing = Array.from(
    { length: 20_000 },
    (_, i) => [`case ${i} stopped`, "assertion failed", "  at src/lib.rs:3:9"],
  ).flat();
  for (const input of [plain, runs, failing, Array(100_000).fill("x".repeat(50))]) {
    const start = threadCpuMs();
    foldRepeatedBlocks(input);
    expect(threadCpuMs() - start).toBeLessThan(2000);
  }
});

Deno.test("a run of more blocks than a call takes arguments is placed, not thrown on", () => {
  const lines: string[] = [];
  for (let i = 0; i < 70_000; i++) {
    lines.push(
      "Connecting to db-primary.internal",
      "error: connection refused by host",
      `  attempt: ${i}`,
    );
  }
  // A run whose blocks carry a failure stays as printed; its lines were spread into one call:
  // 210,000 arguments threw a RangeError.
  expect(foldRepeatedBlocks(lines).join("\n")).toBe(lines.join("\n"));
});

Deno.test("a printed JSON document's blocks keep their differing members as printed, one a line", () => {
  const offense = (cop: string, message: string, column: number) => [
    '          "severity": "convention",',
    `          "message": "${message}",`,
    `          "cop_name": "${cop}",`,
    '          "location": {',
    '            "start_line": 2,',
    `            "start_column": ${column},`,
  ];
  const input = [
    ...offense(
      "Naming/MethodParameterName",
      "Method parameter must be at least 3 characters long.",
      9,
    ),
    ...offense("Layout/SpaceAfterComma", "Space missing after comma.", 11),
    ...offense(
      "Naming/MethodParameterName",
      "Method parameter must be at least 3 characters long.",
      12,
    ),
    ...offense(
      "Naming/MethodParameterName",
      "Method parameter must be at least 3 characters long.",
      13,
    ),
  ];
  const out = foldRepeatedBlocks(input);
  expect(out.length).toBeLessThan(input.length);
  // Every line kept is a line of the input but the marker; each member that differs stays.
  expect(out.filter((l) => !input.includes(l))).toEqual([
    "          … 4 blocks like the one above; the lines that differ:",
  ]);
  for (
    const line of [
      '          "message": "Space missing after comma.",',
      '          "cop_name": "Layout/SpaceAfterComma",',
      '            "start_column": 13,',
    ]
  ) expect(out).toContain(line);
});

Deno.test("a run of one line repeated is left to the line collapse, not folded as blocks of it", () => {
  // clang's `2 warnings generated.` after each of 12 compiles, once the warnings were grouped.
  const input = [...Array(12).fill("2 warnings generated."), "make: *** [all] Error 2"];
  expect(foldRepeatedBlocks(input)).toEqual(input);
  // A block of two lines that differ, printed again and again, still folds.
  const pairs = Array(4).fill(["syncing mirrors", "  mirrors synced"]).flat();
  expect(foldRepeatedBlocks(pairs)).toEqual([
    "syncing mirrors",
    "  mirrors synced",
    "… 3 repeats of the 2 lines above folded …",
  ]);
});
