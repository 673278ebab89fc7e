/**
 * Compiler diagnostics through system headers (src/filter/generic_compiler.ts), on real g++ 12 and
 * clang 14 template errors through libstdc++ (std::sort and std::map on a type without
 * operator<, a lambda of the wrong type for std::function): the notes in headers fold, every
 * error, every line in the user's file and `required from here` stay — through the `gcc` rule
 * (the folds after a rule) and through the generic pass of a command no rule knows.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import {
  foldCompilerNotes,
  foldLinkerRepeats,
  foldRepeatedDiagnostics,
  foldRepeatedReferences,
} from "../../src/filter/generic_compiler.ts";
import { threadCpuMs } from "../_support/timing.ts";

const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));
const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const bare = new FilterEngine([], { security: false });
/** The built-in rules without the folds after them: what the rule alone keeps. */
const rulesOnly = new FilterEngine([...engine.rules], { security: false, generic: false });

const ERROR = /: (?:fatal )?error: /;
const USER_FILE = /^(?:In file included from |\s+from )?sort\.cpp:\d/;

for (const [name, command] of [["gxx_template.txt", "g++"], ["clangxx_template.txt", "clang++"]]) {
  for (const [via, filter] of [["the gcc rule", engine], ["no rule", bare]] as const) {
    Deno.test(`${name} through ${via}: header notes fold, errors and user locations stay`, () => {
      const input = read(name);
      const cmd = via === "no rule" ? `./build-wrapper ${command}` : `${command} -c sort.cpp`;
      const outcome = filter.filter(cmd, input, { failed: true });
      if (via === "the gcc rule") expect(outcome.rules).toContain("gcc");
      else expect(outcome.rules).toEqual([]);
      const out = outcome.text.split("\n");
      const lines = input.split("\n");
      // Every error line and every line located in the user's file that the rule kept (all of
      // them without a rule) stays, in order.
      const before = via === "no rule"
        ? lines
        : rulesOnly.filter(cmd, input, { failed: true }).text.split("\n");
      const kept = before.filter((l) => ERROR.test(l) || USER_FILE.test(l));
      expect(kept.length).toBeGreaterThan(3);
      expect(out.filter((l) => kept.includes(l))).toEqual(kept);
      for (const l of lines.filter((l) => l.includes("required from here"))) {
        expect(out).toContain(l);
      }
      expect(out.some((l) => /^… \d+ lines of notes in system headers folded …$/.test(l)))
        .toBe(true);
      // No note located in a system header is left.
      expect(out.filter((l) => /^\/usr\/\S+:\d+:\d+: note: /.test(l))).toEqual([]);
      expect(out.length).toBeLessThan(before.length / 2);
    });
  }
}

Deno.test("compiler notes: a note in the user's file, an error or warning in a header and a lone note stay", () => {
  const input = [
    "In file included from /usr/include/c++/12/vector:66,",
    "                 from app.cpp:2:",
    "/usr/include/c++/12/bits/stl_vector.h:120:5: error: static assertion failed",
    "  120 |       static_assert(is_same<T, U>::value);",
    "      |       ^~~~~~~~~~~~~",
    "/usr/include/c++/12/bits/stl_vector.h:99:3: warning: unused variable 'x' [-Wunused-variable]",
    "app.cpp:9:3: note: candidate: 'void f(int)'",
    "    9 | void f(int);",
    "      |   ^",
    "/usr/include/c++/12/bits/stl_function.h:408:20: note:   'S' is not derived from 'T'",
    "app.cpp:10:1: error: expected ';'",
  ];
  expect(foldCompilerNotes(input)).toEqual(input);
});

Deno.test("compiler notes: a run in node_modules or site-packages folds with its snippets", () => {
  const note = (path: string, n: number) => [
    `${path}:${n}:7: note: candidate template ignored: substitution failure`,
    `  ${n} |   template <class T> void f(T);`,
    "      |   ^~~~~~~~",
  ];
  const input = [
    "src/a.cpp:3:9: error: no matching function for call to 'f'",
    ...note("/home/me/app/node_modules/nan/nan.h", 12),
    ...note("/home/me/.venv/lib/python3.12/site-packages/numpy/core/include/x.h", 40),
    "src/a.cpp:4:1: error: expected '}'",
  ];
  expect(foldCompilerNotes(input)).toEqual([
    "src/a.cpp:3:9: error: no matching function for call to 'f'",
    "… 6 lines of notes in system headers folded …",
    "src/a.cpp:4:1: error: expected '}'",
  ]);
});

