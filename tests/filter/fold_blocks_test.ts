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
