/**
 * Text printed twice (src/filter/generic_repeats.ts), on real outputs of Maven (compiler errors
 * repeated under `Failed to execute goal`) and apt-get (package lists that repeat each other):
 * the later copy becomes one reference line, the first stays as printed. Maven's closing copy puts
 * `[ERROR] ` before continuation lines printed bare the first time (`  symbol:   class Account`,
 * `  required: …`, on a one-module build and on a reactor that ends in `-rf :core` advice): it
 * is the same text and folds too, and so does a whole failure report printed again before new
 * failures (jest's retries, pytest's parametrized values). What stays: valgrind's
 * and clang's stacks and notes repeated under each of several errors (they belong to each),
 * count lines, single lines, and repeats too short to pay for their reference; hostile inputs
 * take linear time.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { foldRepeatedText } from "../../src/filter/generic_repeats.ts";
import { threadCpuMs } from "../_support/timing.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const CORPUS = new URL("../../bench/corpus/", import.meta.url);
const REFERENCE = /^\s*… the (\d+) lines from "(.+)" again, as shown above …$/;

const CASES = [
  {
    file: "jvm/mvn_compile_error",
    command: "mvn -q compile",
    repeated:
      "[ERROR] /tmp/zeph-corpus/shapes-mvn/src/main/java/org/shapes/Square.java:[11,40] cannot find symbol",
  },
  {
    file: "system/apt_install_simulate",
    command: "apt-get install -s texlive",
    repeated: "  libhttp-daemon-perl libhttp-date-perl libhttp-message-perl",
  },
];

for (const c of CASES) {
  Deno.test(`repeats: ${c.file} shows its repeated text once, with a reference where it came again`, () => {
    const raw = Deno.readTextFileSync(new URL(`${c.file}.txt`, CORPUS));
    const meta = JSON.parse(Deno.readTextFileSync(new URL(`${c.file}.json`, CORPUS)));
    const out = engine.filter(meta.command ?? c.command, raw, { failed: meta.exit_code !== 0 })
      .text.split("\n");
    // The repeated line was printed at least twice and is shown once, as printed.
    // deno-lint-ignore no-control-regex
    const printed = raw.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
    expect(printed.filter((l) => l.endsWith(c.repeated.trim())).length).toBeGreaterThan(1);
    expect(out.filter((l) => l === c.repeated).length).toBe(1);
    expect(out.some((l) => REFERENCE.test(l))).toBe(true);
  });
}

const block = [
  "[ERROR] /src/A.java:[1,35] incompatible types: String cannot be converted to int",
  "[ERROR] /src/B.java:[4,10] cannot find symbol",
  "[ERROR]   symbol:   method getNmae()",
  "[ERROR]   location: variable item of type org.shop.Item",
];

Deno.test("repeats: a later copy of a block becomes one reference naming its first line", () => {
  const lines = ["[INFO] COMPILATION ERROR", ...block, "[INFO] BUILD FAILURE", ...block, "done"];
  const out = foldRepeatedText(lines);
  expect(out).toEqual([
    "[INFO] COMPILATION ERROR",
    ...block,
    "[INFO] BUILD FAILURE",
    '… the 4 lines from "[ERROR] /src/A.java:[1,35] incompatible…" again, as shown above …',
    "done",
  ]);
});

const MAVEN_COPIES = [
  {
    file: "repeats_mvn_symbols.txt",
    first:
      "[ERROR] /tmp/r19b-cap/mvn1/src/main/java/org/acme/ledger/Book.java:[7,3] cannot find symbol",
    bare:
      "  reason: varargs mismatch; java.util.List<org.acme.ledger.Entry> cannot be converted to java.lang.CharSequence",
    lines: 14,
    after: [],
  },
  {
    file: "repeats_mvn_reactor.txt",
    first:
      "[ERROR] /tmp/r19b-cap/mvn2/core/src/main/java/org/shop/core/Money.java:[8,57] incompatible types: possible lossy conversion from double to long",
    bare: "  symbol:   variable currency",
    lines: 5,
    after: ["[ERROR]   mvn <args> -rf :core"],
  },
];

for (const c of MAVEN_COPIES) {
  Deno.test(`repeats: ${c.file}'s closing copy under [ERROR] folds to a reference`, () => {
    const raw = Deno.readTextFileSync(new URL(`../fixtures/generic/${c.file}`, import.meta.url));
    const out = engine.filter("mvn -o -B compile", raw, { failed: true }).text.split("\n");
    // The first copy stays as printed, its continuation lines bare; the copy is one reference.
    expect(out.filter((l) => l === c.first)).toHaveLength(1);
    expect(out).toContain(c.bare);
    expect(out.filter((l) => l.startsWith("[ERROR]   "))).toEqual(c.after);
    const refs = out.map((l) => REFERENCE.exec(l)).filter((m) => m !== null);
    expect(refs.map((m) => m![1])).toEqual([String(c.lines)]);
    // Every line of the closing copy is in the first one, level aside.
    const bare = new Set(out.map((l) => l.replace(/^\[ERROR\]/, "").trim()));
    const copy = raw.split("\n").slice(
      raw.split("\n").findIndex((l) => l.includes("Compilation failure: ")) + 1,
    );
    for (const line of copy.slice(0, c.lines)) {
      expect(bare.has(line.replace(/^\[ERROR\]/, "").trim())).toBe(true);
    }
  });
}

Deno.test("repeats: a copy that adds a level folds; one that changes the level stays", () => {
  const bare = [
    "[ERROR] /src/B.java:[4,10] cannot find symbol",
    "  symbol:   method getNmae()",
    "  location: variable item of type org.shop.inventory.Item",
    "[ERROR] /src/C.java:[9,18] method join in class String cannot be applied to given types;",
    "  required: java.lang.CharSequence,java.lang.CharSequence[]",
  ];
  const leveled = bare.map((l) => l.startsWith("[ERROR]") ? l : `[ERROR] ${l}`);
  expect(foldRepeatedText([...bare, "[INFO] BUILD FAILURE", ...leveled])).toEqual([
    ...bare,
    "[INFO] BUILD FAILURE",
    '… the 5 lines from "[ERROR] /src/B.java:[4,10] cannot find s…" again, as shown above …',
  ]);
  const warned = bare.map((l) => `[WARNING] ${l.replace("[ERROR] ", "")}`);
  const errors = bare.map((l) => `[ERROR] ${l.replace("[ERROR] ", "")}`);
  const lines = [...warned, "[INFO] BUILD FAILURE", ...errors];
  expect(foldRepeatedText(lines)).toEqual(lines);
});

Deno.test("repeats: a stack repeated under each of several errors stays under each (valgrind, clang)", () => {
  for (
    const [file, command, repeated] of [
      [
        "../../bench/corpus/native/valgrind_leaks.txt",
        "valgrind --leak-check=full ./geomtool",
        "   by 0x1092C9: main (main.c:15)",
      ],
      [
        "../fixtures/generic/clangxx_template.txt",
        "clang++ -c sort.cpp",
        "sort.cpp:8:8: note: in instantiation of function template specialization 'std::sort<__gnu_cxx::__normal_iterator<S *, std::vector<S>>>' requested here",
      ],
    ]
  ) {
    const raw = Deno.readTextFileSync(new URL(file, import.meta.url));
    const out = engine.filter(command, raw, { failed: true }).text.split("\n");
    // As printed (the guard puts valgrind's `==pid==` prefix back) under each error.
    expect(out.filter((l) => l.endsWith(repeated.trim())).length).toBeGreaterThan(1);
    expect(out.some((l) => REFERENCE.test(l))).toBe(false);
  }
});

Deno.test("repeats: a whole failure report printed again folds wherever it is (jest retries, pytest values)", () => {
  // Jest 29 with `jest.retryTimes(2, { logErrorsBeforeRetry: true })` prints a test's failure
  // before each retry and again in its report (run through a script no rule knows); pytest 9
  // prints a parametrized test's failure for each value. Each copy is a message, its code and its
  // location: the first stays, the later ones become references and the lines that differ (`RETRY
  // 2`, `pct = 101`, the headers) stay around them.
  const read = (name: string) =>
    Deno.readTextFileSync(new URL(`../fixtures/generic/${name}.txt`, import.meta.url));
  const jest = engine.filter("./ci/unit.sh", read("repeats_jest_retry"), { failed: true }).text
    .split("\n");
  const ref =
    '    … the 12 lines from "not enough stock for B-2: have 0, want 1" again, as shown above …';
  expect(jest.filter((l) => l === ref).length).toBe(2);
  expect(jest.filter((l) => l.includes("at reserve (src/cart.js:7:26)")).length).toBe(1);
  for (const kept of [" RETRY 1 ", " RETRY 2 ", "    ✕ reserves the last item (7 ms)"]) {
    expect(jest).toContain(kept);
  }
  expect(jest.indexOf(" RETRY 2 ")).toBe(jest.indexOf(ref) - 2);
  expect(jest.indexOf("  ● reserve › reserves the last item")).toBe(jest.lastIndexOf(ref) - 2);

  const pytest = foldRepeatedText(read("repeats_pytest_parametrized").split("\n"));
  const copies = pytest.filter((l) => REFERENCE.test(l));
  expect(copies).toEqual([
    '    … the 6 lines from "@pytest.mark.parametrize("pct", [-5, 101…" again, as shown above …',
    '    … the 6 lines from "@pytest.mark.parametrize("pct", [-5, 101…" again, as shown above …',
  ]);
  expect(pytest.filter((l) => l === "E       Failed: DID NOT RAISE <class 'ValueError'>").length)
    .toBe(1);
  for (const kept of ["pct = -5", "pct = 101", "pct = 250"]) expect(pytest).toContain(kept);
});

Deno.test("repeats: what must stay stays", () => {
  // A single repeated line (a location under each of several errors is theirs), short lines (a
  // reference would cost more), count lines, blank lines and engine markers.
  for (
    const lines of [
      [block[0], block[0]],
      [block[1], "x", block[1], "y", block[1]],
      ["ab", "cd", "x", "ab", "cd"],
      ["error: x", "ok", "error: x"],
      [...block, "2 errors", "---", ...block, "2 errors"],
      ["", "a long line that is a paragraph", "", "b", "", "c"],
      ["… 12 lines folded …", "x", "… 12 lines folded …"],
    ]
  ) {
    const out = foldRepeatedText(lines);
    if (lines[2] === "2 errors") expect(out.filter((l) => l === "2 errors").length).toBe(2);
    else expect(out).toEqual(lines);
  }
});

Deno.test("repeats: hostile inputs take linear time", () => {
  const long = "e".repeat(100_000);
  // 100k lines that all repeat a line above, blocks that stop just short of paying off, and a
  // 150k-line block repeated with a count line in it (kept whole, line by line).
  const short = Array.from({ length: 100_000 }, (_, i) => `x${i % 7}`);
  const big = Array.from({ length: 150_000 }, (_, i) => `error: line ${i}`);
  big[75_000] = "3 errors";
  const start = threadCpuMs();
  expect(foldRepeatedText([long, "a", long])).toEqual([long, "a", long]);
  expect(foldRepeatedText(short).length).toBeLessThan(short.length);
  expect(foldRepeatedText([...big, "between", ...big]).length).toBe(300_001);
  const text = engine.filter("some-tool", [...block, "x", ...block].join("\n"), { failed: true })
    .text;
  expect(text.split("\n").filter((l) => REFERENCE.test(l)).length).toBe(1);
  expect(threadCpuMs() - start).toBeLessThan(3000);
});
