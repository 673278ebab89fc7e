/**
 * Replacing a 1 MiB file: the disk backend's atomic write (temporary file in the same directory,
 * flushed with fdatasync, renamed over the target; the path checks against a swapped directory)
 * against the previous in-place write (`Deno.writeFile` over the target, no flush), interleaved
 * so both see the same machine load. Run: `deno task bench:write`.
 */
import { join } from "node:path";
import { diskFiles } from "../src/tools/deps.ts";
import { percentile } from "./_stats.ts";

const SIZE = 1024 * 1024;
const ROUNDS = 200;
const WARMUP = 10;

/** The write before atomic writes: straight over the target, parents made on demand. */
async function inPlaceWrite(path: string, content: string, signal: AbortSignal): Promise<void> {
  await Deno.writeFile(path, new TextEncoder().encode(content), { signal });
}

/** Temporary file + rename without the flush and the path checks: what the flush costs. */
async function renameOnly(path: string, content: string): Promise<void> {
  const tmp = `${path}.tmp`;
  await Deno.writeFile(tmp, new TextEncoder().encode(content));
  await Deno.rename(tmp, path);
}

const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_write_bench_" }));
try {
  const content = "x".repeat(SIZE - 1) + "\n";
  const signal = new AbortController().signal;
  const cases: [string, (p: string) => Promise<unknown>][] = [
    ["in place (before)", (p) => inPlaceWrite(p, content, signal)],
    ["temp + rename, no flush, no checks", (p) => renameOnly(p, content)],
    ["atomic (after)", (p) => diskFiles.write(p, content, signal)],
  ];
  const times = cases.map(() => [] as number[]);
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (const [i, [, write]] of cases.entries()) {
      const file = join(dir, `f${i}.txt`);
      const start = performance.now();
      await write(file);
      if (round >= WARMUP) times[i].push(performance.now() - start);
    }
  }
  console.log(`Replacing a 1 MiB file, ${ROUNDS} rounds (interleaved) on ${Deno.build.os}:`);
  console.log("| write | p50 ms | p95 ms | max ms |");
  console.log("| ----- | -----: | -----: | -----: |");
  for (const [i, [label]] of cases.entries()) {
    const sorted = times[i].sort((a, b) => a - b);
    const f = (x: number) => x.toFixed(2);
    console.log(
      `| ${label} | ${f(percentile(sorted, 0.5))} | ${f(percentile(sorted, 0.95))} | ${
        f(sorted.at(-1)!)
      } |`,
    );
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
