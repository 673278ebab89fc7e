/**
 * The security pass, over the output before any rule ran. Two jobs:
 * 1. Credential-shaped strings (the shapes of src/secrets/mod.ts: cloud keys, tokens, private
 *    keys, JWTs, passwords in URLs) add a warning naming the kind and count, never the value.
 *    Nothing is redacted here.
 * 2. Lines carrying security signals (panics, auth failures, permission denied, advisories,
 *    segfaults) that the filters removed are appended, so no rule can hide them.
 * A credential pattern runs only on the lines holding one of its hints (`includes` first).
 */
import { SECRET_SHAPES } from "../secrets/mod.ts";
import { compilePattern, type Pattern, PatternError, v8Form } from "./regex.ts";
import { sanitizeLine } from "./sanitize.ts";

interface CredentialKind {
  kind: string;
  hints: readonly string[];
  pattern: Pattern;
  /** A match whose last word this matches is a placeholder, not counted (SecretShape). */
  placeholder?: RegExp;
}

/**
 * The shapes on V8 where it is provably linear on them; the JWT's three unbounded segments
 * cannot be proven so and run on re2js.
 */
const CREDENTIAL_KINDS: CredentialKind[] = SECRET_SHAPES.map((
  { kind, hints, pattern, placeholder },
) => ({
  kind,
  hints,
  pattern: compilePattern(pattern, v8Form(pattern) ? "v8" : "re2"),
  ...(placeholder === undefined ? {} : { placeholder: new RegExp(placeholder) }),
}));
const ANTHROPIC = CREDENTIAL_KINDS.findIndex((k) => k.kind === "Anthropic API key");
const OPENAI = CREDENTIAL_KINDS.findIndex((k) => k.kind === "OpenAI API key");

const MAX_PRESERVED = 20;

/** Past this many hint occurrences one regex scan of the whole text is cheaper than per line. */
const MAX_LINE_CHECKS = 2000;

/**
 * Counts the lines of `text` holding a match of `pattern`, running it only on the lines holding
 * one of `hints`. The same count as over the whole text: no credential pattern matches across a
 * newline (every class excludes it).
 */
function countNearHints(
  text: string,
  hints: readonly string[],
  pattern: Pattern,
  placeholder?: RegExp,
): number {
  const count = placeholder
    ? (lines: string) =>
      lines.split("\n").filter((l) => credentialIn(l, pattern, placeholder)).length
    : (lines: string) => pattern.countLines(lines);
  const starts: number[] = [];
  for (const hint of hints) {
    let at = text.indexOf(hint);
    while (at >= 0) {
      if (starts.length >= MAX_LINE_CHECKS) return count(text);
      starts.push(text.lastIndexOf("\n", at) + 1);
      const end = text.indexOf("\n", at);
      if (end < 0) break;
      at = text.indexOf(hint, end + 1);
    }
  }
  if (hints.length > 1) starts.sort((a, b) => a - b);
  let n = 0;
  let previous = -1;
  for (const start of starts) {
    if (start === previous) continue;
    previous = start;
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    n += count(text.slice(start, end));
  }
  return n;
}

/** Whether `line` holds a match of `pattern` whose last word is not a placeholder. */
function credentialIn(line: string, pattern: Pattern, placeholder: RegExp): boolean {
  for (let m = pattern.search(line, 0); m && m.end > m.start; m = pattern.search(line, m.end)) {
    if (!placeholder.test(line.slice(m.start, m.end).split(" ").at(-1)!)) return true;
  }
  return false;
}

