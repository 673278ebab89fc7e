/** Helpers the strategy files share: pattern fields with named errors, failure signals. */
import { compilePattern, type Pattern, PatternError, type RegexEngine } from "../regex.ts";
import { RuleFieldError } from "../types.ts";

/** Compiles one pattern field; a bad pattern becomes a `RuleFieldError` naming the field. */
export function patternField(source: string, field: string, engine: RegexEngine): Pattern {
  try {
    return compilePattern(source, engine);
  } catch (error) {
    if (error instanceof PatternError) throw new RuleFieldError(field, error.reason);
    throw error;
  }
}

export function patternList(sources: string[], field: string, engine: RegexEngine): Pattern[] {
  return sources.map((source, i) => patternField(source, `${field}[${i}]`, engine));
}

/**
 * A tester for "does any pattern match": one V8 alternation when every pattern runs on V8 with
 * the same flags (an alternation of linear patterns stays linear), else the patterns one by one.
 */
export function anyMatcher(patterns: Pattern[]): (line: string) => boolean {
  if (patterns.length === 0) return () => false;
  if (patterns.length === 1) return (line) => patterns[0].test(line);
  const forms = patterns.map((p) => p.v8);
  if (forms.every((f) => f && f.flags === forms[0]!.flags)) {
    const re = new RegExp(forms.map((f) => `(?:${f!.bare})`).join("|"), forms[0]!.flags);
    return (line) => re.test(line);
  }
  return (line) => patterns.some((p) => p.test(line));
}

/**
 * Lines that look like a failure and must not silently vanish in a cut (errors, failed tests,
 * panics, tracebacks).
 */
export const FAILURE_SIGNAL = patternField(
  "(?i)(error|fail|fatal|panic|exception|traceback|segmentation fault|abort|denied|cannot |could not|not found|undefined reference|assert|backoff|oomkilled|evicted|crashloop|unhealthy)",
  "failure_signal",
  "v8",
);

/** `"... (12 lines omitted) ..."` */
export function omitted(n: number): string {
  return `... (${n} line${n === 1 ? "" : "s"} omitted) ...`;
}
