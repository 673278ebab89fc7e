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
