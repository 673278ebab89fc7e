/**
 * The characters progress bars and spinners are drawn with, written once for every pass that
 * tells progress from text: sanitize (is a `\r` redraw progress?) and the generic pass (is a line
 * a progress bar or a spinner frame?). Each is the body of a regex character class.
 */

/** Bar characters: block and shade cells, heavy rules, and the ASCII `#`, `=`, `>` of `[===>  ]`. */
export const BAR_CHARS = "█▓▒░■━#=>";
/** Spinner frames: every braille pattern (`⠋`, `⣾`) and the quarter circles (`◐`, `◴`). */
export const SPINNER_CHARS = "⠁-⣿◐◓◑◒◴◷◶◵";
