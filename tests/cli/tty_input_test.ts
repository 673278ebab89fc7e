// The prompt's key filter: one paste is one line, keys typed during a turn are dropped.
import { expect } from "expect";
import { KeyFilter, PASTED_NEWLINE, restoreNewlines } from "../../src/cli/tty_input.ts";

Deno.test("a bracketed paste keeps its line breaks inside one line; submitting restores them", () => {
  const keys = new KeyFilter();
  const seen = keys.apply("\x1b[200~first\r\nsecond\nthird\x1b[201~");
  expect(seen).toBe(`first${PASTED_NEWLINE}second${PASTED_NEWLINE}third`);
  expect(restoreNewlines(seen)).toBe("first\nsecond\nthird");
  // Outside a paste, Enter is Enter.
  expect(keys.apply("go\r")).toBe("go\r");
  // A paste split over chunks still counts as one.
  expect(keys.apply("\x1b[200~a\n") + keys.apply("b\x1b[201~\r")).toBe(`a${PASTED_NEWLINE}b\r`);
});

Deno.test("while busy every key but Ctrl-C is discarded and counted", () => {
  const keys = new KeyFilter();
  keys.busy = true;
  expect(keys.apply("ls -la\r")).toBe("");
  expect(keys.apply("\x03")).toBe("\x03");
  expect(keys.takeDiscarded()).toBe(7);
  expect(keys.takeDiscarded()).toBe(0);
  keys.busy = false;
  expect(keys.apply("y\r")).toBe("y\r");
});
