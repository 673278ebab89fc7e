/** Array helpers the filter engine's stages share. */

/** What lines are put out to: an array, or a fold's output. */
export interface LineSink<T> {
  push(item: T): unknown;
}

/**
 * Appends `items[start..end)` to `target` one by one and returns `target`. A spread into `push`
 * passes every item as an argument, and a call takes ~100k at most: past that it throws, and
 * the engine shows the input as it came.
 */
export function appendAll<T, S extends LineSink<T>>(
  target: S,
  items: readonly T[],
  start = 0,
  end: number = items.length,
): S {
  for (let i = start; i < end; i++) target.push(items[i]);
  return target;
}

/**
 * The lines a fold puts out over its input: the input itself while each line put out is the
 * input's line at that place, a copy from the first that differs. A fold that changes nothing
 * holds no second array of a huge output, and one that changes late copies only what came before.
 */
export class FoldedLines implements LineSink<string> {
  readonly #input: readonly string[];
  /** The copy, made at the input's size and overwritten from the first line that differs. */
  #copy: string[] | null = null;
  /** How many lines were put out. */
  #length = 0;

  constructor(input: readonly string[]) {
    this.#input = input;
  }

  push(line: string): void {
    if (this.#copy === null) {
      if (this.#length < this.#input.length && this.#input[this.#length] === line) {
        this.#length++;
        return;
      }
      // One copy of the input's size: grown by pushes, a huge array would be held about twice
      // over while its store is reallocated.
      this.#copy = this.#input.slice();
    }
    if (this.#length < this.#copy.length) this.#copy[this.#length] = line;
    else this.#copy.push(line);
    this.#length++;
  }

  /** The lines put out: the input itself when they are all of it, as it was. */
  lines(): readonly string[] {
    if (this.#copy === null) {
      return this.#length === this.#input.length ? this.#input : this.#input.slice(0, this.#length);
    }
    this.#copy.length = this.#length;
    return this.#copy;
  }
}

/** Lines per chunk of `HeldLines`: each chunk's store is made once at this size. */
const CHUNK = 16_384;

/**
 * Lines a stage holds until it finishes, in chunks made once at their size: an array grown by
 * `push` is reallocated as it grows, and a huge one is held about twice over while its store is
 * copied (and half again of it is spare). The lines are taken out once, in order, each chunk let
 * go as soon as it is read.
 */
export class HeldLines {
  #chunks: string[][] = [];
  #last: string[] = [];
  #filled = CHUNK;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(line: string): void {
    if (this.#filled === CHUNK) {
      this.#last = new Array<string>(CHUNK);
      this.#chunks.push(this.#last);
      this.#filled = 0;
    }
    this.#last[this.#filled++] = line;
    this.#length++;
  }

  /** Lets every line go. */
  clear(): void {
    this.#chunks = [];
    this.#last = [];
    this.#filled = CHUNK;
    this.#length = 0;
  }

  /** The lines as one array made at their number; the chunks are let go as they are copied. */
  take(): string[] {
    const lines = new Array<string>(this.#length);
    let at = 0;
    this.drain((line) => void (lines[at++] = line));
    return lines;
  }

  /** Calls `fn` with each line in order; each chunk is let go once read. Nothing is held after. */
  drain(fn: (line: string) => void): void {
    const chunks = this.#chunks;
    const last = chunks.length - 1;
    const filled = this.#filled;
    this.clear();
    for (let c = 0; c <= last; c++) {
      const chunk = chunks[c];
      chunks[c] = [];
      const end = c === last ? filled : CHUNK;
      for (let i = 0; i < end; i++) fn(chunk[i]);
    }
  }
}
