import { expect } from "expect";
import { displayWidth } from "../../src/cli/line_width.ts";
import { colorEnabled, Renderer, type Writer } from "../../src/cli/render.ts";
import type { ToolResult } from "../../src/tools/registry.ts";

function capture(isTerminal = false): Writer & { text: string } {
  const w = {
    text: "",
    isTerminal,
    write(t: string) {
      w.text += t;
    },
  };
  return w;
}

const result = (over: Partial<ToolResult>): ToolResult => ({
  callId: "c1",
  tool: "bash",
  ok: true,
  text: "out",
  outcome: "success",
  durationMs: 12,
  ...over,
});

Deno.test("Renderer (no TTY): text on stdout; tool title, output, stats and notices on stderr", () => {
  const out = capture();
  const err = capture();
  const r = new Renderer({ out, err, color: false, maxOutputLines: 2 });
  r.render({ type: "text", text: "Let me check." });
  r.render({
    type: "tool_start",
    callId: "c1",
    tool: "bash",
    kind: "execute",
    input: { command: "cargo build" },
    subjects: ["cargo build"],
  });
  r.render({ type: "tool_output", callId: "c1", tool: "bash", stream: "stdout", chunk: "raw" });
  r.render({
    type: "tool_end",
    result: result({
      text: "line 1\nline 2\nline 3\n",
      filterStats: {
        rawLines: 342,
        filteredLines: 3,
        rawChars: 9000,
        filteredChars: 30,
        removedChars: 8970,
        elided: false,
        confidence: "full",
        rules: ["cargo-build"],
        inline: "[shell] 342 lines -> 3 lines, 99% filtered",
      },
      overflowId: "0b6f2c1e-3f7a-4d25-9a7e-5c2d9e1f4b10",
    }),
  });
  r.render({ type: "notice", level: "warn", code: "doom_loop", message: "Stopping." });
  r.render({ type: "turn_end", stopReason: "doom_loop" });
  expect(out.text).toBe("Let me check.\n");
  expect(err.text).toBe(
    [
      "$ bash cargo build",
      "  line 1",
      "  line 2",
      "  … 1 more line",
      "  [shell] 342 lines -> 3 lines, 99% filtered",
      "  full output: zeph overflow show 0b6f2c1e-3f7a-4d25-9a7e-5c2d9e1f4b10",
      "[doom_loop] Stopping.",
      "(turn ended: doom_loop)",
      "",
    ].join("\n"),
  );
});

Deno.test("Renderer: the model's note on the unfiltered output is said once, by the lines under the preview", () => {
  const err = capture();
  const r = new Renderer({ out: capture(), err, color: false });
  const id = "161d69b9-dd77-464d-9cc2-56ee93ab746a";
  const note = `[filtered: 40 → 2 lines; unfiltered output: overflow:${id} (read_overflow)]`;
  for (const overflowId of [id, undefined]) {
    r.render({
      type: "tool_end",
      result: result({ text: `wrote a\n… 38 lines like these folded …\n\n${note}`, overflowId }),
    });
  }
  expect(err.text).toBe(
    [
      "  wrote a",
      "  … 38 lines like these folded …",
      `  full output: zeph overflow show ${id}`,
      // Without the entry's id (another entry's, or none) the text is shown as the model read it.
      "  wrote a",
      "  … 38 lines like these folded …",
      "  ",
      `  ${note}`,
      "",
    ].join("\n"),
  );
});

Deno.test("Renderer on a TTY: a spinner line, then a check mark with the duration", () => {
  const out = capture(true);
  const err = capture(true);
  const r = new Renderer({ out, err, color: false });
  r.render({
    type: "tool_start",
    callId: "c1",
    tool: "read",
    kind: "read",
    input: {},
    subjects: ["a.ts"],
  });
  r.render({ type: "tool_end", result: result({ tool: "read", ok: true, text: "1\tx" }) });
  expect(err.text).toBe("\r\x1b[2K⠋ › read a.ts  0.0s\r\x1b[2K✓ › read a.ts 12ms\n  1\tx\n");
});

