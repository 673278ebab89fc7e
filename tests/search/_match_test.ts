import { expect } from "expect";
import { RE2JS } from "re2js";
import {
  bytePrefilter,
  compileLineMatcher,
  decodeUtf8,
  pieceChecks,
  requiredPieces,
  v8Translation,
} from "../../src/search/_match.ts";

const enc = (s: string) => new TextEncoder().encode(s);

Deno.test("decodeUtf8: valid text, a real U+FFFD, invalid bytes", () => {
  expect(decodeUtf8(enc("plain ascii\n"))).toBe("plain ascii\n");
  expect(decodeUtf8(enc("h\u00e9 \u65e5\u672c \u{1F600}"))).toBe("h\u00e9 \u65e5\u672c \u{1F600}");
  expect(decodeUtf8(enc("a real \uFFFD stays"))).toBe("a real \uFFFD stays");
  expect(decodeUtf8(enc("\uFEFFbom kept"))).toBe("\uFEFFbom kept");
  expect(decodeUtf8(new Uint8Array([0x61, 0xff, 0x62]))).toBe(null);
  expect(decodeUtf8(new Uint8Array([0xe6, 0x97]))).toBe(null); // truncated sequence
});

Deno.test("bytePrefilter: case-sensitive, multi-byte literal and text", () => {
  const has = bytePrefilter("\u65e5\u672c", true)!;
  expect(has(enc("x \u65e5\u672c y"))).toBe(true);
  expect(has(enc("x \u65e5 \u672c y"))).toBe(false);
  const ascii = bytePrefilter("needle", true)!;
  expect(ascii(enc("\u00e9\u00e9 needle \u{1F600}"))).toBe(true);
  expect(ascii(enc("NEEDLE"))).toBe(false);
  expect(ascii(new Uint8Array(0))).toBe(false);
  // A view into a larger buffer is searched only within its own bytes.
  const big = enc("xxneedle");
  expect(ascii(big.subarray(0, 6))).toBe(false);
  expect(ascii(big.subarray(2))).toBe(true);
});

Deno.test("bytePrefilter: case-insensitive ASCII literals, RE2's K and S folds included", () => {
  const sentinel = bytePrefilter("sentinel1", false)!;
  expect(sentinel(enc("a SeNtInEl1 b"))).toBe(true);
  expect(sentinel(enc("\u017Fentinel1"))).toBe(true); // LONG S
  expect(sentinel(enc("sentinel2"))).toBe(false);
  const kelvin = bytePrefilter("k.b", false)!;
  expect(kelvin(enc("\u212A.B"))).toBe(true); // KELVIN SIGN; "." is literal here
  expect(kelvin(enc("kxb"))).toBe(false);
  // Non-ASCII literals have no byte check when case is ignored.
  expect(bytePrefilter("\u00e9t\u00e9", false)).toBe(null);
  expect(bytePrefilter("", true)).toBe(null);
});

Deno.test("bytePrefilter: never says no where re2js finds the literal (random texts)", () => {
  const alphabet = ["a", "k", "K", "s", "S", "\u212A", "\u017F", "\u00e9", "\u65e5", "-", "1"];
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (const literal of ["ks", "Sk1", "a-s", "\u65e5a"]) {
    for (const caseSensitive of [true, false]) {
      const check = bytePrefilter(literal, caseSensitive);
      if (!check) continue;
      const re = RE2JS.compile(
        RE2JS.quote(literal),
        caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE,
      );
      for (let i = 0; i < 3000; i++) {
        const text = Array.from({ length: 6 }, () => alphabet[rand(alphabet.length)]).join("");
        if (re.test(text)) {
          expect([literal, caseSensitive, text, check(enc(text))]).toEqual([
            literal,
            caseSensitive,
            text,
            true,
          ]);
        }
      }
    }
  }
});

