/**
 * The part of an output its rule's tool printed, told line by line (strip_noise's `within`): a
 * formatter's diff in `black --check --diff . ; python3 -m unittest`, whose test failures print
 * `-`/`+` lines of their own. A part opens at a `start` line (a diff's file header) and goes on
 * through the lines `body` matches, up to the first other line or one `end` matches (cargo's
 * `   Compiling a v0.1.0` right after rustfmt's last hunk reads as a context line).
 */
import type { Pattern } from "../regex.ts";

/** A unified diff's hunk head: the old and the new side's line counts (1 when left out). */
const HUNK_HEAD = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/** The lines a unified hunk head (`@@ -3,7 +3,8 @@`) counts on each side, else null. */
export function hunkCounts(line: string): { old: number; new: number } | null {
  const head = HUNK_HEAD.exec(line);
  return head ? { old: Number(head[1] ?? 1), new: Number(head[2] ?? 1) } : null;
}

/**
 * Reads lines in order and says which are in the part. A unified hunk head in a part holds
 * exactly the lines its counts say; after them only another hunk head, a `start` line or `\ No
 * newline at end of file` goes on with it, so `go test`'s `--- FAIL: TestB` printed right after
 * gofmt's last hunk is no removed line. A hunk whose lines run out early (the sanitizer joins
 * runs of blank context lines) ends at the first line its counts leave no room for.
 */
export class ToolPart {
  #open = false;
  /** Whether the part has read a hunk head: `body` no longer continues it, the counts do. */
  #counted = false;
  #old = 0;
  #new = 0;

  constructor(
    private readonly start: Pattern,
    private readonly body: Pattern,
    private readonly end?: Pattern,
  ) {}

  /** Whether `line`, the next line of the output, is in the part. */
  read(line: string): boolean {
    if (this.#old > 0 || this.#new > 0) {
      if (this.#inHunk(line)) return true;
      this.#old = 0;
      this.#new = 0;
    }
    if (this.start.test(line)) {
      this.#open = true;
      this.#counted = false;
      return true;
    }
    if (!this.#open) return false;
    const counts = hunkCounts(line);
    if (counts) {
      this.#old = counts.old;
      this.#new = counts.new;
      this.#counted = true;
      return true;
    }
    if (line.startsWith("\\ ")) return true;
    if (!this.#counted && this.body.test(line) && !(this.end?.test(line) ?? false)) return true;
    this.#open = false;
    return false;
  }

  /** Whether a hunk's counts leave room for `line`, counting it. */
  #inHunk(line: string): boolean {
    if (line.startsWith("\\ ")) return true;
    const sign = line[0];
    if (sign === "-" && this.#old > 0) this.#old--;
    else if (sign === "+" && this.#new > 0) this.#new--;
    else if ((sign === " " || line === "") && this.#old > 0 && this.#new > 0) {
      this.#old--;
      this.#new--;
    } else return false;
    return true;
  }
}
