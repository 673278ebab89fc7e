/**
 * Coverage tables printed by a command no rule matches: `coverage report -m`, `c8 report`,
 * `nyc report`, an `npm run coverage` script, a make target. They are read as the test runners'
 * rules read them (coverage.ts): the header, the totals, every row that is not fully
 * covered (with its uncovered lines) and every line around the table stay as printed; a run of
 * fully covered rows folds into one line counting them and the table's separator rules go. A
 * threshold's failure is a line outside the table: it stays, so this is the same in a failed run.
 * The rows kept are no run of alike lines for the later folds (`coverageRows`): each names a file
 * and the lines to cover.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./sanitize.ts";
import { CoverageReader, type CoverageVerdict, coveredFold } from "./coverage.ts";

/** A run this short stays as printed: one fully covered row says as much as its fold line. */
const MIN_FOLD = 2;

export function foldCoverageTables(lines: readonly string[]): readonly string[] {
  const reader = new CoverageReader();
  const out = new FoldedLines(lines);
  let run: string[] = [];
  const flush = () => {
    if (run.length >= MIN_FOLD) out.push(coveredFold(run.length));
    else for (const line of run) out.push(line);
    run = [];
  };
  // A separator rule goes only next to a table's line: a markdown table's `---|---` stays.
  let rule: string | null = null;
  let inTable = false;
  for (const line of lines) {
    const verdict = readLine(reader, line);
    if (verdict === "drop") {
      if (rule !== null && !inTable) out.push(rule);
      rule = line;
      continue;
    }
    if (rule !== null && !inTable && verdict === null) out.push(rule);
    rule = null;
    inTable = verdict !== null;
    // A rule between fully covered rows (nyc's per-directory groups) does not end their run.
    if (verdict === "fold") {
      run.push(line);
      continue;
    }
    flush();
    out.push(line);
  }
  if (rule !== null && !inTable) out.push(rule);
  flush();
  return out.lines();
}

/**
 * Where the lines of a coverage table that stay are (the header, the totals, each row not fully
 * covered, a fold line), or null when there is no table: the shape folds leave them as printed.
 */
export function coverageRows(lines: readonly string[]): boolean[] | null {
  const reader = new CoverageReader();
  let rows: boolean[] | null = null;
  lines.forEach((line, i) => {
    if (readLine(reader, line) !== "keep") return;
    rows ??= new Array(lines.length).fill(false);
    rows[i] = true;
  });
  return rows;
}

/** The reader's verdict on a line; one too long to test is no part of a table (and ends one). */
function readLine(reader: CoverageReader, line: string): CoverageVerdict {
  return line.length > MAX_TESTED ? reader.read("") : reader.read(line);
}
