import { expect } from "expect";
import { compileRule, countLines, FilterCounters, FilterEngine } from "../../src/filter/mod.ts";
import type { CompiledStrategy, StageContext } from "../../src/filter/types.ts";
import { prng } from "../_support/random.ts";

const rule = (name: string, match: Record<string, string>, strategy: Record<string, unknown>) =>
  compileRule({ name, match, strategy }, "test");

Deno.test("every matching rule runs in sequence; the worst confidence wins", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "make" }, { type: "strip_noise", patterns: ["^make\\[\\d\\]: "] }),
    rule("cut", { prefix: "make" }, { type: "truncate", max_lines: 4, head: 1, tail: 1 }),
    rule("other", { prefix: "git" }, { type: "git_status" }),
  ]);
  const input = ["make[1]: Entering", "a", "b", "c", "d", "e", "make[1]: Leaving"].join("\n");
  const out = engine.filter("make all", input);
  expect(out.rules).toEqual(["strip", "cut"]);
  expect(out.text).toBe("a\n... (3 lines omitted) ...\ne");
  expect(out.stats).toEqual({
    rawLines: 7,
    filteredLines: 3,
    rawChars: input.length,
    filteredChars: out.text.length,
    // The two make lines (33) and the three lines cut (3), net of the marker put in their place (25).
    removedChars: 33 + 3 - 25,
    elided: true,
    confidence: "partial",
    rules: ["strip", "cut"],
    inline: "[shell] 7 lines -> 3 lines, 57.1% filtered",
  });
});

Deno.test("a later rule that finds nothing of its shape does not make the chain a Fallback", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "make" }, { type: "strip_noise", patterns: ["^make\\[\\d\\]: "] }),
    rule("tidy", { prefix: "make" }, { type: "strip_noise", patterns: ["^never here$"] }),
  ]);
  const stripped = engine.filter("make", "make[1]: Entering\na\nb");
  expect([stripped.text, stripped.stats.confidence]).toEqual(["a\nb", "full"]);
  // Every stage passed its input on: that is a Fallback.
  const untouched = engine.filter("make", "a\nb");
  expect([untouched.text, untouched.stats.confidence]).toEqual(["a\nb", "fallback"]);
});

Deno.test("no matching rule: sanitised text, nothing removed, no inline stats", () => {
  const engine = new FilterEngine([]);
  const out = engine.filter("unknown-tool", "\x1b[31mred\x1b[0m\nplain");
  expect(out.text).toBe("red\nplain");
  expect([out.rules, out.stats.inline, out.stats.confidence]).toEqual([[], "", "full"]);
});

Deno.test("bash notices stay visible after filtering and stderr markers are dropped", () => {
  const engine = new FilterEngine([
    rule("noise", { prefix: "cargo build" }, {
      type: "strip_noise",
      patterns: ["^\\s*Compiling "],
    }),
  ]);
  const raw =
    "[stderr]    Compiling a v0.1.0\n[stderr] error: could not compile `a`\n[exit code 101]";
  const out = engine.filter("cargo build", raw, { failed: true });
  expect(out.text).toBe("error: could not compile `a`\n[exit code 101]");
  const timeout = engine.filter(
    "cargo build",
    "   Compiling a\nstill going\n[timeout] command timed out after 30s; partial output above",
  );
  expect(timeout.text).toBe(
    "still going\n[timeout] command timed out after 30s; partial output above",
  );
});

Deno.test("a failed command with unexpected structure passes unchanged (Fallback)", () => {
  const engine = new FilterEngine([rule("t", { prefix: "cargo test" }, { type: "test_summary" })]);
  const raw = "error[E0425]: cannot find value `x`\n --> src/lib.rs:1:1\nerror: aborting";
  const out = engine.filter("cargo test", raw, { failed: true });
  expect([out.text, out.stats.confidence]).toEqual([raw, "fallback"]);
});

