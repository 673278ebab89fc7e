import { expect } from "expect";
import { fastestMs } from "../_support/timing.ts";
import {
  BlankCollapser,
  countLines,
  KEPT_CR,
  sanitize,
  sanitizeLine,
  stripAnsi,
} from "../../src/filter/sanitize.ts";

Deno.test("sanitize removes ANSI, collapses CR progress and blank runs", () => {
  const raw = "\x1b[1m\x1b[32m   Compiling\x1b[0m foo\n" +
    "progress 10%\rprogress 50%\rprogress 100%\n" +
    "line\r\n\n\n   \n\t\nend \x1b]8;;http://x\x07link\x1b]8;;\x07\n\x1b[?25lhidden cursor\n";
  expect(sanitize(raw)).toBe(
    "   Compiling foo\nprogress 100%\nline\n\nend link\nhidden cursor",
  );
});

Deno.test("stripAnsi keeps everything else; countLines counts like the stats", () => {
  expect(stripAnsi("a\x1b[31mb\x1b(Bc\r\n")).toBe("abc\r\n");
  expect([
    countLines(""),
    countLines("a"),
    countLines("a\n"),
    countLines("a\nb"),
    countLines("\n\n"),
  ])
    .toEqual([0, 1, 1, 2, 2]);
});

Deno.test("BlankCollapser: blank lines are found as with trim(), for every UTF-16 unit", () => {
  const disagree: number[] = [];
  for (let c = 0; c < 0x10000; c++) {
    for (const line of [" \t" + String.fromCharCode(c) + " ", String.fromCharCode(c)]) {
      const blanks = new BlankCollapser();
      blanks.accept("x");
      const kept = blanks.accept(line);
      // Blank = nothing left after trim(), whatever whitespace it starts with (a line of only
      // U+3000 or U+00A0 used to count as text while " \u3000 " was blank).
      const blank = line.trim().length === 0;
      const expected = blank ? "" : line;
      if (kept !== expected) disagree.push(c);
    }
  }
  expect(disagree).toEqual([]);
});

Deno.test("blank lines led by non-ASCII whitespace collapse like any blank line", () => {
  const lines = ["a", "\u3000", "\u00a0 ", " \u3000 ", "\ufeff", "b", "\u3000x", "", "c"];
  const blanks = new BlankCollapser();
  const kept = lines.map((l) => blanks.accept(l));
  // The same as collapsing by `trim() === ""`.
  const expected: (string | null)[] = [];
  let lastBlank = false;
  for (const line of lines) {
    const blank = line.trim() === "";
    expected.push(blank && lastBlank ? null : blank ? "" : line);
    lastBlank = blank;
  }
  expect(kept).toEqual(expected);
  expect(kept).toEqual(["a", "", null, null, null, "b", "\u3000x", "", "c"]);
});

Deno.test("a line of many carriage returns, each before shorter text, is read in linear time", () => {
  // Text a `\r` does not cover stays with it (`a\rb` kept whole): its width grows with every part.
  const line = "Rebasing x\rAuto y\r".repeat(40_000);
  let out = "";
  const ms = fastestMs(() => out = sanitizeLine(line), 400);
  expect(out.startsWith("Rebasing x␍Auto y␍Rebasing x")).toBe(true);
  expect(ms).toBeLessThan(400);
});

Deno.test("a line never comes out longer than it came in, a kept CR taking one character", () => {
  // A test diff with a CR inside quotes on many lines: each CR is kept, shown as one character.
  const diff = Array.from({ length: 200 }, (_, i) => `  ${i} + item: "qty\r",`).join("\n");
  const out = sanitize(diff);
  expect(out.split("\n")[0]).toBe(`  0 + item: "qty${KEPT_CR}",`);
  expect(out.length).toBe(diff.length);
  // Lines of CRs before shorter and longer text, erases, escapes and blank parts, at random.
  const parts = [
    '"qty',
    '"',
    "10%",
    "downloading a long name",
    "\x1b[K",
    "\x1b[31mred\x1b[0m",
    "",
    "ok",
  ];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length;
  for (let n = 0; n < 2000; n++) {
    const line = Array.from({ length: 1 + n % 9 }, () => parts[next()]).join("\r");
    expect(sanitizeLine(line).length).toBeLessThanOrEqual(line.length);
  }
});