Deno.test("compiler notes: a single header note stays, and long lines are not read", () => {
  const input = [
    "/usr/include/stdio.h:12: note: a single note in a header",
    "note: standalone",
    `/usr/include/${"a".repeat(3000)}.h:1:1: note: x`,
    `/usr/include/${"b".repeat(3000)}.h:1:1: note: y`,
  ];
  expect(foldCompilerNotes(input)).toEqual(input);
  // Pathological lines stay linear.
  const long = [":".repeat(100_000), "/".repeat(100_000), " ".repeat(100_000)];
  const started = threadCpuMs();
  expect(foldCompilerNotes(long)).toEqual(long);
  expect(threadCpuMs() - started).toBeLessThan(500);
});

Deno.test("compiler notes: a header note that says the expected type or the previous declaration stays", () => {
  // Real gcc 12 outputs: a callback and a format string of the wrong types, where the note in the
  // header is the only line naming the type the call expects, and a global named like a libc
  // function, where the note says which declaration it collides with.
  for (const name of ["gcc_argument_types.txt", "gcc_previous_declaration.txt"]) {
    const input = read(name);
    const notes = input.split("\n").filter((l) => l.startsWith("/usr/include/"));
    expect(notes.length).toBeGreaterThan(0);
    const out = bare.filter("./build.sh", input, { failed: true }).text.split("\n");
    for (const note of notes) expect(out).toContain(note);
  }
});

Deno.test("a note saying its diagnostic's message at its location again goes: clang-tidy's analyzer, through its rules and with no rule", () => {
  const input = read("clang_tidy_analyzer.txt");
  const restating = [
    "/tmp/zeph-tidy/src/leak.c:6:3: note: Call to function 'sprintf' is insecure as it does not provide security checks introduced in the C11 standard. Replace with analogous functions that support length arguments or provides boundary checks such as 'sprintf_s' in case of C11",
    "/tmp/zeph-tidy/src/leak.c:12:26: note: Potential leak of memory pointed to by 'l'",
    "/tmp/zeph-tidy/src/leak.c:17:3: note: Call to function 'strcpy' is insecure as it does not provide bounding of the memory buffer. Replace unbounded copy functions with analogous functions that support length arguments such as 'strlcpy'. CWE-119",
  ];
  for (const line of restating) expect(input.split("\n")).toContain(line);
  const notes = input.split("\n").filter((l) => / note: /.test(l) && !restating.includes(l));
  expect(notes.length).toBe(7);
  const command = "clang-tidy src/leak.c -checks='-*,clang-analyzer-*' --";
  for (const [cmd, filter] of [[command, engine], ["./lint-wrapper", bare]] as const) {
    const out = filter.filter(cmd, input, { failed: false }).text.split("\n").map((l) => l.trim());
    for (const line of restating) expect(out).not.toContain(line);
    // The analyzer's path steps (other text, or another location) and every warning stay.
    for (const line of notes) expect(out).toContain(line);
    for (const line of input.split("\n").filter((l) => / warning: /.test(l))) {
      expect(out).toContain(line);
    }
  }
  // A note at another location, or saying more than the diagnostic, stays.
  const kept = [
    "a.c:3:1: warning: Potential leak of memory pointed to by 'p' [unix.Malloc]",
    "a.c:2:1: note: Potential leak of memory pointed to by 'p'",
    "a.c:3:1: note: Potential leak of memory pointed to by 'q'",
    "b.c:1:1: error: use of undeclared identifier 'x'",
    "a.c:3:1: note: Potential leak of memory pointed to by 'p'",
  ];
  expect(foldCompilerNotes(kept)).toEqual(kept);
});

const CORPUS = new URL("../../bench/corpus/native/", import.meta.url);

for (const [name, command] of [["gcc_include_chain", "gcc"], ["clang_include_chain", "clang"]]) {
  Deno.test(`${name}: a header's diagnostics printed again for the next source become one line; each source's include chain stays`, () => {
    const input = Deno.readTextFileSync(new URL(`${name}.txt`, CORPUS));
    const cmd = `${command} -Wall -Wextra -Iinclude -c src/conn.c src/server.c`;
    const out = engine.filter(cmd, input, { failed: true }).text.split("\n");
    const again = out.filter((l) => l.includes("again, as shown above"));
    expect(again.length).toBe(command === "gcc" ? 1 : 2);
    for (const line of again) {
      expect(line).toMatch(
        /^… \d+ diagnostics?( \(\d+ lines\))? again, as shown above: include\/net\/(types|conn)\.h:\d+:\d+/,
      );
    }
    // Each diagnostic stays once, as printed; every include chain line stays.
    const lines = input.split("\n");
    const diagnostics = [
      ...new Set(lines.filter((l) => /^\S+:\d+:\d+: (warning|error): /.test(l))),
    ];
    for (const d of diagnostics) expect(out.filter((l) => l === d).length).toBe(1);
    const chains = lines.filter((l) => /^(In file included from |\s+from )/.test(l));
    expect(out.filter((l) => chains.includes(l))).toEqual(chains);
    // server.c's own warnings follow its chain and the fold.
    expect(out.indexOf(lines.find((l) => l.startsWith("src/server.c:2:23:"))!)).toBeGreaterThan(
      out.indexOf(again.at(-1)!),
    );
  });
}