Deno.test("a Fallback stage passes its input on: sanitised, stderr prefix dropped, blanks collapsed", () => {
  const ts = { type: "test_summary" };
  const raw = "\x1b[31merror\x1b[0m: boom\r\n[stderr] at x\n\n\n\nerror: aborting\n";
  const expected = "error: boom\nat x\n\nerror: aborting";
  // First stage: the walked lines.
  const alone = new FilterEngine([rule("t", { prefix: "t" }, ts)], { security: false });
  const out = alone.filter("t", raw, { failed: true });
  expect([out.text, out.stats.confidence]).toEqual([expected, "fallback"]);
  // Second stage: its input is the first stage's output.
  const chained = new FilterEngine([
    rule("n", { prefix: "t" }, { type: "strip_noise", patterns: ["^nothing"] }),
    rule("t", { prefix: "t" }, ts),
  ], { security: false });
  const two = chained.filter("t", raw, { failed: true });
  expect([two.text, two.stats.confidence]).toEqual([expected, "fallback"]);
});

Deno.test("a chain of stages that all fall back gives the walked input", () => {
  const passThrough: CompiledStrategy = {
    type: "pass",
    createStage(ctx) {
      const input: string[] = [];
      return {
        push: (line) => void input.push(line),
        finish() {
          for (const line of input) ctx.emit(line);
          return "fallback";
        },
      };
    },
  };
  const rules = Array.from({ length: 8 }, (_, i) => ({
    name: `p${i}`,
    source: "test",
    strategy: passThrough,
    matches: () => true,
  }));
  const engine = new FilterEngine(rules, { security: false });
  const out = engine.filter("x", "a\n[stderr] b\n\n\n\nc\n");
  expect([out.text, out.stats.confidence]).toEqual(["a\nb\n\nc", "fallback"]);
});

/**
 * The walk's contract, written plainly: `[stderr] ` dropped, a whitespace-only line as "",
 * runs of them as one (the body is the text without its trailing newlines).
 */
function walked(text: string): string[] {
  const out: string[] = [];
  let blank = false;
  const body = text.replace(/\n+$/, "");
  for (let line of body === "" ? [] : body.split("\n")) {
    if (line.startsWith("[stderr] ")) line = line.slice(9);
    const isBlank = line.trim() === "";
    if (!(isBlank && blank)) out.push(isBlank ? "" : line);
    blank = isBlank;
  }
  return out;
}

Deno.test("the first stage gets the walked lines: [stderr] dropped, blank runs collapsed", () => {
  const seen: string[] = [];
  const recorder: CompiledStrategy = {
    type: "record",
    createStage: () => ({ push: (line) => void seen.push(line), finish: () => "full" }),
  };
  const engine = new FilterEngine([{
    name: "r",
    source: "test",
    strategy: recorder,
    matches: () => true,
  }]);
  const random = prng(11);
  const pieces = [
    "[stderr] ",
    "[stderr]",
    "[",
    "x",
    " ",
    "\t",
    "\u3000",
    "é",
    "😀",
    "",
    "\n",
    "\n",
    "\n",
  ];
  const texts = [
    "[stderr] \n[stderr]    \n[stderr] x\n\n\n  \n[stderr] \u3000\n[stderr]\ny\n",
    "a\n[stderr] \n\n[stderr] \n b\n",
  ];
  for (let i = 0; i < 300; i++) {
    let text = "";
    for (let n = Math.floor(random() * 30); n > 0; n--) {
      text += pieces[Math.floor(random() * pieces.length)];
    }
    texts.push(text);
  }
  for (const text of texts) {
    seen.length = 0;
    engine.filter("x", text);
    expect({ text, lines: seen }).toEqual({ text, lines: walked(text) });
  }
});

Deno.test("a rewrite longer than its input is replaced by the sanitised input", () => {
  const engine = new FilterEngine([rule("s", { prefix: "git status" }, { type: "git_status" })]);
  expect(engine.filter("git status -s", " M a").text).toBe(" M a");
});

Deno.test("[tools.filters] enabled = false returns the output untouched", () => {
  const engine = new FilterEngine(
    [rule("s", { prefix: "x" }, { type: "strip_noise", patterns: ["."] })],
    { enabled: false },
  );
  const raw = "\x1b[1mbold\x1b[0m\n\n\n";
  expect(engine.filter("x", raw)).toEqual({
    text: raw,
    rules: [],
    stats: {
      rawLines: 3,
      filteredLines: 3,
      rawChars: raw.length,
      filteredChars: raw.length,
      removedChars: 0,
      elided: false,
      confidence: "full",
      rules: [],
      inline: "",
    },
  });
});

