/**
 * unittest's report, read by python-unittest and by django-test (Django runs unittest's runner):
 * on a real `-v` run with failures, errors, subTests, a docstring's description, a test that
 * prints, a failed setUpClass and module import, skips, expected failures and an unexpected
 * success, every `FAIL:`/`ERROR:` header, the last line of its block and each failed test's
 * `... FAIL`/`... ERROR` verdict stay; passing tests' lines go.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const input = await Deno.readTextFile(
  new URL("../fixtures/filters/python-unittest/verbose_shapes.in.txt", import.meta.url),
);
const lines = input.split("\n");

/** Each `FAIL:`/`ERROR:`/`UNEXPECTED SUCCESS:` header with the last non-empty line of its block. */
function blocks(): string[] {
  const kept: string[] = [];
  let last = "";
  for (const line of lines) {
    if (/^(FAIL|ERROR|UNEXPECTED SUCCESS): /.test(line)) {
      if (last) kept.push(last);
      kept.push(line);
      last = "";
    } else if (/^(={20,}|-{20,})$/.test(line) || line.startsWith("Ran ")) {
      if (last) kept.push(last);
      last = "";
    } else if (line.trim() && kept.length) last = line;
  }
  return kept;
}

const verdicts = lines.filter((line) => /\.\.\. (FAIL|ERROR)$|^FAIL$/.test(line));

for (const command of ["python3 -m unittest -v", "python manage.py test -v 2"]) {
  Deno.test(`${command}: failure headers, their last lines and failed tests' verdicts stay`, () => {
    const outcome = engine.filter(command, input, { failed: true });
    const out = new Set(outcome.text.split("\n"));
    expect(outcome.rules.length).toBeGreaterThan(0);
    expect(blocks().length).toBeGreaterThan(20);
    expect(verdicts.length).toBeGreaterThan(10);
    expect([...blocks(), ...verdicts].filter((line) => !out.has(line))).toEqual([]);
    expect(lines.filter((line) => line.endsWith(" ... ok") && out.has(line))).toEqual([]);
  });
}

Deno.test("python -m unittest -v: the first skip of each reason stays, a few reasons at most", async () => {
  const raw = await Deno.readTextFile(
    new URL("../fixtures/filters/python-unittest/skip_reasons.in.txt", import.meta.url),
  );
  const out = engine.filter("python -m unittest -v test_m", raw, { failed: true }).text
    .split("\n");
  const skips = out.filter((line) => / \.\.\. skipped /.test(line));
  // 9 skips with 8 reasons: the first of the first 5 reasons stay as printed, the rest counted.
  expect(skips).toEqual([
    "test_db (test_m.C.test_db) ... skipped 'needs db'",
    "test_net (test_m.C.test_net) ... skipped 'network disabled in CI'",
    "test_s0 (test_m.C.test_s0) ... skipped 'reason 0'",
    "test_s1 (test_m.C.test_s1) ... skipped 'reason 1'",
    "test_s2 (test_m.C.test_s2) ... skipped 'reason 2'",
  ]);
  expect(out).toContain("test_fail (test_m.C.test_fail) ... FAIL");
  expect(out).toContain("FAILED (failures=1, skipped=9)");
  expect(out.some((line) => / \.\.\. ok$/.test(line))).toBe(false);
});
