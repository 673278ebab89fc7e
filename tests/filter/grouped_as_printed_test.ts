/**
 * Grouping strategies keep their members as printed: a group's saving comes from what may go (a
 * header per group, a message said again, a cap past the group's limit), never from a member's
 * words. One class per test, through the built-in rules and the engine's guard.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { isMarker, kindOf, loadFilterEngine, normalLine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });

/** The output's lines that are neither an input line as printed (indentation aside) nor a marker. */
function rewritten(input: string, out: string): string[] {
  const inputs = new Set(input.split("\n").map(normalLine));
  const long = [...inputs].filter((l) => l.length >= 8);
  return out.split("\n").filter((line) => !isMarker(line) && kindOf(line, inputs, long) !== "kept");
}

/** pylint's text output: `n` findings of a few messages over several files, one error. */
function pylint(n: number): string {
  const messages = [
    "C0114: Missing module docstring (missing-module-docstring)",
    "C0116: Missing function or method docstring (missing-function-docstring)",
    "W1514: Using open without explicitly specifying an encoding (unspecified-encoding)",
  ];
  const lines = ["************* Module shop.cart"];
  for (let i = 0; i < n; i++) {
    lines.push(`shop/m${i % 7}.py:${i + 1}:0: ${messages[i % messages.length]}`);
  }
  lines.push("shop/m3.py:99:4: E0602: Undefined variable 'total' (undefined-variable)");
  lines.push("", "-----------------------------------", "Your code has been rated at 3.10/10");
  return lines.join("\n");
}

Deno.test("a grouped output's members are all input lines as printed", () => {
  const cases: [string, string][] = [
    ["pylint shop", pylint(40)],
    [
      "cargo clippy",
      [1, 2, 3, 4].flatMap((n) => [
        `warning: unused variable: \`v${n % 2}\``,
        ` --> src/m${n}.rs:${n}:9`,
        "  |",
        `${n} |     let v${n % 2} = 1;`,
        "  |         ^^ help: if this is intentional, prefix it with an underscore",
        "  |",
        "  = note: `#[warn(unused_variables)]` on by default",
        "",
      ]).join("\n"),
    ],
    [
      "grep -rn import src",
      Array.from(
        { length: 30 },
        (_, i) => `src/big file.ts:${i + 1}:import { x${i} } from "./x.ts";`,
      )
        .join("\n"),
    ],
  ];
  for (const [command, input] of cases) {
    const trace = engine.trace(command, input, { failed: true });
    const out = engine.filter(command, input, { failed: true }).text;
    expect(rewritten(input, out)).toEqual([]);
    // Nothing for the guard to put back: the rules' lines are as printed already.
    expect(trace.find((s) => s.type === "guard")?.restored ?? []).toEqual([]);
  }
});

Deno.test("a group's header and its counts are engine markers, a path with a space too", () => {
  for (
    const line of [
      "missing-function-docstring (12):",
      "unused_variables (2):",
      "this function has too many arguments [clippy::too_many_arguments] (2):",
      "  … 11 more saying this at shop/m1.py:8:0, shop/m2.py:11:0",
      "  … 15 more -Wunused-variable at f19.c:2:22, f2.c:2:21",
      "… 3 more matches in my docs/a b.md (lines 80, 81, 142)",
    ]
  ) expect(isMarker(line)).toBe(true);
  // A finding's own line is no marker: it is kept or put back as printed.
  expect(isMarker("shop/m1.py:2:0: C0116: Missing function or method docstring (x)")).toBe(false);
});

Deno.test("a long grouped output is never shown as it came: the grouping saves and the guard leaves it", () => {
  for (const n of [60, 400]) {
    const input = pylint(n);
    const trace = engine.trace("pylint shop", input, { failed: true });
    const guard = trace.find((s) => s.type === "guard");
    expect(guard?.asInput ?? false).toBe(false);
    const out = engine.filter("pylint shop", input, { failed: true }).text;
    expect(out.length).toBeLessThan(input.length * 0.5);
    // Every finding's location stays: in its line as printed or in a count.
    for (let i = 0; i < n; i++) expect(out).toContain(`shop/m${i % 7}.py:${i + 1}:0`);
  }
  const grep = Array.from(
    { length: 300 },
    // grep prints a file's matches together.
    (_, i) => `src/f${Math.floor(i / 75)}.ts:${i + 1}:const value${i} = compute(${i});`,
  ).join("\n");
  const out = engine.filter("grep -rn value src", grep, { failed: false }).text;
  expect(out.length).toBeLessThan(grep.length * 0.5);
  for (let f = 0; f < 4; f++) expect(out).toContain(`more matches in src/f${f}.ts (lines `);
});

Deno.test("an error among a group's members is never counted away, past any cap", () => {
  const input = [
    ...Array.from(
      { length: 30 },
      (_, i) => `f${i}.c:2:21: warning: unused variable ‘unused_${i}’ [-Wunused-variable]`,
    ),
    "f30.c:9:3: warning: implicit declaration of function ‘abort_now’; this is an error in C99 [-Wunused-variable]",
  ].join("\n");
  const out = engine.filter("make", input, { failed: true }).text;
  expect(out.split("\n").map((line) => line.trim())).toContain(
    "f30.c:9:3: warning: implicit declaration of function ‘abort_now’; this is an error in C99 [-Wunused-variable]",
  );
  // The warnings past the group's cap are counted with their locations.
  expect(out).toMatch(/… \d+ more -Wunused-variable at f\d+\.c:2:2\d/);
  for (let i = 0; i < 30; i++) expect(out).toContain(`f${i}.c:2:`);
  // A grep match that reads like a failure stays too, past the file's cap.
  const grep = [
    ...Array.from({ length: 20 }, (_, i) => `src/a.ts:${i + 1}:const item${i} = load(${i});`),
    "src/a.ts:40:throw new Error('load failed');",
  ].join("\n");
  expect(engine.filter("grep -rn load src", grep, { failed: false }).text.split("\n")).toContain(
    "src/a.ts:40:throw new Error('load failed');",
  );
});

/** shellcheck's default (tty) format: `n` scripts, each with the same three findings. */
function shellcheck(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(
      "",
      `In s${i}.sh line 2:`,
      "for f in $(ls *.txt); do",
      "         ^---------^ SC2045 (error): Iterating over ls output is fragile. Use globs.",
      "              ^-- SC2035 (info): Use ./*glob* or -- *glob* so names with dashes won't become options.",
      "",
      "",
      `In s${i}.sh line 3:`,
      `v${i}=0`,
      `^${
        "-".repeat(String(i).length)
      }^ SC2034 (warning): v${i} appears unused. Verify use (or export if used externally).`,
      "",
      "For more information:",
      "  https://www.shellcheck.net/wiki/SC2045 -- Iterating over ls output is fragile. Use globs.",
    );
  }
  return lines.join("\n");
}

Deno.test("shellcheck's grouped findings keep each code's caret line as printed, severity and all", () => {
  const input = shellcheck(12);
  const { text } = engine.filter("shellcheck s*.sh", input, { failed: true });
  expect(rewritten(input, text)).toEqual([]);
  const out = text.split("\n");
  // Each code's head is its first finding's caret line as printed, counted.
  expect(out).toContain(
    "         ^---------^ SC2045 (error): Iterating over ls output is fragile. Use globs. (12)",
  );
  // A second message under one code keeps its code and severity.
  for (const name of ["v1", "v11"]) {
    expect(out.some((line) => line.includes(`SC2034 (warning): ${name} appears unused.`)))
      .toBe(true);
  }
  expect(out).toContain("  In s7.sh line 2: for f in $(ls *.txt); do");
});
