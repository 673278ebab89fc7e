/**
 * The empty gutter rows of a compiler's code frames (rustc's and clang's ` |` above and below
 * the quoted source, `  |            |` joining a label to its span): a frame's drawing, with no
 * text of the source or of a label. They go only inside a frame, a run of gutter, source,
 * location (`-->`, `:::`) and `= note:` rows that quotes at least one numbered source row; every
 * row with text (the source, a label under it, a note) stays as printed.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./sanitize.ts";

/** A gutter row with nothing but the gutter's bars on it. */
const EMPTY_GUTTER = /^\s{0,12}[|│][\s|│]{0,400}$/;
/** A quoted source row: its number, then the gutter. */
const SOURCE_ROW = /^\s{0,12}\d{1,7} ?[|│](?:\s|$)/;
/** Any row of a code frame. */
const FRAME_ROW = /^\s{0,12}(?:\d{1,7} ?)?[|│]|^\s{0,12}(?:-->|:::|= )|^\.\.\.$/;

const frameRow = (line: string) => line.length <= MAX_TESTED && FRAME_ROW.test(line);

/** The lines with the empty gutter rows of each code frame that quotes source removed. */
export function dropEmptyGutters(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    if (!frameRow(lines[i])) {
      out.push(lines[i++]);
      continue;
    }
    let end = i;
    let quotes = false;
    while (end < lines.length && frameRow(lines[end])) {
      if (SOURCE_ROW.test(lines[end])) quotes = true;
      end++;
    }
    for (; i < end; i++) {
      if (!quotes || !EMPTY_GUTTER.test(lines[i])) out.push(lines[i]);
    }
  }
  return out.lines();
}
