/**
 * Terminal column arithmetic for lines zeph redraws in place (spinner, status): how many columns
 * a string takes (wide CJK and emoji count two, combining marks and ANSI escapes none) and the
 * cut that fits a line into the terminal. A redrawn line that wraps cannot be cleared with one
 * `\r\x1b[2K`, so every such line goes through `fitLine`.
 */

// deno-lint-ignore no-control-regex -- ANSI escape sequences are what this matches
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/y;

/** Columns one code point takes: 0, 1 or 2 (a compact wcwidth). */
export function codePointWidth(cp: number): number {
  if (cp === 0 || cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  // Combining marks, zero-width joiners/spaces, variation selectors.
  if (
    (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x483 && cp <= 0x489) ||
    (cp >= 0x591 && cp <= 0x5bd) || (cp >= 0x610 && cp <= 0x61a) ||
    (cp >= 0x64b && cp <= 0x65f) || (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xfe20 && cp <= 0xfe2f) || (cp >= 0xe0100 && cp <= 0xe01ef)
  ) return 0;
  // East Asian Wide/Fullwidth and emoji presentation blocks.
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x231a && cp <= 0x231b) ||
    (cp >= 0x23e9 && cp <= 0x23ec) || cp === 0x23f0 || cp === 0x23f3 ||
    (cp >= 0x25fd && cp <= 0x25fe) || (cp >= 0x2614 && cp <= 0x2615) ||
    (cp >= 0x2648 && cp <= 0x2653) || cp === 0x267f || cp === 0x2693 || cp === 0x26a1 ||
    (cp >= 0x26aa && cp <= 0x26ab) || (cp >= 0x26bd && cp <= 0x26be) ||
    (cp >= 0x26c4 && cp <= 0x26c5) || cp === 0x26ce || cp === 0x26d4 || cp === 0x26ea ||
    (cp >= 0x26f2 && cp <= 0x26f3) || cp === 0x26f5 || cp === 0x26fa || cp === 0x26fd ||
    cp === 0x2705 || (cp >= 0x270a && cp <= 0x270b) || cp === 0x2728 || cp === 0x274c ||
    cp === 0x274e || (cp >= 0x2753 && cp <= 0x2755) || cp === 0x2757 ||
    (cp >= 0x2795 && cp <= 0x2797) || cp === 0x27b0 || cp === 0x27bf ||
    (cp >= 0x2b1b && cp <= 0x2b1c) || cp === 0x2b50 || cp === 0x2b55 ||
    (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) || (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe10 && cp <= 0xfe19) || (cp >= 0xfe30 && cp <= 0xfe6f) ||
    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f004 && cp <= 0x1f004) || cp === 0x1f0cf || cp === 0x1f18e ||
    (cp >= 0x1f191 && cp <= 0x1f19a) || (cp >= 0x1f200 && cp <= 0x1f251) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f680 && cp <= 0x1f6ff) ||
    (cp >= 0x1f7e0 && cp <= 0x1f7eb) || (cp >= 0x1f90c && cp <= 0x1f9ff) ||
    (cp >= 0x1fa70 && cp <= 0x1faff) || (cp >= 0x20000 && cp <= 0x3fffd)
  ) return 2;
  return 1;
}

/** Columns `text` takes on a terminal; ANSI escapes take none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const piece of pieces(text)) if (!piece.escape) width += piece.width;
  return width;
}

/**
 * `text` cut to at most `columns` columns, with "…" where it was cut; escapes are kept (so
 * colours still end with their reset) and a wide character is never split.
 */
export function fitLine(text: string, columns: number): string {
  if (columns <= 0) return "";
  if (displayWidth(text) <= columns) return text;
  let out = "";
  let width = 0;
  let cut = false;
  for (const piece of pieces(text)) {
    if (piece.escape) {
      out += piece.text;
      continue;
    }
    if (cut) continue;
    if (width + piece.width > columns - 1) {
      out += "…";
      cut = true;
      continue;
    }
    out += piece.text;
    width += piece.width;
  }
  return out;
}

/**
 * One line for a status display from untrusted text (a command's output): newlines and tabs as
 * spaces, escape sequences and other control characters dropped, so it cannot move the cursor.
 */
export function flatten(text: string): string {
  const noEscapes = text.replace(new RegExp(ANSI.source, "g"), "");
  // deno-lint-ignore no-control-regex -- dropping control characters is the point
  const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
  return noEscapes.replace(/\s*\n\s*/g, " ⏎ ").replace(/\t/g, " ").replace(controls, "");
}

interface Piece {
  text: string;
  width: number;
  escape: boolean;
}

function* pieces(text: string): Generator<Piece> {
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) === 0x1b) {
      ANSI.lastIndex = i;
      const m = ANSI.exec(text);
      if (m) {
        yield { text: m[0], width: 0, escape: true };
        i += m[0].length;
        continue;
      }
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    yield { text: ch, width: codePointWidth(cp), escape: false };
    i += ch.length;
  }
}
