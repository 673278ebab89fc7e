/**
 * Output filters: does this checkout's engine give the same outcome as another checkout's on
 * every saved input? The check a change that means only to save time must pass.
 *
 *   deno run -A bench/filters_same.ts /other/checkout
 *
 * Inputs: every case of bench/corpus and bench/heldout, and RTK's cases in ../shared/bench/rtk
 * (when that folder is there), each with its command and exit code. Both engines load their
 * built-in rules only; an outcome is the same when its text, rules and stats are equal. Prints
 * each case that differs, then the count; exits 1 when any does.
 */
import { readCorpus } from "./filters_bench.ts";
import { engineOf } from "./_engine_of.ts";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const RTK = new URL("../../shared/bench/rtk/cases/", import.meta.url).pathname;

interface Input {
  id: string;
  command: string;
  failed: boolean;
  text: string;
}

interface Engine {
  filter(command: string, raw: string, options: { failed?: boolean }): unknown;
}

/** RTK's cases (input.txt, meta.json), or none when the folder is not there. */
async function rtkInputs(): Promise<Input[]> {
  const inputs: Input[] = [];
  const sets = await Array.fromAsync(Deno.readDir(RTK)).catch(() => []);
  for (const set of sets.map((e) => e.name).sort()) {
    const ids = (await Array.fromAsync(Deno.readDir(RTK + set))).map((e) => e.name).sort();
    for (const id of ids) {
      const dir = `${RTK}${set}/${id}`;
      const meta = JSON.parse(await Deno.readTextFile(`${dir}/meta.json`));
      inputs.push({
        id: `rtk/${set}/${id}`,
        command: meta.command,
        failed: (meta.exit_code ?? 0) !== 0,
        text: await Deno.readTextFile(`${dir}/input.txt`),
      });
    }
  }
  return inputs;
}

async function allInputs(): Promise<Input[]> {
  const saved = async (folder: string) =>
    (await readCorpus(new URL(`./${folder}/`, import.meta.url))).map((c) => ({
      id: `${folder}/${c.family}/${c.name}`,
      command: c.command,
      failed: c.failed,
      text: c.text,
    }));
  return [...await saved("corpus"), ...await saved("heldout"), ...await rtkInputs()];
}

if (import.meta.main) {
  const before = Deno.args[0];
  if (!before) {
    console.error("Usage: deno run -A bench/filters_same.ts /other/checkout");
    Deno.exit(2);
  }
  const [inputs, mine, theirs] = await Promise.all([
    allInputs(),
    engineOf<Engine>(ROOT),
    engineOf<Engine>(before),
  ]);
  let differ = 0;
  for (const input of inputs) {
    const a = JSON.stringify(theirs.filter(input.command, input.text, { failed: input.failed }));
    const b = JSON.stringify(mine.filter(input.command, input.text, { failed: input.failed }));
    if (a !== b) {
      differ++;
      console.log(`differs: ${input.id} (${input.command})`);
    }
  }
  console.log(`${inputs.length} inputs, ${differ} differ (before = ${before})`);
  if (differ) Deno.exit(1);
}
