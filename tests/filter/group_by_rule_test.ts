/**
 * The streaming group_by_rule (bounded memory) against the batch implementation it replaced
 * (tests/filter/_group_by_rule_reference.ts): same lines and confidence for every built-in
 * group_by_rule rule on every corpus and fixture input, and on generated diagnostics that mix
 * rules, inherited rules, errors, unlocated diagnostics, blank runs and small limits.
 */
import { expect } from "expect";
import { corpusTexts } from "./_corpus.ts";
import { prng } from "../_support/random.ts";
import { parse as parseToml } from "smol-toml";
import {
  compileGroupByRule,
  elideNames,
  GroupByRuleConfig,
} from "../../src/filter/strategies/group_by_rule.ts";
import { compileGroupByRule as compileReference } from "./_group_by_rule_reference.ts";
import type { Confidence } from "../../src/filter/types.ts";
import { compilePattern, compileRule, FilterEngine } from "../../src/filter/mod.ts";

type Strategy = ReturnType<typeof compileGroupByRule>;

function runStage(strategy: Strategy, lines: string[], replay: boolean) {
  const out: string[] = [];
  const stage = strategy.createStage({
    emit: (line) => void out.push(line),
    failed: false,
    replay: replay ? (fn) => lines.forEach((l) => fn(l)) : undefined,
  });
  for (const line of lines) stage.push(line);
  const confidence: Confidence = stage.finish();
  return { out, confidence };
}

/** Both implementations of one config (compiled once: re2js compilation is slow). */
function pair(config: Record<string, unknown>) {
  const parsed = GroupByRuleConfig.parse(config);
  return { reference: compileReference(parsed), streaming: compileGroupByRule(parsed) };
}

/** Both on one input; the streaming one with and without `replay`. */
function compare(strategies: ReturnType<typeof pair>, lines: string[]) {
  const expected = runStage(strategies.reference, lines, false);
  expect(runStage(strategies.streaming, lines, true)).toEqual(expected);
  expect(runStage(strategies.streaming, lines, false)).toEqual(expected);
  return expected;
}

