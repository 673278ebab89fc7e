/**
 * Coverage reports a test run prints after its counts: the result of a passing run, so they stay,
 * cut to what can be acted on (a failed run's result is its failures: there they go, unless a
 * missed coverage threshold is one of them). Of a table (istanbul's text reporter under jest,
 * vitest, c8 and nyc; pytest-cov's `Name Stmts Miss Cover`) the header, the total row and every row
 * that is not fully covered stay as printed; the fully covered rows fold into one line counting
 * them, and the separator rules go. A one-line total (go's `coverage: 85.0% of statements`, simplecov's
 * `12 / 20 LOC (60.0%) covered.`) stays.
 */

import { StartIndex } from "./line_start.ts";

/** What becomes of a line of a coverage report; null: the line is no part of one. */
export type CoverageVerdict = "keep" | "drop" | "fold" | null;

/** istanbul's header: `File | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s`. */
const ISTANBUL_HEADER = /^\s*File\s*\|\s*% Stmts\s*\|/;
/** istanbul's rules: `-----|---------|…` (also `=====`, and the `:`-aligned markdown form). */
const ISTANBUL_RULE = /^\s*[-=:]{2,}(?:\|[-=:]{2,})+\|?\s*$/;
/** istanbul's title lines: vitest's ` % Coverage report from v8`, nyc's `= Coverage summary =`. */
const ISTANBUL_TITLE = /^\s*% Coverage report from \w+\s*$/;
/** pytest-cov's header, with or without its `Branch BrPart` and `Missing` columns. */
const PYTEST_HEADER = /^Name\s+Stmts\s+Miss\s+(?:Branch\s+BrPart\s+)?Cover(?:\s+Missing)?\s*$/;
/**
 * pytest-cov's title: `---------- coverage: platform linux, python 3.11.2-final-0 -----------`,
 * ruled with `_` since pytest-cov 5, under its `==== tests coverage ====` section.
 */
const PYTEST_TITLE = /^(?:-{3,}|_{3,}) coverage: .{1,200} (?:-{3,}|_{3,})$/;
const PYTEST_RULE = /^-{5,}\s*$/;
/** A pytest-cov row: the name, counts, `NN%` and the missing lines. */
const PYTEST_ROW =
  /^(\S.{0,400}?)\s+\d{1,9}\s+\d{1,9}\s+(?:\d{1,9}\s+\d{1,9}\s+)?(\d{1,3})%(\s+\S.*)?$/;
/**
 * A total on one line: go's, simplecov's, the per-package `coverage:` go prints, and pytest-cov's
 * `Required test coverage of 90% reached. Total coverage: 92.50%` under its table.
 */
const ONE_LINE_TOTAL = [
  /^\s*(?:\S{1,400}\s+)?coverage: \d{1,3}(?:\.\d{1,4})?% of statements\b/,
  /^\d{1,9} \/ \d{1,9} LOC \([\d.]{1,8}%\) covered\.$/,
  /^Required test coverage of [\d.]{1,8}% reached\. Total coverage: [\d.]{1,8}%$/,
];

/**
 * node --test's own table (`--experimental-test-coverage`), behind the reporter's prefix (TAP's
 * `# `, spec's `ℹ `): `file | line % | branch % | funcs % | uncovered lines`, opened by `start of
 * coverage report` and closed by `end of coverage report`, its total row `all files`.
 */