Deno.test("FilterCounters counts F/P/B for filtered commands and token savings", () => {
  const engine = new FilterEngine([
    rule("full", { prefix: "a" }, { type: "strip_noise", patterns: ["^x"] }),
    rule("part", { prefix: "b" }, { type: "truncate", max_lines: 2, head: 1, tail: 0 }),
  ]);
  const counters = new FilterCounters();
  counters.record(engine.filter("a", "x".repeat(400) + "\nkeep"));
  counters.record(engine.filter("b", "1\n2\n3"));
  counters.record(engine.filter("a", "nothing to strip"));
  counters.record(engine.filter("zzz", "no rule"));
  expect([counters.summary(), counters.commands, counters.filtered, counters.tokensSaved]).toEqual([
    "F/P/B 1/1/1",
    4,
    3,
    100,
  ]);
});

Deno.test("huge single line and many lines finish with the right answer", () => {
  const engine = new FilterEngine([
    rule("user", { regex: "^big" }, { type: "strip_noise", patterns: ["(a+)+$", "^(\\w+\\s?)*$"] }),
    // The rule's own lines are counted: the generic folds after it would collapse the repeats.
  ], { generic: false });
  const attack = "a".repeat(200_000) + "!";
  const out = engine.filter(
    "big",
    [attack, "word ", attack, "word ", attack, "keep-me!"].join("\n"),
  );
  expect(out.text.split("\n").filter((l) => l.startsWith("a")).length).toBe(3);
  expect(out.text.endsWith("keep-me!")).toBe(true);
});

Deno.test("the raw line count of the stats matches countLines on notices, blank runs and newlines", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "cmd" }, { type: "strip_noise", patterns: ["^drop"] }),
  ]);
  const raws = [
    "",
    "\n",
    "\n\n\n",
    "drop",
    "drop\n",
    "a\ndrop\nb",
    "a\ndrop\nb\n",
    "a\n\n\n\ndrop\r\nb\n\n",
    "drop\n[exit code 1]",
    "drop\n[exit code 1]\n",
    "a\ndrop\n\n[stderr] x\n[timeout] after 5s\n[exit code 124]\n\n",
    "[exit code 2]",
    "\n[exit code 2]\n",
  ];
  expect(raws.map((raw) => engine.filter("cmd", raw).stats.rawLines))
    .toEqual(raws.map((raw) => countLines(raw)));
});

Deno.test("no matching rule: runs of blank lines collapse whatever whitespace fills them", () => {
  const engine = new FilterEngine([], { security: false });
  const input = "a\n\u3000\n\u00a0 \n\n\ufeff\nb\n \t\n\u2028\nc";
  expect(engine.filter("cat", input).text).toBe("a\n\nb\n\nc");
  // The sanitising path (escapes present) agrees.
  expect(engine.filter("cat", "\x1b[0m" + input).text).toBe("a\n\nb\n\nc");
  // The class in the clean path is exactly `\s` without the newline, for every UTF-16 unit.
  const differ = [];
  for (let c = 0; c < 0x10000; c++) {
    if (c === 10) continue;
    const ch = String.fromCharCode(c);
    const collapsed = engine.filter("cat", `x\n${ch}\n${ch}\ny`).text === "x\n\ny";
    if (collapsed !== /\s/.test(ch)) differ.push(c);
  }
  expect(differ).toEqual([]);
});

