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
