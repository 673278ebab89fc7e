/** fold_blocks: the inner lines of long blocks fold into a count; failures and `keep` lines stay. */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";

function run(strategy: Record<string, unknown>, input: string[], failed = false) {
  const rule = compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test");
  const out = new FilterEngine([rule], { security: false }).filter("cmd", input.join("\n"), {
    failed,
  });
  return { lines: out.text.split("\n"), confidence: out.stats.confidence };
}

const S = { type: "fold_blocks", start: "^begin ", end: "^end$", keep: ["^\\s+keep "] };

Deno.test("a long block's inner lines fold into a count; its keep and failure lines stay in place", () => {
  const input = [
    "before",
    "begin one",
    "  a",
    "  keep this",
    "  b",
    "  error: broken here",
    "  c",
    "  at src/x.ts:3:4",
    "  d",
    "end",
    "after",
  ];
  expect(run(S, input)).toEqual({
    lines: [
      "before",
      "begin one",
      "  keep this",
      "  error: broken here",
      "  at src/x.ts:3:4",
      "  … (4 lines)",
      "end",
      "after",
    ],
    confidence: "full",
  });
});

Deno.test("short blocks stay whole, lines outside pass, and nothing folded is Fallback", () => {
  const input = ["x", "begin short", "  attribute one", "  attribute two", "end", "y"];
  expect(run(S, input)).toEqual({ lines: input, confidence: "fallback" });
  expect(run({ ...S, min_lines: 1 }, input).lines).toEqual([
    "x",
    "begin short",
    "  … (2 lines)",
    "end",
    "y",
  ]);
});

Deno.test("a block the output ends inside gets its count at the end", () => {
  const input = ["begin open", "  a", "  b", "  c", "  d", "  e"];
  expect(run({ ...S, summary: "({n} folded)" }, input).lines).toEqual([
    "begin open",
    "(5 folded)",
  ]);
});

Deno.test("terraform: a destroyed resource's attributes fold; an update's removals stay", async () => {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const attrs = Array.from({ length: 12 }, (_, i) => `      - attr_${i} = "v${i}" -> null`);
  const plan = [
    "Terraform will perform the following actions:",
    "  # aws_instance.web will be updated in-place",
    '  ~ resource "aws_instance" "web" {',
    '      - user_data = "abc" -> null',
    "      - monitoring = true -> null",
    "      - ebs_optimized = false -> null",
    '      - key_name = "k" -> null',
    "    }",
    "  # aws_db_instance.old will be destroyed",
    '  - resource "aws_db_instance" "old" {',
    ...attrs,
    "    }",
    "Plan: 0 to add, 1 to change, 1 to destroy.",
  ].join("\n");
  const out = engine.filter("terraform plan", plan).text;
  expect(out).toContain('      - user_data = "abc" -> null');
  expect(out).toContain('      - key_name = "k" -> null');
  expect(out).not.toContain("attr_3");
  expect(out).toContain(
    '  - resource "aws_db_instance" "old" {\n      … (12 attribute lines removed with it)\n    }',
  );
});

Deno.test("only_when: a block folds only when its end says so; others and an unclosed one stay whole", () => {
  const strategy = {
    type: "fold_blocks",
    start: "^run ",
    end: "^(ok|failed) ",
    only_when: "^ok ",
    summary: "… {n}",
  };
  const input = [
    "run a",
    "a1",
    "a2",
    "a3",
    "a4",
    "ok a",
    "run b",
    "b1",
    "b2",
    "b3",
    "b4",
    "failed b",
    "run c",
    "c1",
    "c2",
    "c3",
    "c4",
  ];
  expect(run(strategy, input).lines).toEqual(["run a", "… 4", "ok a", ...input.slice(6)]);
});

Deno.test("fold: probe lines that only quote a failure-looking name fold with the rest", () => {
  const strategy = { ...S, fold: ["^  probe '[^']+'$"] };
  const input = ["begin x", "  probe 'errors.ts'", "  a", "  b", "  error: real", "end"];
  expect(run(strategy, input).lines).toEqual(["begin x", "  error: real", "  … (3 lines)", "end"]);
});

Deno.test("nox: a passing session folds to its head and verdict; the failing one and the summary stay", async () => {
  const input = await Deno.readTextFile(
    new URL("../../bench/corpus/python/nox_sessions_one_failing.txt", import.meta.url),
  );
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const out = engine.filter("nox", input, { failed: true }).text.split("\n");
  const all = input.split("\n");
  expect(out).not.toContain(
    "tests/test_calc.py::test_div PASSED                                      [100%]",
  );
  expect(out).toContain("nox > … 17 lines of a passing session");
  const failing = all.slice(
    all.indexOf("nox > Running session tests"),
    all.indexOf("nox > Session tests failed.") + 1,
  );
  for (const line of failing.filter((l) => /\S/.test(l) && !/^(_ )+_?\s*$/.test(l))) {
    expect(out).toContain(line);
  }
  for (const line of all.filter((l) => /^nox > (\* |Ran |Running session |Session )/.test(l))) {
    expect(out).toContain(line);
  }
});

Deno.test("after: a start line opens a block only right under a line matching it", () => {
  const strategy = {
    type: "fold_blocks",
    start: "^-- out$",
    end: "^--$",
    after: " OK$",
    summary: "… {n}",
  };
  const input = [
    "1/3 a OK",
    "-- out",
    "a1",
    "a2",
    "a3",
    "a4",
    "--",
    "2/3 b FAIL",
    "-- out",
    "b1",
    "b2",
    "b3",
    "b4",
    "--",
    "3/3 c OK",
    "c has no block: the next start line is under another line",
    "-- out",
    "c1",
    "c2",
    "c3",
    "c4",
    "--",
  ];
  expect(run(strategy, input).lines).toEqual([
    "1/3 a OK",
    "-- out",
    "… 4",
    "--",
    ...input.slice(7),
  ]);
});
