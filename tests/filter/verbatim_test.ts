/**
 * The engine's guard: every line a rule keeps reaches the reader as the command printed it,
 * whatever the rule's stages did to it; what the engine adds (markers, summaries) and lines with
 * no single source (joins) stay as emitted; JSON input and rendered rules are left alone.
 */
import { expect } from "expect";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  type CompiledRule,
  compileRule,
  explainFilter,
  FilterEngine,
  KeptLines,
  loadFilterEngine,
} from "../../src/filter/mod.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { numbersInOrder } from "../../src/filter/verbatim.ts";
import type { StageContext } from "../../src/filter/types.ts";
import { threadCpuMs } from "../_support/timing.ts";

const rule = (strategy: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  compileRule({ name: "t", match: { prefix: "cmd" }, strategy, ...extra }, "test");
const rewrite = (pattern: string, to: string) => ({
  type: "strip_noise",
  patterns: ["^noise"],
  rewrite: [{ pattern, to }],
});
const filter = (rules: CompiledRule[], input: string[], failed = false) =>
  new FilterEngine(rules, { security: false, generic: false })
    .filter("cmd", input.join("\n"), { failed }).text.split("\n");

/** A rule whose stage hands its lines to `reshape` at the end (glues, joins, summaries). */
function reshaping(reshape: (lines: string[]) => string[]): CompiledRule {
  return {
    name: "reshape",
    source: "test",
    matches: (c) => c.startsWith("cmd"),
    strategy: {
      type: "reshape",
      createStage(ctx: StageContext) {
        const lines: string[] = [];
        return {
          push: (line) => void lines.push(line),
          finish() {
            for (const line of reshape(lines)) ctx.emit(line);
            return "full";
          },
        };
      },
    },
  };
}

Deno.test("a rewrite that strips a line's decoration gets the line back as printed", () => {
  const input = [
    "noise",
    "TASK [nginx : install] *********************************************************",
    "ok: [web1]",
  ];
  const out = filter([rule(rewrite("^(?P<t>TASK \\[[^\\]]+\\]) \\*+$", "{t}"))], input);
  expect(out).toEqual(input.slice(1));
});

Deno.test("a rewrite that changes a word's case gets the line back as printed", () => {
  const head = "src/app.ts:7:18 lint/complexity/useArrowFunction  FIXABLE  ━━━━━━━━━━━━━━━━━━━━";
  const strategy = rewrite("^(?P<at>\\S+ \\S+)  FIXABLE  ━+$", "{at} (fixable)");
  expect(filter([rule(strategy)], ["noise", head])).toEqual([head]);
});

Deno.test("a rewrite that collapses spacing gets the line back as printed", () => {
  const recap =
    "localhost                  : ok=4    changed=3    unreachable=0    failed=0    skipped=0";
  const out = filter([rule(rewrite("^(?P<h>\\S+) +: (?P<r>.*)$", "{h}: {r}"))], ["noise", recap]);
  expect(out).toEqual([recap]);
});

Deno.test("a line comes back byte for byte, the whitespace it ends in too", () => {
  // ansible's recap row ends in three spaces; a rule that rewrites, trims or unindents it gets
  // all of them back: a reader copies the line as printed, trailing spaces included.
  const recap =
    "localhost                  : ok=1    changed=1    unreachable=0    failed=1    ignored=0   ";
  const rewritten = filter([rule(rewrite("^(?P<h>\\S+) +: (?P<r>.*?) *$", "{h}: {r}"))], [
    "noise",
    recap,
  ]);
  expect(rewritten).toEqual([recap]);
  const trimmed = filter([rule(rewrite("^(?P<l>.*?) +$", "{l}"))], ["noise", recap]);
  expect(trimmed).toEqual([recap]);
  const indented = "    left:  {:error, :no_account}  ";
  const unindented = filter([rule(rewrite("^ +(?P<l>.*)$", "{l}"))], ["noise", indented]);
  expect(unindented).toEqual([indented]);
});

Deno.test("ansible-playbook's recap row stays as printed, trailing spaces included", async () => {
  // A playbook run that fails on an undefined variable after a loop (ansible-core 2.14).
  const dir = new URL("../fixtures/filters/ansible-playbook/", import.meta.url);
  const input = await Deno.readTextFile(new URL("undefined_var.in.txt", dir));
  const recap = input.split("\n").find((line) => line.startsWith("localhost "))!;
  expect(recap.endsWith("ignored=0   ")).toBe(true);
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const out = engine.filter(
    "ANSIBLE_NOCOLOR=1 ansible-playbook -c local -i localhost, play.yml",
    input,
    { failed: true },
  ).text.split("\n");
  expect(out).toContain(recap);
});

Deno.test("a rewrite that moves a word gets the line back as printed", () => {
  const input = [
    "noise",
    "tests/t.py::test_a PASSED                                                [ 50%]",
    "tests/t.py::test_x FAILED                                                [100%]",
  ];
  const out = filter([rule(rewrite("^(?P<id>\\S+) FAILED .*$", "FAILED {id}"))], input, true);
  expect(out).toEqual(input.slice(1));
});

Deno.test("a line that lost its indentation gets it back; one set deeper under a group header stays", () => {
  const warning = "  /tmp/app/report.py:6: RuntimeWarning: ratio with zero denominator";
  const input = ["noise", "tests/test_report.py::test_ratio", warning, "    return a / b"];
  const out = filter([rule(rewrite("^\\s+(?P<w>/\\S+: \\w+Warning: .*)$", "{w}"))], input);
  expect(out).toEqual(input.slice(1));
  // A member set deeper under a group header counts as printed (ANSI colour aside).
  const deeper = filter(
    [reshaping((lines) => [
      "unused_imports (2):",
      ...lines.filter((l) => !l.startsWith("noise")).map((l) => `  ${l}`),
    ])],
    ["\x1b[33m  warning: unused import\x1b[0m", "   --> src/a.rs:1:5", `noise ${"x".repeat(80)}`],
  );
  expect(deeper).toEqual([
    "unused_imports (2):",
    "    warning: unused import",
    "     --> src/a.rs:1:5",
  ]);
});

Deno.test("a cut of a line's tail gets the whole line back", () => {
  const frame = "     # ./spec/x_spec.rb:26:in `block (3 levels) in <top (required)>'";
  const out = filter([rule(rewrite("^(?P<at>\\s*# \\S+:\\d+):in .*$", "{at}"))], ["noise", frame]);
  expect(out).toEqual([frame]);
});

Deno.test("a glued line and a join of several lines have no single source: they stay", () => {
  const input = [
    "lint/suspicious/noExplicitAny ━━━━━━━━━━━━━━━━━━━━",
    "  × Unexpected any. Specify a different type.",
    "  > 1 │ let x: any = 1;",
    "a.ts",
    "b.ts",
  ];
  const glued = "Unexpected any. > 1 │ let x: any = 1;";
  const joined = "a.ts, b.ts";
  const out = filter(
    [reshaping((lines) => [lines[0], glued, lines.slice(3).join(", ")])],
    input,
  );
  expect(out).toEqual([input[0], glued, joined]);
});

Deno.test("a group header quoting a message is not made into a second copy of a member", () => {
  const message = "Type 'number' is not assignable to type 'string'.";
  const findings = [1, 2, 3].map((n) => `src/m${n}.ts(3,7): error TS2322: ${message}`);
  const trace = Array.from({ length: 4 }, (_, i) => `    at check (node_modules/tsc.js:${i}:1)`);
  const input = [...findings, ...trace];
  const out = filter(
    [reshaping((
      lines,
    ) => [`error TS2322: ${message} (3):`, ...lines.slice(0, 3).map((l) => `  ${l}`)])],
    input,
    true,
  );
  expect(out).toEqual([`error TS2322: ${message} (3):`, ...findings.map((l) => `  ${l}`)]);
});

Deno.test("a line's numbers must come in the same order in its source: words may move, numbers not", () => {
  const input = ["noise", "suite a: 1 passed, 3 failed", "suite b: 3 passed, 12 failed"];
  // Swapped counts have no source; the same counts in order (other numbers between) do.
  const swap = filter([reshaping(() => ["3 passed, 1 failed", "failed 3 passed 12"])], input);
  expect(swap).toEqual(["3 passed, 1 failed", "suite b: 3 passed, 12 failed"]);
  expect([
    numbersInOrder("3 passed, 1 failed", "suite a: 1 passed, 3 failed"),
    numbersInOrder("a.ts:3:7 TS2322 (2)", "src/a.ts(3,7): error TS2322: x"),
    numbersInOrder("a 1 b 1", "1 x 2 y 1"),
    numbersInOrder("a 1 b 1", "1 x 2"),
    numbersInOrder("no numbers", "1 2 3"),
  ]).toEqual([false, true, true, false, true]);
});

Deno.test("a summary the rules synthesize stays, and so does a rule's own template", () => {
  const input = ["noise", "noise", "ruff found 3 issues in 2 files", "a.py:1:1: F401 unused"];
  // Every word of the summary is in an input line: only the rule's template marks it as its own.
  const out = filter([
    rule({ type: "strip_noise", patterns: ["^noise", "^ruff found"], summary: "ruff {n} issues" }),
  ], input);
  expect(out).toEqual(["a.py:1:1: F401 unused", "ruff 3 issues"]);
  const listing = ["x.ts", "y.ts", "x.ts: 2 lines", "y.ts: 2 lines"];
  const made = filter([reshaping((lines) => [...lines.slice(0, 2), "2 files, 4 lines"])], listing);
  expect(made).toEqual(["x.ts", "y.ts", "2 files, 4 lines"]);
});

Deno.test("JSON input is exempt: its rendered text does not turn back into raw JSON", () => {
  const input = [
    JSON.stringify({ Action: "output", Test: "TestTotal", Output: "--- FAIL: TestTotal\n" }),
    JSON.stringify({ Action: "fail", Test: "TestTotal" }),
  ];
  const out = filter([rule({ type: "json", item_fields: ["Test"] })], input, true);
  expect(out.some((line) => line.includes("--- FAIL: TestTotal"))).toBe(true);
  expect(out.some((line) => line.startsWith("{"))).toBe(false);
});

Deno.test("a rule declaring its output a rendering is exempt", () => {
  const row = "-rw-r--r--  1 dev  dev    312 Feb 11  2025 .gitignore";
  const compact = rewrite(
    "^\\S+ +\\d+ \\S+ +\\S+ +(?P<size>\\d+) .* (?P<name>\\S+)$",
    "{name}  {size}",
  );
  expect(filter([rule(compact, { rendered: true })], ["noise", row])).toEqual([".gitignore  312"]);
  expect(filter([rule(compact)], ["noise", row])).toEqual([row]);
});

Deno.test("each input line restores one emitted line; one already shown is not added twice", () => {
  const input = ["tests/t.py::test_x FAILED   [ 50%]", "E   assert 1 == 2"];
  const out = filter(
    [reshaping((lines) => [...lines, "FAILED tests/t.py::test_x"])],
    input,
    true,
  );
  expect(out).toEqual(input);
});

Deno.test("a line printed under each of several errors is put back under each, not said once", () => {
  // valgrind prints the same frame in two stacks; a rule cutting its `==pid==` prefix emits it twice.
  const input = [
    "==7== Invalid read of size 4",
    "==7==    by 0x1093CC: polygon_new (polygon.c:6)",
    "==7== Invalid write of size 4",
    "==7==    by 0x1093CC: polygon_new (polygon.c:6)",
  ];
  const out = filter([rule(rewrite("^==\\d+== (?P<rest>.*)$", "{rest}"))], input, true);
  expect(out).toEqual(input);
});

Deno.test("past the cap, emitted lines stay as emitted", () => {
  const input = Array.from({ length: 10 }, (_, i) => `item ${i} ****`);
  const emitted = input.map((line) => line.replace(" ****", ""));
  const guard = new KeptLines({ cap: 4 });
  for (const line of input) guard.input(line);
  for (const line of emitted) guard.emitted(line);
  const { text, restored } = guard.restore(
    emitted.join("\n"),
    (fn) => input.forEach((line) => fn(line)),
  );
  expect(restored.length).toBe(4);
  expect(text.split("\n")).toEqual([...input.slice(0, 4), ...emitted.slice(4)]);
});

Deno.test("a rewrite of every one of 200k lines is guarded in linear time", () => {
  const strategy = rewrite("^(?P<t>line \\d+) \\*+$", "{t}");
  const time = (n: number) => {
    const input = Array.from({ length: n }, (_, i) => `line ${i} ****`);
    const start = threadCpuMs();
    const out = filter([rule(strategy)], input);
    const ms = threadCpuMs() - start;
    return { out, ms, input };
  };
  const small = time(20_000);
  // Under the cap every line comes back as printed.
  expect(small.out.filter((line, i) => line !== small.input[i]).length).toBe(0);
  const big = time(200_000);
  // Past the cap the first 20k come back, the rest stay as emitted (bounded work).
  expect(big.out.slice(0, 3)).toEqual(big.input.slice(0, 3));
  expect(big.out.at(-1)).toBe("line 199999");
  // Ten times the lines: far less than a hundred times the time (quadratic would be ~100×).
  expect(big.ms).toBeLessThan(Math.max(small.ms, 50) * 30);
});

Deno.test("--explain lists each line the guard put back", () => {
  const engine = new FilterEngine([rule(rewrite("^(?P<t>TASK \\[[^\\]]+\\]) \\*+$", "{t}"))], {
    security: false,
    generic: false,
  });
  const out = explainFilter(engine, "cmd", "noise\nTASK [x] ****\nok", {});
  expect(out).toContain("guard: 1 emitted line put back as printed (a rule rewrote or cut them)");
  expect(out).toContain("  ~ TASK [x]");
  expect(out).toContain("  = TASK [x] ****");
});

Deno.test("a line printed twice and rewritten twice comes back twice: each copy is its own fact", () => {
  // valgrind: the same frame under two errors; the rule strips the `==pid==` prefix.
  const input = [
    "==7== Invalid read of size 8",
    "==7==    at 0x10945A: area (polygon.c:15)",
    "==7==    by 0x109246: main (main.c:10)",
    "==7== Invalid read of size 8",
    "==7==    at 0x10945E: area (polygon.c:15)",
    "==7==    by 0x109246: main (main.c:10)",
  ];
  const strip = rule(rewrite("^==\\d+== (?P<rest>.*)$", "{rest}"));
  expect(filter([strip], input, true)).toEqual(input);
  // A tree listing two `package.json`, a group listing one location under two rules.
  const tree = ["a", "├── dist", "└── package.json", "b", "├── build", "└── package.json"];
  const bare = rule(rewrite("^[├└]── (?P<name>.*)$", "  {name}"));
  expect(filter([bare], ["noise", ...tree])).toEqual(tree);
});

Deno.test("a group line's count survives when its source line holds the count's number", () => {
  // Two findings saying `Expected 2 …`: every word of the group line `TS2554: … (2)` is in the
  // first one's line, `2` included; the count stays after the line as printed.
  const finding = "TS2554 [ERROR]: Expected 2 arguments, but got 1.";
  const input = [finding, "    at file:///p/main.ts:3:1", finding, "    at file:///p/main.ts:4:1"];
  const out = filter(
    [reshaping((lines) => ["TS2554: Expected 2 arguments, but got 1. (2)", lines[1], lines[3]])],
    input,
    true,
  );
  expect(out).toEqual([`${finding} (2)`, input[1], input[3]]);
});

Deno.test("a long line repeating the word many open lines wait on costs linear time", () => {
  // 20k rewritten lines `a` (sources `> a`) and a 100 KB line of `a a a …`: each of its words
  // used to visit every waiting line, 10⁹ steps.
  const n = 20_000;
  const input = ["a ".repeat(50_000), ...Array.from({ length: n }, () => "> a")];
  const emitted = Array.from({ length: n }, () => "a");
  const guard = new KeptLines();
  for (const line of input) guard.input(line);
  for (const line of emitted) guard.emitted(line);
  const start = threadCpuMs();
  guard.restore(emitted.join("\n"), (fn) => input.forEach((line) => fn(line)));
  expect(threadCpuMs() - start).toBeLessThan(1_500);
});

Deno.test("many lines cut with … after one shared start are checked in linear time", () => {
  // 20k log lines cut to their head, all starting `2026-11-27 01:00:00 `: each input line used
  // to be compared with every cut line, 4·10⁸ steps.
  const n = 20_000;
  const input = Array.from(
    { length: n },
    (_, i) => `2026-11-27 01:00:00 INFO request id=${i} path=/api/v1/items/${i} status=200`,
  );
  const emitted = input.map((line) => `${line.slice(0, 40)} …`);
  const guard = new KeptLines();
  for (const line of emitted) guard.emitted(line);
  const start = threadCpuMs();
  const { text } = guard.restore(emitted.join("\n"), (fn) => input.forEach((line) => fn(line)));
  expect(threadCpuMs() - start).toBeLessThan(1_500);
  // Each is an input line's head cut with an ellipsis: kept, left as emitted.
  expect(text.split("\n")).toEqual(emitted);
});

Deno.test("--explain says when the restored lines outgrow the input and the input is shown", () => {
  // A file header over members cut to `line:text`: put back whole, the lines and the header are
  // longer than the input, so the input is what the reader gets — and what --explain says.
  const input = ["src/a.ts:3:import x from 'y';", "src/a.ts:9:import z from 'w';"];
  const byFile = reshaping((lines) => ["src/a.ts:", ...lines.map((l) => l.slice(9))]);
  expect(filter([byFile], input)).toEqual(input);
  const engine = new FilterEngine([byFile], { security: false, generic: false });
  const out = explainFilter(engine, "cmd", input.join("\n"), {});
  expect(out).toContain(
    "  longer than the input once put back: the input is shown as it came",
  );
  expect(engine.trace("cmd", input.join("\n")).at(-1)!.output).toEqual(input);
});

Deno.test("many lines that lost their indentation, and one text at many indentations, cost linear time", () => {
  const n = 20_000;
  const input = Array.from({ length: n }, (_, i) => `  warning: item ${i % 50}`);
  const started = threadCpuMs();
  const out = filter([rule(rewrite("^\\s+(?P<w>warning: .*)$", "{w}"))], ["noise", ...input]);
  expect(out).toEqual(input);
  // One text emitted at 2,000 indentations, the input printing it at another one 20k times.
  const deep = Array.from({ length: 2_000 }, (_, i) => `${" ".repeat(i + 2)}x`);
  const guard = new KeptLines();
  for (const line of deep) guard.emitted(line);
  const { text } = guard.restore(deep.join("\n"), (fn) => {
    for (let i = 0; i < 20_000; i++) fn("\tx");
  });
  expect(text.split("\n").length).toBe(2_000);
  expect(threadCpuMs() - started).toBeLessThan(20_000);
});

Deno.test("lines a holding stage passes on as printed get no record of their own", () => {
  // A forced collection before each reading, so the heap holds only what is still referenced.
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const held = () => {
    gc();
    // Typed arrays' stores are outside the heap: counted too.
    const { heapUsed, external } = Deno.memoryUsage();
    return heapUsed + external;
  };
  const n = 200_000;
  const input = Array.from({ length: n }, (_, i) => `  entry ${i} of the listing, as printed`);
  // Every line emitted at the end, last first: none is a recent input line.
  const output = input.toReversed();
  const text = output.join("\n");
  const base = held();
  let most = 0;
  const guard = new KeptLines();
  for (const line of input) guard.input(line);
  for (const line of output) guard.emitted(line);
  most = Math.max(most, held() - base);
  const result = guard.restore(text, (fn) => {
    most = Math.max(most, held() - base);
    input.forEach((line) => fn(line));
    most = Math.max(most, held() - base);
  });
  expect(result.restored).toEqual([]);
  expect(result.text).toBe(text);
  // Positions, hashes and a table of them: tens of bytes a line, not an object with maps.
  expect(most).toBeLessThan(n * 64);
});

Deno.test("a line of an input line's length, last and middle characters is no copy of it unless equal", () => {
  // Log lines alike in all but their start: the first pass's cheap look (length, last and middle
  // characters) lets them through to the hash, which tells the rewritten one apart.
  const input = Array.from({ length: 40 }, (_, i) => `id=${String(i).padStart(3, "0")} state=ok`);
  const guard = new KeptLines();
  for (const line of input) guard.input(line);
  const emitted = ["ID=007 state=ok", "id=012 state=ok", "id=039 state=ok"];
  for (const line of emitted) guard.emitted(line);
  const { text, restored } = guard.restore(emitted.join("\n"), (fn) => {
    for (const line of input) if (fn(line) === true) return;
  });
  expect(text).toBe("id=007 state=ok\nid=012 state=ok\nid=039 state=ok");
  expect(restored).toEqual([{ emitted: "ID=007 state=ok", restored: "id=007 state=ok" }]);
});

Deno.test("the guard's passes over the input stop once nothing is left to look for", () => {
  const input = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
  const run = (emitted: string[]) => {
    const guard = new KeptLines();
    for (const line of input) guard.input(line);
    for (const line of emitted) guard.emitted(line);
    let read = 0;
    const { text } = guard.restore(emitted.join("\n"), (fn) => {
      for (const line of input) {
        read++;
        if (fn(line) === true) return;
      }
    });
    return { text, read };
  };
  // Input lines as printed: the first pass ends at the last of them.
  expect(run(["line 1", "line 2"])).toEqual({ text: "line 1\nline 2", read: 3 });
  // A line indented deeper (a group's member): no input line as printed (a whole pass), then
  // kept by the second pass at its source.
  expect(run(["  line 5"])).toEqual({ text: "  line 5", read: 1000 + 6 });
  // An input line with a group's count after it (dedup's `(x3)`): found by the first pass.
  expect(run(["line 1 (x3)", "line 2 ×2", "line 3 (4)"])).toEqual({
    text: "line 1 (x3)\nline 2 ×2\nline 3 (4)",
    read: 4,
  });
  // One whose rest is no input line as printed is looked for on.
  expect(run(["  line 5 (x3)"]).read).toBe(1000 + 6);
});
