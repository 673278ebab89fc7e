import { expect } from "expect";
import { compileRule, countLines, FilterEngine, FilterSession } from "../../src/filter/mod.ts";
import type { CompiledStrategy } from "../../src/filter/types.ts";
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
    confidence: "partial",
    rules: ["strip", "cut"],
    inline: "[shell] 7 lines -> 3 lines, 57.1% filtered",
  });
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

Deno.test("a Fallback first stage re-walks the input: sanitised, stderr prefix dropped, blanks collapsed", () => {
  const ts = { type: "test_summary" };
  const raw = "\x1b[31merror\x1b[0m: boom\r\n[stderr] at x\n\n\n\nerror: aborting\n";
  const expected = "error: boom\nat x\n\nerror: aborting";
  // First stage: replayed from the text, not held.
  const alone = new FilterEngine([rule("t", { prefix: "t" }, ts)], { security: false });
  const out = alone.filter("t", raw, { failed: true });
  expect([out.text, out.stats.confidence]).toEqual([expected, "fallback"]);
  // Second stage: its input is the first stage's output, held as before.
  const chained = new FilterEngine([
    rule("n", { prefix: "t" }, { type: "strip_noise", patterns: ["^nothing"] }),
    rule("t", { prefix: "t" }, ts),
  ], { security: false });
  const two = chained.filter("t", raw, { failed: true });
  expect([two.text, two.stats.confidence]).toEqual([expected, "fallback"]);
});

