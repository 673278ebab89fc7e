/**
 * sanitize: what every output goes through before any rule sees it: ANSI escapes removed,
 * carriage-return progress collapsed to its last state, runs of blank lines collapsed to one.
 */

import { BAR_CHARS, SPINNER_CHARS } from "./_progress.ts";

/** Lines longer than this are never taken for a frame, a path, data, a note or a test line. */
export const MAX_TESTED = 2000;

// CSI sequences (colours, cursor moves, `?25l`), OSC sequences (titles, hyperlinks) ended by BEL
// or ST, character-set selections, and the remaining two-byte escapes.
const ANSI =
  // deno-lint-ignore no-control-regex
  /\x1b\[[0-?]*[ -\/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-B0-2]|\x1b[=>78DEHMc]/g;

/** Removes ANSI escapes only. */
export function stripAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

/** An erase-line escape right after a carriage return: the redraw clears what was there. */
// deno-lint-ignore no-control-regex
const ERASE = /^\x1b\[[0-2]?K/;

/** What marks a redraw as progress: a percentage, a bar, a spinner frame, a count of bytes. */
const PROGRESS_MARK = new RegExp(
  String.raw`\d%|[${BAR_CHARS}]{3}|[${SPINNER_CHARS}|/\\-] |\d(?:\.\d+)? ?[kKMG]i?B\b`,
);
/** The first word of a status line (`Rebasing`, `Auto-merging`). */
const FIRST_WORD = /^\s*([\p{L}][\p{L}-]*)/u;

/**
 * Whether `before`, overwritten by `after` with a plain `\r`, is a status of its own rather than
 * an earlier state of the same line: it reads as words (no percentage, bar or spinner) and `after`
 * starts with another word — git's `Rebasing (1/2)\rAuto-merging a.toml` says which commit
 * conflicted; `Receiving objects: 10%\rReceiving objects: 100%` is one line redrawn.
 */
function ownStatus(before: string, after: string): boolean {
  const word = FIRST_WORD.exec(before)?.[1];
  if (!word || PROGRESS_MARK.test(before)) return false;
  return FIRST_WORD.exec(after)?.[1]?.toLowerCase() !== word.toLowerCase();
}

/**
 * How a `\r` kept inside a line shows: one visible character (U+240D, the symbol for a carriage
 * return) where the `\r` was, so a kept line is no longer than the line printed and a terminal
 * showing it does not redraw.
 */
export const KEPT_CR = "\u240d";

/**
 * One line (no `\n`): escapes removed, carriage-return redraws collapsed to their last state. A
 * `\r` is a redraw only when what follows it really rewrites the line: it erases it (`\x1b[K`)
 * or is at least as wide as what it covers (a progress bar, a counter). A `\r` inside text (a
 * test diff showing `"qty\r"`) is kept, shown as `␍` (KEPT_CR), with the text on both sides. A
 * line never comes out longer than it came in: escapes and redraws only take characters away,
 * and a kept `\r` takes one character as it did. A status a
 * plain `\r` lets a message of another kind overwrite stays, as a line of its own before it (the
 * result then holds a `\n`).
 */
export function sanitizeLine(line: string): string {
  let text = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (text.includes("\r")) {
    const parts = text.split("\r");
    const shown: string[] = [];
    text = parts[0];
    // The width of `text` as shown, kept as it grows: text a `\r` does not cover stays with it,
    // and measuring it again for every part would be quadratic.
    let width = stripAnsi(text).length;
    for (let i = 1; i < parts.length; i++) {
      const next = parts[i];
      if (next === "") continue;
      const erases = ERASE.test(next);
      const nextWidth = stripAnsi(next).length;
      const rewrites = erases || nextWidth >= width;
      if (rewrites && !erases && ownStatus(stripAnsi(text), stripAnsi(next))) shown.push(text);
      text = rewrites ? next : `${text}${KEPT_CR}${next}`;
      width = rewrites ? nextWidth : width + 1 + nextWidth;
    }
    if (shown.length) text = `${shown.join("\n")}\n${text}`;
  }
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

/** Iterates the lines of a text without building an array; a final newline adds no line. */
export function* splitLines(text: string): Generator<string> {
  let start = 0;
  const n = text.length;
  while (start < n) {
    const nl = text.indexOf("\n", start);
    if (nl < 0) {
      yield text.slice(start);
      return;
    }
    yield text.slice(start, nl);
    start = nl + 1;
  }
}

/** Counts lines the way the stats do: "" → 0, a trailing newline is not a line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  let i = -1;
  while ((i = text.indexOf("\n", i + 1)) >= 0) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * A whitespace-only (or empty) line: Unicode's whitespace too (a no-break space, U+3000), as the
 * regexes' `\s` reads it — a line of them shows nothing, and every fold reads it as blank.
 */
export function isBlank(line: string): boolean {
  // Most lines start with a printable ASCII character: no trimmed copy for them.
  const first = line.charCodeAt(0);
  if (first > 32 && first < 127) return false;
  return line.trim() === "";
}

/** How many whitespace characters (`isBlank`'s) a line starts with (its length when it is blank). */
export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Collapses runs of blank (whitespace-only) lines to one, streaming. */
export class BlankCollapser {
  #lastBlank = false;
  /** Returns the line to keep ("" for a blank one), or null to drop it. */
  accept(line: string): string | null {
    const blank = isBlank(line);
    if (blank && this.#lastBlank) return null;
    this.#lastBlank = blank;
    return blank ? "" : line;
  }
}

/** The whole sanitising pass over a text; the result has no trailing newline. */
export function sanitize(text: string): string {
  const out: string[] = [];
  const blanks = new BlankCollapser();
  for (const raw of splitLines(text)) {
    const line = blanks.accept(sanitizeLine(raw));
    if (line !== null) out.push(line);
  }
  return out.join("\n");
}