/** A TTY writer of `columns` columns that records every redraw of the status line. */
function tty(columns: number) {
  return Object.assign(capture(true), { columns: () => columns });
}

const redraws = (text: string) => text.split("\r\x1b[2K").filter(Boolean);

Deno.test("status line: cut to the terminal width (wide characters, live output), redrawn in place", () => {
  let now = 0;
  const err = tty(40);
  const r = new Renderer({ out: capture(true), err, color: false, now: () => now, frameMs: 1e9 });
  r.render({
    type: "tool_start",
    callId: "c1",
    tool: "bash",
    kind: "execute",
    input: {},
    subjects: ["echo 日本語のとても長いコマンドの行です && sleep 5"],
  });
  now = 2500;
  r.render({
    type: "tool_output",
    callId: "c1",
    tool: "bash",
    stream: "stdout",
    chunk: "step 1\n\x1b[31mstep 2 of a very long build\x1b[0m\n",
  });
  r.stopSpinner();
  const lines = redraws(err.text);
  // The title leaves room for the elapsed time and a third of the line for the output.
  expect(lines).toEqual([
    "⠋ $ bash echo 日本語のとても長い…  0.0s",
    "⠋ $ bash echo 日本…  2.5s  step 2 of a…",
  ]);
  for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(39);
  // Nothing but redraws: no newline, so no copy is left in the scrollback.
  expect(err.text.includes("\n")).toBe(false);

  const wide = tty(60);
  const w = new Renderer({ out: capture(true), err: wide, color: false, now: () => now });
  w.render({
    type: "tool_start",
    callId: "c",
    tool: "bash",
    kind: "execute",
    input: {},
    subjects: ["make"],
  });
  now = 4000;
  w.render({
    type: "tool_output",
    callId: "c",
    tool: "bash",
    stream: "stdout",
    chunk: "\x1b[2Jcompiling a.c\n",
  });
  w.stopSpinner();
  expect(redraws(wide.text).at(-1)).toBe("⠋ $ bash make  1.5s  compiling a.c");
});

Deno.test("thinking spinner: elapsed time and the Ctrl-C hint until the model answers, again after tools", () => {
  let now = 1000;
  const err = tty(80);
  const out = capture(true);
  const r = new Renderer({ out, err, color: false, now: () => now, frameMs: 1e9 });
  r.thinking();
  now = 4200;
  r.render({ type: "text", text: "Hi" });
  expect(redraws(err.text)).toEqual(["⠋ thinking…  0.0s · Ctrl-C to cancel"]);
  r.render({
    type: "tool_start",
    callId: "c",
    tool: "read",
    kind: "read",
    input: {},
    subjects: ["a"],
  });
  r.render({ type: "tool_end", result: result({ tool: "read", text: "" }) });
  expect(redraws(err.text).at(-1)).toBe("⠋ thinking…  0.0s · Ctrl-C to cancel");
  r.render({ type: "turn_end", stopReason: "end_turn" });
  expect(err.text.endsWith("\r\x1b[2K")).toBe(true);
  // No TTY: no spinner at all.
  const plain = capture(false);
  new Renderer({ out: capture(false), err: plain, color: false }).thinking();
  expect(plain.text).toBe("");
});

Deno.test("pause/resume: the tool's spinner comes back after a question; the wait is not its time", () => {
  let now = 0;
  const err = tty(80);
  const r = new Renderer({ out: capture(true), err, color: false, now: () => now, frameMs: 1e9 });
  r.render({
    type: "tool_start",
    callId: "c",
    tool: "bash",
    kind: "execute",
    input: {},
    subjects: ["make"],
  });
  now = 200;
  r.pause();
  err.text = "";
  now = 15_200; // the user took 15 s to answer
  r.resume();
  now = 1_200 + 15_000;
  r.render({ type: "tool_output", callId: "c", tool: "bash", stream: "stdout", chunk: "built\n" });
  r.render({ type: "tool_end", result: result({ callId: "c", text: "", durationMs: 16_400 }) });
  expect(redraws(err.text)).toEqual([
    "⠋ $ bash make  0.2s",
    "⠋ $ bash make  1.2s  built",
    "✓ $ bash make 1.4s\n",
  ]);
});

