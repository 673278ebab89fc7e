/**
 * Rules for tool families whose output matched no rule before, on real captures in bench/corpus:
 * phpunit (its default and `--testdox` reports), `git apply` and `git submodule update` that fail,
 * `meson test --verbose`, `terraform plan` that fails, `gcov -b -c`,
 * `tsc --extendedDiagnostics`, `git tag -l`.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";
import { sanitize } from "../../src/filter/mod.ts";

/** The lines of `text` that are not blank. */
const printed = (text: string): string[] => lines(text).filter((l) => l.trim() !== "");

Deno.test("phpunit -v: every numbered failure, error, risky, incomplete and skipped test stays whole; banner, progress and timing go", async () => {
  const input = await corpus("php/phpunit_verbose.txt");
  const out = lines(filter("phpunit -v", input, true));
  const noise = /^(PHPUnit \d|Runtime:|Configuration:|\.{10}|Time: |--$)/;
  for (const line of printed(input)) {
    if (!noise.test(line)) expect(out).toContain(line);
    else expect(out).not.toContain(line);
  }
});

Deno.test("phpunit --testdox: passing rows fold to a count, each failing row keeps its message, diff and frames once", async () => {
  const input = await corpus("php/phpunit_testdox.txt");
  const out = lines(filter("vendor/bin/phpunit --testdox", input, true));
  expect(out).toContain("… 30 lines of passing tests folded …");
  for (const line of printed(input)) {
    if (/^ {1,4}[✘☢∅↩] |^ {1,4}│ .|^Tests: /.test(line)) expect(out).toContain(line);
  }
  // The summary of non-successful tests repeats every failing row: each is shown once.
  expect(out.filter((l) => l === " ✘ Skus in order")).toHaveLength(1);
  expect(out.filter((l) => l === "   │ -    2 => 'c'")).toHaveLength(1);
  expect(out.filter((l) => l === "   │")).toEqual([]);
});

Deno.test("phpunit: a failure's frames under vendor/ go but the first, where it was thrown; the project's stay", () => {
  const input = [
    "There was 1 error:",
    "",
    "1) Tests\\Feature\\OrderTest::testCheckout",
    "Illuminate\\Database\\QueryException: SQLSTATE[HY000]: General error: 1 no such table: orders",
    "",
    "/app/vendor/laravel/framework/src/Illuminate/Database/Connection.php:760",
    "/app/vendor/laravel/framework/src/Illuminate/Database/Connection.php:720",
    "/app/app/Models/Order.php:41",
    "/app/vendor/laravel/framework/src/Illuminate/Support/helpers.php:12",
    "/app/tests/Feature/OrderTest.php:22",
    "",
    "ERRORS!",
    "Tests: 3, Assertions: 2, Errors: 1.",
  ].join("\n");
  expect(printed(filter("php vendor/bin/phpunit", input, true))).toEqual([
    "There was 1 error:",
    "1) Tests\\Feature\\OrderTest::testCheckout",
    "Illuminate\\Database\\QueryException: SQLSTATE[HY000]: General error: 1 no such table: orders",
    "/app/vendor/laravel/framework/src/Illuminate/Database/Connection.php:760",
    "/app/app/Models/Order.php:41",
    "/app/tests/Feature/OrderTest.php:22",
    "ERRORS!",
    "Tests: 3, Assertions: 2, Errors: 1.",
  ]);
});

