// `zeph filter`: saved output on stdin, and a command run through the bash tool.
import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";
import { commandLine, framed, statsLine } from "../../src/cli/filter_cmd.ts";

Deno.test("zeph filter --command filters saved output and prints the stats line", async () => {
  await withWorkspace(async (ws, home) => {
    const saved = "running 2 tests\ntest a ... ok\ntest b ... ok\n\n" +
      "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n";
    const r = await zeph(["filter", "--command", "cd x && cargo test 2>&1"], {
      cwd: ws,
      home,
      stdin: saved,
    });
    expect(r).toEqual({
      code: 0,
      stdout:
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n",
      stderr:
        "[shell] 5 lines -> 1 lines, 80.0% filtered (cargo-test, cargo-test-tidy; confidence full)\n",
    });
  });
});

Deno.test("zeph filter --command frames its output as the input: a final newline only where it had one", async () => {
  await withWorkspace(async (ws, home) => {
    const unfiltered = "alpha\nbeta";
    const r = await zeph(["filter", "--command", "some-unknown-tool"], {
      cwd: ws,
      home,
      stdin: unfiltered,
    });
    expect([r.code, r.stdout]).toEqual([0, unfiltered]);
    const withNewline = await zeph(["filter", "--command", "some-unknown-tool"], {
      cwd: ws,
      home,
      stdin: `${unfiltered}\n`,
    });
    expect(withNewline.stdout).toBe(`${unfiltered}\n`);
  });
});

Deno.test("framed: text ends in a newline exactly when the raw input does", () => {
  expect([
    framed("a\nb", "x\n"),
    framed("a\nb\n", "x\n"),
    framed("a\nb\n", "x"),
    framed("a", "x"),
    framed("", "x\n"),
    framed("\n", "x\n"),
    framed("\n", "x"),
  ]).toEqual(["a\nb\n", "a\nb\n", "a\nb", "a", "", "\n", ""]);
});

Deno.test("zeph filter -- <command> runs it through the bash tool; filters.toml applies", async () => {
  await withWorkspace(async (ws, home) => {
    for (let i = 0; i < 150; i++) await Deno.writeTextFile(path.join(ws, `f${1000 + i}.txt`), "");
    const r = await zeph(["-y", "filter", "--", "ls"], { cwd: ws, home });
    const lines = r.stdout.trimEnd().split("\n");
    expect([r.code, lines.length, lines[0], lines[70], lines.at(-1)]).toEqual([
      0,
      81,
      "f1000.txt",
      "... (70 lines omitted) ...",
      "f1149.txt",
    ]);
    expect(r.stderr).toBe(
      "[shell] 150 lines -> 81 lines, 46.0% filtered (ls; confidence partial)\n",
    );

    // A user filters.toml next to the config disables the built-in by name.
    await Deno.mkdir(path.join(home, ".config", "zeph"), { recursive: true });
    await Deno.writeTextFile(
      path.join(home, ".config", "zeph", "filters.toml"),
      '[[rules]]\nname = "ls"\nenabled = false\n',
    );
    const off = await zeph(["-y", "filter", "--", "ls"], { cwd: ws, home });
    expect([off.stdout.trimEnd().split("\n").length, off.stderr]).toEqual([
      150,
      "[shell] 150 lines, nothing removed (no rule matched; confidence full)\n",
    ]);
  });
});

Deno.test("commandLine: several words are an argv, quoted for bash; one word is a shell line", () => {
  const cases: [string[], string][] = [
    [["cargo", "test", "--workspace"], "cargo test --workspace"],
    [["printf", "%s|", "a b", "c"], "printf '%s|' 'a b' c"],
    [["sh", "-c", "echo x; exit 4"], "sh -c 'echo x; exit 4'"],
    [["echo", "it's", "$HOME", "*", ""], "echo 'it'\\''s' '$HOME' '*' ''"],
    [["cargo test 2>&1 | tail -3"], "cargo test 2>&1 | tail -3"],
    // Leading NAME=value words set the environment; later ones are plain arguments.
    [["RUST_BACKTRACE=1", "cargo", "test"], "RUST_BACKTRACE=1 cargo test"],
    [["A=x y", "B=", "env", "C=d e"], "A='x y' B='' env 'C=d e'"],
    [["1A=b", "x"], "1A=b x"],
  ];
  for (const [words, line] of cases) {
    expect({ words, line: commandLine(words) }).toEqual({ words, line });
  }
});

Deno.test("zeph filter -- <argv> runs the words as given and passes the exit code through", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph([
      "-y",
      "filter",
      "--",
      "sh",
      "-c",
      'printf \'%s|\' "$0" "$1"; exit 4',
      "a b",
      "*",
    ], {
      cwd: ws,
      home,
    });
    expect([r.code, r.stdout]).toEqual([4, "a b|*|\n[exit code 4]\n"]);
  });
});

Deno.test("zeph filter -- NAME=value <argv> sets the command's environment", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph([
      "-y",
      "filter",
      "--",
      "GREETING=hi there",
      "sh",
      "-c",
      'echo "$GREETING"',
    ], {
      cwd: ws,
      home,
    });
    expect([r.code, r.stdout]).toEqual([0, "hi there\n"]);
  });
});

Deno.test("zeph filter without input explains both forms (exit 2)", async () => {
  await withWorkspace(async (ws, home) => {
    const r = await zeph(["filter"], { cwd: ws, home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Nothing to filter. Run a command (zeph filter -- cargo test)");
  });
});

Deno.test("the stats line says when a stage failed and the output is shown as it came", () => {
  const stats = {
    rawLines: 2,
    filteredLines: 2,
    rawChars: 9,
    filteredChars: 9,
    removedChars: 0,
    elided: false,
    confidence: "fallback" as const,
    rules: ["broken"],
    inline: "",
  };
  expect(statsLine(stats)).toBe("[shell] 2 lines, nothing removed (broken; confidence fallback)");
  expect(statsLine({ ...stats, failure: "TypeError: x is undefined" })).toBe(
    "[shell] 2 lines, nothing removed (broken; confidence fallback; a stage failed " +
      "(TypeError: x is undefined), so the output is shown as it came: please report it)",
  );
});
