/**
 * zeph acp driven by a third-party client: acpx (npm), spawned as a real process. acpx prints
 * every JSON-RPC message of both directions with --format json.
 */
import { expect } from "expect";
import * as path from "node:path";
import { schemas, workspace } from "./_client.ts";

const ROOT = path.resolve(import.meta.dirname!, "../..");
const ACPX = path.join(ROOT, "node_modules/.bin/acpx");

interface Run {
  code: number;
  wire: Record<string, unknown>[];
  stderr: string;
}

async function acpx(
  ws: { dir: string; home: string; script: string; config: string },
  args: string[],
): Promise<Run> {
  // acpx splits --agent on spaces: the paths involved contain none.
  const agent = `${Deno.execPath()} run -A ${
    path.join(ROOT, "main.ts")
  } acp --config ${ws.config} --script ${ws.script}`;
  const out = await new Deno.Command(ACPX, {
    args: [
      "--format",
      "json",
      "--timeout",
      "120",
      ...args.slice(0, -2),
      "--agent",
      agent,
      ...args.slice(-2),
    ],
    cwd: ws.dir,
    env: { HOME: ws.home, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.trim());
  return {
    code: out.code,
    wire: lines.map((l) => JSON.parse(l)),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

const updates = (run: Run) =>
  run.wire.filter((m) => m.method === "session/update").map((m) =>
    (m.params as { update: Record<string, unknown> }).update
  );
const methodsOf = (run: Run) => run.wire.filter((m) => m.method).map((m) => m.method as string);

function expectValidNotifications(run: Run) {
  const v = schemas().forDef("SessionNotification");
  for (const m of run.wire.filter((m) => m.method === "session/update")) {
    expect({ ok: v(m.params), m }).toMatchObject({ ok: true });
  }
  expect(run.stderr).not.toContain("Error handling notification");
}

const SCRIPT = [
  { text: "Reading.", tool_calls: [{ id: "c1", name: "read", input: { path: "a.txt" } }] },
  { tool_calls: [{ id: "c2", name: "bash", input: { command: "echo via-terminal" } }] },
  { tool_calls: [{ id: "c3", name: "write", input: { path: "b.txt", content: "written\n" } }] },
  { text: "All done." },
];

Deno.test("acpx approve-all: read via fs, bash via terminal, write via fs after permission; end_turn", async () => {
  const ws = await workspace(SCRIPT);
  await Deno.writeTextFile(path.join(ws.dir, "a.txt"), "hello from disk\n");
  const run = await acpx(ws, ["--approve-all", "exec", "go"]);
  expect(run.code).toBe(0);
  const methods = methodsOf(run);
  for (
    const m of [
      "fs/read_text_file",
      "terminal/create",
      "session/request_permission",
      "fs/write_text_file",
      "terminal/release",
    ]
  ) {
    expect(methods).toContain(m);
  }
  // acpx wrote the file it was asked to (the editor owns the write).
  expect(await Deno.readTextFile(path.join(ws.dir, "b.txt"))).toBe("written\n");
  const finals = updates(run).filter((u) => u.sessionUpdate === "tool_call_update" && u.status);
  expect(finals.map((u) => u.status)).toEqual(["completed", "completed", "completed"]);
  expect(JSON.stringify(finals[0])).toContain("hello from disk");
  expect(JSON.stringify(finals[1])).toContain("via-terminal");
  // Release comes after the final update that embeds the terminal.
  const releaseAt = run.wire.findIndex((m) => m.method === "terminal/release");
  const bashFinalAt = run.wire.findIndex((m) =>
    m.method === "session/update" && JSON.stringify(m).includes("via-terminal") &&
    JSON.stringify(m).includes('"status":"completed"')
  );
  expect(bashFinalAt).toBeGreaterThan(0);
  expect(releaseAt).toBeGreaterThan(bashFinalAt);
  expect(run.wire.at(-1)).toMatchObject({ result: { stopReason: "end_turn" } });
  expectValidNotifications(run);
});

Deno.test("acpx deny-all: the write is rejected, nothing is written, the call fails with a clear message", async () => {
  const ws = await workspace([
    { tool_calls: [{ id: "w1", name: "write", input: { path: "b.txt", content: "no\n" } }] },
    { text: "Understood." },
  ]);
  const run = await acpx(ws, ["--deny-all", "exec", "write it"]);
  // acpx exits 5 when a permission was requested and none approved.
  expect(run.code).toBe(5);
  await expect(Deno.stat(path.join(ws.dir, "b.txt"))).rejects.toThrow();
  const finals = updates(run).filter((u) => u.sessionUpdate === "tool_call_update" && u.status);
  expect(finals.map((u) => u.status)).toEqual(["failed"]);
  expect(JSON.stringify(finals[0])).toMatch(/rejected|cancelled/);
  expect(methodsOf(run)).not.toContain("fs/write_text_file");
  expectValidNotifications(run);
});

Deno.test("acpx cancel: a persistent session's running bash is cancelled; the prompt ends cancelled with one failed update", async () => {
  // A unique duration, so no other process on the machine can be mistaken for ours.
  const sleep = `sleep 59.${Math.floor(Math.random() * 1e6)}`;
  const ws = await workspace([
    { tool_calls: [{ id: "s1", name: "bash", input: { command: sleep } }] },
    { text: "after" },
  ]);
  const agent = `${Deno.execPath()} run -A ${
    path.join(ROOT, "main.ts")
  } acp --config ${ws.config} --script ${ws.script}`;
  const run = (args: string[]) =>
    new Deno.Command(ACPX, {
      args: ["--format", "json", "--ttl", "2", "--agent", agent, ...args],
      cwd: ws.dir,
      env: { HOME: ws.home, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    });
  expect((await run(["sessions", "new"]).output()).code).toBe(0);
  const prompting = run(["--approve-all", "sleep please"]).spawn();
  // Read the prompt's wire as it comes; cancel once the terminal is running our command.
  const wire: Record<string, unknown>[] = [];
  let cancel: Promise<Deno.CommandOutput> | null = null;
  let buf = "";
  for await (const text of prompting.stdout.pipeThrough(new TextDecoderStream())) {
    buf += text;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const message = JSON.parse(line);
      wire.push(message);
      if (
        !cancel && message.id !== undefined && "result" in message &&
        wire.some((m) => m.method === "terminal/create" && m.id === message.id)
      ) {
        cancel = run(["cancel"]).output();
      }
    }
  }
  await prompting.status;
  await new Response(prompting.stderr).arrayBuffer();
  expect(cancel).not.toBeNull();
  expect((await cancel!).code).toBe(0);
  expect(wire.some((m) => m.method === "session/cancel")).toBe(true);
  expect(wire.at(-1)).toMatchObject({ result: { stopReason: "cancelled" } });
  const finals = wire.filter((m) => {
    const update = (m.params as { update?: { sessionUpdate: string; status?: string } })?.update;
    return m.method === "session/update" && update?.sessionUpdate === "tool_call_update" &&
      update.status;
  });
  expect(finals.map((m) => (m.params as { update: { status: string } }).update.status)).toEqual([
    "failed",
  ]);
  // The queue owner (and our agent under it) goes away after its 2 s idle TTL.
  for (let i = 0; i < 40; i++) {
    const left = (await new Deno.Command("pgrep", { args: ["-f", ws.script], stdout: "null" })
      .output()).code === 0;
    if (!left) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Deno.Command("pkill", { args: ["-f", ws.script] }).output();
});