Deno.test("colour: only on a TTY and never with NO_COLOR", () => {
  expect(colorEnabled(capture(true), () => undefined)).toBe(true);
  expect(colorEnabled(capture(true), () => "")).toBe(true);
  expect(colorEnabled(capture(true), (k) => k === "NO_COLOR" ? "1" : undefined)).toBe(false);
  expect(colorEnabled(capture(false), () => undefined)).toBe(false);
  const err = capture();
  new Renderer({ out: capture(), err, color: true }).render({
    type: "notice",
    level: "error",
    code: "provider_error",
    message: "down",
  });
  expect(err.text).toBe("\x1b[31m[provider_error] down\x1b[0m\n");
});

Deno.test("Renderer: debug notices are shown only when debug is on (ZEPH_LOG=debug)", () => {
  const notice = {
    type: "notice" as const,
    level: "debug" as const,
    code: "tool_hidden",
    message: "edit is hidden: it requires read to complete first",
  };
  const quiet = capture();
  new Renderer({ out: capture(), err: quiet, color: false, debug: false }).render(notice);
  expect(quiet.text).toBe("");
  const loud = capture();
  new Renderer({ out: capture(), err: loud, color: false, debug: true }).render(notice);
  expect(loud.text).toBe("[tool_hidden] edit is hidden: it requires read to complete first\n");
});

Deno.test("finished tool line: cut to the terminal width (wide characters, colour), duration kept", () => {
  const command = "echo 日本語のとても長いコマンド && " + "x".repeat(120);
  for (const color of [false, true]) {
    const err = tty(40);
    const r = new Renderer({ out: capture(true), err, color, now: () => 0, frameMs: 1e9 });
    r.render({
      type: "tool_start",
      callId: "c1",
      tool: "bash",
      kind: "execute",
      input: {},
      subjects: [command],
    });
    r.render({ type: "tool_end", result: result({ durationMs: 1500, text: "" }) });
    const done = redraws(err.text).at(-1)!.split("\n")[0];
    expect(displayWidth(done)).toBeLessThanOrEqual(39);
    // deno-lint-ignore no-control-regex -- the colours are stripped to read the text
    const plain = done.replace(/\x1b\[[0-9;]*m/g, "");
    expect(plain).toMatch(/^✓ \$ bash echo 日本語.*… 1\.5s$/);
    r.stopSpinner();
  }
  // Piped stderr (no TTY) keeps the whole title.
  const piped = capture(false);
  const r = new Renderer({ out: capture(), err: piped, color: false });
  r.render({
    type: "tool_start",
    callId: "c1",
    tool: "bash",
    kind: "execute",
    input: {},
    subjects: ["x".repeat(90)],
  });
  expect(piped.text).toContain("x".repeat(90));
});

Deno.test("a search call's title shows its pattern and where it looks", () => {
  const err = capture();
  const r = new Renderer({ out: capture(), err, color: false });
  r.render({
    type: "tool_start",
    callId: "g",
    tool: "grep",
    kind: "search",
    input: { pattern: "greet\\(", path: "." },
    subjects: ["."],
  });
  r.render({
    type: "tool_start",
    callId: "f",
    tool: "find_path",
    kind: "search",
    input: { pattern: "/abs/*.ts", path: "." },
    subjects: ["/abs/*.ts"],
  });
  r.render({ type: "tool_end", result: result({ callId: "g", tool: "grep", text: "a\nb\nc\n" }) });
  expect(err.text).toBe(
    [
      '⌕ grep "greet\\(" in .',
      "⌕ find_path /abs/*.ts",
      "  a",
      "  b",
      "  c",
      "",
    ].join("\n"),
  );
});

Deno.test("the count of lines left out is singular for one", () => {
  const err = capture();
  const r = new Renderer({ out: capture(), err, color: false, maxOutputLines: 1 });
  r.render({ type: "tool_end", result: result({ text: "1\n2\n" }) });
  r.render({ type: "tool_end", result: result({ callId: "c2", text: "1\n2\n3\n" }) });
  expect(err.text).toBe("  1\n  … 1 more line\n  1\n  … 2 more lines\n");
});