Deno.test("the output is what the stages emitted, joined, without whitespace-only lines at the end", () => {
  // What the engine did before it joined lines a batch at a time: pop the blank lines at the
  // end, then join. Emitted lists cross the 4096-line batches, end (or not) in runs of blank
  // lines of every kind, hold lines with a newline inside and whitespace-only lines between.
  const random = prng(99);
  const kinds = ["", " ", "\t", "\u3000", "\uFEFF", "a", " b", "c\n ", " \n", "é", "x".repeat(50)];
  let emitted: string[] = [];
  const emitter: CompiledStrategy = {
    type: "emit",
    createStage(ctx) {
      return {
        push() {},
        finish() {
          for (const line of emitted) ctx.emit(line);
          return "full";
        },
      };
    },
  };
  const engine = new FilterEngine([
    { name: "emit", source: "test", strategy: emitter, matches: () => true },
  ], { security: false, generic: false });
  const body = "z".repeat(2_000_000);
  for (let n = 0; n < 60; n++) {
    const length = [0, 1, 5, 4095, 4096, 4097, 9000][n % 7];
    emitted = Array.from({ length }, () => kinds[Math.floor(random() * kinds.length)]);
    if (n % 3 === 0) emitted.push(...Array.from({ length: 5000 }, () => pick(random, [" ", ""])));
    const lines = [...emitted];
    while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
    // Stages that emitted nothing leave the output's last line (an output is never emptied).
    expect({ n, text: engine.filter("x", body).text }).toEqual({
      n,
      text: lines.join("\n") || body,
    });
  }
});

const pick = <T>(random: () => number, list: T[]): T => list[Math.floor(random() * list.length)];

Deno.test("user rules answer as RE2 on output with emoji, lone surrogates, ſ and K (one code point each)", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "cmd" }, {
      type: "strip_noise",
      patterns: ["^x.y$", "(?i)^drop ok$", "^[^a]{2}$"],
    }),
  ], { security: false });
  const lines = [
    "x😀y",
    "xay",
    "x😀😀y",
    "drop o\u212A",
    "drop ok",
    "keep",
    "😀",
    "é",
    "ab",
    "x\ud800y",
  ];
  // RE2 (checked with re2js): `.` and `[^a]` take one code point, `(?i)k` folds U+212A, a lone
  // surrogate is one character. V8 without `u` would keep "x😀y" and "drop oK" and drop "😀".
  expect(engine.filter("cmd", lines.join("\n")).text.split("\n")).toEqual([
    "x😀😀y",
    "keep",
    "😀",
    "é",
    "ab",
  ]);
});

Deno.test("rules that remove every line leave the last lines an earlier rule passed on", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "make" }, { type: "strip_noise", patterns: ["^make\\[\\d\\]: "] }),
    rule("echo", { prefix: "make" }, { type: "strip_noise", patterns: ["^gcc "] }),
  ], { security: false });
  const input = ["make[1]: Entering", "gcc -c a.c", "gcc -c b.c", "make[1]: Leaving"].join("\n");
  expect(engine.filter("make", input).text).toBe("gcc -c a.c\ngcc -c b.c");
  // The first rule removed everything: the input's last lines stay.
  expect(engine.filter("make", "make[1]: Entering\nmake[1]: Leaving").text).toBe(
    "make[1]: Entering\nmake[1]: Leaving",
  );
});

Deno.test("a rule whose regex overflows V8's stack on a huge line runs again with that line cut in the middle (Partial)", async () => {
  // Built-in patterns run on V8, which keeps a backtracking entry per turn of a repeated group:
  // a line of millions of such turns throws RangeError inside the chain, never out of filter().
  const { BUILTIN_FILTERS_DIR, loadBuiltinRules } = await import("../../src/filter/mod.ts");
  const engine = new FilterEngine(await loadBuiltinRules(BUILTIN_FILTERS_DIR));
  // Every shape a built-in rule overflowed on, through the rules that overflowed.
  const cases: [string, string][] = [
    ["pytest", "-"],
    ["cargo test", "-"],
    ["go test ./...", "-"],
    ["npx jest", "-"],
    ["node --test", "-"],
    ["deno test", "-"],
    ["pylint pkg", "-"],
    ["liquibase update", "#"],
    ["npm install", "+"],
  ];
  for (const [command, symbol] of cases) {
    const raw = `FAILED tests/a.py::t - x\n${symbol.repeat(8 << 20)}\n1 failed in 0.1s`;
    const outcome = engine.filter(command, raw, { failed: true });
    expect({ command, confidence: outcome.stats.confidence }).toEqual({
      command,
      confidence: "partial",
    });
    expect(outcome.text.length).toBeLessThan(2000);
    expect(outcome.text).toContain("FAILED tests/a.py::t - x");
  }
});

