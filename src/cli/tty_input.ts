/**
 * The interactive prompt's keyboard input on a TTY, between the terminal and node:readline:
 * - bracketed paste: a paste arrives as one edit, its line breaks shown as "␤" and turned back
 *   into newlines when the line is submitted (one paste, one prompt);
 * - keys typed while a turn runs (no prompt is waiting) are discarded, except Ctrl-C, which
 *   still cancels the turn; the caller says how many were dropped before the next prompt.
 */
import type { Readable } from "node:stream";

/** Stands for a pasted line break inside the prompt line. */
export const PASTED_NEWLINE = "\u2424";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** Bracketed paste mode on/off (xterm; terminals without it ignore the sequence). */
export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";

/** Rewrites raw terminal input: paste brackets, discarding while busy. */
export class KeyFilter {
  #inPaste = false;
  /** True while a turn runs: keys are dropped. */
  busy = false;
  /** Keys dropped since the last `takeDiscarded()`. */
  #discarded = 0;

  /** The text readline should see for one chunk of raw input. */
  apply(chunk: string): string {
    let out = "";
    let i = 0;
    while (i < chunk.length) {
      if (chunk.startsWith(PASTE_START, i)) {
        this.#inPaste = true;
        i += PASTE_START.length;
        continue;
      }
      if (chunk.startsWith(PASTE_END, i)) {
        this.#inPaste = false;
        i += PASTE_END.length;
        continue;
      }
      const ch = chunk[i];
      i++;
      if (this.busy) {
        // Ctrl-C still reaches readline (it cancels the turn); everything else is dropped.
        if (ch === "\x03") out += ch;
        else if (ch !== "\x1b" && ch >= " ") this.#discarded++;
        else if (ch === "\r") this.#discarded++;
        continue;
      }
      if (this.#inPaste && (ch === "\r" || ch === "\n")) {
        if (ch === "\r" && chunk[i] === "\n") i++;
        out += PASTED_NEWLINE;
        continue;
      }
      out += ch;
    }
    return out;
  }

  /** How many keys were dropped since the last call. */
  takeDiscarded(): number {
    const n = this.#discarded;
    this.#discarded = 0;
    return n;
  }
}

/** A line as submitted: pasted line breaks become newlines again. */
export function restoreNewlines(line: string): string {
  return line.replaceAll(PASTED_NEWLINE, "\n");
}

/**
 * A stream for readline that carries `stdin` through `filter`, and sets raw mode on the real
 * terminal when readline asks for it.
 */
export async function filteredInput(
  stdin: Readable & { setRawMode?(mode: boolean): unknown },
  filter: KeyFilter,
): Promise<Readable> {
  const { PassThrough } = await import("node:stream");
  const through = new PassThrough({ encoding: "utf8" });
  Object.assign(through, {
    isTTY: true,
    setRawMode: (mode: boolean) => stdin.setRawMode?.(mode),
  });
  stdin.setEncoding("utf8");
  stdin.on("data", (chunk: string) => {
    const text = filter.apply(chunk);
    if (text) through.write(text);
  });
  stdin.on("end", () => through.end());
  return through;
}
