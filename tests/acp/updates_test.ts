import { expect } from "expect";
import * as path from "node:path";
import { acpKind, resolveIn, toolCallFinished, toolTitle } from "../../src/acp/updates.ts";

Deno.test("resolveIn agrees with node:path resolve on POSIX paths", () => {
  const cases: [string, string][] = [
    ["/ws", "a.txt"],
    ["/ws", "./src/../b.ts"],
    ["/ws", "/etc/passwd"],
    ["/ws/", "x//y/./z"],
    ["/ws", "../../../../up"],
    ["/", "a"],
    ["/ws", "."],
    ["/ws", ""],
  ];
  for (const [cwd, p] of cases) {
    expect([cwd, p, resolveIn(cwd, p)]).toEqual([cwd, p, path.resolve(cwd, p)]);
  }
});

Deno.test("acpKind maps every tool of the spec table, unknown tools to other", () => {
  const table: Record<string, string> = {
    bash: "execute",
    read: "read",
    write: "edit",
    edit: "edit",
    delete_path: "delete",
    move_path: "move",
    grep: "search",
    find_path: "search",
    list_directory: "search",
    web_scrape: "fetch",
    fetch: "fetch",
    create_directory: "other",
    copy_path: "other",
    diagnostics: "other",
    something_new: "other",
  };
  for (const [tool, kind] of Object.entries(table)) {
    expect([tool, acpKind(tool)]).toEqual([tool, kind]);
  }
});

Deno.test("titles come from the subject and stay on one short line", () => {
  expect(toolTitle("read", ["src/a.ts"])).toBe("Read src/a.ts");
  expect(toolTitle("move_path", ["a", "b"])).toBe("Move a → b");
  const long = toolTitle("bash", ["echo " + "x".repeat(500) + "\nsecond line"]);
  expect(long.length).toBe(120);
  expect(long).not.toContain("\n");
});

Deno.test("a final update carries the diff first, the text after redaction, and raw output", () => {
  const update = toolCallFinished({
    toolCallId: "t",
    cwd: "/ws",
    redact: (t) => t.replace("sk-secret", "[REDACTED]"),
    result: {
      callId: "c",
      tool: "write",
      ok: true,
      text: "Wrote a.txt with sk-secret",
      outcome: "success",
      durationMs: 1,
      output: {
        text: "",
        diff: { path: "a.txt", oldText: null, newText: "x\n" },
        raw: { stdout: "", stderr: "", exit_code: 0, truncated: false },
      },
    },
  });
  expect(update).toEqual({
    sessionUpdate: "tool_call_update",
    toolCallId: "t",
    status: "completed",
    content: [
      { type: "diff", path: "/ws/a.txt", oldText: null, newText: "x\n" },
      { type: "content", content: { type: "text", text: "Wrote a.txt with [REDACTED]" } },
    ],
    rawOutput: { stdout: "", stderr: "", exit_code: 0, truncated: false },
  });
});

Deno.test("raw output gets the same redaction as the text, strings at any depth", () => {
  const redact = (t: string) => t.replaceAll("sk-secret", "[REDACTED]");
  const base = { callId: "c", tool: "bash", durationMs: 1 };
  const ok = toolCallFinished({
    toolCallId: "t",
    cwd: "/ws",
    redact,
    result: {
      ...base,
      ok: true,
      text: "KEY=sk-secret",
      outcome: "success",
      output: {
        text: "",
        raw: { stdout: "KEY=sk-secret\n", stderr: "", exit_code: 0, lines: ["a sk-secret"] },
      },
    },
  });
  const failed = toolCallFinished({
    toolCallId: "t",
    cwd: "/ws",
    redact,
    result: {
      ...base,
      ok: false,
      text: "failed",
      category: "permanent_failure",
      error: "curl sk-secret failed",
      outcome: "error",
    },
  });
  const raw = (u: unknown) => (u as { rawOutput?: unknown }).rawOutput;
  expect([raw(ok), raw(failed)]).toEqual([
    { stdout: "KEY=[REDACTED]\n", stderr: "", exit_code: 0, lines: ["a [REDACTED]"] },
    { category: "permanent_failure", error: "curl [REDACTED] failed" },
  ]);
});
