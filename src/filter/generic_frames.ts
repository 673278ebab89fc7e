/**
 * Code frames of a flood of one message. A finding's message is the line over its frame (blank
 * and location lines between skipped) that says an error, a warning or a note, its locations
 * taken out: esbuild's `✘ [ERROR] Could not resolve "@app/i18n"`, rustc's `error[E0308]:
 * mismatched types`. When one message is said at FLOOD places or more with a frame under each,
 * the first keeps its frame and the notes under it (esbuild's `You can mark the path … as
 * external`); the later ones keep their message and location lines, not the quote, nor notes the
 * first printed word for word (copies, whose first copy stays): each quotes the same kind of line
 * and the location says where. One line under the first frame counts the places shown without.
 * A frame is a run of quoted source rows and their gutter rows (`  46 │ import …`, `     ╵
 * ~~~~`, `  3 |   x`, `    |   ^`), at least one of them a numbered source row and one a row of
 * marks (carets or tildes: rows of `n | …` without any are a table, phpcs's). Of a later
 * frame the source rows and the rows of marks only go; a label row (rustc's `^^^ expected
 * \`i32\`, found \`&str\``: what differs at this place) stays, and so does a row that carries a
 * failure or a location.
 */

import { FoldedLines } from "./arrays.ts";
import { isQuoteRow, SOURCE_ROW } from "./generic_gutters.ts";
import { MAX_TESTED } from "./sanitize.ts";
import { carriesFailure } from "./signals.ts";

/** Places saying one message, each with a frame, from which the later frames go. */
const FLOOD = 4;

/** A finding's message line: a diagnostic's word in it (a failure signal, or a warning or note). */
const DIAGNOSTIC = /\b(?:warning|warn|note|notice|deprecat\w{0,10})\b/i;
/**
 * A line that is only a location, between a message and its frame (esbuild's `    src/a.ts:3:5:`,
 * rustc's ` --> src/a.rs:3:5`).
 */
const LOCATION_ONLY = /^\s{0,16}(?:(?:-->|:::)\s{1,4})?\S{1,400}:\d{1,7}(?::\d{1,7})?:?$/;
/** A gutter row pointing into the quoted source: carets or tildes under it. */
const MARKS = /^\s{0,16}[|│╵┆]\s[\s|│-]{0,400}[\^~]/;
/** A gutter row with no word on it: marks (`^~~~`, `---`) and bars only, no label. */
const MARKS_ONLY = /^[\s|│╵┆^~\-─┬┴+]*$/;
/** Locations inside a message line, taken out of its key. */
const LOCATIONS = /\S{0,400}?[\w)\]]:\d{1,7}(?::\d{1,7})?:?/g;
/** Lines looked back over from a frame for its message (blank and location lines between). */
const LOOK_BACK = 4;
/** Note lines read after a frame (blank lines between them skipped). */
const MAX_NOTES = 6;

interface Framed {
  /** The frame's rows, [start, end). */
  start: number;
  end: number;
  /** The note lines under the frame (indices), up to the next blank-separated unindented line. */
  notes: number[];
  key: string;
}

/** The frames of the lines, each with the message key of the finding it quotes for. */
function findFrames(lines: readonly string[]): Framed[] {
  const frames: Framed[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!isQuoteRow(lines[i])) continue;
    let end = i;
    let quotes = false;
    let marks = false;
    while (end < lines.length && isQuoteRow(lines[end])) {
      if (SOURCE_ROW.test(lines[end])) quotes = true;
      else if (MARKS.test(lines[end])) marks = true;
      end++;
    }
    const start = i;
    i = end - 1;
    // A quote points into its source with marks; rows of `n | …` without any are a table
    // (phpcs's `15 | WARNING | [ ] …` findings).
    if (!quotes || !marks) continue;
    let head = start - 1;
    while (
      head >= 0 && start - head <= LOOK_BACK &&
      (lines[head].trim() === "" || LOCATION_ONLY.test(lines[head]))
    ) head--;
    if (head < 0 || start - head > LOOK_BACK || lines[head].length > MAX_TESTED) continue;
    // A frame under a line that says no finding (sass's `More info: https://…` over its quote)
    // is no finding's of a known message.
    const message = lines[head];
    if (isQuoteRow(message) || !(carriesFailure(message) || DIAGNOSTIC.test(message))) continue;
    const key = message.replace(LOCATIONS, "").trim();
    if (key === "") continue;
    const notes: number[] = [];
    for (let n = end; n < lines.length && notes.length < MAX_NOTES; n++) {
      const line = lines[n];
      if (line.trim() === "") continue;
      if (!/^\s/.test(line) || isQuoteRow(line) || LOCATION_ONLY.test(line)) break;
      notes.push(n);
    }
    frames.push({ start, end, notes, key });
  }
  return frames;
}

/** The lines with the frames (and repeated notes) of a flood of one message past its first. */
export function foldRepeatedFrames(lines: readonly string[]): readonly string[] {
  const frames = findFrames(lines);
  const places = new Map<string, number>();
  for (const f of frames) places.set(f.key, (places.get(f.key) ?? 0) + 1);
  if (![...places.values()].some((n) => n >= FLOOD)) return lines;
  // Per message in a flood: the first frame's last line or note, and that frame's note texts.
  const first = new Map<string, { after: number; notes: Set<string> }>();
  const drop = new Set<number>();
  for (const f of frames) {
    if (places.get(f.key)! < FLOOD) continue;
    const seen = first.get(f.key);
    if (seen === undefined) {
      const notes = new Set(f.notes.map((n) => lines[n].trim()));
      first.set(f.key, { after: f.notes.at(-1) ?? f.end - 1, notes });
      continue;
    }
    // The quote goes; a label under it (rustc's `expected \`i32\`, found \`&str\``) says what
    // differs at this place and stays.
    for (let r = f.start; r < f.end; r++) {
      const row = lines[r];
      if (carriesFailure(row)) continue;
      if (SOURCE_ROW.test(row) || MARKS_ONLY.test(row)) drop.add(r);
    }
    // A note the first place printed word for word is a copy: its first copy stays.
    for (const n of f.notes) if (seen.notes.has(lines[n].trim())) drop.add(n);
  }
  const notes = new Map<number, string>();
  for (const [key, { after }] of first) {
    const indent = /^\s*/.exec(lines[after])![0].length > 0 ? "  " : "";
    notes.set(
      after,
      `${indent}… ${
        places.get(key)! - 1
      } more places saying this are shown without the quoted source`,
    );
  }
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    if (!drop.has(i)) out.push(lines[i]);
    const note = notes.get(i);
    if (note !== undefined) out.push(note);
  }
  return out.lines();
}