Deno.test("a dropped or folded note takes only its own snippet: indented lines after it stay", () => {
  // A restated note printed without its snippet (a rule dropped it, or the tool printed none),
  // then kbuild's next steps: `  CC` lines are indented, and no source line.
  const restated = [
    "drivers/x/leak.c:12:26: warning: Potential leak of memory pointed to by 'l' [unix.Malloc]",
    "drivers/x/leak.c:12:26: note: Potential leak of memory pointed to by 'l'",
    "  CC      drivers/x/next.o",
    "  CC      drivers/x/other.o",
  ];
  expect(foldCompilerNotes(restated)).toEqual([restated[0], restated[2], restated[3]]);
  // With its clang snippet (a source line and the marks under it) the note takes both.
  const snippet = [
    restated[0],
    restated[1],
    "   12 |   l = malloc(4);",
    "      |   ^",
    restated[2],
  ];
  expect(foldCompilerNotes(snippet)).toEqual([restated[0], restated[2]]);
  const clang = [restated[0], restated[1], "  l = malloc(4);", "  ^~~~~~", restated[2]];
  expect(foldCompilerNotes(clang)).toEqual([restated[0], restated[2]]);
  // A note in a system header that folds takes no `  CC` line with it either.
  const header = [
    "main.cpp:8:12: error: no match for 'operator<'",
    "/usr/include/c++/12/bits/stl_algo.h:81:17: note: candidate: 'template<class T> bool f(T)'",
    "  CC      next.o",
    "  LD      vmlinux",
  ];
  const folded = foldCompilerNotes(header);
  expect(folded).toContain("  CC      next.o");
  expect(folded).toContain("  LD      vmlinux");
});

Deno.test("repeated diagnostics: an output without a repeated block is handed on as it came, not copied", () => {
  const lines = ["a.c:1:2: warning: unused ‘x’", "b.c:3:4: warning: unused ‘y’", "done"];
  expect(foldRepeatedDiagnostics(lines)).toBe(lines);
  // A repeat folds into a new array, the input left as it was.
  const again = [...lines.slice(0, 2), "In file included from c.c:1:", ...lines.slice(0, 2)];
  const folded = foldRepeatedDiagnostics(again);
  expect(folded).not.toBe(again);
  expect(folded.length).toBe(4);
  expect(again.length).toBe(5);
});

Deno.test("ld's repeated undefined references of one symbol from one function fold to the first and a count", () => {
  const refs = (file: string, symbol: string, offsets: string[]) =>
    offsets.map((at, i) =>
      `${i ? "/usr/bin/ld: " : ""}${file}:(.text+0x${at}): undefined reference to \`${symbol}'`
    );
  const input = [
    "/usr/bin/ld: main.o: in function `main':",
    ...refs("main.c", "foo", ["3b", "48", "55"]),
    "/usr/bin/ld: main.c:(.text+0x5d): undefined reference to `bar'",
    "/usr/bin/ld: main.c:(.text+0x6a): undefined reference to `foo'",
    "/usr/bin/ld: main.o: in function `helper':",
    ...refs("main.c", "foo", ["12", "21"]),
    "/usr/bin/ld: util.o: in function `main':",
    ...refs("util.c", "foo", ["12", "1e", "2a"]),
    "collect2: error: ld returned 1 exit status",
  ];
  expect(foldRepeatedReferences(input)).toEqual([
    input[0],
    input[1],
    "… 3 more references to `foo' in main",
    // Another symbol of the same function stays, in its place.
    input[4],
    // Another function's references to the same symbol: its own fold (one more stays as printed).
    ...input.slice(6, 9),
    // Another object's function of the same name: its own fold.
    input[9],
    input[10],
    "… 2 more references to `foo' in main",
    input[13],
  ]);
  // Without a repeat the lines are handed on as they came.
  const once = [input[0], input[1], input[4], input[13]];
  expect(foldRepeatedReferences(once)).toBe(once);
});

