import { expect } from "expect";
import * as acp from "@agentclientprotocol/sdk";
import { dirname } from "node:path";
import { EditorExecutor, editorTextFiles } from "../../src/acp/editor_executor.ts";
import { DEFAULT_ENV_BLOCKLIST } from "../../src/config/schema.ts";
import { filteredEnv } from "../../src/exec/mod.ts";
import type { AnyTool, ToolContext } from "../../src/tools/tool.ts";
import { textFileBackendSuite } from "../_support/text_files.ts";

/** An editor's side of fs/*, on the real disk: what tests/acp/_client.ts answers over stdio. */
const editorOnDisk = {
  async request(method: unknown, params: { path: string; content?: string }) {
    if (method === acp.methods.client.fs.readTextFile) {
      try {
        return { content: await Deno.readTextFile(params.path) };
      } catch {
        throw acp.RequestError.resourceNotFound(`file://${params.path}`);
      }
    }
    if (method === acp.methods.client.fs.writeTextFile) {
      await Deno.mkdir(dirname(params.path), { recursive: true });
      await Deno.writeTextFile(params.path, params.content ?? "");
      return {};
    }
    throw new Error(`unexpected request ${String(method)}`);
  },
};

textFileBackendSuite(
  "editor",
  () => editorTextFiles(editorOnDisk as never, { sdk: acp, sessionId: "s" }),
);

Deno.test("editor terminal: variables the env blocklist removed are blanked in the terminal", async () => {
  Deno.env.set("ZEPH_REVIEW_SECRET", "s3cret");
  Deno.env.set("OPENAI_API_KEY_REVIEW", "sk-review");
  try {
    const created: { env?: { name: string; value: string }[]; command: string }[] = [];
    const handle = {
      id: "term-1",
      waitForExit: () => Promise.resolve({ exitCode: 0, signal: null }),
      kill: () => Promise.resolve(),
      currentOutput: () => Promise.resolve({ output: "", truncated: false }),
      release: () => Promise.resolve(),
    };
    const client = {
      createTerminal: (params: (typeof created)[number]) => {
        created.push(params);
        return Promise.resolve(handle);
      },
    };
    const executor = new EditorExecutor({
      client: client as never,
      sdk: {} as never,
      sessionId: "s",
      caps: { terminal: true },
      onTerminal: () => Promise.resolve(),
    });
    // A stand-in for bash that runs through the runner the executor installs.
    const tool = {
      name: "bash",
      execute: async (_p: unknown, ctx: ToolContext) => {
        const runner = ctx.runner;
        await runner.run("bash", ["-c", "printenv"], {
          env: filteredEnv(DEFAULT_ENV_BLOCKLIST),
        });
        return { text: "" };
      },
    } as unknown as AnyTool;
    await executor.execute(tool, {}, { callId: "c" } as unknown as ToolContext);
    const blocked = Object.keys(Deno.env.toObject())
      .filter((n) => DEFAULT_ENV_BLOCKLIST.some((p) => n.startsWith(p)))
      .sort();
    expect(blocked).toContain("ZEPH_REVIEW_SECRET");
    expect(created.map((c) => c.env)).toEqual([blocked.map((name) => ({ name, value: "" }))]);
  } finally {
    Deno.env.delete("ZEPH_REVIEW_SECRET");
    Deno.env.delete("OPENAI_API_KEY_REVIEW");
  }
});

Deno.test("editor terminal: the caller's timeout kills the command and reports it; no timeout waits", async () => {
  const run = async (timeoutMs: number | undefined, exitAfterMs: number) => {
    const calls: string[] = [];
    let exited: (v: { exitCode: number; signal: null }) => void = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    const handle = {
      id: "term-t",
      waitForExit: () =>
        new Promise((resolve) => {
          exited = resolve;
          timer = setTimeout(() => resolve({ exitCode: 0, signal: null }), exitAfterMs);
        }),
      kill: () => {
        calls.push("kill");
        clearTimeout(timer);
        exited({ exitCode: 0, signal: null });
        return Promise.resolve();
      },
      currentOutput: () => Promise.resolve({ output: "partial", truncated: false }),
      release: () => Promise.resolve(),
    };
    const executor = new EditorExecutor({
      client: { createTerminal: () => Promise.resolve(handle) } as never,
      sdk: {} as never,
      sessionId: "s",
      caps: { terminal: true },
      onTerminal: () => Promise.resolve(),
    });
    let result: unknown;
    const tool = {
      name: "bash",
      execute: async (_p: unknown, ctx: ToolContext) => {
        const runner = ctx.runner;
        result = await runner.run("bash", ["-c", "sleep 9"], { timeoutMs });
        return { text: "" };
      },
    } as unknown as AnyTool;
    await executor.execute(tool, {}, { callId: "c" } as unknown as ToolContext);
    return { calls, result: result as { timedOut: boolean; stdout: { text: string } } };
  };
  const timed = await run(30, 5_000);
  expect(timed.calls).toEqual(["kill"]);
  expect([timed.result.timedOut, timed.result.stdout.text]).toEqual([true, "partial"]);
  const untimed = await run(undefined, 100);
  expect(untimed.calls).toEqual([]);
  expect(untimed.result.timedOut).toBe(false);
});

Deno.test("editor fs: the editor's reason for a refused read or write reaches the error message", async () => {
  // acpx refuses a write through a hard link with -32603 "Internal error" and the reason in
  // data.details; the model should read the reason, not "Internal error" alone.
  const refusing = {
    request(method: unknown) {
      const details = method === acp.methods.client.fs.writeTextFile
        ? "path alias escape blocked"
        : "permission denied by the editor";
      return Promise.reject(acp.RequestError.internalError({ details }));
    },
  };
  const files = editorTextFiles(refusing as never, { sdk: acp, sessionId: "s" });
  const write = await files.write("/w/link.txt", "x", new AbortController().signal).then(
    () => null,
    (e: Error) => e,
  );
  expect(write?.message).toBe("Internal error: path alias escape blocked");
  const read = await files.open("/w/a.txt").then(() => null, (e: Error) => e);
  expect(read?.message).toBe("Internal error: permission denied by the editor");
});
