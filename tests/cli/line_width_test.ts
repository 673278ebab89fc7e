// Column arithmetic for redrawn lines: wide characters, combining marks, ANSI escapes.
import { expect } from "expect";
import { displayWidth, fitLine, flatten } from "../../src/cli/line_width.ts";

Deno.test("displayWidth: CJK and emoji take two columns, marks and escapes none", () => {
  const cases: [string, number][] = [
    ["abc", 3],
    ["日本語", 6],
    ["✅ ok", 5],
    ["🚀", 2],
    ["e\u0301", 1],
    ["\x1b[36mcyan\x1b[0m", 4],
    ["", 0],
  ];
  for (const [text, width] of cases) expect([text, displayWidth(text)]).toEqual([text, width]);
});

Deno.test("fitLine: cuts to the width with an ellipsis, never splits a wide character, keeps escapes", () => {
  const cases: [string, number, string][] = [
    ["hello world", 20, "hello world"],
    ["hello world", 8, "hello w…"],
    ["日本語テキスト", 6, "日本…"],
    ["日本語テキスト", 7, "日本語…"],
    ["\x1b[36mhello world\x1b[0m", 6, "\x1b[36mhello…\x1b[0m"],
    ["abc", 0, ""],
  ];
  for (const [text, columns, fitted] of cases) {
    expect([text, columns, fitLine(text, columns)]).toEqual([text, columns, fitted]);
    expect(displayWidth(fitLine(text, columns))).toBeLessThanOrEqual(columns);
  }
});

Deno.test("flatten: a command's output cannot move the cursor or clear the screen", () => {
  expect(flatten("a\tb\r\x1b[2J\x1b]0;title\x07c\x07\nnext")).toBe("a bc ⏎ next");
});
