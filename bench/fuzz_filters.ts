/**
 * Output filters on pathological whole outputs: for every built-in rule chain (its command from
 * its golden cases) and the no-rule paths, each class of bench/_fuzz_inputs.ts at two sizes,
 * timed as thread CPU (not wall time, which a loaded machine inflates). Linear work takes about
 * `large / small` times as long on the large input; a ratio well above it is superlinear.
 *
 *   deno task bench:fuzz                      every target and class, 1 and 4 MiB, failed runs
 *   deno task bench:fuzz --sizes 0.25,1       other sizes (MiB)
 *   deno task bench:fuzz --only cargo         targets whose label contains this
 *   deno task bench:fuzz --class crs          one class
 *   deno task bench:fuzz --skip one_char,crs  all classes but these
 *   deno task bench:fuzz --passing            also runs that exited 0
 *   deno task bench:fuzz --memory             peak RSS over a 16 MiB input of each class, per target
 *
 * Prints every input over `SUSPECT` (ratio) or `SLOW_MS`, then the slowest ratios.
 */
import { defaultConfig } from "../src/config/schema.ts";
import { loadFilterEngine } from "../src/filter/mod.ts";
import { CLASSES, filterCpuMs, targets } from "./_fuzz_inputs.ts";

const args = Deno.args;
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sizes = (option("--sizes") ?? "1,4").split(",").map(Number);
const only = option("--only");
const onlyClass = option("--class");
const skip = (option("--skip") ?? "").split(",");
const MiB = 1 << 20;
/** Ratio of large to small CPU time above which an input is reported. */
const SUSPECT = (sizes[1] / sizes[0]) * 1.75;
/** CPU ms per MiB above which an input is reported whatever its ratio. */
const SLOW_MS = 250;
/** A small input faster than this has no meaningful ratio (CPU time is read in ticks). */
const MIN_MS = 5;
/** A small input slower than this is not grown (a quadratic path would take minutes). */
const GIVE_UP_MS = 5_000;

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const all = (await targets(engine)).filter((t) => !only || t.label.includes(only));
const classes = Object.entries(CLASSES).filter(([name]) =>
  (!onlyClass || name === onlyClass) && !skip.includes(name)
);

if (args.includes("--memory")) {
  await memory();
  Deno.exit(0);
}

interface Row {
  target: string;
  cls: string;
  failed: boolean;
  small: number;
  large: number;
  ratio: number;
}
const rows: Row[] = [];
const started = performance.now();
for (const target of all) {
  for (const [cls, build] of classes) {
    for (const failed of args.includes("--passing") ? [true, false] : [true]) {
      const small = build(target.lines, sizes[0] * MiB);
      // A warm-up run on the small input, so the first measured one is not compiling.
      filterCpuMs(engine, target, small, { failed });
      const smallMs = filterCpuMs(engine, target, small, { failed, runs: 3 });
      let largeMs = NaN;
      if (smallMs < GIVE_UP_MS) {
        const large = build(target.lines, sizes[1] * MiB);
        largeMs = filterCpuMs(engine, target, large, { failed, runs: 2 });
      }
      const row = {
        target: target.label,
        cls,
        failed,
        small: smallMs,
        large: largeMs,
        ratio: largeMs / Math.max(smallMs, 1),
      };
      rows.push(row);
      if ((smallMs >= MIN_MS && !(row.ratio <= SUSPECT)) || largeMs / sizes[1] > SLOW_MS) {
        console.log(
          `SUSPECT ${target.label} / ${cls}${failed ? "" : " (passing)"}: ${
            smallMs.toFixed(0)
          } ms at ${sizes[0]} MiB, ${largeMs.toFixed(0)} ms at ${sizes[1]} MiB (×${
            row.ratio.toFixed(1)
          })`,
        );
      }
    }
  }
}
const slowest = [...rows].sort((a, b) => b.large - a.large).slice(0, 12);
const steepest = [...rows].filter((r) => r.small >= 20).sort((a, b) => b.ratio - a.ratio).slice(
  0,
  12,
);
console.log(
  `\n${all.length} targets × ${classes.length} classes, sizes ${sizes.join(" and ")} MiB, ${
    ((performance.now() - started) / 1000).toFixed(0)
  } s; ratios over ${SUSPECT.toFixed(1)}: ${rows.filter((r) => !(r.ratio <= SUSPECT)).length}`,
);
const table = (title: string, list: Row[]) => {
  console.log(`\n${title}\n`);
  console.log(`| target | class | ${sizes[0]} MiB CPU ms | ${sizes[1]} MiB CPU ms | ratio |`);
  console.log("| --- | --- | ---: | ---: | ---: |");
  for (const r of list) {
    console.log(
      `| ${r.target} | ${r.cls}${r.failed ? "" : " (passing)"} | ${r.small.toFixed(0)} | ${
        r.large.toFixed(0)
      } | ${r.ratio.toFixed(2)} |`,
    );
  }
};
table("Slowest at the large size", slowest);
table("Steepest (small input ≥ 20 ms)", steepest);
const byClass = new Map<string, number[]>();
for (const r of rows) byClass.set(r.cls, [...(byClass.get(r.cls) ?? []), r.ratio]);
console.log("\n| class | median ratio | max ratio |\n| --- | ---: | ---: |");
for (const [cls, ratios] of byClass) {
  const sorted = ratios.filter((r) => !Number.isNaN(r)).sort((a, b) => a - b);
  console.log(
    `| ${cls} | ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} | ${
      sorted.at(-1)?.toFixed(2)
    } |`,
  );
}

/** Peak RSS (VmHWM after resetting it) over one filter run of each class at 16 MiB. */
async function memory(): Promise<void> {
  const size = 16 * MiB;
  const vm = (key: string) =>
    Number(new RegExp(`${key}:\\s+(\\d+)`).exec(Deno.readTextFileSync("/proc/self/status"))![1]) *
    1024;
  const worst: { target: string; cls: string; peak: number }[] = [];
  for (const target of all) {
    for (const [cls, build] of classes) {
      const input = build(target.lines, size);
      (globalThis as { gc?: () => void }).gc?.();
      // Writing 5 to clear_refs resets the peak (VmHWM) to the current RSS.
      await Deno.writeTextFile("/proc/self/clear_refs", "5");
      const before = vm("VmRSS");
      engine.filter(target.command, input, { failed: true });
      const peak = vm("VmHWM") - before;
      worst.push({ target: target.label, cls, peak });
      if (peak > 10 * size) {
        console.log(
          `OVER ${target.label} / ${cls}: peak +${(peak / MiB).toFixed(0)} MiB over 16 MiB`,
        );
      }
    }
  }
  worst.sort((a, b) => b.peak - a.peak);
  console.log("\n| target | class | peak RSS growth, MiB (16 MiB input) |\n| --- | --- | ---: |");
  for (const w of worst.slice(0, 10)) {
    console.log(`| ${w.target} | ${w.cls} | ${(w.peak / MiB).toFixed(0)} |`);
  }
}
