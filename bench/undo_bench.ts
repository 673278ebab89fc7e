/**
 * What recording undo costs per edit: the same `edit` call through the real dispatch boundary
 * (in-thread executor, real SQLite store on disk), with and without the undo hook, interleaved
 * so both see the same machine load; for a 10 KiB and a 1 MiB file. With the hook, each edit
 * also scans the file before (read + hash, content kept), hashes the new text and inserts one
 * entry with the old content (and its WAL checkpoint on the next event-loop turn, timed with
 * the call). Run: `deno task bench:undo`.
 */
import { join } from "node:path";
import { defaultConfig } from "../src/config/schema.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { openStore } from "../src/store/mod.ts";
import { FILE_TOOLS } from "../src/tools/file_tools.ts";
import { LocalExecutor, ToolRegistry, undoHook } from "../src/tools/mod.ts";
import { percentile } from "./_stats.ts";

const ROUNDS = 200;
const WARMUP = 10;
const SIZES = [10 * 1024, 1024 * 1024];

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_undo_bench_" }));
const store = openStore(join(dir, "zeph.db"));
try {
  const ws = join(dir, "ws");
  await Deno.mkdir(ws);
  const sandbox = await Sandbox.create(ws);
  const config = defaultConfig();
  // Enough room that no entry is dropped during the run.
  config.tools.undo.max_file_bytes = 2 * 1024 * 1024;
  config.tools.undo.max_conversation_bytes = 4 * 1024 * 1024 * 1024;
  const policy = new PermissionPolicy({ edit: [{ pattern: "*", action: "allow" }] });
  const make = () =>
    new ToolRegistry({ tools: FILE_TOOLS, executor: new LocalExecutor(), policy, config });
  const plain = make();
  const recording = make();
  recording.addExecuteHook(undoHook(store.undo, config.tools.undo));
  const conversationId = store.createConversation({ cwd: ws });
  const cases: [string, ToolRegistry][] = [["without undo", plain], ["with undo", recording]];
  const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  console.log(
    `One edit through dispatch, ${ROUNDS} rounds (interleaved) on ${Deno.build.os}, load ${load}:`,
  );
  console.log("| file | undo | p50 ms | p95 ms | max ms |");
  console.log("| ---- | ---- | -----: | -----: | -----: |");
  for (const size of SIZES) {
    const times = cases.map(() => [] as number[]);
    for (const [i] of cases.entries()) {
      await Deno.writeTextFile(join(ws, `f${i}.txt`), "MARK-A\n" + "x".repeat(size - 7));
    }
    let n = 0;
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const [from, to] = round % 2 === 0 ? ["MARK-A", "MARK-B"] : ["MARK-B", "MARK-A"];
      for (const [i, [, registry]] of cases.entries()) {
        const start = performance.now();
        const result = await registry.dispatch({
          id: `c${++n}`,
          name: "edit",
          input: { path: `f${i}.txt`, old_string: from, new_string: to },
        }, { cwd: ws, sandbox, conversationId });
        if (!result.ok) throw new Error(result.text);
        // The store checkpoints its WAL on the next turn of the event loop: that turn is part
        // of the edit's cost, not of the call measured after it.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (round >= WARMUP) times[i].push(performance.now() - start);
      }
    }
    for (const [i, [label]] of cases.entries()) {
      const sorted = times[i].sort((a, b) => a - b);
      const f = (x: number) => x.toFixed(2);
      console.log(
        `| ${size / 1024} KiB | ${label} | ${f(percentile(sorted, 0.5))} | ${
          f(percentile(sorted, 0.95))
        } | ${f(sorted.at(-1)!)} |`,
      );
    }
  }
  const entries = store.undo.list(conversationId);
  const kept = entries.reduce((n, e) => n + e.storedBytes, 0);
  console.log(
    `Undo entries recorded: ${entries.length}, holding ${(kept / 1048576).toFixed(1)} MiB`,
  );
} finally {
  store.close();
  await Deno.remove(dir, { recursive: true });
}