Deno.test("a rule that overflows V8's stack even on the cut lines leaves the output unfiltered (Fallback)", () => {
  const overflowing: CompiledStrategy = {
    type: "strip_noise",
    createStage: () => ({
      push() {
        throw new RangeError("Maximum call stack size exceeded");
      },
      finish: () => "full",
    }),
  };
  const engine = new FilterEngine([
    { name: "overflow", source: "test", strategy: overflowing, matches: () => true },
  ]);
  const raw = `error: x\n${"-".repeat(200_000)}\ndone`;
  const outcome = engine.filter("anything", raw, { failed: true });
  expect([outcome.stats.confidence, outcome.text]).toEqual(["fallback", raw]);
  const traces = engine.trace("anything", raw, { failed: true });
  expect([traces.at(-1)!.confidence, traces.at(-1)!.output]).toEqual([
    "fallback",
    raw.split("\n"),
  ]);
});

Deno.test("zeph filter --explain on such a line shows the cut and the rules' work after it, without throwing", async () => {
  const { BUILTIN_FILTERS_DIR, explainFilter, loadBuiltinRules } = await import(
    "../../src/filter/mod.ts"
  );
  const engine = new FilterEngine(await loadBuiltinRules(BUILTIN_FILTERS_DIR));
  const raw = `FAILED tests/a.py::t - x\n${"-".repeat(8 << 20)}\n1 failed in 0.1s`;
  const traces = engine.trace("pytest", raw, { failed: true });
  expect(traces.map((t) => t.type).slice(0, 2)).toEqual(["sanitize", "cut"]);
  const last = traces.at(-1)!;
  expect(last.confidence).not.toBe("fallback");
  expect(last.output.join("\n").length).toBeLessThan(2000);
  expect(explainFilter(engine, "pytest", raw, { failed: true }).join("\n")).toContain("huge lines");
});

Deno.test("--explain's guard shows the input as it came only when filter() does: both compare with the raw input", () => {
  // Each line is cut to its first word, which the guard puts back as printed; one line goes and
  // the summary says so. Put back, the lines and the summary outgrow the input once its colours
  // are gone, but not the input as it came (with them): filter() keeps them, and so must the trace.
  const rule = compileRule({
    name: "cut",
    match: { prefix: "mytool" },
    strategy: {
      type: "strip_noise",
      patterns: ["^x$"],
      summary: "({n} lines of x went)",
      rewrite: [{ pattern: "^(\\w+) .*$", to: "{1}" }],
    },
  }, "t");
  const engine = new FilterEngine([rule], { security: false, generic: false });
  const plain = Array.from({ length: 6 }, (_, i) => `item${i} is ready`);
  const input = [...plain.map((l) => `\x1b[32m${l}\x1b[0m`), "x"].join("\n");
  const out = engine.filter("mytool", input).text;
  expect(out).toBe(
    [...plain, "(1 lines of x went)"].join("\n"),
  );
  const guard = engine.trace("mytool", input).find((s) => s.type === "guard");
  expect(guard?.output).toEqual(out.split("\n"));
  expect(guard?.asInput ?? false).toBe(false);
});

Deno.test("stats: removedChars counts what the stages removed beyond sanitising; elided, a marker the input lacks", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "make" }, { type: "strip_noise", patterns: ["^make\\[\\d\\]: "] }),
    rule("cut", { prefix: "tail" }, { type: "truncate", max_lines: 4, head: 1, tail: 1 }),
  ]);
  // Escapes, `[stderr] ` prefixes, a redrawn progress line and blank-line runs: sanitising only.
  const tidy = "\x1b[32mok\x1b[0m\n\n\n\n[stderr] warn\n10%\r55%\r100%\n";
  expect(engine.filter("make", tidy).stats).toMatchObject({ removedChars: 0, elided: false });
  // A dropped line and the input's own "..." kept as printed: removed, but no elision shown.
  const own = "make[1]: Entering\nwaiting ...\ndone";
  expect(engine.filter("make", own).stats).toMatchObject({
    removedChars: "make[1]: Entering".length,
    elided: false,
  });
  // A cut: four lines of 20 characters gone, a marker of 25 in their place that says so.
  const lines = ["a", "b", "c", "d", "e", "f"].map((c) => c.repeat(20));
  const cut = engine.filter("tail x", lines.join("\n"));
  expect(cut.text).toBe(`${lines[0]}\n... (4 lines omitted) ...\n${lines[5]}`);
  expect(cut.stats).toMatchObject({ removedChars: 4 * 20 - 25, elided: true });
});