Deno.test("a link's repeated undefined references fold through the gcc and make rules and with no rule", async () => {
  for (
    const [path, command] of [
      ["native/ld_repeated_refs", "gcc -o app main.c util.c"],
      ["make/make_ld_repeated_refs", "make"],
      ["native/ld_repeated_refs", "./link.sh"],
    ]
  ) {
    const at = (ext: string) => new URL(`../../bench/corpus/${path}.${ext}`, import.meta.url);
    const input = await Deno.readTextFile(at("txt"));
    const signals = (await Deno.readTextFile(at("signals"))).split("\n").filter(Boolean);
    const out = engine.filter(command, input, { failed: true }).text.split("\n");
    for (const signal of signals) {
      expect({ command, signal, kept: out.includes(signal) }).toEqual({
        command,
        signal,
        kept: true,
      });
    }
    expect({ command, count: out.includes("… 3 more references to `foo' in main") }).toEqual({
      command,
      count: true,
    });
    // The kept references stay in the order printed, each under its own function's header.
    const kept = input.split("\n").filter((line) => out.includes(line));
    expect(out.filter((line) => !line.startsWith("… "))).toEqual(kept);
  }
});

Deno.test("ld's diagnostics repeated per object fold across objects: the first whole, the other places named", () => {
  const input = [
    "/usr/bin/ld: b.o:(.bss+0x0): multiple definition of `counter'; a.o:(.bss+0x0): first defined here",
    "/usr/bin/ld: b.o: in function `helper':",
    "b.c:(.text+0x0): multiple definition of `helper'; a.o:a.c:(.text+0x0): first defined here",
    "/usr/bin/ld: c.o:(.bss+0x0): multiple definition of `counter'; a.o:(.bss+0x0): first defined here",
    "/usr/bin/ld: c.o: in function `helper':",
    "c.c:(.text+0x0): multiple definition of `helper'; a.o:a.c:(.text+0x0): first defined here",
    "/usr/bin/ld: d.o:(.bss+0x0): multiple definition of `counter'; a.o:(.bss+0x0): first defined here",
    "/usr/bin/ld: a.o: in function `use_a':",
    "a.c:(.text+0x23): undefined reference to `log_msg'",
    "/usr/bin/ld: a.c:(.text+0x30): undefined reference to `missing'",
    "/usr/bin/ld: b.o: in function `use_b':",
    "b.c:(.text+0x23): undefined reference to `log_msg'",
    "/usr/bin/ld: c.o: in function `use_c':",
    "c.c:(.text+0x23): undefined reference to `log_msg'",
    "/usr/bin/ld: d.o: in function `use_d':",
    "d.c:(.text+0x23): undefined reference to `log_msg'",
    "/usr/bin/ld: d.c:(.text+0x30): undefined reference to `other'",
    "collect2: error: ld returned 1 exit status",
  ];
  expect(foldLinkerRepeats(input)).toEqual([
    input[0],
    "… the same multiple definition of `counter' in 2 more places: c.o, d.o",
    input[1],
    input[2],
    // Made from one more place only: it stays as printed.
    input[4],
    input[5],
    input[7],
    input[8],
    "… the same undefined reference to `log_msg' from 3 more places: b.c (use_b), c.c (use_c), d.c (use_d)",
    input[9],
    // A header stays above a distinct symbol under it.
    input[14],
    input[16],
    input[17],
  ]);
  // Without a repeat from two more places the lines are handed on as they came.
  const once = input.slice(0, 6);
  expect(foldLinkerRepeats(once)).toBe(once);
});

Deno.test("a link repeating each diagnostic per object folds through the gcc rule, each symbol kept", async () => {
  const input = await Deno.readTextFile(
    new URL("../../bench/corpus/native/link_repeated.txt", import.meta.url),
  );
  const out = engine.filter("gcc -o shop main.o cart.o price.o stock.o order.o invoice.o", input, {
    failed: true,
  }).text.split("\n");
  expect(out.length).toBe(13);
  for (const symbol of ["counter", "helper", "log_msg", "missing_a", "missing_b"]) {
    expect(
      out.filter((line) => line.includes(`\`${symbol}'`) && !/^… |in function/.test(line)).length,
    )
      .toBe(1);
  }
  expect(out).toContain(
    "… the same undefined reference to `missing_b' from 5 more places: cart.c (use_cart), price.c (use_price), stock.c (use_stock), order.c (use_order), invoice.c (use_invoice)",
  );
});
