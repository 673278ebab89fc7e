/**
 * The failure signals every cut and fold of the engine keeps, built-in and compiled once: the
 * strategies (through strategies/mod.ts) and the generic pass read the same ones.
 */
import { compilePattern, type Pattern } from "./regex.ts";

/** The words of a failure, wherever they stand (`FAILURE_SIGNAL` skips those inside a path). */
const FAILURE_WORDS = compilePattern(
  "(?i)(error|fail|fatal|panic|exception|traceback|segmentation fault|abort|denied|cannot |could not|not found|undefined reference|assert|backoff|oomkilled|evicted|crashloop|unhealthy)",
  "v8",
);

/** A character of a path word: a file name's, a directory separator. */
const PATH_CHAR = /[\w.@+~\/\\-]/;
/**
 * A file name's extension, lowercase (`.yml`, `.test.ts`): a word ending in one is a file, where
 * `assert.equal` and `java.lang.AssertionError` are code.
 */
const FILE_EXTENSION =
  /\.(?:ya?ml|json|toml|ini|conf|cfg|env|xml|html?|css|s[ac]ss|md|rst|txt|log|csv|sql|tf|proto|lock|tmpl|j2|service|py|pyi|[cm]?[jt]sx?|go|rs|rb|java|kt|scala|c|h|cc|cpp|hpp|cs|php|sh|bash|lua|pl|pm|exs?|erl|hs|ml|swift|zig|nim|r)$/;

/**
 * Where the path around the match [start, end) ends, when the match stands inside one: the word
 * around it holds a directory separator (`rules/api-errors.yml`, `example.com/errors`) or is a
 * file name whose stem holds it (`errors.yml`). Such a word names a file, not a failure. Null
 * when the match stands outside a path.
 */
function pathEnd(text: string, start: number, end: number): number | null {
  let from = start;
  while (from > 0 && PATH_CHAR.test(text[from - 1])) from--;
  let to = end;
  while (to < text.length && PATH_CHAR.test(text[to])) to++;
  // A sentence's last word (`failed.`) keeps its full stop out of the word.
  while (to > end && text[to - 1] === ".") to--;
  const word = text.slice(from, to);
  if (/[\/\\]/.test(word.slice(0, start - from)) || /[\/\\]/.test(word.slice(end - from))) {
    return to;
  }
  const dot = word.lastIndexOf(".");
  return dot >= end - from && FILE_EXTENSION.test(word.slice(dot)) ? to : null;
}

/**
 * Lines that look like a failure and must not silently vanish in a cut (errors, failed tests,
 * panics, tracebacks). A failure word inside a path (`Checking rules/api-errors.yml`) does not
 * count: it names a file; nor does one inside an option's or a setting's name (`-Werror`,
 * `ON_ERROR_STOP=1`): it names a behaviour.
 */
export const FAILURE_SIGNAL: Pattern = {
  source: FAILURE_WORDS.source,
  engine: FAILURE_WORDS.engine,
  // Every match of the words, paths' too: a caller that combines it confirms with `test`.
  v8: FAILURE_WORDS.v8,
  test: (text) => FAILURE_WORDS.test(text) && searchFailure(text, 0) !== null,
  exec(text) {
    const at = searchFailure(text, 0);
    if (at === null) return null;
    const whole = text.slice(at.start, at.end);
    return { group: (which) => which === 0 || which === 1 ? whole : undefined };
  },
  countLines: (text) => text.split("\n").filter((line) => FAILURE_SIGNAL.test(line)).length,
  search: (text, from) => searchFailure(text, from),
};

/** A character of an option's or a setting's name. */
const NAME_CHAR = /[\w-]/;
/** Where an option word starts: after a space, a quote or a bracket, as an argument of a command. */
const BEFORE_OPTION = /[\s'"(\[]/;
/** A command-line option's name, up to its value: `-Werror`, `--no-fail-fast`. */
const OPTION = /^--?[A-Za-z][\w-]*$/;
/** An upper-case setting's name, before its `=`: `ON_ERROR_STOP`, `FAIL_FAST`. */
const SETTING = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/**
 * Where the name around the match [start, end) ends, when the match stands inside the name of a
 * command-line option given as an argument (`-Werror`, `--no-fail-fast`,
 * `--abort-on-container-exit`) or of an upper-case setting given a value (`-v ON_ERROR_STOP=1`,
 * `FAIL_FAST=true`): a behaviour a command asks for, which a trace (`bash -x`, make's echo)
 * prints with every command it runs, not a failure. A line that starts with the dash (a diff's
 * removed line) is no argument. Null when the match stands outside such a name.
 */
function optionEnd(text: string, start: number, end: number): number | null {
  let from = start;
  while (from > 0 && NAME_CHAR.test(text[from - 1])) from--;
  let to = end;
  while (to < text.length && NAME_CHAR.test(text[to])) to++;
  const name = text.slice(from, to);
  if (from > 0 && BEFORE_OPTION.test(text[from - 1]) && OPTION.test(name)) return to;
  return text[to] === "=" && SETTING.test(name) ? to : null;
}

/**
 * The leftmost failure word at or after `from` that stands outside a path, an option or a setting.
 * A word that holds one such match holds no other outside it: the search goes on past its end, so a
 * word of many matches is read once.
 */
function searchFailure(text: string, from: number): { start: number; end: number } | null {
  for (let at = FAILURE_WORDS.search(text, from); at !== null;) {
    const past = pathEnd(text, at.start, at.end) ?? optionEnd(text, at.start, at.end);
    if (past === null) return at;
    // A match with a space in it (`could not`) spans two words: the next may stand outside.
    const next = /\s/.test(text.slice(at.start, at.end)) ? at.end : Math.max(at.end, past);
    at = FAILURE_WORDS.search(text, next);
  }
  return null;
}

/**
 * A source location: `name.ext:12` (`:12:5`, `(src/a.ts:12:5)`, `a.rs:3`), `name.ext(12,5)`
 * (tsc, MSBuild) and Python's `"a.py", line 12`.
 */
export const LOCATION = compilePattern(
  '\\w\\.[A-Za-z][\\w]{0,9}(?::\\d{1,7}\\b|\\(\\d{1,7},\\d{1,7}\\))|\\.\\w{1,10}", line \\d',
  "v8",
);

/** A failure-looking line or one naming a source location. */
export function carriesFailure(line: string): boolean {
  return FAILURE_SIGNAL.test(line) || LOCATION.test(line);
}

/**
 * What a C compiler prints after its diagnostics: clang's `fatal error: too many errors emitted,
 * stopping now [-ferror-limit=]` and `3 errors generated.`, gcc's `compilation terminated.`
 * (`… due to -fmax-errors=5.`). It ends the diagnostics above it and stays with them; a `fatal
 * error:` at the start of a line under a build's diagnostics is the compiler's, not a runtime's.
 */
export const COMPILER_TRAILER =
  /^(?:fatal error: \S.{0,300}|\d{1,9} (?:warnings?|errors?)(?: and \d{1,9} errors?)? generated\.|compilation terminated(?: due to -f[\w-]{1,40}=\d{1,9})?\.)$/;
