/**
 * Every real output the filter tests check against: the golden fixtures' texts
 * (tests/fixtures/filters/<rule>/*.txt) and the benchmark corpus (bench/corpus/<family>/*.txt).
 */
const ROOTS = [
  new URL("../fixtures/filters/", import.meta.url),
  new URL("../../bench/corpus/", import.meta.url),
];

/** The texts, in directory order; `outputs: false` leaves out the goldens' `.out.txt` files. */
export async function corpusTexts(options: { outputs?: boolean } = {}): Promise<string[]> {
  const texts: string[] = [];
  for (const base of ROOTS) {
    for await (const dir of Deno.readDir(base)) {
      if (!dir.isDirectory) continue;
      for await (const f of Deno.readDir(new URL(`${dir.name}/`, base))) {
        if (!f.name.endsWith(".txt")) continue;
        if (options.outputs === false && f.name.endsWith(".out.txt")) continue;
        texts.push(await Deno.readTextFile(new URL(`${dir.name}/${f.name}`, base)));
      }
    }
  }
  return texts;
}
