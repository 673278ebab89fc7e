/**
 * `go test -fuzz` that finds a panic (bench/corpus): the goroutine trace testing prints inside its
 * log line, indented, keeps the project's frames only.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";

Deno.test("go test -fuzz: the indented panic trace loses its testing, runtime and reflect frames, the project's stay", async () => {
  const input = lines(await corpus("go/go_test_fuzz_panic.txt"));
  const out = lines(filter("go test -fuzz=FuzzParse -fuzztime=60s .", input.join("\n"), true));
  const library =
    /^ {12}(created by )?(testing|runtime|runtime\/debug|reflect)\.|^ {12}panic\(\{|\/usr\/lib\/go-/;
  expect(input.filter((l) => library.test(l))).toHaveLength(16);
  expect(out.filter((l) => library.test(l))).toEqual([]);
  // Every other line of the failure stays, in order: the panic, the project's frames and their
  // files, the failing input and the command that re-runs it.
  const from = input.findIndex((l) => l.startsWith("--- FAIL: FuzzParse"));
  const rest = input.slice(from).filter((l) =>
    !library.test(l) && l.trim() !== "" && l !== "FAIL" && l !== "exit status 1"
  );
  expect(out.filter((l) => l.trim() !== "")).toEqual(rest);
});
