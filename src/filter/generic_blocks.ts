/**
 * Runs of multi-line blocks of one shape: npm's five-line `EBADENGINE` warning per package, the
 * same note printed for each of many files, a block printed twice over. A run of at least
 * `MIN_BLOCKS` blocks of 2 to `MAX_BLOCK` lines, in which most lines are the same in every block
 * and the others differ only after a shared start (`package: '…'`), keeps its first block whole
 * and then one line per block: the lines that differ, joined (blocks alike in those too are
 * counted, `(x2)`). A line that goes is the same as one that stays, so no text is lost but
 * the repetition; a run of identical blocks keeps one and a marker counting the repeats folded
 * (`… 3 repeats of the 2 lines above folded …`). A run whose repeated lines
 * look like a failure or name a location stays whole: each failure keeps its own lines.
 */

import { appendAll, FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./generic_folds.ts";
import { carriesFailure } from "./strategies/mod.ts";

/** Blocks shorter than this are single lines: repeats of those collapse in generic.ts. */
const MIN_BLOCK = 2;
const MAX_BLOCK = 8;
/** Runs of fewer blocks stay. */
const MIN_BLOCKS = 3;

/** A member of a JSON object printed on its own line (`  "line": 3,`, `"location": {`). */
const JSON_MEMBER = /^\s*"[^"\n]{0,200}": /;

/** Lines that differ between blocks must share their start up to a key (`package:`). */
const KEY = /^\s*[^\s:=]{1,80}(?: [^\s:=]{1,80}){0,3}\s?[:=]/;

/** Whether two lines at one place of two blocks differ as a field's value does. */
function alike(a: string, b: string): boolean {
  if (!a.trim() || !b.trim()) return false;
  let shared = 0;
  const max = Math.min(a.length, b.length);
  while (shared < max && a.charCodeAt(shared) === b.charCodeAt(shared)) shared++;
  const key = KEY.exec(a);
  if (key && shared >= key[0].length) return true;
  return shared * 2 >= max && a.slice(0, shared).trim().length >= 3;
}

/** A line that counts as the same in every block: not blank, not a lone brace. */
function substantial(line: string): boolean {
  return line.length >= 3 && line.trim().length >= 3;
}

/**
 * The run of blocks of `k` lines at `at`: how many blocks, which places differ and whether a
 * place that does not differ looks like a failure; null when there are too few blocks.
 */
function runOf(
  lines: readonly string[],
  at: number,
  k: number,
): { count: number; varies: boolean[]; failing: boolean } | null {
  if (at + MIN_BLOCKS * k > lines.length) return null;
  for (let p = 0; p < k; p++) if (lines[at + p].length > MAX_TESTED) return null;
  // A run of one line repeated is no run of blocks: it collapses to the line with its count.
  if (lines[at + 1] === lines[at] && lines[at + k] === lines[at]) {
    let same = 1;
    while (same < k && lines[at + same] === lines[at]) same++;
    if (same === k) return null;
  }
  // Most places of the second block repeat the first's, or no run starts here: the cheap test
  // that most lines of an output fail, before anything is allocated.
  let equal = 0;
  for (let p = 0; p < k; p++) if (lines[at + p] === lines[at + k + p]) equal++;
  if (equal * 2 < k) return null;
  // Only the first block's substantial places can hold the same text in every block: a block
  // of mostly short lines (a run of one-character lines) starts no run.
  let places = 0;
  for (let p = 0; p < k; p++) if (substantial(lines[at + p])) places++;
  if (places * 2 < k) return null;
  const varies = new Array<boolean>(k).fill(false);
  let count = 1;
  for (; at + (count + 1) * k <= lines.length; count++) {
    const start = at + count * k;
    const next = [...varies];
    let ok = true;
    for (let p = 0; p < k && ok; p++) {
      const line = lines[start + p];
      if (line.length > MAX_TESTED) ok = false;
      else if (line !== lines[at + p]) next[p] = true;
    }
    // Most places hold the same text in every block (checked first: it is the cheap test).
    const same = next.filter((v, p) => !v && substantial(lines[at + p])).length;
    if (!ok || same * 2 < k) break;
    for (let p = 0; p < k && ok; p++) {
      const line = lines[start + p];
      if (next[p] && line !== lines[at + p]) ok = alike(lines[at + p], line);
    }
    if (!ok) break;
    next.forEach((v, p) => varies[p] = v);
  }
  if (count < MIN_BLOCKS) return null;
  // A failure-looking line stays in every block it is in (which failure it belongs to matters).
  const failing = varies.some((v, p) => !v && carriesFailure(lines[at + p]));
  return { count, varies, failing };
}

