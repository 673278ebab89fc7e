/**
 * What Landlock costs the file worker: starting a worker until its first answer, with the
 * confinement setup (FFI, ruleset, restrict_self, FFI revoked) and without ([tools.file.sandbox]
 * mode = "off"); then `write` calls through each (1 KiB and 1 MiB), where the confined worker's
 * changing steps run synchronously on its thread. Interleaved so both see the same load.
 * Run: `deno task bench:landlock`.
 */
import { join } from "node:path";
import { defaultConfig } from "../src/config/mod.ts";
import { Sandbox } from "../src/sandbox/mod.ts";
import { type ConfineMode, FileWorker } from "../src/tools/executors/mod.ts";
import { percentile } from "./_stats.ts";

const STARTS = Number(Deno.env.get("BENCH_STARTS") ?? 20);
const WRITES = Number(Deno.env.get("BENCH_WRITES") ?? 200);
const MODES: ConfineMode[] = ["off", "auto"];

const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_landlock_bench_" }));
const row = (label: string, xs: number[]) => {
  const s = xs.sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(2);
  return `| ${label} | ${f(percentile(s, 0.5))} | ${f(percentile(s, 0.95))} | ${f(s.at(-1)!)} |`;
};
try {
  const sandbox = (await Sandbox.create(ws)).snapshot();
  const ctx = {
    cwd: ws,
    sandbox,
    file: defaultConfig().tools.file,
    callId: "bench",
    conversationId: null,
    callerId: null,
  };
  const starts = MODES.map(() => [] as number[]);
  const states: string[] = [];
  for (let round = 0; round < STARTS + 1; round++) {
    for (const [i, mode] of MODES.entries()) {
      const start = performance.now();
      const worker = new FileWorker([ws], { confine: mode });
      const params = { path: ws };
      const r = await worker.request({ type: "call", tool: "list_directory", params, ctx });
      if (!r.ok) throw new Error(r.error.message);
      if (round > 0) starts[i].push(performance.now() - start);
      states[i] = JSON.stringify(await worker.confinement);
      worker.terminate();
    }
  }
  const setups: number[] = [];
  for (let round = 0; round < STARTS; round++) {
    const worker = new Worker(new URL("./_landlock_setup_worker.ts", import.meta.url).href, {
      type: "module",
    });
    const answer = new Promise<{ ms: number }>((resolve) => {
      worker.onmessage = (e) => resolve(e.data);
    });
    worker.postMessage([ws]);
    setups.push((await answer).ms);
    worker.terminate();
  }
  const workers = MODES.map((mode) => new FileWorker([ws], { confine: mode }));
  const sizes = [1024, 1024 * 1024];
  const writes = MODES.map(() => sizes.map(() => [] as number[]));
  for (let round = 0; round < WRITES + 10; round++) {
    for (const [s, size] of sizes.entries()) {
      const content = "x".repeat(size - 1) + "\n";
      for (const [i, worker] of workers.entries()) {
        const params = { path: join(ws, `f${i}_${s}.txt`), content };
        const start = performance.now();
        const r = await worker.request({ type: "call", tool: "write", params, ctx });
        if (!r.ok) throw new Error(r.error.message);
        if (round >= 10) writes[i][s].push(performance.now() - start);
      }
    }
  }
  for (const w of workers) w.terminate();
  console.log(`File worker with and without Landlock on ${Deno.build.os}, interleaved:`);
  for (const [i, mode] of MODES.entries()) console.log(`- mode ${mode}: ${states[i]}`);
  console.log("| what | p50 ms | p95 ms | max ms |");
  console.log("| ---- | -----: | -----: | -----: |");
  for (const [i, mode] of MODES.entries()) {
    console.log(row(`worker start to first answer, mode ${mode} (${STARTS} starts)`, starts[i]));
  }
  console.log(row(`the setup alone: restrictThread + FFI revoked (${STARTS} threads)`, setups));
  for (const [s, size] of sizes.entries()) {
    for (const [i, mode] of MODES.entries()) {
      console.log(row(`write ${size / 1024} KiB via the worker, mode ${mode}`, writes[i][s]));
    }
  }
} finally {
  await Deno.remove(ws, { recursive: true });
}