async function builtinConfigs(): Promise<[string, Record<string, unknown>][]> {
  const out: [string, Record<string, unknown>][] = [];
  const dir = new URL("../../filters/", import.meta.url);
  for await (const f of Deno.readDir(dir)) {
    if (!f.name.endsWith(".toml")) continue;
    const doc = parseToml(await Deno.readTextFile(new URL(f.name, dir))) as {
      rules: { name: string; strategy: Record<string, unknown> }[];
    };
    for (const rule of doc.rules) {
      if (rule.strategy.type === "group_by_rule") out.push([rule.name, rule.strategy]);
    }
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

async function inputs(): Promise<string[][]> {
  return (await corpusTexts({ outputs: false })).map((text) => text.split("\n"));
}

Deno.test("group_by_rule: streaming equals the batch reference for every built-in rule and input", async () => {
  const configs = await builtinConfigs();
  expect(configs.map(([name]) => name)).toEqual([
    "cargo-build",
    "cargo-clippy",
    "deno-check",
    "deno-lint",
    "eslint",
    "make-gcc",
    "tsc",
  ]);
  const all = await inputs();
  expect(all.length).toBeGreaterThan(80);
  let grouped = 0;
  for (const [, config] of configs) {
    const strategies = pair(config);
    for (const lines of all) {
      if (compare(strategies, lines).confidence === "full") grouped++;
    }
  }
  // Not vacuous: many (rule, input) pairs actually group.
  expect(grouped).toBeGreaterThan(30);
});

Deno.test("group_by_rule: streaming equals the batch reference on generated diagnostics", () => {
  const random = prng(4242);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const names = ["`a`", "`b`", "`c`", "'x'", "‘y’"];
  const block = (): string[] => {
    const sev = pick(["warning", "warning", "error"]);
    const rule = pick(["", "", "[E0308]", "[clippy::x]"]);
    const lines = [
      `${sev}${rule}: ${pick(["unused variable", "unused import", "mismatch"])}: ${pick(names)}`,
    ];
    const n = Math.floor(random() * 6);
    for (let i = 0; i < n; i++) {
      lines.push(pick([
        ` --> src/${pick(["a", "b"])}.rs:${1 + Math.floor(random() * 9)}:5`,
        "  |",
        "",
        "   ",
        `  = note: \`#[warn(${
          pick(["unused_variables", "unused_imports", "dead_code"])
        })]\` on by default`,
        "  = help: https://rust-lang.github.io/rust-clippy/master/index.html#needless_x",
        "some context",
      ]));
    }
    return lines;
  };
  const configs = [
    { type: "group_by_rule" },
    { type: "group_by_rule", max_locations: 2, max_error_lines: 2 },
    {
      type: "group_by_rule",
      group_errors: true,
      max_locations: 1,
      grouped_noise_patterns: ["^done"],
    },
    {
      type: "group_by_rule",
      line_pattern:
        "^(?P<loc>\\S+:\\d+:\\d+): (?P<sev>warning|error): (?P<msg>.+) \\[(?P<rule>-W[\\w-]+)\\]$",
      file_pattern: "^(/\\S+)$",
      max_locations: 3,
    },
    // A user pattern whose location can be empty: such a diagnostic is not "located".
    { type: "group_by_rule", line_pattern: "^(?P<loc>\\S*):: (?P<msg>.+)$" },
  ].map(pair);
  for (let n = 0; n < 600; n++) {
    const lines: string[] = [];
    const parts = Math.floor(random() * 14);
    for (let p = 0; p < parts; p++) {
      const r = random();
      if (r < 0.55) lines.push(...block());
      else if (r < 0.65) {
        lines.push(
          `f.c:${Math.floor(random() * 5)}:1: ${pick(["warning", "error"])}: bad ${
            pick(names)
          } [-W${pick(["x", "y"])}]`,
        );
      } else if (r < 0.7) {
        lines.push(pick(["/src/x.c", "/src/y.c", ":: empty loc", "f:1:: msg `a`"]));
      } else if (r < 0.8) {
        lines.push(
          pick(["   Compiling x v1", "done in 1s", "error: could not compile", "3 warnings", ""]),
        );
      } else {lines.push(
          pick([
            "make: *** [all] Error 2",
            "plain text",
            "",
            "warning: `x` (lib) generated 2 warnings (2 duplicates)",
          ]),
        );}
    }
    for (const config of configs) compare(config, lines);
  }
});

/** The stage fed each line with its UTF-8 (inside one buffer, a newline after each line). */
function runStageWithBytes(strategy: Strategy, lines: string[]) {
  const out: string[] = [];
  const stage = strategy.createStage({ emit: (line) => void out.push(line), failed: false });
  const bytes = new TextEncoder().encode(lines.map((l) => l + "\n").join(""));
  let from = 0;
  for (const line of lines) {
    const to = bytes.indexOf(10, from);
    stage.push(line, bytes, from, to);
    from = to + 1;
  }
  const confidence: Confidence = stage.finish();
  return { out, confidence };
}

Deno.test("group_by_rule: make-gcc reading its lines' bytes equals the batch reference", async () => {
  const make = (await builtinConfigs()).find(([name]) => name === "make-gcc")![1];
  const configs = [make, { ...make, max_locations: 1 }, { ...make, max_locations: 3 }].map(pair);
  // Reads bytes only with the built-in patterns.
  expect(configs[1].streaming.createStage({ emit() {}, failed: false }).utf8).toBe(true);
  expect(
    pair({ ...make, noise_patterns: ["^cc "] }).streaming.createStage({ emit() {}, failed: false })
      .utf8,
  ).toBe(false);
  const random = prng(77);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const all = await inputs();
  for (let n = 0; n < 400; n++) {
    const lines: string[] = [];
    for (let k = Math.floor(random() * 40); k > 0; k--) {
      const name = pick(["a", "b", "é", "😀", "a'b", "`c`"]);
      lines.push(pick([
        `f${k % 3}.c:${k}:2: warning: unused variable ‘${name}’ [-Wunused-variable]`,
        `f.c:${k}:2: warning: unused ‘${name}’ [-Wunused-${pick(["value", "label"])}]`,
        `f.c:${k}:2: warning: ${pick(["x", "y"])} ‘${name}’ ‘q’ [-Wall]`,
        `ü.c:${k}:2: warning: unused variable ‘${name}’ [-Wunused-variable]`,
        // A diagnostic without a rule takes the last rule noted for its shape (the message of
        // the one-line form has no `warning: ` of its own, so these repeat it).
        `f.c:${k}:2: warning: warning: unused ‘${name}’ [-Wunused-variable]`,
        `ü.c:${k}:2: warning: warning: unused ‘${name}’ [-Wunused-value]`,
        `warning: unused ‘${name}’\n  --> g.c:${k}:1`,
        `f.c:${k}:2: error: bad ‘${name}’ [-Werror]`,
        `f.c:${k}:2: warning:  padded  [-Wx]`,
        "f.c: In function ‘main’:",
        `    ${k} | int x;`,
        "      |     ^",
        "cc -c f.c",
        "warning: `x` (lib) generated 2 warnings (2 duplicates)",
        "warning: something without a location",
        "make: *** [all] Error 2",
        "",
      ]));
    }
    all.push(lines.join("\n").split("\n"));
  }
  let grouped = 0;
  for (const config of configs) {
    for (const lines of all) {
      const expected = runStage(config.reference, lines, false);
      expect(runStageWithBytes(config.streaming, lines)).toEqual(expected);
      if (expected.confidence === "full") grouped++;
    }
  }
  expect(grouped).toBeGreaterThan(300);
});

Deno.test("group_by_rule: a warning read by the regexes between two read from bytes keeps the last rule noted for a shape", async () => {
  // The non-ASCII locations are read by the regexes: they note -Wy, then -Wx with another
  // shape, so the last warning must note -Wx for `warning: foo` again (found by review).
  const make = (await builtinConfigs()).find(([name]) => name === "make-gcc")![1];
  const lines = [
    "a.c:1:1: warning: warning: foo [-Wx]",
    "é.c:2:1: warning: warning: foo [-Wy]",
    "é.c:3:1: warning: bar [-Wx]",
    "a.c:4:1: warning: warning: foo [-Wx]",
    "warning: foo",
    "  --> g.c:5:1",
  ];
  const { reference, streaming } = pair({ ...make, max_locations: 1 });
  const expected = runStage(reference, lines, false);
  expect(expected.out[0]).toBe("-Wx (4): foo");
  expect(runStageWithBytes(streaming, lines)).toEqual(expected);
});

Deno.test("group_by_rule second in a chain falls back to its input, replayed through the first stage", () => {
  const rules = [
    compileRule({
      name: "noise",
      match: { prefix: "cmd" },
      strategy: { type: "strip_noise", patterns: ["^drop"] },
    }, "t"),
    compileRule(
      { name: "group", match: { prefix: "cmd" }, strategy: { type: "group_by_rule" } },
      "t",
    ),
  ];
  const engine = new FilterEngine(rules, { security: false });
  const out = engine.filter(
    "cmd",
    "drop 1\nkeep \x1b[31mred\x1b[0m\n[stderr] err line\n\n\n\ndrop 2\nlast",
  );
  expect({ text: out.text, confidence: out.stats.confidence }).toEqual({
    text: "keep red\nerr line\n\nlast",
    confidence: "fallback",
  });
});

Deno.test("elideNames gives what the three quote regexes give, on balanced, unbalanced and nested quotes", () => {
  const regexes = (m: string) =>
    m.replace(/`[^`]*`/g, "`…`").replace(/'[^']*'/g, "'…'").replace(/‘[^’]*’/g, "‘…’");
  const random = prng(3);
  const parts = ["`", "'", "‘", "’", "a", "bc", " ", "…", "é", "x'y", "‘‘", "’’"];
  const messages = [
    "",
    "unused variable ‘x’",
    "`a` and `b`",
    "it's `x`",
    "‘a’ ‘b",
    "‘‘x’ y’",
    "'a'b'c'",
    "`unclosed",
    ...Array.from(
      { length: 20_000 },
      () =>
        Array.from(
          { length: Math.floor(random() * 9) },
          () => parts[Math.floor(random() * parts.length)],
        ).join(""),
    ),
  ];
  const wrong = messages.filter((m) => elideNames(m) !== regexes(m));
  expect(wrong.slice(0, 5)).toEqual([]);
});

Deno.test("the built-in make-gcc line_pattern (lazy repeats) captures what its greedy form captures", async () => {
  const toml = parseToml(
    await Deno.readTextFile(new URL("../../filters/make.toml", import.meta.url)),
  ) as { rules: { name: string; strategy: { line_pattern?: string } }[] };
  const lazy = toml.rules.find((r) => r.name === "make-gcc")!.strategy.line_pattern!;
  const greedy = lazy.replace("{1,400}?", "{1,400}").replace(".+?", ".+");
  expect(greedy).not.toEqual(lazy);
  const [a, b] = [compilePattern(lazy), compilePattern(greedy)];
  const random = prng(5);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const parts = [
    "f.c",
    "C:/src/a.c",
    "a:b.c",
    ":",
    "2",
    "10",
    ": warning: ",
    ": error: ",
    "unused variable ‘x’",
    " [-Wunused]",
    " [-Wformat=2]",
    " [x]",
    "[",
    "]",
    " ",
    "-W",
    "é",
  ];
  const lines = [
    "f1.c:2:21: warning: unused variable ‘unused_1’ [-Wunused-variable]",
    "a.c:1:2: warning: x [-Wa] y [-Wb]",
    "a.c:1:2: warning: array [5] out of bounds [-Warray-bounds=]",
    "C:/a.c:1:2: warning: m [-Wm]",
    ...Array.from({ length: 30_000 }, () => {
      const message = Array.from({ length: Math.floor(random() * 5) }, () => pick(parts)).join("");
      return `${pick(["f.c", "C:/src/a.c", "a:b.c", "d/e.c:1"])}:${pick(["2", "10", "", "x"])}:${
        pick(["3", "45"])
      }${pick([": warning: ", ": error: ", ":warning: "])}${message}${
        pick([" [-Wunused]", " [-Wformat=2]", " [x]", "", " [-W a]", " [-Wb] [-Wc]"])
      }${pick(["", "", " ", "é"])}`;
    }),
  ];
  const groups = (p: typeof a, line: string) => {
    const m = p.exec(line);
    return m && ["loc", "sev", "msg", "rule"].map((g) => m.group(g));
  };
  const differ = lines.filter((l) => JSON.stringify(groups(a, l)) !== JSON.stringify(groups(b, l)));
  expect(differ.slice(0, 5)).toEqual([]);
  expect(lines.filter((l) => groups(a, l) !== null).length).toBeGreaterThan(100);
});
