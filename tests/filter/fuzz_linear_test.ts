/**
 * The whole engine (sanitise, every matched rule, the generic folds, the guard, the security
 * pass) on pathological outputs built from each rule chain's own golden inputs
 * (bench/_fuzz_inputs.ts): the CPU time grows about as the input does. Each check times two sizes
 * four times apart as thread CPU (a loaded machine inflates wall time, not this) and fails on a
 * ratio a quadratic path gives (16) and a linear one does not (4). `deno task bench:fuzz` runs
 * every class at larger sizes.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { KeptLines, loadFilterEngine } from "../../src/filter/mod.ts";
import {
  type Build,
  CLASSES,
  cpuMs,
  filterCpuMs,
  type Target,
  targets,
} from "../../bench/_fuzz_inputs.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const TARGETS = await targets(engine);
const KiB = 1024;
/** The large input is this many times the small one. */
const GROWTH = 4;
/** Above this ratio of CPU times the work is superlinear (linear: 4, quadratic: 16). */
const MAX_RATIO = 10;
/** The small input's time is taken as at least this (CPU time of a few ms is noise). */
const FLOOR_MS = 5;

/** CPU ms of the small and the large input (the fastest of three runs each, after a warm-up). */
function times(target: Target, build: Build, small: number): { small: number; large: number } {
  const input = build(target.lines, small);
  filterCpuMs(engine, target, input, { failed: true });
  return {
    small: filterCpuMs(engine, target, input, { failed: true, runs: 3 }),
    large: filterCpuMs(engine, target, build(target.lines, small * GROWTH), {
      failed: true,
      runs: 3,
    }),
  };
}

/** `label / class: small → large ms` for every target whose time grows superlinearly. */
function superlinear(list: Target[], cls: string, small: number): string[] {
  const slow: string[] = [];
  for (const target of list) {
    const measure = () => times(target, CLASSES[cls], small);
    const ratio = (t: { small: number; large: number }) => t.large / Math.max(t.small, FLOOR_MS);
    let t = measure();
    // A busy machine slows one run, a superlinear path every run: measured again before failing.
    if (ratio(t) > MAX_RATIO) t = measure();
    if (ratio(t) > MAX_RATIO) {
      slow.push(`${target.label} / ${cls}: ${t.small.toFixed(0)} → ${t.large.toFixed(0)} ms`);
    }
  }
  return slow;
}

Deno.test("the rule chains and the no-rule paths: time linear in the length of long lines among their own lines", () => {
  // A line of spaces then `x` between a message and its location made the code-frame gutter
  // pattern (`\s*\d*\s*\|`) and an indented line the node-internals frame pattern
  // (`\s+.*\(node:`) quadratic in the line's length.
  expect(TARGETS.length).toBeGreaterThan(100);
  expect(superlinear(TARGETS, "long_lines", 128 * KiB)).toEqual([]);
});

/** CPU ms of the fastest of three runs of `work`. */
function fastestCpu(work: () => void): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = cpuMs();
    work();
    best = Math.min(best, cpuMs() - start);
  }
  return best;
}

Deno.test("the guard: one long line the candidate source of many rewritten lines costs linear time", () => {
  // n rewritten lines `wI: I` and one input line holding every one's words and number: each
  // emitted line used to read all the numbers of that line again (n² steps).
  const guardRun = (n: number) => {
    const input = [Array.from({ length: n }, (_, i) => `w${i} ${i}`).join(" ")];
    const emitted = Array.from({ length: n }, (_, i) => `w${i}: ${i}`);
    const guard = new KeptLines();
    for (const line of input) guard.input(line);
    for (const line of emitted) guard.emitted(line);
    return guard.restore(emitted.join("\n"), (fn) => input.forEach((line) => fn(line)));
  };
  // The line is the source of the first emitted line only: each input line restores one.
  expect(guardRun(3).restored).toEqual([{ emitted: "w0: 0", restored: "w0 0 w1 1 w2 2" }]);
  const small = fastestCpu(() => guardRun(2_000));
  const large = fastestCpu(() => guardRun(2_000 * GROWTH));
  expect(large / Math.max(small, FLOOR_MS)).toBeLessThan(MAX_RATIO);
});
