/**
 * Ant's `[junit]` reports (bench/corpus): only failing tests keep their `Testcase:` rows, and a
 * suite's counts are said once. A failed build keeps the name of the target it failed in.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";

Deno.test("ant junit: a Testcase row stays only right above its FAILED or ERROR line; Tests run is said once", async () => {
  const input = lines(await corpus("jvm/ant_junit_failures.txt"));
  const out = lines(filter("ant test", input.join("\n"), true));
  const row = /^\s*\[junit\] Testcase: /;
  const verdict = /^\s*\[junit\] \t(FAILED|Caused an ERROR)$/;
  // The rows of failing tests, as the input has them: each right above its verdict.
  const failing = input.filter((l, i) => row.test(l) && verdict.test(input[i + 1] ?? ""));
  expect(failing).toHaveLength(4);
  expect(out.filter((l) => row.test(l))).toEqual(failing);
  out.forEach((l, i) => {
    if (row.test(l)) expect(out[i + 1]).toMatch(verdict);
  });
  const counts = out.filter((l) => /\[junit\] Tests run: /.test(l));
  expect(counts).toEqual([
    "    [junit] Tests run: 4, Failures: 1, Errors: 2, Skipped: 0, Time elapsed: 0.193 sec",
    "    [junit] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.027 sec",
  ]);
  expect(out).toContain("    [junit] Test com.acme.TaxTest FAILED");
  expect(out).toContain("BUILD FAILED");
});

Deno.test("ant: the target the build failed in stays above BUILD FAILED; the other targets go", async () => {
  // Real captures (Ant 1.10): a `<copy>` of a missing file after a copy that worked, and a
  // `<fail unless>` in a target that printed nothing.
  const dir = new URL("../fixtures/filters/ant/", import.meta.url);
  const cases: [string, string, string[]][] = [
    ["copy_missing.in.txt", "package:", ["init:", "compile:", "docs:"]],
    ["fail_unless.in.txt", "check-changelog:", ["clean:", "prepare:"]],
  ];
  for (const [file, failedIn, others] of cases) {
    const input = lines(await Deno.readTextFile(new URL(file, dir)));
    const out = lines(filter("ant", input.join("\n"), true));
    const at = out.indexOf("BUILD FAILED");
    expect(out[at - 1]).toBe(failedIn);
    expect(out[at + 1]).toBe(input[input.indexOf("BUILD FAILED") + 1]);
    for (const target of others) expect(out).not.toContain(target);
  }
  // A passing build says no target.
  const passed =
    "Buildfile: /p/build.xml\n\ninit:\n    [mkdir] Created dir: /p/b\n\nBUILD SUCCESSFUL";
  expect(lines(filter("ant", passed, false))).toEqual(["BUILD SUCCESSFUL"]);
});
