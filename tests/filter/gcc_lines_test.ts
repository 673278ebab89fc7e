/**
 * gcc_lines.ts reads make-gcc's built-in patterns from bytes: it must answer as the regexes do
 * (the patterns compiled as any rule's are) on every line it does not leave UNSURE, and
 * LastWarning must never call two warnings alike when their rules or shapes differ.
 */
import { expect } from "expect";
import { parse as parseToml } from "smol-toml";
import { corpusTexts } from "./_corpus.ts";
import { prng } from "../_support/random.ts";
import { compilePattern, onText } from "../../src/filter/regex.ts";
import { anyMatcher, patternList } from "../../src/filter/strategies/_shared.ts";
import {
  classifyGccLine,
  GCC_LINE,
  GCC_NOISE,
  type GccWarning,
  LastWarning,
  NEITHER,
  NOISE,
  UNSURE,
  WARNING,
} from "../../src/filter/strategies/gcc_lines.ts";
import { elideNames } from "../../src/filter/strategies/group_by_rule.ts";

const noise = anyMatcher(patternList([...GCC_NOISE], "noise"));
const linePattern = compilePattern(GCC_LINE);
const encoder = new TextEncoder();

/** What the regexes say of a line: its kind and, for a warning, its groups. */
function byRegex(line: string): { kind: number; groups?: string[] } {
  if (noise(line)) return { kind: NOISE };
  const m = linePattern.exec(line);
  if (!m) return { kind: NEITHER };
  return { kind: WARNING, groups: ["loc", "sev", "msg", "rule"].map((g) => m.group(g)!) };
}

/** The line's UTF-8 inside a larger buffer (bytes before it, a newline after), as walked. */
function placed(line: string): { bytes: Uint8Array; from: number; to: number } {
  const body = encoder.encode(line);
  const bytes = new Uint8Array(body.length + 8);
  bytes.fill(0x41, 0, 7);
  bytes.set(body, 7);
  bytes[7 + body.length] = 10;
  return { bytes, from: 7, to: 7 + body.length };
}

/** What the bytes say of a line, in the regex's terms (null: UNSURE). */
function byBytes(line: string): { kind: number; groups?: string[] } | null {
  const { bytes, from, to } = placed(line);
  const w: GccWarning = { locEnd: -1, msgStart: -1, msgTail: -1, ruleLength: -1 };
  const kind = classifyGccLine(bytes, from, to, w);
  if (kind === UNSURE) return null;
  if (kind !== WARNING) return { kind };
  const n = line.length;
  return {
    kind,
    groups: [
      line.slice(0, w.locEnd),
      "warning",
      line.slice(w.msgStart, n - w.msgTail),
      line.slice(n - 1 - w.ruleLength, n - 1),
    ],
  };
}

