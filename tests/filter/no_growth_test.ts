/**
 * A filtered output is never longer than its input: on every golden case and every corpus
 * capture, the built-in rules' output has no more lines than the output they read (a group's
 * line over findings shown whole, a separator under an error of one line, a count under four
 * findings would each add lines for nothing). A JSON document read into lines may have more
 * lines, and must then have fewer characters.
 */
import { expect } from "expect";
import { builtinEngine } from "./_builtin.ts";

/** Every saved output with its command and exit code: the golden cases, then the corpus. */
function* savedOutputs(): Generator<{ name: string; command: string; exit: number; path: URL }> {
  const fixtures = new URL("../fixtures/filters/", import.meta.url);
  for (const rule of Deno.readDirSync(fixtures)) {
    if (!rule.isDirectory) continue;
    const dir = new URL(`${rule.name}/`, fixtures);
    for (const e of Deno.readDirSync(dir)) {
      if (!e.name.endsWith(".in.txt")) continue;
      const name = e.name.slice(0, -".in.txt".length);
      const [command, exitLine = ""] = Deno.readTextFileSync(new URL(`${name}.cmd`, dir))
        .split("\n");
      const exit = Number(/^exit (-?\d+)$/.exec(exitLine)?.[1] ?? 0);
      yield { name: `${rule.name}/${name}`, command, exit, path: new URL(e.name, dir) };
    }
  }
  const corpus = new URL("../../bench/corpus/", import.meta.url);
  for (const family of Deno.readDirSync(corpus)) {
    if (!family.isDirectory) continue;
    const dir = new URL(`${family.name}/`, corpus);
    for (const e of Deno.readDirSync(dir)) {
      if (!e.name.endsWith(".json")) continue;
      const name = e.name.slice(0, -".json".length);
      const meta = JSON.parse(Deno.readTextFileSync(new URL(e.name, dir)));
      const path = new URL(`${name}.txt`, dir);
      yield {
        name: `corpus ${family.name}/${name}`,
        command: meta.command,
        exit: meta.exit_code,
        path,
      };
    }
  }
}

Deno.test("no saved output comes out with more lines than it went in with", () => {
  const grown: string[] = [];
  let read = 0;
  for (const { name, command, exit, path } of savedOutputs()) {
    const input = Deno.readTextFileSync(path);
    const { stats } = builtinEngine.filter(command, input, { failed: exit !== 0 });
    read++;
    // A JSON document read into lines (`rendered`: eslint's one-line report, one line per
    // finding) may have more lines, never more characters.
    const rendered = stats.inline.endsWith(", rendered");
    if (rendered ? stats.filteredChars >= stats.rawChars : stats.filteredLines > stats.rawLines) {
      grown.push(`${name}: ${stats.rawLines} -> ${stats.filteredLines}`);
    }
  }
  expect(read).toBeGreaterThan(600);
  expect(grown).toEqual([]);
});