Deno.test("a chain of stages that all fall back walks each stage once, not once per later stage", () => {
  // A stage that, like test_summary and group_by_rule, passes its input through by replay.
  let created = 0;
  const passThrough: CompiledStrategy = {
    type: "pass",
    createStage(ctx) {
      created++;
      return {
        push() {},
        finish() {
          ctx.replay!(ctx.emit);
          return "fallback";
        },
      };
    },
  };
  const stages = 8;
  const rules = Array.from({ length: stages }, (_, i) => ({
    name: `p${i}`,
    source: "test",
    strategy: passThrough,
    matches: () => true,
  }));
  const engine = new FilterEngine(rules, { security: false });
  const out = engine.filter("x", "a\n[stderr] b\n\n\n\nc\n");
  expect([out.text, out.stats.confidence]).toEqual(["a\nb\n\nc", "fallback"]);
  // One instance per stage: a replay does not re-run a stage that passed its input through
  // (re-running it would replay the stages before it again: 2^8 - 1 = 255 instances).
  expect(created).toBe(stages);
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

Deno.test("a first stage gets the same lines whether it reads their bytes or not", () => {
  // What a stage receives: each line, and whether its bytes (utf8[from..to)) came with it and
  // were exactly the line's UTF-8.
  const recorder = (utf8: boolean, seen: string[]): CompiledStrategy => ({
    type: "record",
    createStage: () => ({
      utf8,
      push(line, bytes, from, to) {
        const exact = bytes === undefined ||
          new TextDecoder().decode(bytes.subarray(from, to)) === line;
        seen.push(exact ? line : `MISMATCH ${JSON.stringify(line)}`);
      },
      finish: () => "full",
    }),
  });
  const engineFor = (utf8: boolean, seen: string[]) =>
    new FilterEngine([{
      name: "r",
      source: "test",
      strategy: recorder(utf8, seen),
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
  const expected = walked;
  for (const text of texts) {
    const withBytes: string[] = [];
    const without: string[] = [];
    const bytes = new TextEncoder().encode(text);
    engineFor(true, withBytes).filter("x", text, { utf8: bytes });
    engineFor(false, without).filter("x", text, { utf8: bytes });
    expect({ text, lines: withBytes }).toEqual({ text, lines: expected(text) });
    expect({ text, lines: without }).toEqual({ text, lines: expected(text) });
  }
});

Deno.test("lines reach a byte-reading stage, first or behind strip_noise, with their own UTF-8 from the caller's bytes", () => {
  // Records each line, and checks that bytes, when they come, are the line's own encoding with
  // a newline after it.
  const seen: string[] = [];
  let carried = 0;
  const recorder: CompiledStrategy = {
    type: "record",
    createStage: () => ({
      utf8: true,
      push(line, bytes, from, to) {
        if (bytes !== undefined) {
          carried++;
          const own = encoder.encode(line);
          const got = bytes.subarray(from, to);
          const exact = bytes[to!] === 10 && got.length === own.length &&
            got.every((b, i) => b === own[i]);
          if (!exact) line = `MISMATCH ${JSON.stringify(line)}`;
        }
        seen.push(line);
      },
      finish: () => "full",
    }),
  };
  const record = { name: "r", source: "test", strategy: recorder, matches: () => true };
  const alone = new FilterEngine([record]);
  const behind = new FilterEngine([
    rule("drop", { prefix: "x" }, { type: "strip_noise", patterns: ["^drop"] }),
    record,
  ]);
  const encoder = new TextEncoder();
  const random = prng(29);
  const pieces: number[][] = [
    "word",
    " ",
    "‘",
    "’",
    "é",
    "😀",
    "\u3000",
    "\ufeff",
    "[stderr] ",
    "drop",
    "\n",
    "\n",
    "\n",
  ].map((p) => [...encoder.encode(p)]);
  // Invalid UTF-8: a lone continuation byte, a cut sequence, a byte UTF-8 never uses.
  const invalid = [[0x80], [0xe2, 0x80], [0xff]];
  const mappedTexts = [0, 0];
  for (let i = 0; i < 400; i++) {
    const bytes: number[] = random() < 0.2 ? [0xef, 0xbb, 0xbf] : [];
    for (let n = Math.floor(random() * 60); n > 0; n--) {
      bytes.push(...pick(random, random() < 0.03 ? invalid : pieces));
    }
    const utf8 = new Uint8Array(bytes);
    const text = new TextDecoder().decode(utf8);
    // As the bash tool hands it on: trailing newlines dropped, a notice appended.
    const raw = random() < 0.3 ? text.replace(/\n+$/, "") + "\n[exit code 1]" : text;
    const body = raw.replace(/\n\[exit code 1\]$/, "");
    for (
      const [engine, keep] of [[alone, () => true], [
        behind,
        (l: string) => !/^drop/.test(l),
      ]] as const
    ) {
      seen.length = 0;
      carried = 0;
      engine.filter("x", raw, { utf8 });
      expect({ text, lines: seen }).toEqual({ text, lines: walked(body).filter(keep) });
      if (carried > 0 && text.includes("‘")) mappedTexts[engine === alone ? 0 : 1]++;
    }
  }
  // Not vacuous: many texts went through the mapping (multi-byte text, bytes handed on).
  expect(Math.min(...mappedTexts)).toBeGreaterThan(100);
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
      confidence: "full",
      rules: [],
      inline: "",
    },
  });
});

Deno.test("FilterSession counts F/P/B for filtered commands and token savings", () => {
  const engine = new FilterEngine([
    rule("full", { prefix: "a" }, { type: "strip_noise", patterns: ["^x"] }),
    rule("part", { prefix: "b" }, { type: "truncate", max_lines: 2, head: 1, tail: 0 }),
  ]);
  const session = new FilterSession();
  session.record(engine.filter("a", "x".repeat(400) + "\nkeep"));
  session.record(engine.filter("b", "1\n2\n3"));
  session.record(engine.filter("a", "nothing to strip"));
  session.record(engine.filter("zzz", "no rule"));
  expect([session.summary(), session.commands, session.filtered, session.tokensSaved]).toEqual([
    "F/P/B 1/1/1",
    4,
    3,
    100,
  ]);
});

Deno.test("huge single line and many lines finish with the right answer", () => {
  const engine = new FilterEngine([
    rule("user", { regex: "^big" }, { type: "strip_noise", patterns: ["(a+)+$", "^(\\w+\\s?)*$"] }),
  ]);
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
  ], { security: false });
  const body = "z".repeat(2_000_000);
  for (let n = 0; n < 60; n++) {
    const length = [0, 1, 5, 4095, 4096, 4097, 9000][n % 7];
    emitted = Array.from({ length }, () => kinds[Math.floor(random() * kinds.length)]);
    if (n % 3 === 0) emitted.push(...Array.from({ length: 5000 }, () => pick(random, [" ", ""])));
    const lines = [...emitted];
    while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
    expect({ n, text: engine.filter("x", body).text }).toEqual({ n, text: lines.join("\n") });
  }
});

const pick = <T>(random: () => number, list: T[]): T => list[Math.floor(random() * list.length)];

Deno.test("rules answer as RE2 on output with emoji, lone surrogates, ſ and K (one code point each)", () => {
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

Deno.test("with the security scan on, each chunk's lines know whether the text so far needs RE2's reading", () => {
  const engine = new FilterEngine([
    rule("strip", { prefix: "cmd" }, { type: "strip_noise", patterns: ["^x.y$", "^[^a]{2}$"] }),
  ]);
  // Plain lines (two-byte, so not ASCII) across the first 1 MiB chunk, then the lines RE2
  // reads by code point: `.` takes the emoji whole, `[^a]{2}` does not take one emoji.
  const filler = Array.from({ length: 80_000 }, (_, i) => `‘keep ${i}’`);
  const lines = [...filler, "x😀y", "😀", "xay", ...filler.slice(0, 10), "x😀y"];
  const out = engine.filter("cmd", lines.join("\n")).text.split("\n");
  expect(out.length).toBe(filler.length + 11);
  expect(out.slice(filler.length - 1, filler.length + 2)).toEqual([
    filler.at(-1),
    "😀",
    filler[0],
  ]);
  expect(out.includes("x😀y")).toBe(false);
});
