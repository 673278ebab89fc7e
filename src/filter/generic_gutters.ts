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
/** A quoted source row: its number, then the gutter (babel's `>` marks the line at fault). */
export const SOURCE_ROW = /^\s{0,12}(?:>\s{0,4})?\d{1,7} ?[|│](?:\s|$)/;
/** A gutter row: under or between source rows, marks or a label (`╷`/`╵` open and close a frame). */
const GUTTER_ROW = /^\s{0,16}[|│╷╵┆](?:\s|$)/;
/** A frame's row that quotes no source: a location (`-->`, `:::`), a `= note:`, a `...` gap. */
const NOTE_ROW = /^\s{0,12}(?:-->|:::|= )|^\.\.\.$/;

/** Whether a line is a row of a code frame's quote: a source row or a gutter row. */
export const isQuoteRow = (line: string) =>
  line.length <= MAX_TESTED && (SOURCE_ROW.test(line) || GUTTER_ROW.test(line));

const frameRow = (line: string) =>
  isQuoteRow(line) || (line.length <= MAX_TESTED && NOTE_ROW.test(line));

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