Deno.test("stats: the input's own '...' in a coloured line is not an elision (its escapes split the words)", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "make" }, { type: "strip_noise", patterns: ["^make\\[\\d\\]: "] }),
  ]);
  // deno test and cargo colour the middle of a line: `foo ... ok (2ms)` is not in the raw text.
  const coloured =
    "make[1]: Entering\nfoo ... \x1b[32mok\x1b[0m (2ms)\n\x1b[1mBuilding\x1b[0m x ...";
  const out = engine.filter("make", coloured);
  expect(out.text).toBe("foo ... ok (2ms)\nBuilding x ...");
  expect(out.stats).toMatchObject({ removedChars: "make[1]: Entering".length, elided: false });
  // Without a rule too: the generic pass changes nothing, and says nothing was left out.
  expect(engine.filter("mytool", "\x1b[1mBuilding\x1b[0m x ...\nok").stats.elided).toBe(false);
});

Deno.test("stats: a cut is an elision however many of the input's own '...' lines come before it", () => {
  const engine = new FilterEngine([
    rule("cut", { prefix: "tail" }, { type: "truncate", max_lines: 40, head: 30, tail: 5 }),
  ]);
  // Thirty status lines of the input's own that say `...`, then lines the cut leaves out.
  const lines = [
    ...Array.from({ length: 30 }, (_, i) => `Resolving dependency ${i} ...`),
    ...Array.from({ length: 20 }, (_, i) => `row ${i}`),
  ];
  const out = engine.filter("tail x", lines.join("\n"));
  expect(out.text).toContain("... (15 lines omitted) ...");
  expect(out.stats.elided).toBe(true);
});

Deno.test("a stage that throws costs nothing: the output as it came, Fallback, the failure named", () => {
  const throwing = (at: "push" | "finish"): CompiledStrategy => ({
    type: "broken",
    createStage: () => ({
      push() {
        if (at === "push") throw new TypeError("cannot read properties of undefined");
      },
      finish() {
        if (at === "finish") throw new Error("stage bug");
        return "full";
      },
    }),
  });
  for (const at of ["push", "finish"] as const) {
    const broken = { name: "broken", source: "test", strategy: throwing(at), matches: () => true };
    const engine = new FilterEngine([broken], { security: false });
    const input = "error: \x1b[31mfailed\x1b[0m at a.ts:3\n1 failed";
    const out = engine.filter("tool run", input, { failed: true });
    expect(out.text).toBe("error: failed at a.ts:3\n1 failed");
    expect(out.stats.confidence).toBe("fallback");
    expect(out.stats.failure).toBe(
      at === "push" ? "TypeError: cannot read properties of undefined" : "Error: stage bug",
    );
  }
  const ok = new FilterEngine([rule("strip", { prefix: "make" }, {
    type: "strip_noise",
    patterns: ["^x"],
  })]);
  expect(ok.filter("make", "x\ny").stats.failure).toBeUndefined();
});

Deno.test("trace (--explain) of a stage that throws shows the output as it came, as filter does", () => {
  const broken = {
    name: "broken",
    source: "test",
    strategy: {
      type: "broken",
      createStage: () => ({
        push() {
          throw new TypeError("cannot read properties of undefined");
        },
        finish: () => "full" as const,
      }),
    },
    matches: () => true,
  };
  const engine = new FilterEngine([broken], { security: false });
  const traces = engine.trace("tool run", "error: failed at a.ts:3\n1 failed", { failed: true });
  expect(traces.at(-1)).toMatchObject({ name: "broken", confidence: "fallback" });
  expect(traces.at(-1)!.output).toEqual(["error: failed at a.ts:3", "1 failed"]);
});

