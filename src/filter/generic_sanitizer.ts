/**
 * The memory maps a sanitizer prints after its report (AddressSanitizer, HWAddressSanitizer,
 * KASAN-style reports): `Shadow bytes around the buggy address:` with its rows of shadow memory,
 * and the `Shadow byte legend (…):` that explains the byte codes, the same in every report. The
 * report's head, frames, `SUMMARY:` and `ABORTING` lines are the answer; the map is not. Each
 * header stays as printed; the row marked `=>` (the buggy address) stays; the other rows and the
 * legend's entries fold into one line with their count.
 */

import { appendAll, FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./generic_folds.ts";

const SHADOW_HEAD = /^Shadow bytes around the buggy address:$/;
const LEGEND_HEAD = /^Shadow byte legend \(.{0,200}\):$/;
/** A row of shadow memory: `  0x0c067fff7fb0: 00 00 fa …`, the buggy one led by `=>`. */
const SHADOW_ROW = /^(?:=>|\s{1,4})0x[0-9a-f]{1,16}:(?:[ [\]][0-9a-f]{2}){1,64}[\] ]?$/;
/** A legend entry: `  Heap left redzone:       fa`, `  Partially addressable: 01 02 03 04 05 06 07`. */
const LEGEND_ENTRY = /^\s{1,8}[A-Za-z][\w ]{0,60}:\s{1,40}[0-9a-f]{2}(?: [0-9a-f]{2}){0,15}\s*$/;

/** Runs shorter than this stay as printed. */
const MIN_FOLD = 3;

export function foldSanitizerMaps(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    // Both headers start with `Shadow `: most lines are passed over without a pattern.
    const head = line.startsWith("Shadow ") && line.length <= MAX_TESTED
      ? SHADOW_HEAD.test(line) ? "shadow" : LEGEND_HEAD.test(line) ? "legend" : null
      : null;
    out.push(line);
    i++;
    if (!head) continue;
    const body = head === "shadow" ? SHADOW_ROW : LEGEND_ENTRY;
    let j = i;
    while (j < lines.length && lines[j].length <= MAX_TESTED && body.test(lines[j])) j++;
    const rows = lines.slice(i, j);
    const buggy = head === "shadow" ? rows.filter((r) => r.startsWith("=>")) : [];
    const folded = rows.length - buggy.length;
    if (folded < MIN_FOLD) {
      appendAll(out, rows);
    } else {
      const what = head === "shadow" ? "rows of shadow memory" : "entries of the legend";
      appendAll(out, buggy).push(`  … (${folded} ${what}) …`);
    }
    i = j;
  }
  return out.lines();
}