Deno.test("git apply --reject -v: progress goes, every error with the lines searched for and every rejected hunk stay", async () => {
  const input = await corpus("git/git_apply_reject.txt");
  const out = lines(filter("git apply --reject -v ../change.patch", input, true));
  const progress = /^(Checking patch |Hunk #\d+ applied cleanly\.$|Applied patch .* cleanly\.$)/;
  for (const line of lines(input)) {
    if (progress.test(line)) expect(out).not.toContain(line);
    else expect(out).toContain(line);
  }
  expect(out).toContain("… 8 patches applied cleanly …");
});

Deno.test("git submodule update: submodules that went as planned fold to a count, each fatal and error line stays", async () => {
  const input = await corpus("git/git_submodule_update.txt");
  const out = lines(
    filter("git -c protocol.file.allow=always submodule update --init --recursive", input, true),
  );
  expect(out).toEqual([
    "… 51 lines of submodules registered, cloned and checked out …",
    ...lines(input).filter((l) => l.startsWith("fatal: ")),
  ]);
  // Local changes in the way of a checkout: git's lines all stay.
  const blocked = [
    "error: Your local changes to the following files would be overwritten by checkout:",
    "\tREADME",
    "Please commit your changes or stash them before you switch branches.",
    "Aborting",
    "fatal: Unable to checkout 'f190894d75f03f6c50e5e7a1e8c92b220e251e3a' in submodule path 'deps/json'",
  ].join("\n");
  expect(filter("git submodule update", blocked, true)).toBe(blocked);
});

Deno.test("meson test --verbose: a passing test's output folds, a failing, skipped or unexpectedly passing test's stays whole", async () => {
  const input = await corpus("native/meson_test_verbose.txt");
  const out = lines(filter("meson test --verbose", input, true));
  const kept = (l: string) => out.includes(l);
  // Each test that did not pass keeps its verdict line and every line of its output.
  const verdicts = lines(input).filter((l) =>
    /^ ?\d+\/15 \S+ +(FAIL|SKIP|UNEXPECTEDPASS) /.test(l)
  );
  expect(verdicts.length).toBeGreaterThanOrEqual(4);
  for (const verdict of verdicts) expect(out).toContain(verdict);
  for (
    const line of [
      "stdout:",
      "checking clamp case 3 ... ok",
      "1 of 5 checks failed",
      "no network here",
    ]
  ) {
    expect(kept(line)).toBe(true);
  }
  expect(out.filter((l) => l.startsWith("test_div.c:9: ") || l.startsWith("test_clamp.c:9: ")))
    .toHaveLength(2);
  // Passing tests' output and the progress go; the counts stay.
  expect(out.some((l) => /^checking (add|sub|sign) case/.test(l))).toBe(false);
  expect(out.some((l) => / RUNNING *$/.test(l) || l.startsWith(">>> ") || l.startsWith("――"))).toBe(
    false,
  );
  for (const line of lines(input).filter((l) => /^(Ok|Fail|Unexpected Pass|Skipped):/.test(l))) {
    expect(out).toContain(line);
  }
  expect(out.filter((l) => l.includes(" lines of a passing test's output folded …")).length)
    .toBeGreaterThan(0);
});

Deno.test("terraform plan with errors: each error box keeps every row with text; its empty rows, refresh progress and the wrapped legend go", async () => {
  const input = sanitize(await corpus("infra/terraform_plan_errors.txt"));
  const out = lines(filter("terraform plan -input=false", input, true));
  const box = lines(input).filter((l) => /^│ .*\S/.test(l) && !/^│ +├─+$/.test(l));
  expect(box.length).toBeGreaterThanOrEqual(10);
  for (const line of box) expect(out).toContain(line);
  expect(out).toContain("Plan: 5 to add, 0 to change, 0 to destroy.");
  expect(out.filter((l) => /^│ ?$/.test(l) || l.includes("Refreshing state..."))).toEqual([]);
  expect(out).not.toContain("plan. Resource actions are indicated with the following symbols:");
});

Deno.test("gcov -b -c: files with the figures of a file shown fold into a count naming them; the others and the total stay", async () => {
  const input = await corpus("native/gcov_branches.txt");
  const out = lines(filter("gcov -b -c main.c mod*.c", input));
  // Every file is named: shown with its figures, or on a count line.
  for (const file of lines(input).filter((l) => l.startsWith("File '"))) {
    const name = file.slice(6, -1);
    expect(out.some((l) => l === file || (l.startsWith("… ") && l.includes(name)))).toBe(true);
  }
  expect(out).toContain("File 'mod11.c'");
  expect(out).toContain(
    "… 3 more with the figures of File 'mod11.c' (also at mod12.c, mod13.c, mod14.c)",
  );
  expect(out.at(-1)).toBe(lines(input).filter((l) => l.startsWith("Lines executed:")).at(-1));
  expect(out.filter((l) => l.startsWith("Creating '") || l === "")).toEqual([]);
  expect(out.length).toBeLessThan(lines(input).length / 4);
});

Deno.test("tsc --extendedDiagnostics: the errors and the table's headline rows stay, its other rows are counted", async () => {
  const input = await corpus("node/tsc_extended_diagnostics.txt");
  const out = lines(filter("tsc -p . --extendedDiagnostics", input, true));
  const rows = lines(input).filter((l) => /^[A-Za-z][\w /]+: +\d/.test(l));
  const headline =
    /^(Files|Lines of (Library|TypeScript)|Identifiers|Symbols|Types|Instantiations|Memory used|Check time|Total time):/;
  for (const row of rows) {
    if (headline.test(row)) expect(out).toContain(row);
    else expect(out).not.toContain(row);
  }
  for (const line of lines(input).filter((l) => l.includes(": error TS"))) {
    expect(out.some((l) => l.trim() === line)).toBe(true);
  }
  const dropped = rows.filter((r) => !headline.test(r)).length;
  expect(out).toContain(
    `(${dropped} more rows of the diagnostics table not shown: zero, node counts, caches, other phases' times)`,
  );
});

Deno.test("git tag -l: tags differing only in their last number join on one line naming each; other tags stay", async () => {
  const input = await corpus("git/git_tag_list.txt");
  const out = lines(filter("git tag -l", input));
  expect(out).toContain("v1.2.{0, 1, 2, 3, 4, 5, 6, 7}");
  expect(out).toContain("v4.0.{0, 0-rc.1, 0-rc.2}");
  for (const tag of ["nightly", "release-2024-01", "v0.0.0"]) expect(out).toContain(tag);
  // Every tag can be read back from the joined lines.
  const named = out.flatMap((l) => {
    const m = /^(.+)\.\{(.+)\}$/.exec(l);
    return m ? m[2].split(", ").map((item) => `${m[1]}.${item}`) : [l];
  });
  expect(named.sort()).toEqual(lines(input).filter((l) => l !== "").sort());
});
