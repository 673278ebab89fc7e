import { expect } from "expect";
import { BlankCollapser, countLines, sanitize, stripAnsi } from "../../src/filter/sanitize.ts";

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
      // The definition before isBlank: empty, or starting with a space/control character and
      // nothing left after trim() (a line starting with NBSP was never blank).
      const blank = line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim().length === 0);
      const expected = blank ? "" : line;
      if (kept !== expected) disagree.push(c);
    }
  }
  expect(disagree).toEqual([]);
});
