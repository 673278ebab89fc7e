// The per-file matcher against the plain definition (every line, \r removed, tested by re2js):
// patterns that are one literal, a regex holding a literal (re2js and V8 engines), no literal,
// case-insensitive ones, over texts with several hits per line, CRLF, a hit at offset 0, a last
// line with no newline, and caps that cut.
import { expect } from "expect";
import { RE2JS } from "re2js";
import { fileMatcher } from "../../src/search/_entry.ts";

function reference(pattern: string, caseSensitive: boolean, text: string, max: number) {
  if (text === "") return null; // an empty file has no line
  const re = RE2JS.compile(pattern, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const matched: number[] = [];
  for (let n = 0; n < lines.length && matched.length <= max; n++) {
    const line = lines[n].endsWith("\r") ? lines[n].slice(0, -1) : lines[n];
    if (re.matcher(line).find()) matched.push(n);
  }
  return matched.length ? { lines, matched } : null;
}

const PATTERNS: [string, boolean][] = [
  ["ab", true], // one literal
  ["ab", false],
  ["ab c[a-z]+ b", true], // a literal, then re2js (unbounded, unanchored)
  ["ab c[a-z] b", true], // a literal, V8
  ["(?i)ab c", true],
  ["^ab", true],
  ["b$", true], // the \r of a CRLF line is not part of it
  ["c[ab]{2}", true], // no literal
  ["", true],
];

Deno.test("fileMatcher: the lines of the plain definition, for every pattern kind and cap", () => {
  let seed = 11;
  const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  const words = ["ab", "c", "cab", "b", "AB", "x", "\r", "ab c", "abab"];
  const mismatches: unknown[] = [];
  for (let trial = 0; trial < 400; trial++) {
    const lines = Array.from(
      { length: 1 + random(12) },
      () => Array.from({ length: random(5) }, () => words[random(words.length)]).join(" "),
    );
    const crlf = random(3) === 0;
    let text = lines.join(crlf ? "\r\n" : "\n");
    if (random(2) === 0) text += crlf ? "\r\n" : "\n";
    const bytes = new TextEncoder().encode(text);
    for (const [pattern, caseSensitive] of PATTERNS) {
      for (const max of [0, 1, 100]) {
        const got = fileMatcher({ pattern, caseSensitive, max })(bytes);
        const want = reference(pattern, caseSensitive, text, max);
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          mismatches.push({ pattern, caseSensitive, max, text, got, want });
        }
      }
    }
  }
  expect(mismatches.slice(0, 3)).toEqual([]);
});