/** Lines built from the pieces the patterns turn on, and whole warnings with varied parts. */
function generated(count: number, seed: number): string[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const pieces = [
    "f1.c",
    "src/a.c",
    "C:/x.c",
    "ü.c",
    "😀",
    "é",
    "\u00a0",
    "\u3000",
    ":",
    ":",
    "2",
    "17",
    "1234567",
    "12345678",
    " ",
    " ",
    "\t",
    "\f",
    "\r",
    "\v",
    "warning",
    "warning: ",
    "error: ",
    "note: ",
    "In function ",
    "In member function ",
    "In constructor ",
    "In lambda ",
    "note: each undeclared identifier is reported only once",
    " [",
    "[",
    "]",
    "-W",
    "-Wall",
    "unused",
    "=",
    "-",
    "_",
    "‘x’",
    "‘",
    "’",
    "'y'",
    "`z`",
    "cc",
    "gcc",
    "g++",
    "c++",
    "clang",
    "clang++",
    "ar",
    "ranlib",
    "ld",
    "lds",
    " | ",
    "|",
    "    ",
    "x".repeat(399),
    "x".repeat(400),
    " ".repeat(40),
    " ".repeat(41),
    "W",
  ];
  const locs = [
    "f.c:1:2",
    "src/a.c:12:5",
    "a:b.c:3:4",
    "x".repeat(400) + ":1:1",
    "x".repeat(401) + ":1:1",
    "ü.c:1:2",
    "f.c:12345678:1",
    "f.c:1",
    ":1:2",
    "f.c::1:2",
    "f.c:1:2:3",
    "é:1:2",
    "f\tc:1:2",
  ];
  const msgs = [
    "unused variable ‘a’",
    "x",
    "",
    " padded ",
    "a [b] c",
    "‘’",
    "'q' and `r`",
    "ends in ‘",
    "😀 wide",
    "\u00a0nbsp\u00a0",
    "trailing [",
    "with ] bracket",
    "‘a’ ‘b’",
  ];
  const rules = [
    "-Wunused-variable",
    "-Wall",
    "-W",
    "-Wx=1",
    "-Wa b",
    "Wfoo",
    "-W" + "y".repeat(80),
    "-W" + "y".repeat(81),
    "-Wé",
    "-W_",
    "-W-",
  ];
  const out: string[] = [];
  const noisy = () =>
    pick([
      pick(["cc", "gcc", "g++", "c++", "clang", "clang++", "ar", "ranlib", "ld", "lds"]) +
      pick([" ", "\t", "\f", "\r", "\v", "", "x"]) + pick(["-c a.c", "", " "]),
      pick(["", " ", "\t", " ".repeat(39), " ".repeat(40), " ".repeat(41)]) +
      pick(["", "2", "1234567", "12345678", "é"]) + pick([" | ", " |", "| ", " | x", "  | "]),
      pick(locs.slice(0, 6).concat(["f.c", "", "é.c"])).replace(/:\d+:\d+$/, "") +
      pick([": ", ":  ", " : ", ":"]) +
      pick([
        "In function ‘f’:",
        "In member function ",
        "In constructor x",
        "note: each " +
        "undeclared identifier is reported only once",
        "In functio",
      ]),
    ]);
  for (let i = 0; i < count; i++) {
    if (random() < 0.25) out.push(noisy() + pick(pieces) + pick(pieces));
    else if (random() < 0.5) {
      let line = "";
      for (let n = 1 + Math.floor(random() * 10); n > 0; n--) line += pick(pieces);
      out.push(line);
    } else {
      // Each part right most of the time, so that many whole lines match.
      const right = () => random() < 0.8;
      const n = () => 1 + Math.floor(random() * 9999);
      const loc = right()
        ? `${pick(["f", "src/a", "a:b", "C:/x"])}${n()}.c:${n()}:${n()}`
        : pick(locs);
      const sep = right() ? ": warning: " : pick([": warning:  ", ": error: ", ":warning: "]);
      const msg = right() ? `unused variable ‘v${n()}’` : pick(msgs);
      const rule = right() ? `-W${pick(["unused-variable", "all", "x=1", "a_b"])}` : pick(rules);
      const open = right() ? " [" : pick(["[", "  ["]);
      const close = right() ? "]" : pick(["] ", "]]"]);
      const tail = open + rule + close;
      out.push(loc + sep + msg + tail);
    }
  }
  return out;
}

Deno.test("gcc_lines: the built-in make-gcc rule uses exactly the patterns gcc_lines.ts reads", async () => {
  const doc = parseToml(
    await Deno.readTextFile(new URL("../../filters/make.toml", import.meta.url)),
  ) as { rules: { name: string; strategy: Record<string, unknown> }[] };
  const strategy = doc.rules.find((r) => r.name === "make-gcc")!.strategy;
  expect(strategy.noise_patterns).toEqual(GCC_NOISE);
  expect(strategy.line_pattern).toBe(GCC_LINE);
  expect(strategy.file_pattern).toBeUndefined();
});