const HINTS = [...new Set(CREDENTIAL_KINDS.flatMap((k) => k.hints))];
const HINT_SEARCH = new RegExp(
  HINTS.map((hint) => hint.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")).join("|"),
  "g",
);

/**
 * The hints occurring in a text, in one scan (one `includes` per hint reads the text once per
 * hint). A match is looked at for every hint starting there and the scan resumes one character
 * on, so overlapping hints (`sk-ant-`, `sk-`) are all seen.
 */
function hintsIn(text: string): Set<string> {
  const found = new Set<string>();
  HINT_SEARCH.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (found.size < HINTS.length && (m = HINT_SEARCH.exec(text)) !== null) {
    for (const hint of HINTS) if (text.startsWith(hint, m.index)) found.add(hint);
    HINT_SEARCH.lastIndex = m.index + 1;
  }
  return found;
}

export interface SecurityOptions {
  /** Extra credential regexes (RE2 syntax) from `[tools.filters.security] extra_patterns`. */
  extraPatterns?: Pattern[];
}

/** Compiles user extra patterns (on re2js); invalid ones are skipped with a warning each. */
export function compileExtraPatterns(
  sources: string[],
): { patterns: Pattern[]; warnings: string[] } {
  const patterns: Pattern[] = [];
  const warnings: string[] = [];
  sources.forEach((source, i) => {
    try {
      patterns.push(compilePattern(source));
    } catch (error) {
      const reason = error instanceof PatternError ? error.reason : String(error);
      warnings.push(
        `[tools.filters.security] extra_patterns[${i}] skipped: ${reason}. Fix or remove the pattern.`,
      );
    }
  });
  return { patterns, warnings };
}

const SIGNAL_SOURCE =
  "panicked at|^panic: |[Ss]egmentation fault|SIGSEGV|[Cc]ore dumped|[Ss]tack overflow|" +
  "[Aa]uthentication failed|AUTHENTICATION FAILED|[Uu]nauthorized|UNAUTHORIZED|" +
  "[Pp]ermission denied|PERMISSION DENIED|[Aa]ccess denied|ACCESS DENIED|" +
  // HTTP 403 and Kubernetes RBAC ("pods is forbidden: User …"), not a lint rule's wording
  // ("Forbidden non-null assertion").
  "\\b403 [Ff]orbidden|[Ff]orbidden \\(403\\)|\\bis forbidden: |^[Ff]orbidden$|^Error: [Ff]orbidden\\b|FORBIDDEN|" +
  "[Ii]nvalid credentials|RUSTSEC-\\d{4}-\\d{4}|GHSA-[0-9a-z]{4}-|CVE-\\d{4}-\\d{4}|" +
  "[Ss]ecurity advisory|[Vv]ulnerabilit|VULNERABILIT|[Ww]eak cipher|[Ii]nsecure hash|" +
  "[Cc]ertificate verify failed|SQL injection";
/** A security signal, tested on one line (`m`: `^`/`$` also at a `\r` inside it, as over the text). */
const SIGNAL = new RegExp(SIGNAL_SOURCE, "m");
/**
 * The lines that may hold a signal: SIGNAL's alternatives without their anchors (`^`, `\b`, `$`)
 * and a leading case class (`[Ff]orbidden` → `orbidden`), and without the ones containing
 * another that is plain text (`403 [Ff]orbidden` holds `orbidden`). Each still matches wherever
 * its original did, so every line SIGNAL matches is found; on plain text V8 skips ahead instead
 * of trying every position.
 */
const SIGNAL_CANDIDATE = (() => {
  const alts = SIGNAL_SOURCE.split("|").map((alt) =>
    alt.replace(/^\^|^\\b|\$$|\\b$/g, "").replace(/^\[([A-Za-z])([A-Za-z])\]/, "")
  );
  const plain = alts.filter((alt) => /^[\w :-]+$/.test(alt));
  const needed = alts.filter((alt) => !plain.some((p) => p !== alt && alt.includes(p)));
  return new RegExp([...new Set(needed)].join("|"), "g");
})();

/**
 * A JSON member holding text people wrote (an issue's or pull request's title and description, a
 * comment, a commit message in `gh`/`glab -F json` listings): a crash or an advisory quoted there
 * is not an event of this run.
 */
const PROSE_KEY =
  /"(title|body|description|summary|notes?|comment|messageHeadline|messageBody)"\s*:\s*"/g;

/**
 * `line` with the values of its prose members emptied. The value is scanned by hand, not by a
 * regex repeating a group per character: V8 keeps a backtracking entry per turn, which
 * overflows its stack on a value of a few million characters. An unterminated value (or an
 * escaped line break) ends the scan, as a regex would not match it either.
 */
function withoutProse(line: string): string {
  if (!line.includes('"')) return line;
  let out = "";
  let last = 0;
  PROSE_KEY.lastIndex = 0;
  for (let m = PROSE_KEY.exec(line); m; m = PROSE_KEY.exec(line)) {
    const end = stringEnd(line, PROSE_KEY.lastIndex);
    if (end === -1) break;
    out += `${line.slice(last, m.index)}"${m[1]}": ""`;
    last = PROSE_KEY.lastIndex = end + 1;
  }
  return last === 0 ? line : out + line.slice(last);
}

/** Where the JSON string starting at `from` (after its opening quote) closes, or -1. */
function stringEnd(line: string, from: number): number {
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22) return i;
    if (c !== 0x5c) continue;
    const next = line.charCodeAt(++i);
    // `.` after a backslash: any character but a line terminator.
    if (
      Number.isNaN(next) || next === 0x0a || next === 0x0d || next === 0x2028 || next === 0x2029
    ) {
      return -1;
    }
  }
  return -1;
}

/**
 * Scans an output and reports what it saw. Memory is bounded: at most 20 signal lines are kept.
 * Counts add up over calls; `found` lists the credential kinds in SECRET_SHAPES order, then the
 * extra patterns.
 */