Deno.test("trace (--explain) retries with huge lines cut only after a RangeError, as filter does", () => {
  // A stage that fails on a huge line with anything but V8's stack overflow is a bug: filter()
  // shows the output as it came and does not retry on the lines cut, so neither does the trace.
  const broken = {
    name: "broken-on-huge",
    source: "test",
    strategy: {
      type: "broken",
      createStage: (ctx: StageContext) => ({
        push(line: string) {
          if (line.length > 100_000) throw new TypeError("cannot read properties of undefined");
          ctx.emit(line);
        },
        finish: () => "full" as const,
      }),
    },
    matches: () => true,
  };
  const engine = new FilterEngine([broken], { security: false, generic: false });
  const raw = `error: x\n${"-".repeat(2_000_000)}\ndone`;
  expect(engine.filter("tool", raw, { failed: true }).stats.confidence).toBe("fallback");
  const traces = engine.trace("tool", raw, { failed: true });
  expect(traces.map((t) => t.type)).toEqual(["sanitize", "broken"]);
  expect(traces.at(-1)).toMatchObject({ name: "broken-on-huge", confidence: "fallback" });
  expect(traces.at(-1)!.output).toEqual(raw.split("\n"));
});

Deno.test("trace (--explain) names the stage that failed, after stages that ran", () => {
  const passing = rule("strip", { prefix: "tool" }, { type: "strip_noise", patterns: ["^x$"] });
  const overflowing = {
    name: "overflow",
    source: "test",
    strategy: {
      type: "overflowing",
      createStage: () => ({
        push() {
          throw new RangeError("Maximum call stack size exceeded");
        },
        finish: () => "full" as const,
      }),
    },
    matches: () => true,
  };
  const engine = new FilterEngine([passing, overflowing], { security: false });
  const traces = engine.trace("tool", "error: x\nx\ndone", { failed: true });
  expect(traces.at(-1)).toMatchObject({ name: "overflow", confidence: "fallback" });
});

Deno.test("stats: an elision line is the input's own only as a whole line, whitespace aside", () => {
  // A stage that emits given lines (the guard off, so they stay as emitted).
  const emitting = (lines: string[]) =>
    new FilterEngine([{
      name: "emit",
      source: "test",
      matches: (c: string) => c.startsWith("tool"),
      strategy: {
        type: "emit",
        createStage: (ctx: StageContext) => ({
          push: () => {},
          finish: () => {
            for (const line of lines) ctx.emit(line);
            return "full" as const;
          },
        }),
      },
    }], { security: false, generic: false, guard: false });
  const marker = "… 5 lines folded …";
  // The input's own lines, indented and with trailing spaces: not counted, the marker is seen.
  const own = Array.from({ length: 20 }, (_, i) => `step ${i} ...`);
  const input = [...own.map((l) => `  ${l}  `), "row"].join("\n");
  expect(emitting([...own, marker]).filter("tool", input).stats.elided).toBe(true);
  // Parts of longer input lines are checked against the input, at most 16 of them: past that
  // the marker is not looked at.
  const parts = [...own.map((l) => `at ${l} now`), "row"].join("\n");
  expect(emitting([...own, marker]).filter("tool", parts).stats.elided).toBe(false);
});

Deno.test("the last rule hands the lines it held to the folds after the rules as one array", () => {
  for (
    const strategy of [
      { type: "group_by_rule", noise_patterns: ["^noise"] },
      { type: "test_summary" },
    ]
  ) {
    const stage = rule("r", { prefix: "x" }, strategy).strategy;
    const emitted: string[] = [];
    const handed: string[][] = [];
    const s = stage.createStage({
      emit: (line) => emitted.push(line),
      emitAll: (lines) => handed.push(lines),
      failed: false,
    });
    const input = ["one", "two", "three"];
    for (const line of input) s.push(line);
    expect(s.finish()).toBe("fallback");
    expect({ emitted, handed }).toEqual({ emitted: [], handed: [input] });
  }
});