Deno.test("gcc_lines: classifyGccLine answers as the regexes on corpus and generated lines", async () => {
  const lines = new Set<string>(generated(60_000, 97));
  for (const text of await corpusTexts()) for (const line of text.split("\n")) lines.add(line);
  const kinds = [0, 0, 0, 0];
  const wrong: string[] = [];
  for (const line of lines) {
    const got = byBytes(line);
    if (got === null) {
      kinds[UNSURE]++;
      continue;
    }
    kinds[got.kind]++;
    const want = onText(line, () => byRegex(line));
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      wrong.push(`${JSON.stringify(line)}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
    }
  }
  expect(wrong.slice(0, 5)).toEqual([]);
  // Not vacuous: every answer occurs often, UNSURE (a non-ASCII location) rarely.
  expect(kinds[NOISE]).toBeGreaterThan(3000);
  expect(kinds[WARNING]).toBeGreaterThan(3000);
  expect(kinds[NEITHER]).toBeGreaterThan(10_000);
  expect(kinds[UNSURE]).toBeLessThan(kinds[WARNING] / 2);
});

Deno.test("gcc_lines: every cut of matching lines answers as the regexes", () => {
  const lines = [
    "f1.c:2:21: warning: unused variable ‘unused_1’ [-Wunused-variable]",
    "f1.c: In function ‘f1’:",
    "a.cc: In member function ‘void A::f()’:",
    "a.c: note: each undeclared identifier is reported only once for each function it appears in",
    "    2 | int f1(int x) { int unused_1; return x * 1; }",
    "      |                     ^~~~~~~~",
    "cc -Wall -O1 -c f1.c -o f1.o",
    "clang++ -c a.cpp",
    "ranlib libx.a",
  ];
  let checked = 0;
  for (const full of lines) {
    for (let a = 0; a <= full.length; a++) {
      for (const cut of [full.slice(0, a), full.slice(a), full.slice(0, a) + " " + full.slice(a)]) {
        const got = byBytes(cut);
        if (got === null) continue;
        expect({ cut, got }).toEqual({ cut, got: onText(cut, () => byRegex(cut)) });
        checked++;
      }
    }
  }
  expect(checked).toBeGreaterThan(1000);
});

Deno.test("gcc_lines: LastWarning calls two warnings alike only with the same rule and shape", () => {
  const random = prng(5);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const pieces = ["unused", " ", "variable", "‘", "’", "'", "`", "é", "😀", "x", "‘a’", "‘bb’"];
  const inside = ["", "x", "yy", "`", "'", "‘", "’", "é", "😀", " "];
  const base = () => {
    let msg = "";
    for (let n = 1 + Math.floor(random() * 8); n > 0; n--) msg += pick(pieces);
    return msg;
  };
  // A message like `msg`: the insides of its ‘…’ spans or of one replaced, or a quote turned.
  const near = (msg: string): string => {
    const spans = [...msg.matchAll(/‘[^’]*’/g)];
    const r = random();
    if (r < 0.35) return msg.replace(/‘[^’]*’/g, () => `‘${pick(inside)}${pick(inside)}’`);
    if (spans.length && r < 0.7) {
      const m = pick(spans);
      return msg.slice(0, m.index! + 1) + pick(inside) + pick(["", pick(inside)]) +
        msg.slice(m.index! + m[0].length - 1);
    }
    if (r < 0.85) {
      const at = Math.floor(random() * msg.length);
      return msg.slice(0, at) + pick(["‘", "’", "`", "'"]) + msg.slice(at + 1);
    }
    return msg;
  };
  const rules = ["-Wunused-variable", "-Wunused-value", "-Wunused-label", "-Wall"];
  const warning = (msg: string, rule: string) => `f.c:1:2: warning: ${msg} [${rule}]`;
  const last = new LastWarning();
  let alike = 0;
  let previous: [string, string] | null = null;
  let msg = base();
  let rule = pick(rules);
  for (let i = 0; i < 100_000; i++) {
    if (random() < 0.2) msg = base();
    else msg = near(msg);
    if (random() < 0.1) rule = pick(rules);
    const { bytes, from, to } = placed(warning(msg, rule));
    const w: GccWarning = { locEnd: 0, msgStart: 0, msgTail: 0, ruleLength: 0 };
    if (classifyGccLine(bytes, from, to, w) !== WARNING) continue;
    if (previous !== null && last.same(bytes, from, to, w)) {
      alike++;
      expect({ msg, rule, shape: elideNames(msg.trim()) }).toEqual({
        msg,
        rule: previous[1],
        shape: elideNames(previous[0].trim()),
      });
    }
    last.save(bytes, from, to, w);
    previous = [msg, rule];
  }
  // It does find the runs it is for.
  expect(alike).toBeGreaterThan(2000);
});