/** The text all lines of a block start with, up to a space (`npm warn EBADENGINE `). */
function sharedStart(block: readonly string[]): string {
  let end = block[0].length;
  for (const line of block) {
    let i = 0;
    while (i < end && i < line.length && line[i] === block[0][i]) i++;
    end = i;
  }
  const space = block[0].lastIndexOf(" ", end - 1);
  return space < 0 ? "" : block[0].slice(0, space + 1);
}

/** The run at `at` folded, and where it ends; null when no run starts there or folding saves nothing. */
function foldRunAt(lines: readonly string[], at: number): { out: string[]; end: number } | null {
  for (let k = MIN_BLOCK; k <= MAX_BLOCK; k++) {
    const run = runOf(lines, at, k);
    if (!run) continue;
    const end = at + run.count * k;
    // The run stays as it is, and is not searched again from its second line.
    if (run.failing) return { out: lines.slice(at, end), end };
    const block = lines.slice(at, at + k);
    if (!run.varies.includes(true)) {
      // Under the block's indent only: after the start its lines share, the marker would read
      // as one of them cut short.
      const marker = `… ${run.count - 1} repeats of the ${k} lines above folded …`;
      return { out: [...block, `${/^\s*/.exec(block[0])![0]}${marker}`], end };
    }
    const start = sharedStart(block);
    const indent = /^\s*/.exec(block[0].slice(start.length))![0];
    const marker =
      `${start}${indent}… ${run.count} blocks like the one above; the lines that differ:`;
    // A printed JSON document's members (`"message": "…",`) are lines to copy whole: each
    // block's differing members stay as printed, one a line, not joined.
    if (block.every((line) => JSON_MEMBER.test(line))) {
      const out = [...block, marker];
      for (let b = 1; b < run.count; b++) {
        run.varies.forEach((varies, p) => varies && out.push(lines[at + b * k + p]));
      }
      return out.length < end - at ? { out, end } : { out: lines.slice(at, end), end };
    }
    // One line per block: its differing lines, the later ones without the block's shared start.
    const counts = new Map<string, number>();
    for (let b = 0; b < run.count; b++) {
      const parts: string[] = [];
      run.varies.forEach((varies, p) => {
        if (!varies) return;
        const line = lines[at + b * k + p];
        // A later line that does not start with the shared start (alike on less) stays whole.
        const own = line.startsWith(start) ? line.slice(start.length) : line;
        parts.push(parts.length ? own.trim() : line.trimEnd());
      });
      const summary = parts.join(" ");
      counts.set(summary, (counts.get(summary) ?? 0) + 1);
    }
    const out = [
      ...block,
      marker,
      ...[...counts].map(([line, n]) => n > 1 ? `${line} (x${n})` : line),
    ];
    return out.length < end - at ? { out, end } : { out: lines.slice(at, end), end };
  }
  return null;
}

/** Each run of blocks of one shape with its later blocks reduced to what differs in them. */
export function foldRepeatedBlocks(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const run = foldRunAt(lines, i);
    if (!run) {
      out.push(lines[i++]);
      continue;
    }
    appendAll(out, run.out);
    i = run.end;
  }
  return out.lines();
}