Deno.test("bytePrefilter: rare-byte search and anchors agree with re2js exactly", () => {
  // Small alphabets make the anchor byte repeat, sit at both ends and next to near-misses.
  const alphabet = ["a", "b", "_", "1", "A", "B", "k", "\u212A", "\u00e9"];
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (const literal of ["a_", "_a", "ab1", "b_b", "1", "aa", "Ab", "ka", "\u00e9a"]) {
    for (const caseSensitive of [true, false]) {
      const check = bytePrefilter(literal, caseSensitive);
      if (!check) continue;
      const re = RE2JS.compile(RE2JS.quote(literal), caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
      for (let i = 0; i < 3000; i++) {
        const text = Array.from({ length: 1 + rand(7) }, () => alphabet[rand(alphabet.length)])
          .join("");
        // Inside a larger buffer too: only the view's own bytes count.
        const bytes = enc(`_a1${text}b_a`).subarray(3, 3 + enc(text).length);
        const found = re.test(text);
        // Case-sensitive checks are exact; ignoring case they may say yes where re2js says no.
        if (found || caseSensitive) {
          expect([literal, caseSensitive, text, check(bytes)]).toEqual([
            literal,
            caseSensitive,
            text,
            found,
          ]);
        }
      }
    }
  }
});

Deno.test("v8Translation: V8 only for patterns the filter check proves linear", () => {
  const engine = (p: string, cs = true) => compileLineMatcher(p, cs).engine;
  expect(engine("foo\\d{3}")).toBe("v8");
  expect(engine("TODO|FIXME")).toBe("v8");
  expect(engine("^import .*from")).toBe("v8"); // anchored, one unbounded repeat
  expect(engine("needle_[0-9]+_1\\b")).toBe("re2"); // unanchored unbounded repeat
  expect(engine("(a+)+$")).toBe("re2");
  expect(engine("(a|aa)*b")).toBe("re2");
  expect(engine("a\\sb")).toBe("re2"); // \s differs between RE2 and V8
  expect(engine("\\bfoo", false)).toBe("re2"); // \b differs under case folding
  expect(engine("\\bfoo", true)).toBe("v8");
  expect(engine("\\pL")).toBe("re2");
  expect(v8Translation("(?P<n>ab)c", true)).toEqual({ body: "(?<n>ab)c", flags: "su" });
  expect(v8Translation("abc", false)).toEqual({ body: "abc", flags: "sui" });
});

Deno.test("compileLineMatcher: V8 and re2js agree on lines (dot, classes, folding, astral)", () => {
  const patterns = [
    "a.b",
    "^x[^y]z$",
    "TODO|FIXME",
    "ke?y",
    "[a-c]{2}\\d",
    "\u00e9.",
    "(?i)sk",
    "^.{3}$",
  ];
  const lines = [
    "a\rb",
    "a\u{1F600}b",
    "x\u{1F600}z",
    "x\u00e9z",
    "todo: FIXME",
    "\u212Ay",
    "KEY",
    "bc7",
    "\u00e9\u00e9",
    "\u017F\u212A",
    "S\u212A",
    "\u{1F600}\u{1F600}\u{1F600}",
    "abc",
    "",
  ];
  for (const pattern of patterns) {
    for (const cs of [true, false]) {
      const m = compileLineMatcher(pattern, cs);
      const re = RE2JS.compile(pattern, cs ? 0 : RE2JS.CASE_INSENSITIVE);
      const got = lines.map((l) => [pattern, cs, l, m.testLine(l)]);
      expect(got).toEqual(lines.map((l) => [pattern, cs, l, re.test(l)]));
      // The whole-text test may say yes too often, never too rarely.
      for (const l of lines) if (re.test(l)) expect(m.testText(`zz\n${l}\nzz`)).toBe(true);
    }
  }
});

Deno.test("compileLineMatcher: a catastrophic pattern stays on re2js and finishes", () => {
  const m = compileLineMatcher("(a+)+$", true);
  expect(m.engine).toBe("re2");
  const evil = "a".repeat(50_000) + "!";
  expect([m.testLine(evil), m.testText(evil)]).toEqual([false, false]);
  const nested = compileLineMatcher("(x|xx)*y", false);
  expect(nested.engine).toBe("re2");
  expect(nested.testLine("x".repeat(50_000))).toBe(false);
});

Deno.test("compileLineMatcher: re2js text test keeps CRLF files for $ patterns", () => {
  const m = compileLineMatcher("end\\d+$", true);
  expect(m.engine).toBe("re2");
  expect(m.testText("start\r\nend12\r\nmore\r\n")).toBe(true);
  expect(m.testLine("end12")).toBe(true);
});

Deno.test("requiredPieces: cut at unbounded repeats, nothing for unusual syntax", () => {
  const table: [string, string[]][] = [
    ["[A-Z][a-z]+[0-9]{2}\\b", ["[A-Z][a-z]", "[a-z][0-9]{2}\\b"]],
    ["foo.*bar", ["foo", "bar"]],
    ["x{2,}y", ["x", "xy"]],
    ["a(b|c)+d", ["a(b|c)", "(b|c)d"]],
    ["ab*?c", ["a", "c"]],
    ["ab?c", ["ab?c"]],
    ["a|b", []],
    ["(?i)ab+c", []],
    ["\\x41+b", []],
    ["\\012+a", []],
    ["[[:alpha:]]+x", []],
    ["\\pL+x", []],
  ];
  expect(table.map(([p]) => [p, requiredPieces(p)])).toEqual(table);
  expect(pieceChecks("[A-Z][a-z]+[0-9]{2}\\b", false)).toEqual([]);
  expect(pieceChecks("a\\S+b", true)).toEqual([]); // \S differs on V8: no check
});

Deno.test("pieceChecks: never reject a line or text that re2js matches (random)", () => {
  const patterns = [
    "[A-Z][a-z]+[0-9]{2}\\b",
    "a.*b\\d",
    "^x+y$",
    "(ab|c)+d",
    "k{2,}[^a]e",
    "\\bw\\w*z\\B",
    "é+.\\.",
    "(?:ab)*c+",
    "[\\]a]+-",
  ];
  const alphabet = [
    "a",
    "b",
    "c",
    "d",
    "e",
    "k",
    "w",
    "x",
    "y",
    "z",
    "A",
    "Q",
    "1",
    "2",
    ".",
    "-",
    "]",
    " ",
    "é",
    "\u{1F600}",
    "\r",
  ];
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  let matched = 0;
  for (const pattern of patterns) {
    const checks = pieceChecks(pattern, true);
    expect([pattern, checks.length > 0]).toEqual([pattern, true]);
    const re = RE2JS.compile(pattern);
    for (let i = 0; i < 4000; i++) {
      const line = Array.from({ length: 2 + rand(8) }, () => alphabet[rand(alphabet.length)])
        .join("");
      if (!re.test(line)) continue;
      matched++;
      const text = `zz\n${line}\r\nzz`;
      const failed = checks.filter((c) => !c.test(line) || !c.test(text)).map(String);
      expect([pattern, line, failed]).toEqual([pattern, line, []]);
    }
  }
  expect(matched).toBeGreaterThan(200); // the random lines do exercise matches
});

Deno.test("bytePrefilter: a needle of one repeated byte and one other finds it and only it", () => {
  const has = bytePrefilter(`${"x".repeat(50)}y`, true)!;
  const enc = (s: string) => new TextEncoder().encode(s);
  expect(has(enc(`${"x".repeat(49)}y ${"x".repeat(80)}`))).toBe(false);
  expect(has(enc(`y${"x".repeat(50)}`))).toBe(false);
  expect(has(enc(`ab${"x".repeat(70)}y`))).toBe(true);
  expect(has(enc(`${"x".repeat(50)}y`))).toBe(true);
});