export class SecurityScanner {
  readonly found = new Map<string, number>();
  readonly signalLines: string[] = [];
  /** Where each signal line's first signal starts. */
  #signalAt: number[] = [];
  signalCount = 0;
  #counts = new Array<number>(CREDENTIAL_KINDS.length).fill(0);
  #extraCounts: number[];
  #extra: Pattern[];

  constructor(options: SecurityOptions = {}) {
    this.#extra = options.extraPatterns ?? [];
    this.#extraCounts = this.#extra.map(() => 0);
  }

  /** Credentials, signals and the extra patterns over one text (a whole output). */
  scan(text: string): void {
    this.scanCredentials(text);
    this.#extra.forEach((pattern, i) => this.#extraCounts[i] += pattern.countLines(text));
    this.#scanSignals(text);
    this.#publish();
  }

  /**
   * The built-in credential kinds only, over lines shown as they are (the engine's notices: the
   * tool's `[exit code 2]` and a program's own last line that reads as one). Not the signals (the
   * lines are in the output anyway) nor the extra patterns (a user's pattern may match the tool's
   * own wording, `[timeout] command timed out …`, on every call).
   */
  scanCredentials(text: string): void {
    const present = hintsIn(text);
    const holds = (hint: string) => present.has(hint);
    const counts = CREDENTIAL_KINDS.map(({ hints, pattern, placeholder }) => {
      const present = hints.filter(holds);
      return present.length ? countNearHints(text, present, pattern, placeholder) : 0;
    });
    // Every "sk-ant-" key also matches the OpenAI shape; count it once, as Anthropic.
    if (counts[OPENAI]) counts[OPENAI] -= counts[ANTHROPIC];
    counts.forEach((n, k) => this.#counts[k] += n);
    this.#publish();
  }

  #scanSignals(text: string): void {
    SIGNAL_CANDIDATE.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = SIGNAL_CANDIDATE.exec(text)) !== null) {
      const start = text.lastIndexOf("\n", m.index) + 1;
      let end = text.indexOf("\n", m.index);
      if (end < 0) end = text.length;
      SIGNAL_CANDIDATE.lastIndex = end;
      const line = text.slice(start, end);
      if (SIGNAL.test(line) && SIGNAL.test(withoutProse(line))) this.#signal(line);
    }
  }

  /** One signal line (raw, before sanitising). */
  #signal(raw: string): void {
    // "found 0 vulnerabilities" (npm audit after every install) reports the absence of one.
    if (/\b0 vulnerabilit/i.test(raw)) return;
    this.signalCount++;
    if (this.signalLines.length >= MAX_PRESERVED) return;
    const line = sanitizeLine(raw).replace(/^\[stderr\] /, "");
    if (this.signalLines.includes(line)) return;
    this.signalLines.push(line);
    this.#signalAt.push(SIGNAL.exec(line)?.index ?? 0);
  }

  /**
   * Whether a filter kept signal line `i` without a `prefix:` the layout says once for several
   * lines (`grep -rn`'s path above its `12:text` lines): the rest, from its line number on and
   * holding the signal, is a whole line of the output.
   */
  #keptWithoutPrefix(i: number, lines: Set<string>): boolean {
    const line = this.signalLines[i];
    for (let p = line.indexOf(":"); p >= 0 && p < this.#signalAt[i]; p = line.indexOf(":", p + 1)) {
      if (/\d/.test(line[p + 1] ?? "") && lines.has(line.slice(p + 1).trim())) return true;
    }
    return false;
  }

  /** `found` from the counts (the same order whatever call a kind was first seen in). */
  #publish(): void {
    this.found.clear();
    this.#counts.forEach((n, k) => {
      if (n > 0) this.found.set(CREDENTIAL_KINDS[k].kind, n);
    });
    this.#extraCounts.forEach((n, i) => {
      if (n > 0) this.found.set(`extra pattern #${i + 1}`, n);
    });
  }

  /** What to append to the filtered text: removed signal lines, then the credential warning. */
  appendix(filtered: string): string[] {
    const out: string[] = [];
    let lines: Set<string> | undefined;
    const missing = this.signalLines.filter((line, i) =>
      !filtered.includes(line.trim()) &&
      !this.#keptWithoutPrefix(i, lines ??= new Set(filtered.split("\n").map((l) => l.trim())))
    );
    if (missing.length) {
      out.push("", "--- Security-relevant lines (preserved) ---", ...missing);
      const more = this.signalCount - this.signalLines.length;
      if (more > 0) out.push(`... (${more} more)`);
    }
    if (this.found.size) {
      const kinds = [...this.found].map(([kind, n]) => (n > 1 ? `${kind} x${n}` : kind));
      out.push(
        "",
        `[security] The output contains credential-shaped strings (${
          kinds.join(", ")
        }). They were not removed: do not repeat, store or send them anywhere.`,
      );
    }
    return out;
  }
}
