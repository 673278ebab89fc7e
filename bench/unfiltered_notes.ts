/**
 * What `[tools.filters] keep_unfiltered` costs and buys over bench/corpus and bench/heldout: per
 * mode, how many runs get the `[filtered: … unfiltered output: overflow:<uuid> …]` note, its tokens
 * (chars / 4) against the filtered output's, and how many passing runs still show a fold (a line
 * the raw output lacks with `…`, `folded`, `(+N more)` or `omitted`) with no way back. Every case goes through the real filter and
 * offloadIfLarge with an in-memory store.
 *
 *   ./node_modules/deno/deno run -A bench/unfiltered_notes.ts
 */
import { defaultConfig } from "../src/config/schema.ts";
import { type FilterStats, filterToolOutput, loadFilterEngine } from "../src/filter/mod.ts";
import { MemoryStore, type OffloadedCall, offloadIfLarge } from "../src/store/mod.ts";

type Mode = "always" | "failures" | "never";
interface Case {
  command: string;
  failed: boolean;
  raw: string;
}

async function cases(root: string): Promise<Case[]> {
  const found: Case[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(file);
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const meta = JSON.parse(await Deno.readTextFile(file));
      if (typeof meta.command !== "string") continue;
      const raw = await Deno.readTextFile(file.replace(/\.json$/, ".txt")).catch(() => null);
      if (raw !== null) found.push({ command: meta.command, failed: meta.exit_code !== 0, raw });
    }
  };
  await walk(root);
  return found;
}

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const settings = defaultConfig().tools.overflow;
const FOLD = /…|\bfolded\b|\(\+\d+ more|\bomitted\b/;
const NOTE = /\n\n\[filtered: [^\n]*\(read_overflow\)\]/;

console.log(
  "| set | runs (passing) | mode | notes on passing | notes on failed | note tokens (passing) | filtered tokens (passing) | passing runs with a fold and no way back |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const root of ["bench/corpus", "bench/heldout"]) {
  const all = await cases(root);
  const passing = all.filter((c) => !c.failed).length;
  for (const mode of ["never", "failures", "always"] as Mode[]) {
    let notesPass = 0, notesFail = 0, noteChars = 0, passNoteChars = 0, passChars = 0, bare = 0;
    for (const c of all) {
      const store = new MemoryStore();
      const call: OffloadedCall & { filterStats?: FilterStats; output: { filterCommand: string } } =
        {
          text: c.raw,
          output: {
            text: c.raw,
            filterCommand: c.command,
            exitCode: c.failed ? 1 : 0,
            failed: c.failed,
          },
        };
      filterToolOutput(engine, call);
      const shown = call.text;
      offloadIfLarge(store, call, {
        conversationId: store.createConversation(),
        settings,
        keepUnfiltered: mode,
      });
      const note = NOTE.exec(call.text)?.[0];
      if (note) {
        noteChars += note.length;
        if (c.failed) notesFail++;
        else {
          notesPass++;
          passNoteChars += note.length;
        }
      }
      if (!c.failed) {
        passChars += shown.length;
        const folds = shown.split("\n").some((l) => FOLD.test(l) && !c.raw.includes(l.trim()));
        if (!note && folds) bare++;
      }
    }
    const t = (chars: number) => Math.round(chars / 4);
    console.log(
      `| ${root} | ${all.length} (${passing}) | ${mode} | ${notesPass} | ${notesFail} | ${
        t(passNoteChars)
      } (all: ${t(noteChars)}) | ${t(passChars)} | ${bare} |`,
    );
  }
}
