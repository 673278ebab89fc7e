/**
 * Long runs of lines of one shape in an output that passed: a tool's per-item lines (`npm notice
 * 1.2kB lib/a.js` of a tarball's contents, `Project 'a/tsconfig.json' is up to date …` of a
 * verbose build, `Skipping x`, `Downloading y`, ` src/a.ts | 12 ++++--` of a diffstat, `* 1a2b3c4
 * subject` of a graph log) fold to the run's first and last lines around a count. A line's shape
 * is its indent, its first word as printed (digits masked) and the kinds of the next two words
 * (number, hex, path, quoted text, word, or the punctuation as printed); blank lines inside a run
 * belong to it. Blocks of a few lines whose shapes repeat (`git bisect run`'s steps) fold the same
 * way, to their first and last blocks.
 *
 * Only when the command succeeded: a failed run's lines around its failure are its context.
 * A line that carries a failure, a location or a warning never folds and ends the run, and the
 * last lines of the output (where a tool prints its summary) never fold either.
 */

import { carriesFailure } from "./strategies/mod.ts";
import { MAX_TESTED } from "./generic_folds.ts";

/** Runs of fewer lines of one shape (blank lines not counted) stay as printed. */
export const MIN_SHAPE_RUN = 12;
/** The last non-blank lines of an output never fold: a summary is printed there. */
const KEPT_TAIL = 3;
/** Words of a line its shape reads: the first as printed, the next ones by kind. */
const SHAPE_WORDS = 3;

const WARNING = /warn|deprecat/i;
const NUMBER = /^[+-]?[\d.,:]{0,20}\d[\w.,:%/()]{0,20}$/;
const HEX = /^[0-9a-f]{7,64}$/;
const PATH = /[/\\]|^[\w.@+-]{1,200}\.[A-Za-z]\w{0,9}$/;
const QUOTE = /^["'`‘“]/;
const WORD = /^[A-Za-z][\w-]{0,100}[:,;.]?$/;
const SPACE = /\s+/;

/** The kind of a word after a line's first. */
function kindOf(word: string): string {
  if (QUOTE.test(word)) return "Q";
  if (HEX.test(word)) return "H";
  if (NUMBER.test(word)) return "N";
  if (PATH.test(word)) return "P";
  if (WORD.test(word)) return "W";
  // Punctuation (`|`, `*`, `->`) stays as printed; other mixed words are words.
  return /^[^\w\s]{1,4}$/.test(word) ? word : "W";
}

/** A line's shape, or null for a line that never folds (blank, too long, one word, a signal). */
export function shapeOf(line: string): string | null {
  if (line.length > MAX_TESTED) return null;
  const indent = /^\s*/.exec(line)![0];
  const words = line.slice(indent.length).split(SPACE, SHAPE_WORDS + 1).filter((w) => w !== "");
  if (words.length < 2) return null;
  if (carriesFailure(line) || WARNING.test(line)) return null;
  // A first word that is a number, hash, path or quote is read by its kind too.
  const first = words[0];
  const head = QUOTE.test(first) || HEX.test(first) || NUMBER.test(first) || PATH.test(first)
    ? kindOf(first)
    : first.replace(/[0-9a-f]{7,64}/g, "H").replace(/\d+/g, "0");
  return [indent + head, ...words.slice(1, SHAPE_WORDS).map(kindOf)].join(" ");
}

const isBlank = (line: string) => line.trim() === "";

/** Blocks of up to this many lines repeat as a whole (`git bisect run`'s three lines a step). */
const MAX_PERIOD = 4;
/** A run of blocks has at least this many. */
const MIN_BLOCKS = 3;

/**
 * The lines with each run of at least MIN_SHAPE_RUN lines of one shape folded to its first line,
 * a count of the lines between and its last line, when the command succeeded. A run of blocks
 * of 2 to MAX_PERIOD lines whose shapes repeat block after block (a step's `running …`,
 * `Bisecting: …`, `[hash] subject`) folds the same way, keeping its first and last blocks.
 */
export function foldShapeRuns(lines: readonly string[], failed: boolean): string[] {
  if (failed || lines.length < MIN_SHAPE_RUN) return [...lines];
  // Where the kept tail starts: the last KEPT_TAIL non-blank lines.
  let tail = lines.length;
  for (let seen = 0; tail > 0 && seen < KEPT_TAIL;) if (!isBlank(lines[--tail])) seen++;
  const shapes = lines.map((line, i) => i < tail ? shapeOf(line) : null);
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const shape = shapes[i];
    if (shape === null) {
      out.push(lines[i++]);
      continue;
    }
    // The run: lines of this shape, with blank lines between them; `last` is its last line.
    let last = i;
    let count = 1;
    for (let j = i + 1; j < tail; j++) {
      if (isBlank(lines[j])) continue;
      if (shapes[j] !== shape) break;
      last = j;
      count++;
    }
    if (count >= MIN_SHAPE_RUN) {
      const indent = /^\s*/.exec(lines[i])![0];
      out.push(lines[i], `${indent}… ${count - 2} lines like these folded …`, lines[last]);
      i = last + 1;
      continue;
    }
    const blocks = blockRunAt(shapes, i);
    if (blocks !== null) {
      const { period, count: n } = blocks;
      const lastBlock = i + (n - 1) * period;
      const indent = /^\s*/.exec(lines[i])![0];
      out.push(
        ...lines.slice(i, i + period),
        `${indent}… ${(n - 2) * period} lines like these folded …`,
        ...lines.slice(lastBlock, lastBlock + period),
      );
      i = lastBlock + period;
      continue;
    }
    out.push(...lines.slice(i, last + 1));
    i = last + 1;
  }
  return out;
}

/**
 * The run of blocks starting at `at` whose lines' shapes repeat with a period of 2 to MAX_PERIOD
 * lines (no blank or unshaped line inside, the lines of a block not all of one shape), when it
 * has MIN_BLOCKS blocks and MIN_SHAPE_RUN lines at least; else null.
 */
function blockRunAt(
  shapes: readonly (string | null)[],
  at: number,
): { period: number; count: number } | null {
  for (let period = 2; period <= MAX_PERIOD; period++) {
    const block = shapes.slice(at, at + period);
    if (block.length < period || block.includes(null)) return null;
    if (block.every((shape) => shape === block[0])) continue;
    let end = at + period;
    while (end < shapes.length && shapes[end] !== null && shapes[end] === shapes[end - period]) {
      end++;
    }
    const count = Math.floor((end - at) / period);
    if (count >= MIN_BLOCKS && count * period >= MIN_SHAPE_RUN) return { period, count };
  }
  return null;
}
