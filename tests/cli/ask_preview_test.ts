// What the approval question shows: the diff of a write/edit, the parts of a bash command.
import { expect } from "expect";
import * as path from "node:path";
import { askPreview } from "../../src/cli/ask_preview.ts";
import { Sandbox } from "../../src/sandbox/mod.ts";
import { builtinTools } from "../../src/tools/catalog.ts";
import type { AskRequest } from "../../src/tools/mod.ts";
import type { Decision } from "../../src/permission/mod.ts";

const tool = (name: string) => builtinTools().find((t) => t.name === name)!;
const decision = (over: Partial<Decision> = {}): Decision => ({
  action: "ask",
  policyMatch: null,
  subject: null,
  ...over,
});

async function withSandbox(fn: (sandbox: Sandbox, ws: string) => Promise<void>) {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_preview_" }));
  try {
    await fn(await Sandbox.create(ws), ws);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
}

Deno.test("write: the diff against the file on disk; a new file is all additions", async () => {
  await withSandbox(async (sandbox, ws) => {
    await Deno.writeTextFile(path.join(ws, "a.txt"), "one\ntwo\n");
    const ask = (params: unknown): AskRequest => ({
      callId: "c",
      tool: tool("write"),
      params,
      decision: decision({ subject: "a.txt" }),
    });
    expect(await askPreview(ask({ path: "a.txt", content: "one\n2\n" }), { sandbox, cwd: ws }))
      .toBe("  --- a/a.txt\n  +++ b/a.txt\n  @@ -1,2 +1,2 @@\n   one\n  -two\n  +2\n");
    expect(await askPreview(ask({ path: "new.txt", content: "x\n" }), { sandbox, cwd: ws }))
      .toBe("  --- a/new.txt\n  +++ b/new.txt\n  @@ -0,0 +1 @@\n  +x\n");
    const colored = await askPreview(ask({ path: "a.txt", content: "one\n2\n" }), {
      sandbox,
      cwd: ws,
      color: true,
    });
    expect(colored).toContain("\x1b[31m-two\x1b[0m");
  });
});

Deno.test("edit: the diff of the replacement; a long diff is cut with a count", async () => {
  await withSandbox(async (sandbox, ws) => {
    await Deno.writeTextFile(path.join(ws, "b.ts"), "const a = 1;\nconst b = 2;\n");
    const request: AskRequest = {
      callId: "c",
      tool: tool("edit"),
      params: { path: "b.ts", old_string: "b = 2", new_string: "b = 3" },
      decision: decision({ subject: "b.ts" }),
    };
    expect(await askPreview(request, { sandbox, cwd: ws })).toBe(
      "  --- a/b.ts\n  +++ b/b.ts\n  @@ -1,2 +1,2 @@\n   const a = 1;\n  -const b = 2;\n  +const b = 3;\n",
    );
    const big: AskRequest = {
      ...request,
      tool: tool("write"),
      params: { path: "big.txt", content: "x\n".repeat(100) },
    };
    const lines = (await askPreview(big, { sandbox, cwd: ws })).trimEnd().split("\n");
    expect(lines.length).toBe(41);
    expect(lines.at(-1)).toBe("  … 63 more lines of the diff");
  });
});

Deno.test("a file covered by deny_read gets no diff: its content stays off the screen", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_preview_" }));
  try {
    await Deno.writeTextFile(path.join(ws, "secret.env"), "KEY=hunter2\n");
    const sandbox = await Sandbox.create(ws, { denyRead: ["*.env"] });
    const request: AskRequest = {
      callId: "c",
      tool: tool("write"),
      params: { path: "secret.env", content: "KEY=x\n" },
      decision: decision({ subject: "secret.env" }),
    };
    expect(await askPreview(request, { sandbox, cwd: ws })).toBe(
      "  (no diff: the file is covered by [tools.file] deny_read)\n",
    );
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("bash: each simple command with its effect, and why it asks", async () => {
  await withSandbox(async (sandbox, ws) => {
    const request: AskRequest = {
      callId: "c",
      tool: tool("bash"),
      params: { command: "rm  -rf build && ls" },
      decision: decision({
        subject: "rm  -rf build && ls",
        reason: "rm deletes or destroys data",
        commands: [
          {
            command: "rm -rf build",
            effect: { effect: "destructive", reason: "rm deletes files" },
          },
          { command: "ls", effect: { effect: "read_only", reason: "ls lists files" } },
        ],
      }),
    };
    expect(await askPreview(request, { sandbox, cwd: ws })).toBe(
      "  $ rm -rf build  (destructive: rm deletes files)\n" +
        "  $ ls  (reads only: ls lists files)\n" +
        "  asks because: rm deletes or destroys data\n",
    );
  });
});
