/**
 * JS and Python tooling whose runs print much of one shape around a few lines that matter, on real
 * captures in bench/corpus: `tsc --traceResolution` (each resolution's head and result, its probing
 * counted), workspace runs of pnpm (the passing packages' lines counted per package), nox sessions,
 * ruff's grouped and concise formats, `npm ls --all` with problems (and `npm ls <name>`, whose
 * every line is its answer) and `php -l` over a project.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";

Deno.test("tsc --traceResolution keeps each resolution's head and result and counts its probing", async () => {
  const input = await corpus("node/tsc_trace_resolution.txt");
  const out = lines(filter("tsc -p . --traceResolution", input, true));
  const heads = lines(input).filter((l) =>
    /^======== (Resolving|Module name|Type reference)/.test(l)
  );
  for (const head of heads) expect(out).toContain(head);
  for (const l of lines(input).filter((l) => /error TS\d+/.test(l))) expect(out).toContain(l);
  expect(out.filter((l) => /^File '[^']*' does not exist\.$/.test(l))).toEqual([]);
  expect(out.filter((l) => /^… \d+ lookup lines$/.test(l)).length).toBeGreaterThan(20);
  expect(out.length).toBeLessThan(lines(input).length / 2);
});

Deno.test("pnpm -r run build folds each passed package to a count and keeps the failed one whole", async () => {
  const input = await corpus("node/pnpm_recursive_build.txt");
  const out = lines(filter("pnpm -r run build", input, true));
  for (const l of lines(input).filter((l) => /^packages\/web |ERR_PNPM|^Exit status/.test(l))) {
    expect(out).toContain(l);
  }
  for (const pkg of ["api", "cli", "core", "utils"]) {
    expect(out).toContain(`packages/${pkg} build: Done`);
    expect(out).toContain(`… 10 lines of packages/${pkg} build folded`);
    expect(out.filter((l) => l.startsWith(`packages/${pkg} build: [`))).toEqual([]);
  }
});

Deno.test("pnpm -r keeps a package whose lines end without a verdict whole", () => {
  const input = [
    "packages/a test$ node --test",
    "packages/a test: ok 1 - adds",
    "packages/a test: ok 2 - joins",
    "packages/a test: Done",
    "packages/b test$ node --test",
    "packages/b test: ok 1 - parses",
    "packages/b test: ok 2 - formats",
    "packages/c test$ node --test",
    "packages/c test: not ok 1 - rounds",
    "packages/c test: Failed",
    " ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @x/c@1.0.0 test: `node --test`",
  ];
  const out = lines(filter("pnpm -r test", input.join("\n"), true));
  expect(out).toEqual([
    "… 3 lines of packages/a test folded",
    ...input.slice(3),
  ]);
});

Deno.test("ruff's concise format groups findings by code and names every location", async () => {
  const input = await corpus("lint/ruff_concise_email.txt");
  const text = filter("ruff check --output-format=concise email", input, true);
  const findings = lines(input).filter((l) => /^\S+:\d+:\d+: [A-Z]+\d+ /.test(l));
  for (const finding of findings) expect(text).toContain(finding.split(": ")[0]);
  expect(text).toContain("UP032 (84):");
  expect(text).toContain("Found 147 errors.");
  expect(lines(text).length).toBeLessThan(findings.length / 2);
});

Deno.test("ruff's grouped format keeps each file and row as printed, a file's repeats counted with their positions", async () => {
  const input = await corpus("lint/ruff_grouped_email.txt");
  const out = lines(filter("ruff check --output-format=grouped email", input, true));
  let file = "";
  const more = new Map<string, string>();
  for (const l of out) {
    if (/^\S+:$/.test(l)) file = l;
    else if (l.startsWith("  … ")) more.set(file, (more.get(file) ?? "") + l);
  }
  for (const l of lines(input)) {
    if (/^\S+:$/.test(l)) {
      expect(out).toContain(l);
      file = l;
      continue;
    }
    const row = /^\s+(\d+:\d+)\s+[A-Z]+\d+ /.exec(l);
    if (row && !out.includes(l)) {
      expect(more.get(file) ?? "").toMatch(new RegExp(`[ ,]${row[1]}\\b`));
    }
  }
  expect(out.length).toBeLessThan(lines(input).length / 2);
});

Deno.test("npm ls --all keeps each problem entry with the entries that lead to it", async () => {
  const input = lines(await corpus("node/npm_ls_all_problems.txt"));
  const out = lines(filter("npm ls --all", input.join("\n"), true));
  const column = (l: string) => l.search(/[\w@]/);
  const shown = (l: string) => out.some((o) => o === l || o.startsWith(`${l} (+`));
  input.forEach((line, i) => {
    if (!/ (invalid|extraneous)\b|UNMET DEPENDENCY/.test(line)) return;
    expect(shown(line)).toBe(true);
    // Every ancestor: the nearest line above at a smaller column, up to the root.
    for (let j = i - 1, c = column(line); j >= 0 && c > 0; j--) {
      if (column(input[j]) >= 0 && column(input[j]) < c) {
        expect(shown(input[j])).toBe(true);
        c = column(input[j]);
      }
    }
  });
  for (const line of input.filter((l) => l.startsWith("npm error "))) {
    if (!line.includes("A complete log")) expect(out).toContain(line);
  }
  expect(out.length).toBeLessThan(input.length / 2);
});

Deno.test("npm ls given package names keeps every path to them; only the full listing folds", async () => {
  // npm 11 over express 4: `npm ls ms` with one copy invalid (a failed run), `npm ls --all debug`.
  const read = (name: string) =>
    Deno.readTextFile(new URL(`../fixtures/generic/${name}`, import.meta.url));
  const runs = [
    ["npm ls ms", await read("npm_ls_named_invalid.txt"), true],
    ["npm ls --all debug", await read("npm_ls_all_named_deduped.txt"), false],
    ["npm ls -a ms 2>&1", await read("npm_ls_named_invalid.txt"), true],
  ] as const;
  for (const [command, input, failed] of runs) {
    const out = lines(filter(command, input, failed));
    for (const line of lines(input).filter((l) => l && !l.includes("A complete log"))) {
      expect(out).toContain(line);
    }
  }
  // The same tree asked for whole: it folds, each problem entry stays under its parent.
  const all = await read("npm_ls_all_invalid_extraneous.txt");
  for (const command of ["npm ls --all", "npm ls -a", "npm ls --depth 5", "npm ls -w web --all"]) {
    const out = lines(filter(command, all, true));
    const invalid = out.indexOf('│ │ └── ms@1.9.0 invalid: "2.0.0" from node_modules/debug');
    expect(out[invalid - 1]).toBe("│ ├─┬ debug@2.6.9");
    expect(out).toContain("└── leftpad-x@0.0.1 extraneous");
    expect(out.length).toBeLessThan(lines(all).length / 2);
  }
});

Deno.test("php -l over a project: the files that parse fold to a count, each parse error stays", async () => {
  const input = await corpus("php/php_lint_find.txt");
  const out = lines(filter("find src -name '*.php' -exec php -l {} \\;", input));
  for (const line of lines(input)) {
    if (line && !line.startsWith("No syntax errors detected in ")) expect(out).toContain(line);
  }
  expect(out.filter((l) => l.startsWith("No syntax errors detected in "))).toEqual([]);
  expect(out).toContain("(30 files without syntax errors)");
  // One file checked: its line is the answer, and stays.
  const one = "No syntax errors detected in index.php";
  expect(filter("php -l index.php", one)).toBe(one);
});
