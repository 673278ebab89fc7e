/**
 * `deno task bench`: runs every bench/*_bench.ts in its own process, one after the other (so
 * they do not disturb each other), and exits non-zero if one fails.
 */
import * as path from "node:path";

const DIR = import.meta.dirname!;
const DENO = path.join(DIR, "..", "node_modules", "deno", "deno");

const only = Deno.args;
const benches = [...Deno.readDirSync(DIR)]
  .filter((e) => e.isFile && e.name.endsWith("_bench.ts"))
  .map((e) => e.name)
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  .sort();

let failed = 0;
for (const name of benches) {
  console.log(`\n## ${name}\n`);
  const out = await new Deno.Command(DENO, {
    args: ["run", "-A", path.join(DIR, name)],
    cwd: path.join(DIR, ".."),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) {
    failed++;
    console.error(`bench: ${name} failed with exit code ${out.code}`);
  }
}
console.log(`\n${benches.length - failed} of ${benches.length} benchmarks ran`);
Deno.exit(failed ? 1 : 0);
