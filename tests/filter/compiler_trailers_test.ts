/**
 * A C compiler's `fatal error:` and the trailers that end its diagnostics (clang's `fatal error:
 * too many errors emitted, stopping now [-ferror-limit=]` and `20 errors generated.`, gcc's
 * `compilation terminated.`) through the built-in rules, on real gcc 12 and clang 14 runs: on
 * their own, under make (the warnings grouped) and under `go test` (a cgo build): every
 * diagnostic and trailer stays as printed, each trailer right under the line it followed among
 * those kept, and no code frame of the build lands under a test's failure.
 */
import { expect } from "expect";
import { COMPILER_TRAILER } from "../../src/filter/signals.ts";
import { filter, fixture, lines } from "./_builtin.ts";

/** A compiler's located error (`a.c:3:11: error: …`, `… fatal error: …`). */
const LOCATED_ERROR = /^[^\s:]+:\d+:\d+: (?:fatal )?error: /;

const CASES = [
  "gcc/clang_error_limit",
  "gcc/gcc_max_errors",
  "make-gcc/clang_error_limit",
  "make-gcc/gcc_missing_header",
  "go-test/cgo_clang_error_limit",
  "go-test/cgo_clang_many_errors",
  "go-test/cgo_gcc_missing_header",
];

Deno.test("a compiler's errors and trailers stay, each trailer under the line it followed", async () => {
  for (const name of CASES) {
    const input = lines((await fixture(`${name}.in.txt`)).trimEnd());
    const [command, exit] = (await fixture(`${name}.cmd`)).split("\n");
    const out = lines(filter(command, input.join("\n"), exit !== ""));
    const kept = new Set(out);
    const errors = input.filter((line) => LOCATED_ERROR.test(line));
    const trailers = input.map((line, i) => [line, i] as const)
      .filter(([line]) => COMPILER_TRAILER.test(line));
    expect([name, errors.filter((line) => !kept.has(line))]).toEqual([name, []]);
    expect(trailers.length).toBeGreaterThan(0);
    for (const [trailer, i] of trailers) {
      // The line before it as printed that the output keeps: right above it there too.
      const above = input.slice(0, i).findLast((line) => kept.has(line));
      const at = out.indexOf(trailer, above === undefined ? 0 : out.indexOf(above));
      expect([name, trailer, out[at - 1]]).toEqual([name, trailer, above]);
    }
  }
});

Deno.test("go test: a cgo build's code frames and clang's fatal error are no test's", async () => {
  for (const name of CASES.filter((name) => name.startsWith("go-test/"))) {
    const input = await fixture(`${name}.in.txt`);
    const out = lines(filter("go test ./...", input, true));
    // The failing test's block is its head and its own log line, nothing of the build.
    const at = out.indexOf("--- FAIL: TestTwo (0.00s)");
    expect([name, out[at + 1]]).toEqual([name, "    pure_test.go:6: two is broken"]);
    // No line of a code frame (clang's caret, gcc's gutter) is left anywhere.
    expect([name, out.filter((line) => /^\s+(?:\d* \|.*|[~^ ]*\^[~^ ]*)$/.test(line))])
      .toEqual([name, []]);
  }
  // go's own refusal of a cgo flag, before any build output, stays.
  const refused = filter("go test ./...", await fixture("go-test/cgo_bad_flag.in.txt"), true);
  expect(lines(refused)[0]).toEqual(
    "go build example.com/mend4cgo/native: invalid flag in #cgo CFLAGS: -ferror-limit=5",
  );
});