const NODE_HEADER = /^[#ℹ] file\s*\| line % \| branch % \| funcs % \| uncovered lines\s*$/;
const NODE_TITLE = /^[#ℹ] start of coverage report$/;
const NODE_END = /^[#ℹ] end of coverage report$/;
const NODE_RULE = /^[#ℹ] -{5,}$/;
/** A row's prefix, taken off before its cells are read. */
const NODE_PREFIX = /^[#ℹ] /;
/** A node row's percentage; a directory's row in node's tree of files has none. */
const NODE_PERCENT = /^(?:\d{1,3}(?:\.\d{1,4})?)?$/;

/** The line fully covered rows fold into (`coveredFold`). */
const FOLDED = /^… \d{1,9} fully covered rows? folded …$/;

/** Every line `read` looks at outside a table: no other line can start or be part of one. */
const REPORT_LINES = new StartIndex([[
  ...ONE_LINE_TOTAL,
  ISTANBUL_HEADER,
  PYTEST_HEADER,
  ISTANBUL_TITLE,
  PYTEST_TITLE,
  ISTANBUL_RULE,
  NODE_HEADER,
  NODE_TITLE,
]]);

/** Reads a test run's lines one by one, in order, and says what becomes of each. */
export class CoverageReader {
  #table: "istanbul" | "pytest" | "node" | null = null;

  /** Whether the table being read is node --test's own (a failed run keeps it: `isNodeTable`). */
  get node(): boolean {
    return this.#table === "node";
  }

  /** The verdict for the next line (`first`: its `firstNonSpace`, when the caller has it). */
  read(line: string, first?: string): CoverageVerdict {
    if (this.#table === null && REPORT_LINES.which(line, first) < 0) return null;
    // A table folded before (the generic pass reads what a rule kept) goes on past its fold line.
    if (this.#table !== null && FOLDED.test(line)) return "keep";
    if (ONE_LINE_TOTAL.some((re) => re.test(line))) return "keep";
    if (ISTANBUL_HEADER.test(line)) {
      this.#table = "istanbul";
      return "keep";
    }
    if (PYTEST_HEADER.test(line)) {
      this.#table = "pytest";
      return "keep";
    }
    if (NODE_HEADER.test(line)) {
      this.#table = "node";
      return "keep";
    }
    if (ISTANBUL_TITLE.test(line) || PYTEST_TITLE.test(line)) return "keep";
    if (NODE_TITLE.test(line)) {
      this.#table = "node";
      return "keep";
    }
    // The rule above istanbul's header comes before the table is known to start.
    if (ISTANBUL_RULE.test(line)) return "drop";
    if (this.#table === "istanbul") return this.#istanbul(line);
    if (this.#table === "pytest") return this.#pytest(line);
    if (this.#table === "node") return this.#node(line);
    return null;
  }

  #node(line: string): CoverageVerdict {
    if (NODE_RULE.test(line)) return "drop";
    if (NODE_END.test(line)) {
      this.#table = null;
      return "drop";
    }
    if (!NODE_PREFIX.test(line)) {
      this.#table = null;
      return null;
    }
    const cells = line.slice(2).split("|");
    const numbers = cells.slice(1, 4).map((cell) => cell.trim());
    if (cells.length < 5 || !numbers.every((cell) => NODE_PERCENT.test(cell))) {
      this.#table = null;
      return null;
    }
    if (cells[0].trim() === "all files") return "keep";
    const uncovered = cells.slice(4).join("|").trim();
    return numbers.every((cell) => cell === "100.00") && uncovered === "" ? "fold" : "keep";
  }

  #istanbul(line: string): CoverageVerdict {
    if (ISTANBUL_RULE.test(line)) return "drop";
    const cells = line.split("|");
    if (cells.length < 5) {
      this.#table = null;
      return null;
    }
    const numbers = cells.slice(1, 5).map((cell) => cell.trim());
    if (!numbers.every((cell) => /^(?:\d{1,3}(?:\.\d{1,4})?|Unknown)$/.test(cell))) {
      this.#table = null;
      return null;
    }
    if (/^\s*All files\s*$/.test(cells[0])) return "keep";
    const uncovered = cells.slice(5).join("|").trim();
    return numbers.every((cell) => cell === "100") && uncovered === "" ? "fold" : "keep";
  }

  #pytest(line: string): CoverageVerdict {
    if (PYTEST_RULE.test(line)) return "drop";
    const row = PYTEST_ROW.exec(line);
    if (!row) {
      this.#table = null;
      return null;
    }
    if (row[1] === "TOTAL") {
      this.#table = null;
      return "keep";
    }
    return row[2] === "100" && row[3] === undefined ? "fold" : "keep";
  }
}

/** The line fully covered rows fold into. */
export function coveredFold(n: number): string {
  return `… ${n} fully covered row${n === 1 ? "" : "s"} folded …`;
}
