/**
 * The failure signals every cut and fold of the engine keeps, built-in and compiled once: the
 * strategies (through strategies/mod.ts) and the generic pass read the same ones.
 */
import { compilePattern } from "./regex.ts";

/**
 * Lines that look like a failure and must not silently vanish in a cut (errors, failed tests,
 * panics, tracebacks).
 */
export const FAILURE_SIGNAL = compilePattern(
  "(?i)(error|fail|fatal|panic|exception|traceback|segmentation fault|abort|denied|cannot |could not|not found|undefined reference|assert|backoff|oomkilled|evicted|crashloop|unhealthy)",
  "v8",
);

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
