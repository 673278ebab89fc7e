/**
 * Aligned tables (psql's) read by their columns: a table's separators are where its rule line
 * under the header (`-------+------+----`) has a `+`, and only a ` | ` at those columns parts two
 * cells. A ` | ` elsewhere is a value's own text (a default `'a  |  b'::text`, a check constraint's
 * `(flags | 4)`) and keeps its spaces; a line with ` | ` under no rule line (a constraint or a
 * view's definition below the table) stays as printed.
 */

/**
 * Reads a stage's lines one ahead (the line after a header is its rule line) and knows, for the
 * line being passed on, the columns of the table it is a row of.
 */
export class AlignedCells {
  /** The open table's separator columns (null: none open). */
  #columns: number[] | null = null;
  /** The line read and not passed on yet. */
  #next: string | null = null;
  /** The line passed on last, and the columns of its table when it is a row (null: none). */
  #line: string | null = null;
  #rowOf: number[] | null = null;

  /** The line to pass on now that `line` is read (null: none yet). */
  read(line: string): string | null {
    const previous = this.#next;
    this.#next = line;
    if (previous !== null) this.#place(previous, line);
    return previous;
  }

  /** The line still held when the output ends, to pass on last (null: none). */
  end(): string | null {
    const last = this.#next;
    this.#next = null;
    if (last !== null) this.#place(last, null);
    return last;
  }

  /** The line without its cells' padding when it is a row of a table, the line passed on last. */
  unpad(line: string): string | null {
    return line === this.#line && this.#rowOf !== null ? unpad(line, this.#rowOf) : null;
  }

  /** Notes which table `line` is a row of, knowing the line after it. */
  #place(line: string, next: string | null) {
    this.#line = line;
    this.#rowOf = null;
    const rule = next === null ? null : plusColumns(next);
    if (rule !== null && fits(line, rule)) this.#columns = rule;
    if (plusColumns(line) !== null) return;
    if (this.#columns !== null && fits(line, this.#columns)) this.#rowOf = this.#columns;
    // A row off the columns (a wide character shifts them) leaves the table open; a line with no
    // separator ends it.
    else if (!line.includes(" | ")) this.#columns = null;
  }
}

/** Where a rule line's `+` signs stand (null: the line is no rule line). Linear. */
function plusColumns(line: string): number[] | null {
  if (!line.startsWith("-") || !line.endsWith("-")) return null;
  const columns: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 43) columns.push(i);
    else if (c !== 45) return null;
  }
  return columns.length ? columns : null;
}

/** Whether a line has a ` | ` at each column (the last cell may be empty: `|` ends the line). */
function fits(line: string, columns: number[]): boolean {
  return columns.every((at) =>
    line[at] === "|" && line[at - 1] === " " && (at + 1 === line.length || line[at + 1] === " ")
  );
}

/**
 * A row with its cells' padding gone: each cell trimmed, one space either side of each separator
 * (`" id   | bigint |   "` → `"id | bigint |"`). Linear: one slice and one trim per cell.
 */
function unpad(line: string, columns: number[]): string {
  const cells: string[] = [];
  let from = 0;
  for (const at of columns) {
    cells.push(line.slice(from, at).trim());
    from = at + 1;
  }
  cells.push(line.slice(from).trim());
  return cells.join(" | ").trim();
}
