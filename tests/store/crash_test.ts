/**
 * A process killed at any moment (SIGKILL, also mid-write) leaves a database that opens, passes
 * `PRAGMA integrity_check` and holds every row the process saw committed.
 */
import { expect } from "expect";
import { join } from "node:path";
import { openStore } from "../../src/store/mod.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const WRITER = join(import.meta.dirname!, "_crash_writer.ts");
const ROUNDS = 6;

function overflowContent(seq: string, size: number): string {
  return `${seq}:` + "0123456789abcdef\n".repeat(Math.ceil(size / 17)).slice(0, size);
}

async function runAndKill(path: string, conversationId: string, round: number, afterMs: number) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-prompt", WRITER, path, conversationId, String(round)],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stdout = "";
  let stderr = "";
  const reading = Promise.all([
    (async () => {
      for await (const c of child.stdout.pipeThrough(new TextDecoderStream())) stdout += c;
    })(),
    (async () => {
      for await (const c of child.stderr.pipeThrough(new TextDecoderStream())) stderr += c;
    })(),
  ]);
  // Wait until the child has committed something (or a deadline), then kill it at a random moment.
  const started = Date.now();
  while (!stdout.includes("\n") && Date.now() - started < 20_000) {
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill("SIGKILL");
  const status = await child.status;
  await reading;
  if (status.signal !== "SIGKILL") {
    throw new Error(`The writer ended by itself (code ${status.code}): ${stderr}`);
  }
  // Only complete lines were printed after a commit; a torn last line is dropped.
  return stdout.split("\n").slice(0, -1);
}

Deno.test("store: SIGKILL at random moments loses no committed row and never corrupts", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "zeph-crash-" });
  try {
    const path = join(dir, "zeph.db");
    const setup = openStore(path);
    const conversationId = setup.createConversation({ title: "crash" });
    setup.close();

    const messages: string[] = [];
    const overflow: { id: string; seq: string; size: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const lines = await runAndKill(path, conversationId, round, Math.floor(Math.random() * 400));
      for (const line of lines) {
        const [kind, a, b, c] = line.split(" ");
        if (kind === "msg") messages.push(a);
        else if (kind === "ovf") overflow.push({ id: a, seq: b, size: Number(c) });
        else throw new Error(`Unexpected writer output: ${JSON.stringify(line)}`);
      }
    }
    expect(messages.length).toBeGreaterThan(0);
    expect(overflow.length).toBeGreaterThan(0);

    const store = openStore(path);
    try {
      const check = store.db.prepare("PRAGMA integrity_check").all().map((r) => ({ ...r }));
      expect(check).toEqual([{ integrity_check: "ok" }]);
      const fk = store.db.prepare("PRAGMA foreign_key_check").all();
      expect(fk).toEqual([]);

      // Every reported message is there, in the order it was written; the only extras allowed
      // are messages committed just before a kill, before their line was printed.
      const stored = store.loadMessages(conversationId).map((m) =>
        m.parts[0].type === "text" ? m.parts[0].text : "?"
      );
      let i = 0;
      for (const text of stored) if (text === messages[i]) i++;
      expect(messages.slice(i)).toEqual([]);
      for (const { id, seq, size } of overflow) {
        const content = store.loadOverflow(id, conversationId);
        expect(content === overflowContent(seq, size)).toBe(true);
      }
      // The file still takes writes.
      store.appendMessages(conversationId, [{
        role: "user",
        parts: [{ type: "text", text: "after" }],
      }]);
      expect(store.loadMessages(conversationId).at(-1)).toEqual({
        role: "user",
        parts: [{ type: "text", text: "after" }],
      });
    } finally {
      store.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
