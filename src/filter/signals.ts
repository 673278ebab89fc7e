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
 * Whether the match [start, end) stands inside a path: the word around it holds a directory
 * separator (`rules/api-errors.yml`, `example.com/errors`) or is a file name whose stem holds it
 * (`errors.yml`). Such a word names a file, not a failure.
 */
function insidePath(text: string, start: number, end: number): boolean {
  let from = start;
  while (from > 0 && PATH_CHAR.test(text[from - 1])) from--;
  let to = end;
  while (to < text.length && PATH_CHAR.test(text[to])) to++;
  // A sentence's last word (`failed.`) keeps its full stop out of the word.
  while (to > end && text[to - 1] === ".") to--;
  const word = text.slice(from, to);
  if (/[\/\\]/.test(word.slice(0, start - from)) || /[\/\\]/.test(word.slice(end - from))) {
    return true;
  }
  const dot = word.lastIndexOf(".");
  return dot >= end - from && FILE_EXTENSION.test(word.slice(dot));
}

/**
 * Lines that look like a failure and must not silently vanish in a cut (errors, failed tests,
 * panics, tracebacks). A failure word inside a path (`Checking rules/api-errors.yml`) does not
 * count: it names a file.
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

/** The leftmost failure word at or after `from` that stands outside a path. */
function searchFailure(text: string, from: number): { start: number; end: number } | null {
  for (let at = FAILURE_WORDS.search(text, from); at !== null;) {
    if (!insidePath(text, at.start, at.end)) return at;
    at = FAILURE_WORDS.search(text, at.end);
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
